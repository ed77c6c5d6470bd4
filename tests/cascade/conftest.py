"""Fixtures of the cascade tests."""

import numpy as np
import pytest
from cascade_helpers import RecordingForest


@pytest.fixture
def record():
    """The recording member class, its log emptied and its row-id rule reset around the test."""
    RecordingForest.log.clear()
    yield RecordingForest
    RecordingForest.log.clear()
    RecordingForest.id_of = staticmethod(lambda X: X[:, 0].astype(np.int64))

"""Block means (WDF's SEMG read as Table 1's 500 features)."""

import numpy as np
import pytest

from forestrepro.data.blocks import block_means, check_block_mean
from forestrepro.data.errors import DatasetError


def test_block_means_by_hand():
    X = np.array([[1, 2, 3, 4, 5, 6], [0, 0, 6, 6, 1, 2]], dtype=float)
    np.testing.assert_array_equal(block_means(X, 2), [[1.5, 3.5, 5.5], [0, 6, 1.5]])
    np.testing.assert_array_equal(block_means(X, 3), [[2, 5], [2, 3]])
    assert block_means(np.zeros((4, 3000)), 6).shape == (4, 500)


def test_a_block_that_does_not_divide_the_features_names_data_set_and_option():
    with pytest.raises(DatasetError, match="'semg'.*block_mean=7.*3000"):
        check_block_mean(3000, 7, "semg")
    check_block_mean(3000, 6, "semg")
    with pytest.raises(DatasetError, match="block_mean=7"):
        block_means(np.zeros((2, 3000)), 7)

"""Helpers of the cascade tests: small data sets and a member that records which rows it
was trained on and which rows it classified (a module of its own name, so that it is not
confused with the other test folders' ``conftest`` modules)."""

import numpy as np

from forestrepro.cascade.weighting import WeightedForestClassifier


class RecordingForest(WeightedForestClassifier):
    """A cascade member that logs the row ids it grows on and the row ids it classifies.

    The row id of an input row is ``id_of(row)``; every fitted instance is appended to
    ``RecordingForest.log``.
    """

    log = []
    id_of = staticmethod(lambda X: X[:, 0].astype(np.int64))

    def fit(self, X, y, codes=None):
        super().fit(X, y, codes)
        self.trained_ids_ = set(RecordingForest.id_of(np.asarray(X)).tolist())
        self.classified_ids_ = set()
        RecordingForest.log.append(self)
        return self

    def predict_proba(self, X):
        self.classified_ids_ |= set(RecordingForest.id_of(np.asarray(X)).tolist())
        return super().predict_proba(X)


def recording(templates):
    """The same members as ``templates``, recording."""
    return [RecordingForest(**template.get_params(deep=False)) for template in templates]


def blobs(n=150, n_features=6, n_classes=3, seed=0):
    """Gaussian classes, separable but not trivially: ``X`` float32, integer ``y``."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    centres = rng.normal(scale=1.5, size=(n_classes, n_features))
    X = centres[y] + rng.normal(size=(n, n_features))
    return X.astype(np.float32), y

"""k-nearest neighbours in a few lines of numpy: a second implementation of the BRF paper's KNN.

The BRF paper's KNN baseline (Sec. 6.1) is the textbook rule: a test row takes the class most
common among the k training rows nearest to it in Euclidean distance. Our Table 2 runs it as
scikit-learn's ``KNeighborsClassifier`` (conf/method/knn.yaml). ``NumpyKNN`` computes the same rule
with no scikit-learn neighbour code (no trees, no ``kneighbors``, no ``weighted_mode``): every
squared distance as ||a||^2 - 2 a.b + ||b||^2 (one matrix product per block of test rows), the k
smallest by a stable sort, the vote by counting.
Where it gives our KNN's number and not the paper's, our number is what KNN gives on these folds,
not an artefact of one library (conf/paper/brf.yaml, cause test ``independent_within``).

Ties, which the paper does not settle: among rows at the same distance the one earlier in the
training data is nearer (stable sort); among classes with as many votes the one listed first in
``classes_`` wins.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

# test rows per block of the distance matrix (a block holds BLOCK_ROWS x n_train float64 values)
BLOCK_ROWS = 512


class NumpyKNN(ClassifierMixin, BaseEstimator):
    """The k-nearest-neighbour rule by brute force: Euclidean distance, majority vote.

    Parameters
    ----------
    n_neighbors : int, default=5
        k, the number of nearest training rows that vote (at most the training rows).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    """

    _parameter_constraints: dict = {"n_neighbors": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, n_neighbors=5):
        self.n_neighbors = n_neighbors

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Keep the training rows and their class indices."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, self._codes = np.unique(y, return_inverse=True)
        self._X = X
        self._norms = (X**2).sum(axis=1)
        return self

    def _votes(self, X: np.ndarray) -> np.ndarray:
        """(n_rows, n_classes) votes of each row's k nearest training rows."""
        k = min(self.n_neighbors, self._X.shape[0])
        votes = np.empty((X.shape[0], len(self.classes_)), dtype=np.int64)
        for start in range(0, X.shape[0], BLOCK_ROWS):
            block = X[start : start + BLOCK_ROWS]
            distances = (block**2).sum(axis=1)[:, None] - 2.0 * block @ self._X.T + self._norms[None, :]
            nearest = np.argsort(distances, axis=1, kind="stable")[:, :k]
            codes = self._codes[nearest]  # (rows, k) class indices of the neighbours
            counted = codes[:, :, None] == np.arange(len(self.classes_))
            votes[start : start + len(block)] = counted.sum(axis=1)
        return votes

    def predict_proba(self, X):
        """The share of the k nearest training rows in each class."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        votes = self._votes(X)
        return votes / votes.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class with most votes among the k nearest training rows (ties: first in ``classes_``)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

"""``DeepForestClassifier``: multi-grained scanning, then the cascade (WDF Algorithm 1).

For high-dimensional data Algorithm 1 first replaces the training set by its scanned
features (lines 1-3, ``scanning.MultiGrainedScanner``) and grows the cascade on them
(lines 4-19, ``cascade.CascadeForestClassifier``, weighted or not).
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import HasMethods, check_params
from .forest import CascadeForestClassifier
from .scanning import MultiGrainedScanner


class DeepForestClassifier(ClassifierMixin, BaseEstimator):
    """Scanner then cascade; set their parameters as ``scanner__*`` and ``cascade__*``.

    Parameters
    ----------
    scanner : MultiGrainedScanner or None, default=None (``MultiGrainedScanner()``)
    cascade : CascadeForestClassifier or None, default=None (``CascadeForestClassifier()``)
    random_state : int, RandomState or None, default=None
        If not None, replaces the ``random_state`` of both the scanner and the cascade.

    Attributes
    ----------
    scanner_, cascade_ : the fitted scanner and cascade
    n_levels_, best_level_ : the cascade's (see ``CascadeForestClassifier``)
    classes_, n_features_in_
    """

    _parameter_constraints: dict[str, list] = {
        "scanner": [None, HasMethods(["fit_transform", "fit_transform_with_test"])],
        "cascade": [None, HasMethods(["fit", "fit_predict_proba"])],
        "random_state": ["random_state"],
    }

    def __init__(self, scanner=None, cascade=None, random_state=None):
        self.scanner = scanner
        self.cascade = cascade
        self.random_state = random_state

    def _components(self):
        check_params(self)
        scanner = clone(self.scanner if self.scanner is not None else MultiGrainedScanner())
        cascade = clone(self.cascade if self.cascade is not None else CascadeForestClassifier())
        if self.random_state is not None:
            scanner.set_params(random_state=self.random_state)
            cascade.set_params(random_state=self.random_state)
        return scanner, cascade

    def _set_fitted(self, scanner, cascade):
        self.scanner_, self.cascade_ = scanner, cascade
        self.classes_ = cascade.classes_
        self.n_levels_, self.best_level_ = cascade.n_levels_, cascade.best_level_

    def fit(self, X, y):
        """Scan ``X`` (out-of-fold features) and grow the cascade on the scanned features."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        scanner, cascade = self._components()
        cascade.fit(scanner.fit_transform(X, y), y)
        self._set_fitted(scanner, cascade)
        return self

    def fit_predict_proba(self, X, y, X_test, y_test=None):
        """Algorithm 1 on training set ``(X, y)`` and test set ``X_test``: the class
        probabilities of ``X_test`` at the best level, holding one forest at a time (see
        ``CascadeForestClassifier.fit_predict_proba``); no model is kept."""
        X, y = validate_data(self, X, y, dtype=np.float32)
        X_test = validate_data(self, X_test, reset=False, dtype=np.float32)
        scanner, cascade = self._components()
        train, test = scanner.fit_transform_with_test(X, y, X_test)
        proba = cascade.fit_predict_proba(train, y, test, y_test)
        self._set_fitted(scanner, cascade)
        return proba

    def predict_proba(self, X):
        """Class probabilities of new rows: scanned, then passed through the cascade.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to predict.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        check_is_fitted(self, "scanner_")
        X = validate_data(self, X, reset=False, dtype=np.float32)
        return self.cascade_.predict_proba(self.scanner_.transform(X))

    def predict(self, X):
        """The class of highest probability (``predict_proba``) of each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to predict.

        Returns
        -------
        y : ndarray of shape (n_samples,)
            Predicted class labels.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

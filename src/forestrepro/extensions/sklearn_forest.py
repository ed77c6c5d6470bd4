"""scikit-learn's RandomForestClassifier, unchanged, with each tree's prediction exposed.

The RCRF paper's Table 5 (Sec. 4.4) scores the diversity of a forest's trees: the kappa-error
protocol (``evaluation/kappa_error.py``) reads every tree's predicted class through
``tree_predictions``, which our forests have and scikit-learn's does not. This class adds only
that method, so that plain scikit-learn's forest (conf/method/sklearn_rf.yaml) runs under Table 5's
protocol as under Tables 2-4's (which read scikit-learn's own ``oob_decision_function_``): a
second implementation of the paper's RF, sharing no tree code with ours.
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.validation import check_is_fitted


class SklearnRandomForest(RandomForestClassifier):
    """``sklearn.ensemble.RandomForestClassifier`` with ``tree_predictions``; nothing else changes."""

    def tree_predictions(self, X) -> np.ndarray:
        """Each tree's predicted class as an index into ``classes_``, shape (n_trees, n_samples).

        scikit-learn grows a forest's trees on the class indices, so a tree's ``predict`` is
        that index (its leaf's most frequent class, ties to the lower index).
        """
        check_is_fitted(self)
        X = self._validate_X_predict(X)
        return np.array([tree.predict(X, check_input=False) for tree in self.estimators_]).astype(np.intp)

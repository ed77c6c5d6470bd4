"""RCRF, the randomization-of-classes random forest (Guan, Pang and Liang 2019, Sec. 3).

Algorithm 1, for each tree T_i: a bootstrap sample (X'_i, Y'_i) of size n; a priority class
omega_k drawn "from all classes {omega_1, ..., omega_c}"; the binary labels
``y^k = 1[y' == omega_k]``; grow T_i by Algorithm 2.  Step 2: the majority vote of Eq. (1).

Algorithm 2, at each node: stop when the node is pure or no feature separates its samples
(the two stopping conditions after Algorithm 2), and label the leaf with the majority of the
original classes (step 2); otherwise draw m of the M features (step 3) and choose the best
split on them (step 4) by Gini (Sec. 4.3) on the binary labels ``y^k`` if the node holds
samples of omega_k, else on "the original label vector Y_i^k".

Readings, each a parameter:

- ``feature_subset``: step 3 sits inside the loop over nodes (step 5 repeats steps 2-4), and
  Algorithm 2's input is the "size m of the candidate attribute set", not a subspace, so m
  features are drawn at every node (``"per_node"``, the default, as Breiman's forest).  The
  prose of Sec. 3 draws "a new attribute subspace" once per tree: ``"per_tree"``.
  m = log2(M) (Sec. 4.3) is scikit-learn's ``max(1, int(log2 M))`` (``max_features="log2"``).
- ``priority_draw``: omega_k is drawn uniformly from all classes of the training data
  (``"all"``, Sec. 3 and Algorithm 1); a class absent from the tree's bootstrap sample then
  makes every node "without omega_k".  ``"present"`` draws from the classes of the bootstrap
  sample only.
- ``absent_class_labels``: at a node without omega_k the binary labels are all zero.
  ``"original"`` (default) reads "the original label vector" as the multi-class labels Y'_i
  (the builder's ``PriorityClassView``); ``"binary"`` takes it literally: every cut then
  scores the same and the builder keeps the first cut of the first usable drawn feature.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._validation import COUNT, StrOptions
from ..trees.estimator import PluggableTreeClassifier
from ..trees.rules.label_view import LabelView, PriorityClassView
from ._base import ALWAYS_BAGGED, BaggedForest, TreePredictionsMixin, base_arguments


@dataclass(frozen=True)
class BinaryPriorityLabels(LabelView):
    """Algorithm 2, step 4 read literally: every node is scored on ``1[y == omega]``, also
    where omega is absent and the labels are all zero."""

    omega: int

    def maps(self, n_classes):
        return (np.arange(n_classes) == self.omega).astype(np.intp)[None, :]


class PriorityClassTree(PluggableTreeClassifier):
    """A tree of Algorithm 2 whose priority class is drawn when it is fitted (Algorithm 1).

    The draw uses its own generator, ``numpy.random.default_rng(random_state)``, apart from
    the tree's bootstrap and feature draws.  ``priority_index_`` is the encoded class.
    """

    def __init__(
        self,
        split_rule="gini",
        *,
        max_features=None,
        subspace_size=None,
        priority_draw="all",
        absent_class_labels="original",
        random_state=None,
    ):
        super().__init__(
            split_rule, max_features=max_features, subspace_size=subspace_size, random_state=random_state
        )
        self.priority_draw = priority_draw
        self.absent_class_labels = absent_class_labels

    def _fit_encoded(self, X, y_encoded, sample_weight, codes=None):
        if self.priority_draw == "all":
            candidates = np.arange(len(self.classes_))
        else:
            candidates = np.unique(y_encoded[sample_weight > 0])
        self.priority_index_ = int(np.random.default_rng(self.random_state).choice(candidates))
        return super()._fit_encoded(X, y_encoded, sample_weight, codes)

    def _label_view(self):
        if self.absent_class_labels == "original":
            return PriorityClassView(self.priority_index_)
        return BinaryPriorityLabels(self.priority_index_)


class RCRFClassifier(TreePredictionsMixin, BaggedForest):
    """The RCRF forest: bagged Gini trees of Algorithm 2 with a random priority class each.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and every tree grows on a bootstrap sample of all ``n`` rows.

    Parameters
    ----------
    n_estimators : int, default=100
        L, the number of trees (Sec. 4.3).
    max_features : "log2", "sqrt", int, float or None, default="log2"
        m, the number of candidate features (scikit-learn's convention; "log2" is
        ``max(1, int(log2 M))``).
    feature_subset : {"per_node", "per_tree"}, default="per_node"
        Draw the m features at every node (Algorithm 2, step 3) or once per tree.
    priority_draw : {"all", "present"}, default="all"
        Draw omega_k from all classes (Algorithm 1) or from those in the bootstrap sample.
    absent_class_labels : {"original", "binary"}, default="original"
        Labels that score a node without omega_k: the multi-class labels, or the all-zero
        binary labels of the literal reading.

    Attributes
    ----------
    priority_classes_ : ndarray of shape (n_estimators,)
        Each tree's priority class omega_k.
    """

    _parameter_constraints: dict[str, list] = {
        **{k: v for k, v in BaggedForest._parameter_constraints.items() if k not in ALWAYS_BAGGED},
        "max_features": COUNT,
        "feature_subset": [StrOptions({"per_node", "per_tree"})],
        "priority_draw": [StrOptions({"all", "present"})],
        "absent_class_labels": [StrOptions({"original", "binary"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        max_features="log2",
        feature_subset="per_node",
        priority_draw="all",
        absent_class_labels="original",
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.max_features = max_features
        self.feature_subset = feature_subset
        self.priority_draw = priority_draw
        self.absent_class_labels = absent_class_labels

    def _make_tree(self, seed):
        per_tree = self.feature_subset == "per_tree"
        return PriorityClassTree(
            "gini",
            max_features=None if per_tree else self.max_features,
            subspace_size=self.max_features if per_tree else None,
            priority_draw=self.priority_draw,
            absent_class_labels=self.absent_class_labels,
            random_state=seed,
        )

    @property
    def priority_classes_(self):
        check_is_fitted(self)
        return self.classes_[[tree.priority_index_ for tree in self.estimators_]]

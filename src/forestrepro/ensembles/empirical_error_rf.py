"""The greedy forest of the BRF paper's inconsistency example (Sun et al. 2018, Sec. 5.2,
after Biau, Devroye and Lugosi 2008): Breiman's random forest with every node "split by
minimizing the empirical probability error", each tree "grown until every tree node cell
contains just one data point".

``EmpiricalErrorForestClassifier``: bagged trees (bootstrap samples of size ``n``),
``max_features`` split directions drawn at random at each node (Breiman's ``mtry``; "log2"
gives one direction for two features, the random split direction of the example), the
threshold of fewest misclassified training points among them
(``forestrepro.trees.rules.empirical_error``, ties drawn uniformly), nodes cut until pure
(a pure node is a leaf; a node of one distinct point cannot be cut), majority vote.
"""

from __future__ import annotations

from .._validation import COUNT, at_least
from ..trees.estimator import PluggableTreeClassifier
from ..trees.rules.empirical_error import EmpiricalError
from ._base import BaggedForest, base_arguments


class EmpiricalErrorForestClassifier(BaggedForest):
    """Bagged greedy empirical-error trees, fully grown, majority vote.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote).

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    max_features : None, "sqrt", "log2", int or float, default="log2"
        Split directions drawn per node (scikit-learn's convention; at least 1).
    min_samples_split : int, default=2
        The default grows every tree to pure leaves.
    max_leaf_nodes : int or None, default=None
        A leaf budget ``k`` (breadth-first growth stops at ``k`` leaves), the ``k_n`` of the
        greedy example in Devroye, Gyorfi and Lugosi (1996) and Biau et al. (2008); None:
        fully grown trees, as the BRF paper states it.
    """

    _parameter_constraints: dict[str, list] = {
        **BaggedForest._parameter_constraints,
        "max_features": COUNT,
        "min_samples_split": [at_least(2)],
        "max_leaf_nodes": [None, at_least(2)],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        max_features="log2",
        min_samples_split=2,
        max_leaf_nodes=None,
        bootstrap=True,
        max_samples=None,
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.max_features = max_features
        self.min_samples_split = min_samples_split
        self.max_leaf_nodes = max_leaf_nodes

    def _make_tree(self, seed):
        return PluggableTreeClassifier(
            EmpiricalError(),
            max_features=self.max_features,
            min_samples_split=self.min_samples_split,
            max_leaf_nodes=self.max_leaf_nodes,
            random_state=seed,
        )

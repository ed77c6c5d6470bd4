"""``PluggableForestClassifier``: bagging of ``PluggableTreeClassifier`` trees with any split rule.

The bagging itself (seeds, bootstrap samples, threads, out-of-bag scores, voting) is
``ensembles._base.BaggedForest``'s; this forest hands every tree parameter to its trees.
"""

from __future__ import annotations

from .._validation import COUNT, StrOptions
from ..trees.estimator import PluggableTreeClassifier
from ..trees.rules.base import SplitRule
from ._base import STOPPING_CONSTRAINTS, BaggedForest, base_arguments

_TREE_PARAMS = (
    "split_rule",
    "max_depth",
    "min_samples_split",
    "max_leaf_nodes",
    "max_error_fraction",
    "max_features",
    "subspace_size",
    "root_cell",
)


class PluggableForestClassifier(BaggedForest):
    """A forest of pluggable trees.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest], and ``max_depth``,
    ``min_samples_split``, ``max_leaf_nodes`` and ``max_error_fraction`` are the trees'
    stopping rules (``forestrepro.trees.StoppingRules``).

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    split_rule : str or SplitRule, default="gini"
        The trees' split rule (see ``PluggableTreeClassifier``).
    max_features : None, "sqrt", "log2", int or float, default="sqrt"
        Features drawn per node, out of the tree's feature pool.
    subspace_size : None, "sqrt", "log2", int or float, default=None
        Size of the random subspace of features drawn once per tree; None keeps every feature.
    root_cell : {"data", "unit"}, default="data"
        The root cell: the training data range, or ``[0, 1]**d`` for scaled data.
    """

    _parameter_constraints: dict[str, list] = {
        **BaggedForest._parameter_constraints,
        **STOPPING_CONSTRAINTS,
        "split_rule": [str, SplitRule],
        "max_features": COUNT,
        "subspace_size": COUNT,
        "root_cell": [StrOptions({"data", "unit"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        split_rule="gini",
        max_depth=None,
        min_samples_split=2,
        max_leaf_nodes=None,
        max_error_fraction=0.0,
        max_features="sqrt",
        subspace_size=None,
        root_cell="data",
        bootstrap=True,
        max_samples=None,
        voting="soft",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.split_rule = split_rule
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_leaf_nodes = max_leaf_nodes
        self.max_error_fraction = max_error_fraction
        self.max_features = max_features
        self.subspace_size = subspace_size
        self.root_cell = root_cell

    def _make_tree(self, seed):
        return PluggableTreeClassifier(
            **{name: getattr(self, name) for name in _TREE_PARAMS}, random_state=seed
        )

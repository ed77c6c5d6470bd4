"""Forests of the BRF paper (Sun et al. 2018) on the tree builder: BRF and PBRF
(``BanzhafForestClassifier``, Secs. 4.3, 4.5, 6.2) and the paper's RF baseline
(``GainRatioForestClassifier``, Sec. 6.1).  Biau12 and Biau12V are in ``ensembles.biau``.

Common to the paper's forests (Sec. 6.1): ``ntree = 100`` trees on bootstrap samples,
majority vote (``voting="hard"``), and ``h = round(log2(M) + C)`` features for ``M`` input
features, ``C`` chosen by 5-fold CV: ``h_offset`` is ``C`` (``h`` sets ``h`` directly, for
Fig. 4).  "round" is half up (MATLAB's ``round``), and ``h`` is clipped to ``[1, M]``.
Stopping rules (Secs. 4.2-4.3: the fraction of points outside the majority class, a
minimal number of samples, the leaf budget k_n of the consistency theorem) are the tree
builder's ``max_error_fraction``, ``min_samples_split``, ``max_leaf_nodes`` and
``max_depth``; the defaults grow trees to pure nodes.
"""

from __future__ import annotations

from numbers import Integral

from .._validation import Interval, StrOptions, at_least
from ..trees.banzhaf import INTERDEPENDENCE
from ..trees.rules.banzhaf_rule import MAX_BINS, BanzhafMidpoint
from ..trees.rules.best_threshold import BestThreshold
from ..trees.rules.c45 import C45Threshold
from ..trees.rules.midpoint import Midpoint
from ._base import PaperForest, base_arguments, paper_h

__all__ = ["BanzhafForestClassifier", "GainRatioForestClassifier", "paper_h"]


class BanzhafForestClassifier(PaperForest):
    """Banzhaf random forest (BRF, Sec. 4.3) and its variant PBRF (Sec. 6.2).

    Each tree grows on a bootstrap sample, within a random subspace of ``h`` features drawn
    once per tree; the root is cut on the feature whose midpoint cut has the best gain
    ratio (BRF) or on the feature of largest Banzhaf power index (PBRF), every other node on
    the feature of largest Banzhaf index among the subspace's features
    (``forestrepro.trees.rules.banzhaf_rule``), always at the midpoint; the forest takes the
    trees' majority vote (Sec. 4.5).

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and ``max_depth``, ``min_samples_split``, ``max_leaf_nodes`` and
    ``max_error_fraction`` are the trees' stopping rules
    (``forestrepro.trees.StoppingRules``).

    Parameters
    ----------
    n_estimators : int, default=100
        ``ntree`` (Sec. 6.1).
    variant : {"brf", "pbrf"}, default="brf"
        BRF (gain-ratio root) or PBRF (Banzhaf root).
    h_offset : float, default=0.0
        ``C`` of ``h = round(log2(M) + C)``.
    h : int or None, default=None
        The subspace size itself (overrides ``h_offset``).
    max_coalition : int or None, default=3
        Bound ``w`` on coalition size (Sec. 4.4; the paper chooses it in [3, 5] by CV);
        None: Eq. (1) over all coalitions.  With ``selection="argmax"`` it does not change
        the chosen features (``forestrepro.trees.banzhaf``).
    n_bins : int, default=2
        Equal-width bins per feature for the mutual information.
    of : {"cell", "data"}, default="cell"
        Midpoint (and bin range) of the node's cell or of its data range.
    selection : {"argmax", "sample"}, default="argmax"
        Largest index (Algorithm 1) or drawn with probability ``zeta`` (Sec. 5.1).
    root_cell : {"data", "unit"}, default="data"
        Root cell: the training data range, or ``[0, 1]**M`` for data scaled to it.
    interdependence : {"eq4", "beats_partner"}, default="eq4"
        Eq. 4 as printed, or the reading under which an informative feature has the larger
        index (``forestrepro.trees.banzhaf.count_partners``).
    node_criterion : {"banzhaf", "gain_ratio"}, default="banzhaf"
        How a node below the root chooses its feature: the Banzhaf index, or (a control
        forest, not in the paper) the gain ratio of each candidate's midpoint cut, as BRF's
        root does; everything else stays BRF's.
    feature_subset : {"per_tree", "per_node"}, default="per_tree"
        The ``h`` features drawn once per tree (Sec. 4.3) or at every node (Breiman's
        ``mtry``, an ablation).
    """

    _parameter_constraints: dict[str, list] = {
        **PaperForest._parameter_constraints,
        "variant": [StrOptions({"brf", "pbrf"})],
        "max_coalition": [None, at_least(1)],
        "n_bins": [Interval(Integral, 2, MAX_BINS, closed="both")],
        "of": [StrOptions({"cell", "data"})],
        "selection": [StrOptions({"argmax", "sample"})],
        "root_cell": [StrOptions({"data", "unit"})],
        "interdependence": [StrOptions(set(INTERDEPENDENCE))],
        "node_criterion": [StrOptions({"banzhaf", "gain_ratio"})],
        "feature_subset": [StrOptions({"per_tree", "per_node"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        variant="brf",
        h_offset=0.0,
        h=None,
        max_coalition=3,
        n_bins=2,
        of="cell",
        selection="argmax",
        root_cell="data",
        interdependence="eq4",
        node_criterion="banzhaf",
        feature_subset="per_tree",
        max_depth=None,
        min_samples_split=2,
        max_leaf_nodes=None,
        max_error_fraction=0.0,
        bootstrap=True,
        max_samples=None,
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(PaperForest, locals()))
        self.variant = variant
        self.max_coalition = max_coalition
        self.n_bins = n_bins
        self.of = of
        self.selection = selection
        self.root_cell = root_cell
        self.interdependence = interdependence
        self.node_criterion = node_criterion
        self.feature_subset = feature_subset

    def _check_params(self):
        super()._check_params()
        if self.node_criterion == "gain_ratio":
            if self.variant == "pbrf":
                raise ValueError(
                    "node_criterion='gain_ratio' chooses every node by the gain ratio, so there is no Banzhaf "
                    "root for variant='pbrf'; use variant='brf'"
                )
            self._rule = Midpoint(score="gain_ratio", of=self.of)
            return
        self._rule = BanzhafMidpoint(
            root="banzhaf" if self.variant == "pbrf" else "gain_ratio",
            of=self.of,
            n_bins=self.n_bins,
            max_coalition=self.max_coalition,
            selection=self.selection,
            interdependence=self.interdependence,
        )

    def _tree_kwargs(self):
        per_tree = self.feature_subset == "per_tree"
        return dict(
            split_rule=self._rule,
            subspace_size=self.h_ if per_tree else None,
            max_features=None if per_tree else self.h_,
            root_cell=self.root_cell,
        )


class GainRatioForestClassifier(PaperForest):
    """The RF baseline as the BRF paper ran it (Sec. 6.1): bagged trees cut at the best
    threshold by information gain ratio (``BestThreshold("gain_ratio")``), majority vote.

    ``feature_subset="per_tree"`` (default): each tree sees a random subspace of ``h``
    features and every node tries all of them (the paper: "to construct the decision
    trees, h features were randomly selected"; Fig. 4: "h ... controls the size of feature
    subsets for each tree").  ``"per_node"``: ``h`` features drawn at every node (Breiman's
    ``mtry``).

    ``gain_ratio="plain"`` (default): each node takes the cut of largest gain ratio over all
    cuts of its candidate features, the paper's words read literally. ``"c45"``: C4.5's use of
    the gain ratio (``C45Threshold``): each feature's cut by information gain, charged for the
    cuts tried, the feature by gain ratio among those of at least average gain, at least
    ``min(25, max(2, 0.1 N / k))`` rows on each side of a cut.

    The parameters every bagged forest shares (``bootstrap``, ``max_samples``, ``voting``,
    ``oob_score``, ``n_jobs``, ``random_state``) are those of
    [`BaggedForest`][forestrepro.ensembles._base.BaggedForest]; ``voting`` defaults to
    "hard" (majority vote), and ``max_depth``, ``min_samples_split``, ``max_leaf_nodes`` and
    ``max_error_fraction`` are the trees' stopping rules
    (``forestrepro.trees.StoppingRules``).

    Parameters
    ----------
    n_estimators : int, default=100
        ``ntree`` (Sec. 6.1).
    h_offset : float, default=0.0
        ``C`` of ``h = round(log2(M) + C)``.
    h : int or None, default=None
        The subspace size itself (overrides ``h_offset``).
    feature_subset : {"per_tree", "per_node"}, default="per_tree"
        Draw the ``h`` features once per tree (random subspace) or at every node.
    gain_ratio : {"plain", "c45"}, default="plain"
        The largest gain ratio over all cuts, or C4.5's guarded use of it.
    """

    _parameter_constraints: dict[str, list] = {
        **PaperForest._parameter_constraints,
        "feature_subset": [StrOptions({"per_tree", "per_node"})],
        "gain_ratio": [StrOptions({"plain", "c45"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        h_offset=0.0,
        h=None,
        feature_subset="per_tree",
        gain_ratio="plain",
        max_depth=None,
        min_samples_split=2,
        max_leaf_nodes=None,
        max_error_fraction=0.0,
        bootstrap=True,
        max_samples=None,
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(PaperForest, locals()))
        self.feature_subset = feature_subset
        self.gain_ratio = gain_ratio

    def _tree_kwargs(self):
        per_tree = self.feature_subset == "per_tree"
        return dict(
            split_rule=BestThreshold("gain_ratio") if self.gain_ratio == "plain" else C45Threshold(),
            subspace_size=self.h_ if per_tree else None,
            max_features=None if per_tree else self.h_,
        )

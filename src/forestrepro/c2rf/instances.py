"""C2RF instances (Burgard, Pinheiro, Schmidt 2024, Sec. 5.1 and Appendix A).

From a data set (X, y with y = 1 the positive class) an instance is: duplicate rows dropped,
coordinates scaled as in Sec. 5.1, 1 % of the points labeled by a biased sample (positives favoured
with probability 0.85; two readings, see ``draw_labeled``) or a simple random sample, t = 20 CART
trees each grown on a random 20 % of the labeled points, their +-1 votes R on the unlabeled points,
and lambda = the true number of positives among the unlabeled points.

How the paper grew its trees is not printed beyond 'the Decision Tree package [24]' (Sec. 5.1;
DecisionTree.jl, Julia 1.8.5, Sec. 5.2), so the trees take options (``TREE_OPTIONS``), one reading
each, whose defaults are our first reading (scikit-learn's CART: Gini, every feature at each
split, each tree on a random 20 % of the labeled points drawn without replacement).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from .._validation import FRACTION, StrOptions, check_value
from .ordered_tree import OrderedTree

SAMPLINGS = ("biased", "srs")

TREE_OPTIONS = {
    "criterion": [StrOptions({"gini", "entropy"})],
    "max_features": [StrOptions({"all", "sqrt"})],
    "with_replacement": ["boolean"],
    "subset_fraction": [FRACTION],
    "split_ties": [StrOptions({"random", "first_feature"})],
    "tree_code": [StrOptions({"scikit-learn", "numpy"})],
}
"""The options of the instance's trees (``tree_votes``) and their constraints (scikit-learn's
``_parameter_constraints`` form, checked by ``check_tree_options``)."""


def check_tree_options(**options) -> None:
    """Raise ``InvalidParameterError`` (a ValueError), naming the option, unless each of
    ``options`` is one of ``TREE_OPTIONS`` with an allowed value; our numpy CART
    (``split_ties="first_feature"`` or ``tree_code="numpy"``) scans every feature, so it cannot go
    with ``max_features="sqrt"``."""
    for name, value in options.items():
        if name not in TREE_OPTIONS:
            raise ValueError(f"unknown tree option {name!r}; valid: {sorted(TREE_OPTIONS)}")
        check_value(name, value, TREE_OPTIONS[name])
    if options.get("max_features", "all") != "all":
        for name, value in (("split_ties", "first_feature"), ("tree_code", "numpy")):
            if options.get(name) == value:
                raise ValueError(
                    f"tree options: {name}={value!r} needs max_features='all' (our numpy CART scans every feature)"
                )


def features_per_split(max_features: str, n_features: int) -> int | None:
    """scikit-learn's ``max_features`` for the option ``max_features``: None (every feature) for
    ``"all"``; for ``"sqrt"`` DecisionTree.jl's ``build_forest`` default ``n_subfeatures = -1``,
    i.e. ``round(Int, sqrt(p))`` features drawn at each split (scikit-learn's own ``"sqrt"`` rounds
    down)."""
    if max_features == "all":
        return None
    return max(1, int(round(float(np.sqrt(n_features)))))


@dataclass(frozen=True)
class Instance:
    """One C2RF instance.

    ``R``: the votes, shape (t, m), entries +-1 (the paper's R = [r_1, ..., r_m]);
    ``lam``: true number of positives among the m unlabeled points (the paper's lambda);
    ``y_unlabeled``: their true labels in {0, 1}; ``labeled`` / ``unlabeled``: row indices into the
    deduplicated, scaled data; ``n_rows``: N after dropping duplicates.
    """

    R: np.ndarray
    lam: int
    y_unlabeled: np.ndarray
    labeled: np.ndarray
    unlabeled: np.ndarray
    n_rows: int
    sampling: str
    seed: int


def drop_duplicate_rows(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop exact duplicate rows of (features, label), keeping first occurrences in order.

    Sec. 5.1: 'Repeated instances are removed'. This reproduces Table 1's N (e.g. phoneme
    5404 -> 5349, coil2000 9822 -> 8380); rows with equal features but different labels stay.
    """
    frame = pd.DataFrame(np.column_stack([X, y]))
    keep = ~frame.duplicated(keep="first").to_numpy()
    return X[keep], y[keep]


def scale_features(X: np.ndarray, limit: float = 100.0) -> np.ndarray:
    """Sec. 5.1: centre each coordinate at its mid-range; map it affinely onto [-limit, limit]
    when the centred range still exceeds +-limit.

    The printed formula ends in '+ v_bar', which maps onto [100, 300]; we read it as
    '+ v_underbar' so the result lies in [-100, 100]. Either reading is an increasing affine map
    per coordinate, so CART splits and hence the votes R are the same.
    """
    X = np.asarray(X, dtype=np.float64)
    low, high = X.min(axis=0), X.max(axis=0)
    centred = X - 0.5 * (low + high)
    half = 0.5 * (high - low)
    large = half > limit
    if large.any():
        centred[:, large] = 2.0 * limit * (centred[:, large] + half[large]) / (2.0 * half[large]) - limit
    return centred


def draw_labeled(
    y: np.ndarray,
    sampling: str,
    rng: np.random.Generator,
    *,
    bias: str = "inclusion",
    fraction: float = 0.01,
    positive_probability: float = 0.85,
) -> np.ndarray:
    """Indices of the labeled points: round(fraction * N) of them, drawn without replacement.

    ``srs`` (Appendix A): a simple random sample, every point with probability n / N.
    ``biased`` (Sec. 5.1: 'the labeled data is chosen with probability 85 % for belonging to the
    positive class') has two readings, chosen by ``bias``:

    - ``"inclusion"`` (the default): points are drawn one after another without replacement with
      probability proportional to 0.85 for a positive and 0.15 for a negative, so the positive
      share of the sample depends on the class balance. The paper's own RF column (a vote of the
      trees, no MILP, so a check of the protocol) supports this reading: see the report's
      ``biased_share`` ablation.
    - ``"share"``: each labeled point is a positive with probability ``positive_probability``, i.e.
      Binomial(n, 0.85) positives and the rest negatives, each drawn uniformly (capped by the
      class sizes).
    """
    n = max(2, int(round(fraction * len(y))))
    if sampling == "srs":
        return np.sort(rng.choice(len(y), size=n, replace=False))
    if sampling != "biased":
        raise ValueError(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    positive = y == 1
    if bias == "inclusion":
        p = np.where(positive, positive_probability, 1.0 - positive_probability)
        return np.sort(rng.choice(len(y), size=n, replace=False, p=p / p.sum()))
    if bias != "share":
        raise ValueError(f"bias must be 'share' or 'inclusion', got {bias!r}")
    positives, negatives = np.flatnonzero(positive), np.flatnonzero(~positive)
    n_pos = min(int(rng.binomial(n, positive_probability)), len(positives))
    n_pos = max(n_pos, n - len(negatives))
    chosen = np.concatenate(
        [
            rng.choice(positives, size=n_pos, replace=False),
            rng.choice(negatives, size=n - n_pos, replace=False),
        ]
    )
    return np.sort(chosen)


def tree_votes(
    X_labeled: np.ndarray,
    y_labeled: np.ndarray,
    X_unlabeled: np.ndarray,
    rng: np.random.Generator,
    n_trees: int = 20,
    subset_fraction: float = 0.2,
    *,
    criterion: str = "gini",
    max_features: str = "all",
    with_replacement: bool = False,
    split_ties: str = "random",
    tree_code: str = "scikit-learn",
) -> np.ndarray:
    """R (t x m): votes +-1 of ``n_trees`` fully grown CART trees on the unlabeled points.

    Sec. 5.1: tree j is trained on A^j, 'a training subset' of size ``subset_fraction`` (20 %) of
    the labeled points, grown by DecisionTree.jl [24]. A subset with one class gives a constant
    tree. The paper prints no more, so each of the following is an option (one reading each; the
    defaults are our first reading, and with them the draws and trees are those of every record
    made before the options existed):

    criterion : {"gini", "entropy"}, default="gini"
        The split impurity: scikit-learn's default, or Shannon entropy, DecisionTree.jl's default
        for a classifier (``build_tree``'s ``loss = entropy``).
    max_features : {"all", "sqrt"}, default="all"
        Features tried at each split: every feature (DecisionTree.jl's ``build_tree``,
        ``n_subfeatures = 0``), or round(sqrt(p)) drawn at random (its ``build_forest`` default,
        ``n_subfeatures = -1``); see ``features_per_split``.
    with_replacement : bool, default=False
        A^j drawn without replacement (a subset), or with replacement (DecisionTree.jl's
        ``build_forest`` draws ``partial_sampling`` x n rows with replacement): rows can repeat.
    subset_fraction : float in (0, 1], default=0.2
        |A^j| = round(subset_fraction x n) (at least 1). 1.0 without replacement grows each tree on
        the whole labeled sample; 0.7 with replacement is ``build_forest``'s ``partial_sampling``.
    split_ties : {"random", "first_feature"}, default="random"
        Which of the features whose best splits are equally good a node splits on: the first met
        in a random order (scikit-learn; DecisionTree.jl since it ported scikit-learn's splitter),
        or the first in column order (``ordered_tree.OrderedTree``: DecisionTree.jl's older
        ``_split_info_gain``, R's rpart); needs ``max_features="all"``.
    tree_code : {"scikit-learn", "numpy"}, default="scikit-learn"
        Whose code grows the trees: scikit-learn's ``DecisionTreeClassifier``, or our numpy CART
        (``ordered_tree.OrderedTree``), which shares no code with it. With ``split_ties="random"``
        the numpy CART visits each node's features in a random order of its own seed, so it is a
        second implementation of the default, the same trees in distribution though not draw for
        draw; ``split_ties="first_feature"`` always uses it (only it has that rule). Needs
        ``max_features="all"``.

    Each tree's random stream is the same whatever the options: one draw of A^j, then one integer
    that seeds the tree.
    """
    check_tree_options(
        criterion=criterion,
        max_features=max_features,
        with_replacement=with_replacement,
        subset_fraction=subset_fraction,
        split_ties=split_ties,
        tree_code=tree_code,
    )
    n = len(y_labeled)
    d = max(1, int(round(subset_fraction * n)))
    split_features = features_per_split(max_features, X_labeled.shape[1])
    R = np.empty((n_trees, len(X_unlabeled)), dtype=np.int8)
    for j in range(n_trees):
        rows = rng.choice(n, size=d, replace=with_replacement)
        tree_seed = int(rng.integers(2**31 - 1))
        if split_ties == "first_feature" or tree_code == "numpy":
            order = "column" if split_ties == "first_feature" else "random"
            tree = OrderedTree(criterion, feature_order=order, random_state=tree_seed)
        else:
            tree = DecisionTreeClassifier(
                criterion=criterion, max_features=split_features, random_state=tree_seed
            )
        tree.fit(X_labeled[rows], y_labeled[rows])
        R[j] = np.where(tree.predict(X_unlabeled) == 1, 1, -1)
    return R


def build_instance(
    X: np.ndarray,
    y: np.ndarray,
    *,
    sampling: str,
    seed: int,
    bias: str = "inclusion",
    drop_duplicates: bool = True,
    fraction: float = 0.01,
    positive_probability: float = 0.85,
    n_trees: int = 20,
    subset_fraction: float = 0.2,
    **tree_options,
) -> Instance:
    """Build one instance of Sec. 5.1 (``sampling='biased'``) or Appendix A (``'srs'``).

    ``y`` must already be binary with 1 the positive class (``apply_paper_target(y, spec, 'c2rf')``).
    The same (data, arguments, seed) always gives the same instance.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Features.
    y : array-like of shape (n,)
        Binary labels, 1 the positive class.
    sampling : {"biased", "srs"}
        How the labeled points are drawn: Sec. 5.1's biased sample or Appendix A's simple
        random sample.
    seed : int
        Seeds the sample and the trees.
    bias : str, default="inclusion"
        The reading of the biased sampling (``draw_labeled``).
    drop_duplicates : bool, default=True
        Drop repeated rows first.
    fraction : float, default=0.01
        The labeled share of the rows.
    positive_probability : float, default=0.85
        The biased sample's chance of drawing a positive point.
    n_trees : int, default=20
        CART trees grown on the labeled points.
    subset_fraction : float, default=0.2
        The share of the labeled points each tree is grown on (Sec. 5.1: 20 %).
    **tree_options
        How the trees are grown: ``criterion``, ``max_features``, ``with_replacement``,
        ``split_ties``, ``tree_code`` (``tree_votes``; ``TREE_OPTIONS``).

    Returns
    -------
    Instance
        The vote matrix ``R``, ``lam`` and the labeled and unlabeled rows.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y).astype(np.int64)
    if drop_duplicates:
        X, y = drop_duplicate_rows(X, y)
    X = scale_features(X)
    sample_rng, tree_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    labeled = draw_labeled(
        y, sampling, sample_rng, bias=bias, fraction=fraction, positive_probability=positive_probability
    )
    unlabeled = np.setdiff1d(np.arange(len(y)), labeled)
    R = tree_votes(
        X[labeled],
        y[labeled],
        X[unlabeled],
        tree_rng,
        n_trees,
        subset_fraction,
        **tree_options,
    )
    y_unlabeled = y[unlabeled]
    return Instance(
        R=R,
        lam=int(y_unlabeled.sum()),
        y_unlabeled=y_unlabeled,
        labeled=labeled,
        unlabeled=unlabeled,
        n_rows=len(y),
        sampling=sampling,
        seed=seed,
    )

"""Grow a scikit-learn forest's trees without its per-tree overhead: the same trees, faster.

A cascade level fits 8 forests x 3 folds of hundreds of trees each (WDF Sec. 3), and on small
data sets scikit-learn spends more time around each tree than growing it: ``fit`` clones every
tree through parameter introspection (``_make_estimator``), and each tree's ``_fit`` checks
the targets again (``check_classification_targets``, ``np.unique``) and validates its sample
weights (``benchmarks/cascade.md``). ``grow`` validates the data once per forest, codes its
columns once (``column_codes``) and grows each tree with ``sklearn_trees.grow_sklearn_tree``,
scikit-learn's depth-first Gini tree node for node from a compiled builder (about twice as fast
for a random forest's trees on wide inputs, ``benchmarks/sklearn_trees.md``), with the random
streams ``fit`` would use:

- tree ``k``'s seed is the ``k``-th ``randint(2**31 - 1)`` of the forest's ``random_state``
  (``_set_random_states``), its splitter draws from ``RandomState(seed)`` and its bootstrap
  sample is ``RandomState(seed).randint(0, n, n)`` (``_generate_sample_indices``), passed as
  multiplicities (``_parallel_build_trees``); each thread reseeds one generator of its own
  (``seeded``) instead of making two per tree, which took a tenth of a small forest's time;
- the parameters are the defaults of ``RandomForestClassifier`` / ``ExtraTreesClassifier``
  but for ``n_estimators``, ``max_features``, ``bootstrap``, ``n_jobs`` and ``random_state``
  (the only ones a cascade sets); any other setting is refused, naming it.

So the fitted forest is the one ``forest.fit`` returns, node for node, with the same
attributes (``estimators_``, ``estimators_samples_``, ``classes_``; ``tests/cascade/
test_growth.py``), whatever ``n_jobs``.
"""

import threading

import numpy as np
from joblib import Parallel, delayed
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier
from sklearn.utils import check_random_state

from .column_codes import column_codes
from .sklearn_trees import grow_sklearn_tree

MAX_SEED = np.iinfo(np.int32).max
GROWN_PARAMETERS = frozenset({"n_estimators", "max_features", "bootstrap", "n_jobs", "random_state"})
"""The forest parameters ``grow`` follows; every other one must keep its default."""
TREE_KINDS = {RandomForestClassifier: DecisionTreeClassifier, ExtraTreesClassifier: ExtraTreeClassifier}
_GENERATORS = threading.local()


def seeded(seed):
    """This thread's ``RandomState``, reseeded with ``seed``: in the state ``RandomState(seed)``
    starts in (legacy seeding), without making a generator."""
    generator = getattr(_GENERATORS, "generator", None)
    if generator is None:
        generator = _GENERATORS.generator = np.random.RandomState()
    generator.seed(seed)
    return generator


def check_growable(forest):
    """Raise ``ValueError`` unless ``grow`` grows ``forest``'s very trees: a
    ``RandomForestClassifier`` or ``ExtraTreesClassifier`` whose parameters outside
    ``GROWN_PARAMETERS`` are at their defaults."""
    kind = type(forest)
    if kind not in TREE_KINDS:
        raise ValueError(
            f"a cascade forest is a RandomForestClassifier or ExtraTreesClassifier, got {kind.__name__}"
        )
    defaults = kind().get_params()
    for name, value in forest.get_params().items():
        if name not in GROWN_PARAMETERS and not _same(value, defaults[name]):
            raise ValueError(
                f"{kind.__name__}({name}={value!r}) is not grown by the cascade's forests; "
                f"only {', '.join(sorted(GROWN_PARAMETERS))} may differ from the defaults"
            )


def _same(value, default):
    return value is default or (type(value) is type(default) and value == default)


def tree_seeds(random_state, n_trees):
    """Each tree's seed, drawn as ``BaseForest.fit`` draws them (``_set_random_states``)."""
    random_state = check_random_state(random_state)
    return [random_state.randint(MAX_SEED) for _ in range(n_trees)]


def grow(forest, X, y, codes=None):
    """Fit ``forest`` (unfitted; see ``check_growable``) on ``X``, float32 without missing
    values, and ``y``, class indices ``0 .. n_classes - 1``: ``forest.fit(X, y)``'s trees.

    ``codes`` is ``X``'s ``ColumnCodes`` where the caller has them (a cascade codes a level's
    input once and takes each fold's rows of it, ``ColumnCodes.rows``), else ``X`` is coded here.
    Returns ``forest``, fitted.
    """
    check_growable(forest)
    X = np.asarray(X, dtype=np.float32)
    classes, y_indices = np.unique(np.asarray(y), return_inverse=True)
    n_samples, n_features = X.shape
    coded = column_codes(X) if codes is None else codes  # every tree reads the same coded columns
    if coded.shape != X.shape:
        raise ValueError(f"codes of shape {coded.shape} do not code X of shape {X.shape}")
    splitter = "best" if type(forest) is RandomForestClassifier else "random"
    max_features = _max_features(forest.max_features, n_features)

    def grow_tree(seed):
        tree = TREE_KINDS[type(forest)](max_features=forest.max_features, random_state=seed)
        weights = None
        if forest.bootstrap:
            indices = seeded(seed).randint(0, n_samples, n_samples).astype(np.int32)
            weights = np.bincount(indices, minlength=n_samples).astype(np.float64)
        tree.n_features_in_ = n_features  # the attributes in ``_fit``'s order, as pickles keep it
        tree.n_outputs_ = 1
        tree.classes_ = np.arange(classes.size, dtype=np.float64)
        tree.n_classes_ = np.intp(classes.size)
        tree.max_features_ = max_features
        tree.tree_ = grow_sklearn_tree(
            coded,
            y_indices,
            classes.size,
            max_features=max_features,
            splitter=splitter,
            sample_weight=weights,
            random_state=seeded(seed),  # the splitter draws its state from it at once
            check_input=False,
        )
        return tree

    forest.n_features_in_ = n_features  # the attributes in ``BaseForest.fit``'s order
    forest._n_samples = n_samples
    forest.n_outputs_ = 1
    forest.classes_ = classes
    forest.n_classes_ = classes.size
    forest._sample_weight = None
    forest._n_samples_bootstrap = n_samples if forest.bootstrap else None
    forest.estimator_ = forest.estimator
    seeds = tree_seeds(forest.random_state, forest.n_estimators)
    forest.estimators_ = Parallel(n_jobs=forest.n_jobs, prefer="threads")(
        delayed(grow_tree)(seed) for seed in seeds
    )
    return forest


def _max_features(max_features, n_features):
    """Features drawn per node, as ``BaseDecisionTree._fit`` reads ``max_features``."""
    if max_features == "sqrt":
        return max(1, int(np.sqrt(n_features)))
    if max_features == "log2":
        return max(1, int(np.log2(n_features)))
    if max_features is None:
        return n_features
    if isinstance(max_features, (int, np.integer)):
        return int(max_features)
    return max(1, int(max_features * n_features)) if max_features > 0.0 else 0

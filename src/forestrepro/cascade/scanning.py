"""Multi-grained scanning of gcForest (WDF Sec. 1, Fig. 1; Algorithm 1 lines 1-3).

A window of ``m`` features slides one step at a time over a sequence of ``n`` features
(``n - m + 1`` windows) or an ``m x m`` window over an ``n x n`` image (``(n - m + 1)^2``
windows). Every window becomes an instance with its sequence's or image's label, and feeds
one random forest and one completely-random tree forest; each forest's class vectors of all
windows, ``c`` classes each, are joined, so a window size gives ``2 c (n - m + 1)`` features
in 1-D and ``2 c (n - m + 1)^2`` in 2-D, and the window sizes' features together feed the
cascade.

As in gcForest the training rows' features are out-of-fold: rows (not windows) are split
into ``n_folds`` folds, the forests of fold ``k`` grow on windows of the other folds' rows
only and give the class vectors of fold ``k``'s windows; new rows get the mean over the
folds' forests. The scanning forests are not weighted: WDF weights the cascade's forests
(Algorithm 1 lines 4-12), scanning is gcForest's (line 2).

Memory stays bounded: a forest grows on at most ``max_train_windows`` windows drawn without
replacement from its rows' windows (gcForest grew on all of them), and windows are classified
``batch_windows`` at a time, read in place from their rows (``window_forest.WindowForest``,
the same numbers as ``predict_proba`` on the cut windows); only the output features are held
in full. ``fit_transform_with_test`` keeps no forest: each grows a chunk of trees at a time,
packed as they are grown (``WindowForest.grow``, the same trees as a single fit).

A scan is 3 window sizes x 2 forests x ``n_folds`` fold forests; on SEMG each takes 10 to 25
minutes (``benchmarks/scan_cost.md``). ``fit_transform_with_test`` can hand each fold forest's
output to a store of parts as it is made and read the parts an earlier, stopped scan left, so a
long scan resumes where it stopped (``scan_cache``); the random draws are made either way, so a
resumed scan equals a fresh one.
"""

import math
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import at_least, check_params
from .members import MAX_SEED, MEMBER_CONSTRAINTS, fold_ids, member_templates, seeded
from .window_forest import WindowForest

WINDOW_DIVISORS = (16, 8, 4)


def default_window_sizes(shape):
    """The windows of WDF Sec. 3 / gcForest: ``d/16``, ``d/8`` and ``d/4`` features (floor).

    For a sequence of ``d`` features the window lengths are ``floor(d / q)``; for an image of
    ``d = h * w`` pixels the square window with about ``d / q`` pixels has side
    ``floor(sqrt(floor(d / q)))`` (7, 9 and 14 for a 28 x 28 image). Sizes are at least 1,
    at most the sequence length or the image's shorter side, and repeated sizes are dropped.
    """
    d = math.prod(shape)
    if len(shape) == 1:
        sizes = [max(1, d // q) for q in WINDOW_DIVISORS]
    else:
        sizes = [min(max(1, math.isqrt(d // q)), *shape) for q in WINDOW_DIVISORS]
    return tuple(dict.fromkeys(sizes))


def window_layout(size, shape, stride=1):
    """``(starts, offsets)``: window ``w``'s feature ``f`` is the row's feature ``starts[w] +
    offsets[f]``.

    ``shape`` is ``(n,)`` for a sequence (windows of ``size`` consecutive features, ``(n -
    size) // stride + 1`` of them) or ``(h, w)`` for an image stored row by row (``size x
    size`` windows, ``((h - size) // stride + 1) * ((w - size) // stride + 1)`` of them),
    in row-major order of their top-left corners.
    """
    if any(size > side for side in shape) or size < 1 or stride < 1:
        raise ValueError(f"window {size} with stride {stride} does not fit shape {shape}")
    if len(shape) == 1:
        return np.arange(0, shape[0] - size + 1, stride), np.arange(size)
    height, width = shape
    corners = (
        np.arange(0, height - size + 1, stride)[:, None] * width
        + np.arange(0, width - size + 1, stride)[None, :]
    ).ravel()
    offsets = (np.arange(size)[:, None] * width + np.arange(size)[None, :]).ravel()
    return corners, offsets


def sample_windows(X, y, rows, layout, max_windows, seed):
    """Training windows of ``rows`` (``layout`` from ``window_layout``): all of them, or
    ``max_windows`` drawn without replacement; each window carries its row's label. Returns
    ``(windows, labels)``."""
    starts, offsets = layout
    n_windows = starts.size
    total = rows.size * n_windows
    if max_windows is None or max_windows >= total:
        chosen = np.arange(total)
    else:
        chosen = np.sort(np.random.default_rng(seed).choice(total, max_windows, replace=False))
    source = rows[chosen // n_windows]
    return X[source[:, None], starts[chosen % n_windows, None] + offsets], y[source]


def window_vectors(forest, X, rows, layout, batch_windows):
    """Yield ``(batch_rows, features)``: a ``WindowForest``'s class vectors of every window of
    ``rows`` (``layout`` from ``window_layout``), ``n_windows * n_classes`` features per row,
    ``batch_windows`` windows at a time."""
    starts, offsets = layout
    step = max(1, batch_windows // starts.size)
    for first in range(0, rows.size, step):
        batch = rows[first : first + step]
        vectors = forest.class_vectors(X, batch, starts, offsets)
        yield batch, vectors.reshape(batch.size, starts.size * forest.n_classes)


class MultiGrainedScanner(TransformerMixin, BaseEstimator):
    """Multi-grained scanning: window class vectors of 1 random forest and 1 completely-random
    tree forest per window size (WDF Sec. 1, Fig. 1; Sec. 3 settings).

    ``fit_transform(X, y)`` returns the training rows' out-of-fold features; ``transform``
    gives new rows the mean over the fold forests, so ``fit(X, y).transform(X)`` differs from
    ``fit_transform(X, y)`` by design (as scikit-learn's ``TargetEncoder``).

    Parameters
    ----------
    shape : None, int, or (int, int), default=None
        ``None``: each row is a sequence of its ``d`` features (1-D windows); ``(h, w)``: each
        row is an ``h x w`` image stored row by row (2-D square windows).
    window_sizes : None or tuple of int, default=None
        Window lengths (1-D) or sides (2-D); None gives ``default_window_sizes``.
    stride : int, default=1
        Step between windows (WDF: 1).
    n_trees : int, default=500
    n_folds : int, default=3
    max_train_windows : int or None, default=100_000
        Windows a forest grows on (drawn without replacement); None: all windows.
    batch_windows : int, default=20_000
        Windows cut and classified at a time.
    include_raw : bool, default=False
        Put the raw features before the class vectors (one reading of WDF Sec. 1, "joined to
        the sample's original feature space"; gcForest feeds the class vectors alone).
    crf_bootstrap : bool, default=False
        Grow the completely-random trees on bootstrap samples (gcForest: no).
    n_jobs : int or None, default=None
        Threads per forest; results do not depend on it.
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    shape_ : tuple of int
        ``(d,)`` or ``(h, w)``.
    window_sizes_ : tuple of int
    n_windows_ : tuple of int
        Windows per row for each window size.
    classes_, n_features_in_
    models_ : list
        Per window size, per forest, the fold models (after ``fit`` or ``fit_transform``).
    """

    _parameter_constraints: dict[str, list] = {
        "shape": "no_validation",  # checked against the data (_resolve_shape)
        "window_sizes": "no_validation",
        "stride": [at_least(1)],
        "n_trees": MEMBER_CONSTRAINTS["n_trees"],
        "n_folds": [at_least(2)],
        "max_train_windows": [None, at_least(1)],
        "batch_windows": [at_least(1)],
        "include_raw": ["boolean"],
        "crf_bootstrap": MEMBER_CONSTRAINTS["crf_bootstrap"],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        shape=None,
        window_sizes=None,
        stride=1,
        n_trees=500,
        n_folds=3,
        max_train_windows=100_000,
        batch_windows=20_000,
        include_raw=False,
        crf_bootstrap=False,
        n_jobs=None,
        random_state=None,
    ):
        self.shape = shape
        self.window_sizes = window_sizes
        self.stride = stride
        self.n_trees = n_trees
        self.n_folds = n_folds
        self.max_train_windows = max_train_windows
        self.batch_windows = batch_windows
        self.include_raw = include_raw
        self.crf_bootstrap = crf_bootstrap
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y):
        self._scan(X, y, None, keep=True)
        return self

    def fit_transform(self, X, y):
        """Fit, and return the out-of-fold scanned features of the training rows."""
        return self._scan(X, y, None, keep=True)[0]

    def fit_transform_with_test(self, X, y, X_test, parts=None):
        """Return ``(train, test)`` features: out-of-fold for ``X``, fold means for
        ``X_test``. Each fold forest is dropped once it has classified its windows, so
        memory holds one forest at a time; ``transform`` then needs ``fit``.

        ``parts`` (a ``checkpoint.KeptParts``), if given, keeps each fold forest's output as
        ``{"train": ..., "test": ...}``; fold forests whose output is kept are not grown again."""
        return self._scan(X, y, X_test, keep=False, parts=parts)

    def transform(self, X):
        """Scanned features of new rows: per window, the mean class vector of the fold
        forests."""
        check_is_fitted(self, "models_")
        X = validate_data(self, X, reset=False, dtype=np.float32)
        out = self._allocate(X)
        column = X.shape[1] if self.include_raw else 0
        for size, forests in zip(self.window_sizes_, self.models_):
            layout = window_layout(size, self.shape_, self.stride)
            width = layout[0].size * len(self.classes_)
            for models in forests:
                for model in models:
                    forest = WindowForest(model, len(self.classes_))
                    out[:, column : column + width] += self._mean_share(forest, X, layout, len(models))
                column += width
        return out

    def _check_params(self):
        """Check the parameters (before any data is touched); return the window forests' templates."""
        check_params(self)
        return self._member_templates()

    def _member_templates(self):
        return member_templates(1, 1, self.n_trees, crf_bootstrap=self.crf_bootstrap, n_jobs=self.n_jobs)

    def _resolve_shape(self, n_features):
        if self.shape is None:
            return (n_features,)
        shape = (self.shape,) if np.isscalar(self.shape) else tuple(self.shape)
        if len(shape) not in (1, 2) or math.prod(shape) != n_features:
            raise ValueError(f"shape {self.shape!r} does not hold {n_features} features")
        return shape

    def _allocate(self, X):
        width = sum(n * len(self.classes_) * 2 for n in self.n_windows_)  # 1 RF + 1 CRF
        if self.include_raw:
            width += X.shape[1]
        out = np.zeros((X.shape[0], width), dtype=np.float32)
        if self.include_raw:
            out[:, : X.shape[1]] = X
        return out

    def _mean_share(self, forest, X, layout, n_models):
        """A fold forest's (``WindowForest``) share ``1 / n_models`` of every row's window
        class vectors."""
        share = np.zeros((X.shape[0], layout[0].size * len(self.classes_)), dtype=np.float32)
        rows = np.arange(X.shape[0])
        for batch, vectors in window_vectors(forest, X, rows, layout, self.batch_windows):
            share[batch] = vectors / n_models
        return share

    def _fold_forest_output(self, template, seed, X, y_encoded, folds, k, layout, X_test, n_models, keep):
        """Grow fold ``k``'s forest on windows of the other folds' rows; return it with the
        class vectors of fold ``k``'s windows and its share of the test rows' mean. Unless
        ``keep``, it grows in chunks of trees packed for classification as they are grown
        (``WindowForest.grow``), and None is returned in its place."""
        windows, labels = sample_windows(
            X, y_encoded, np.flatnonzero(folds != k), layout, self.max_train_windows, seed
        )
        model = seeded(template, seed)
        if keep:
            forest = WindowForest(model.fit(windows, labels), len(self.classes_))
        else:
            forest = WindowForest.grow(model, windows, labels, len(self.classes_))
            model = None
        del windows
        train = np.concatenate(
            [
                vectors
                for _, vectors in window_vectors(
                    forest, X, np.flatnonzero(folds == k), layout, self.batch_windows
                )
            ]
        ).astype(np.float32)
        test = None if X_test is None else self._mean_share(forest, X_test, layout, n_models)
        return model, {"train": train, "test": test}

    def _cross_fit_windows(
        self, template, X, y_encoded, layout, folds, seeds, outputs, X_test, keep, parts, name
    ):
        """One forest of one window size, cross-fitted: fold ``k``'s forest grows on windows
        of the other folds' rows, writes the class vectors of fold ``k``'s windows into the
        training output and adds its share of the test rows' mean. A fold forest's output is
        read from ``parts`` if kept there, else kept there as ``{name}_fold{k}``. Returns the
        fold models (none unless ``keep``)."""
        train, test, column = outputs
        width = layout[0].size * len(self.classes_)
        models = []
        for k, seed in enumerate(seeds):
            part_name = f"{name}_fold{k}"
            part = None if parts is None else parts.get(part_name)
            if part is None:
                model, part = self._fold_forest_output(
                    template, seed, X, y_encoded, folds, k, layout, X_test, len(seeds), keep
                )
                if parts is not None:
                    parts.put(part_name, **part)
                if keep:
                    models.append(model)
                del model
            train[folds == k, column : column + width] = part["train"]
            if test is not None:
                test[:, column : column + width] += part["test"]
        return models

    def _scan(self, X, y, X_test, keep, parts=None):
        X, y = validate_data(self, X, y, dtype=np.float32)
        check_classification_targets(y)
        templates = self._check_params()
        self.shape_ = self._resolve_shape(X.shape[1])
        self.window_sizes_ = (
            default_window_sizes(self.shape_)
            if self.window_sizes is None
            else tuple(int(size) for size in self.window_sizes)
        )
        layouts = [window_layout(size, self.shape_, self.stride) for size in self.window_sizes_]
        self.n_windows_ = tuple(starts.size for starts, _ in layouts)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        n_classes = len(self.classes_)
        rng = check_random_state(self.random_state)
        train = self._allocate(X)
        test = None
        if X_test is not None:
            X_test = validate_data(self, X_test, reset=False, dtype=np.float32)
            test = self._allocate(X_test)
        self.__dict__.pop("models_", None)
        models_ = []
        column = X.shape[1] if self.include_raw else 0
        for size, layout in zip(self.window_sizes_, layouts):
            forests = []
            for number, template in enumerate(templates):
                folds = fold_ids(y_encoded, self.n_folds, rng.randint(MAX_SEED))
                seeds = rng.randint(MAX_SEED, size=self.n_folds)
                forests.append(
                    self._cross_fit_windows(
                        template,
                        X,
                        y_encoded,
                        layout,
                        folds,
                        seeds,
                        (train, test, column),
                        X_test,
                        keep,
                        parts,
                        f"window{size}_forest{number}",
                    )
                )
                column += layout[0].size * n_classes
            models_.append(forests)
        if keep:
            self.models_ = models_
        return train, test

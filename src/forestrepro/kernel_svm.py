"""An RBF support vector machine whose grid over C shares one kernel matrix per gamma.

The BRF paper's SVM baseline (Sec. 6.1: LIBSVM, parameters chosen by 5-fold CV) searches
11 values of C x 10 of gamma. ``SVC(kernel="rbf")`` evaluates exp(-gamma ||x - x'||^2) inside
libsvm's solver for every candidate; the matrix depends on gamma and the training rows only.
``GridRBFSVC`` computes it once (``rbf_kernel``), fits libsvm on the precomputed matrix for
every C of ``C_grid`` at once, and, given a ``memory`` directory, keeps those fits keyed by
content (joblib.Memory, as ``Pipeline(memory=...)``): the grid's other candidates with the same
gamma on the same rows read their fit instead of solving again, in any process of the search.
The model is the same: libsvm solves the same dual problem on the same kernel values, up to the
rounding of the kernel (numpy's summation order instead of libsvm's loop), which the tests show
changes no prediction and no support vector on the data tried.
"""

from __future__ import annotations

from numbers import Real
from typing import ClassVar

import numpy as np
from joblib import Memory
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

# Fits kept at most in a ``memory`` directory, the least recently used dropped first: one outer
# fold of the BRF grid makes 5 inner folds x 10 gammas + the refit's = 51 (about 4 MB each on
# usps), and the next outer fold never reads them.
KEPT_FITS = 64


def _resolve_gamma(gamma, X: np.ndarray) -> float:
    """``gamma`` as a number; ``"scale"`` is SVC's 1 / (n_features * X.var())."""
    if gamma == "scale":
        variance = X.var()
        return 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
    return float(gamma)


def fit_every_C(X: np.ndarray, y: np.ndarray, gamma: float, Cs: tuple, svc_params: dict) -> dict:
    """``{C: SVC fitted on the precomputed RBF kernel of X}`` for every C of ``Cs``: one kernel."""
    K = rbf_kernel(X, gamma=gamma)
    return {C: SVC(kernel="precomputed", C=C, **svc_params).fit(K, y) for C in Cs}


class GridRBFSVC(ClassifierMixin, BaseEstimator):
    """SVC with the RBF kernel exp(-gamma ||x - x'||^2), fitted on a precomputed kernel.

    Parameters
    ----------
    C : float, default=1.0
        Regularisation, as ``SVC``'s.
    gamma : float or "scale", default="scale"
        Kernel width, as ``SVC``'s.
    C_grid : tuple of float, default=()
        The other values of C a grid search will ask for with this gamma: with ``memory`` set,
        the first fit on some rows fits them all on the one kernel and keeps them.
    memory : str or None, default=None
        Directory where the fits are kept (joblib.Memory); None keeps nothing.
    cache_size : float, default=200
        libsvm's kernel cache (MB), as ``SVC``'s.
    random_state : int or None, default=None
        As ``SVC``'s (used only for probability estimates, which this class does not make).
    """

    _parameter_constraints: ClassVar[dict] = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0.0, None, closed="neither")],
        "C_grid": [tuple, list],
        "memory": [str, None],
        "cache_size": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, C=1.0, gamma="scale", *, C_grid=(), memory=None, cache_size=200, random_state=None):
        self.C = C
        self.gamma = gamma
        self.C_grid = C_grid
        self.memory = memory
        self.cache_size = cache_size
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        check_classification_targets(y)
        self.gamma_ = _resolve_gamma(self.gamma, X)
        svc_params = {"cache_size": self.cache_size, "random_state": self.random_state}
        if self.memory is None:
            fits = fit_every_C(X, y, self.gamma_, (float(self.C),), svc_params)
        else:
            Cs = tuple(sorted({float(c) for c in self.C_grid} | {float(self.C)}))
            memory = Memory(self.memory, verbose=0)
            fits = memory.cache(fit_every_C)(X, y, self.gamma_, Cs, svc_params)
            memory.reduce_size(items_limit=KEPT_FITS)
        self.svc_ = fits[float(self.C)]
        self.classes_ = self.svc_.classes_
        self.X_fit_ = X
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return self.svc_.decision_function(rbf_kernel(X, self.X_fit_, gamma=self.gamma_))

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return self.svc_.predict(rbf_kernel(X, self.X_fit_, gamma=self.gamma_))

    @property
    def support_(self):
        """Indices of the support vectors in the training rows, as ``SVC.support_``."""
        return self.svc_.support_

    @property
    def dual_coef_(self):
        return self.svc_.dual_coef_

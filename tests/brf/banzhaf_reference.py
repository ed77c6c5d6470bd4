"""Reference forms used by the tests only: the Banzhaf index of a whole interdependence matrix
(Eq. 1 and Sec. 4.4), its normalisation (Eq. 2), and the interdependence matrix of discretised
features (Eq. 4). The split rules count the same from their kernels (``trees/banzhaf.py``,
``trees/mutual_information.py``)."""

import numpy as np

from forestrepro.trees.banzhaf import INTERDEPENDENCE_TOL, MAX_PLAYERS_EQ1, powers
from forestrepro.trees.mutual_information import information


def banzhaf_index(interdependent: np.ndarray, max_coalition: int | None = None) -> np.ndarray:
    """Banzhaf power index ``beta`` of every feature (BRF paper, Eq. 1 and Sec. 4.4).

    ``interdependent[i, j]``: feature ``j`` is interdependent with feature ``i`` (Eq. 4);
    the diagonal is ignored.  ``max_coalition=None``: Eq. (1), won coalitions over all
    ``2**(n-1)`` coalitions of the other features.  ``max_coalition=w``: won coalitions
    among the non-empty coalitions of at most ``w`` members, over their number.
    Counted in closed form (module docstring), ``O(n * w)`` arithmetic once ``a`` is known.
    """
    matrix = np.asarray(interdependent)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"interdependent must be a square matrix, got shape {matrix.shape}")
    if matrix.dtype != np.bool_:
        raise TypeError(f"interdependent must be boolean, got {matrix.dtype}")
    n = matrix.shape[0]
    if max_coalition is None:
        if n > MAX_PLAYERS_EQ1:
            raise ValueError(
                f"Eq. (1) handles at most {MAX_PLAYERS_EQ1} features in "
                f"float64, got {n}; bound the coalitions with max_coalition"
            )
        bound = -1
    else:
        if isinstance(max_coalition, bool) or not isinstance(max_coalition, (int, np.integer)):
            raise TypeError(f"max_coalition must be an int or None, got {max_coalition!r}")
        if max_coalition < 1:
            raise ValueError(f"max_coalition must be >= 1, got {max_coalition}")
        bound = int(max_coalition)
    n_partners = (matrix & ~np.eye(n, dtype=bool)).sum(axis=1).astype(np.intp)
    beta = np.empty(n)
    powers(n_partners, bound, beta)
    return beta


def normalize(beta: np.ndarray) -> np.ndarray:
    """The normalised index ``zeta_i = beta_i / sum_j beta_j`` (Eq. 2); when no feature
    wins any coalition (all ``beta = 0``) every feature gets ``1/n``."""
    beta = np.asarray(beta, dtype=np.float64)
    total = beta.sum()
    if total == 0.0:
        return np.full(beta.shape, 1.0 / beta.size)
    return beta / total


def interdependence_matrix(X_disc, y_disc, features=None, sample_weight=None):
    """``interdependent[i, j]``: ``I(f_i; y) <= I(f_i; y | f_j)`` (Eq. 4) for the columns
    ``features`` (default: all) of the discretised ``X_disc`` (non-negative integer bins,
    fewer than 256) and integer labels ``y_disc``; the diagonal is False.

    Returns ``(interdependent, mi, cmi)``: ``mi[i] = I(f_i; y)``, ``cmi[i, j] =
    I(f_i; y | f_j)`` in bits (plug-in, weighted by ``sample_weight``).
    """
    X_disc = np.asarray(X_disc)
    y_disc = np.asarray(y_disc)
    if X_disc.ndim != 2 or y_disc.shape != (X_disc.shape[0],):
        raise ValueError("X_disc must be (n_samples, n_features) and y_disc (n_samples,)")
    if not (np.issubdtype(X_disc.dtype, np.integer) and np.issubdtype(y_disc.dtype, np.integer)):
        raise TypeError("X_disc and y_disc must hold integer bins and labels")
    columns = np.arange(X_disc.shape[1]) if features is None else np.asarray(features)
    w = np.ones(X_disc.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    keep = w > 0
    codes = np.ascontiguousarray(X_disc[keep][:, columns].T)
    if codes.size and (codes.min() < 0 or codes.max() > 255 or y_disc.min() < 0):
        raise ValueError("bins must be in [0, 255] and labels non-negative")
    _, labels = np.unique(y_disc[keep], return_inverse=True)
    n_bins = int(codes.max()) + 1 if codes.size else 1
    h = columns.shape[0]
    mi = np.empty(h)
    cmi = np.empty((h, h))
    information(
        codes.astype(np.uint8),
        n_bins,
        labels.astype(np.intp),
        int(labels.max()) + 1,
        np.ascontiguousarray(w[keep]),
        mi,
        cmi,
    )
    interdependent = mi[:, None] <= cmi + INTERDEPENDENCE_TOL
    np.fill_diagonal(interdependent, False)
    return interdependent, mi, cmi

"""Problem (2) of C2RF (Sec. 2), or the reduced MILP of Algorithm 1, as a HiGHS model.

Columns: alpha (q, continuous in [l, u], (0e)), z (h, binary, (0g)), eta (one column in
[0, eta_bar], (0f)).
Rows, all built as one sparse matrix:
  (0b)  s_k^T alpha - Mb_k z_k            <= -1
  (0c)  s_k^T alpha - Mc_k z_k            >= 1 - Mc_k
  pair cuts (optional)  c_a z_a + c_b z_b in [lo, hi], e.g. dominance z_a - z_b >= 0
  (0d)  w^T z + eta >= lambda,  w^T z - eta <= lambda
With the paper's big-M, Mb_k = Mc_k = u t + 1 (Prop. 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import highspy
import numpy as np
import scipy.sparse as sp


class PairCuts(NamedTuple):
    """Rows c_a z_a + c_b z_b in [lo, hi], one per pair (a, b) of ``pairs`` (k x 2)."""

    pairs: np.ndarray
    c_a: float
    c_b: float
    lo: float
    hi: float


@dataclass(frozen=True)
class Layout:
    """Column positions: alpha in [0, q), z in [q, q + h), eta at q + h."""

    q: int
    h: int

    @property
    def n_cols(self) -> int:
        return self.q + self.h + 1


def build_lp(
    coefficients: np.ndarray,
    w: np.ndarray,
    lam: int,
    eta_bar: float,
    lower: float,
    upper: float,
    big_m_b: np.ndarray,
    big_m_c: np.ndarray,
    pair_cuts: tuple[PairCuts, ...] = (),
    integral_eta: bool = False,
) -> tuple[highspy.HighsLp, Layout]:
    """The HighsLp of the (reduced) C2RF MILP.

    ``coefficients``: h x q matrix of s_k (entries +-v_g); ``big_m_b`` / ``big_m_c``: the big-M of
    (0b) / (0c) per row; ``pair_cuts``: rows on two binaries each (``cuts.py``); ``integral_eta``:
    declare eta integer (valid: with integer w and lambda every optimal eta is an integer).
    """
    h, q = coefficients.shape
    layout = Layout(q=q, h=h)
    rows_k = np.arange(h)
    alpha_part = sp.csr_matrix(coefficients)
    z_b = sp.csr_matrix((-np.asarray(big_m_b, dtype=np.float64), (rows_k, rows_k)), shape=(h, h))
    z_c = sp.csr_matrix((-np.asarray(big_m_c, dtype=np.float64), (rows_k, rows_k)), shape=(h, h))
    zero_eta = sp.csr_matrix((h, 1))
    blocks = [sp.hstack([alpha_part, z_b, zero_eta]), sp.hstack([alpha_part, z_c, zero_eta])]
    row_lower = [np.full(h, -np.inf), 1.0 - np.asarray(big_m_c, dtype=np.float64)]
    row_upper = [np.full(h, -1.0), np.full(h, np.inf)]
    for cut in pair_cuts:
        n = len(cut.pairs)
        if n == 0:
            continue
        rows = sp.csr_matrix(
            (np.tile([cut.c_a, cut.c_b], n), (np.repeat(np.arange(n), 2), cut.pairs.ravel())), shape=(n, h)
        )
        blocks.append(sp.hstack([sp.csr_matrix((n, q)), rows, sp.csr_matrix((n, 1))]))
        row_lower.append(np.full(n, cut.lo))
        row_upper.append(np.full(n, cut.hi))
    w = np.asarray(w, dtype=np.float64)
    card = sp.csr_matrix(
        np.vstack([np.concatenate([np.zeros(q), w, [1.0]]), np.concatenate([np.zeros(q), w, [-1.0]])])
    )
    blocks.append(card)
    row_lower.append(np.array([lam, -np.inf], dtype=np.float64))
    row_upper.append(np.array([np.inf, lam], dtype=np.float64))
    matrix = sp.vstack(blocks).tocsc()
    matrix.sort_indices()

    lp = highspy.HighsLp()
    lp.num_col_ = layout.n_cols
    lp.num_row_ = matrix.shape[0]
    lp.col_cost_ = np.concatenate([np.zeros(q + h), [1.0]])
    lp.col_lower_ = np.concatenate([np.full(q, float(lower)), np.zeros(h), [0.0]])
    lp.col_upper_ = np.concatenate([np.full(q, float(upper)), np.ones(h), [float(eta_bar)]])
    lp.row_lower_ = np.concatenate(row_lower)
    lp.row_upper_ = np.concatenate(row_upper)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr.astype(np.int32)
    lp.a_matrix_.index_ = matrix.indices.astype(np.int32)
    lp.a_matrix_.value_ = matrix.data.astype(np.float64)
    integer, continuous = highspy.HighsVarType.kInteger, highspy.HighsVarType.kContinuous
    lp.integrality_ = [continuous] * q + [integer] * h + [integer if integral_eta else continuous]
    return lp, layout


def start_vector(layout: Layout, alpha: np.ndarray, z: np.ndarray, eta: float) -> np.ndarray:
    """A full column vector (alpha, z, eta) for ``Highs.setSolution``."""
    return np.concatenate(
        [np.asarray(alpha, dtype=np.float64), np.asarray(z, dtype=np.float64), [float(eta)]]
    )

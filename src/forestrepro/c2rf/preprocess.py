"""Preprocessing of C2RF (Sec. 3, Propositions 3-5; Algorithm 1, Steps 1-20).

``reduce`` turns (R, lambda) into the reduced problem Algorithm 1 solves: identical points merged
with weights w (Prop. 3), points whose class the bounds l <= alpha <= u already decide fixed
(Prop. 5) with the lambda update, identical trees merged with multiplicities v (Prop. 4).
``Reduction.expand`` maps a reduced solution back to every original point and tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def unique_patterns(R: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Prop. 3 / Algorithm 1, Steps 1-3: the distinct columns of R (t x m).

    Returns (patterns (h x t), weights w (h,), inverse (m,)) with R[:, i] == patterns[inverse[i]]
    and w_k = |{i : r_i = r_bar_k}|. Patterns are in lexicographic order.
    """
    patterns, inverse, weights = np.unique(np.asarray(R).T, axis=0, return_inverse=True, return_counts=True)
    return patterns.astype(np.int8), weights.astype(np.int64), inverse.reshape(-1)


def merge_trees(patterns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Prop. 4 / Algorithm 1, Steps 11-14: trees voting identically on every pattern share one weight.

    ``patterns`` is h x t. Returns (group (t,), v (q,)): tree j belongs to merged tree group[j],
    and v_g = number of trees in group g (the paper's s^g <- v_g s^g).
    """
    _, first, group, v = np.unique(
        patterns.T, axis=0, return_index=True, return_inverse=True, return_counts=True
    )
    order = np.argsort(first)  # keep groups in order of their first tree
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank[group.reshape(-1)], v[order].astype(np.int64)


def fixed_classes(
    patterns: np.ndarray, lower: float, upper: float, v: np.ndarray | None = None
) -> np.ndarray:
    """Prop. 5: +1 where phi_i = -u|A_i| + l|B_i| >= 1 (eq. 6, z_i = 1 in every feasible point),
    -1 where phi'_i = -l|A_i| + u|B_i| <= -1 (eq. 7, z_i = 0), 0 where z_i is free.

    A_i / B_i are the trees voting -1 / +1 on pattern i; with merged trees, counts are weighted by v.
    For l = 1, u = 100 and t = 20 trees only unanimous votes are fixed.
    """
    v = np.ones(patterns.shape[1], dtype=np.int64) if v is None else v
    n_neg = (patterns < 0).astype(np.int64) @ v
    n_pos = (patterns > 0).astype(np.int64) @ v
    fixed = np.zeros(len(patterns), dtype=np.int8)
    fixed[-upper * n_neg + lower * n_pos >= 1] = 1
    fixed[-lower * n_neg + upper * n_pos <= -1] = -1
    return fixed


@dataclass(frozen=True)
class Reduction:
    """The reduced problem of Algorithm 1 and the map back to the original one.

    Reduced problem: min eta' s.t. alpha^T s_k <= -1 + z_k M, alpha^T s_k >= 1 - (1 - z_k) M for the
    free patterns k, lam_bar - eta' <= sum_k w_k z_k <= lam_bar + eta', l <= alpha_g <= u,
    0 <= eta' <= eta_bar, where s_k = S[k] * v (merged trees counted v_g times).
    The original objective is eta = eta' + eta_offset.

    ``S``: free patterns over merged trees (h_free x q, +-1); ``v``: tree multiplicities (q,);
    ``w``: point multiplicities of the free patterns; ``point_pattern`` (m,): each point's pattern
    among all h distinct patterns; ``pattern_fixed`` (h,): +1 / -1 fixed by Prop. 5, 0 free;
    ``pattern_free`` (h,): index into S for free patterns, -1 otherwise; ``tree_group`` (t,).
    """

    S: np.ndarray
    v: np.ndarray
    w: np.ndarray
    lam_bar: int
    eta_bar: int
    eta_offset: int
    point_pattern: np.ndarray
    pattern_fixed: np.ndarray
    pattern_free: np.ndarray
    tree_group: np.ndarray

    @property
    def coefficients(self) -> np.ndarray:
        """s_k = S[k] * v: the reduced rows' coefficients of alpha (h_free x q)."""
        return self.S.astype(np.float64) * self.v

    def expand(self, alpha_reduced: np.ndarray, z_reduced: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Map (alpha over merged trees, z over free patterns) to (alpha (t,), z (m,)).

        Trees of one group get the group's weight (proof of Prop. 4, second part); points get
        their pattern's z (Prop. 3) or the value Prop. 5 fixes.
        """
        z_pattern = (self.pattern_fixed > 0).astype(np.int8)
        free = self.pattern_free >= 0
        z_pattern[free] = np.round(np.asarray(z_reduced)[self.pattern_free[free]]).astype(np.int8)
        return np.asarray(alpha_reduced, dtype=np.float64)[self.tree_group], z_pattern[self.point_pattern]


def eta_bar(lam: int, m: int) -> int:
    """Eq. (1): eta_bar = max(lambda, m - lambda)."""
    return int(max(lam, m - lam))


def identity(R: np.ndarray, lam: int) -> Reduction:
    """Problem (2) as printed: one row per point, one weight per tree, nothing fixed."""
    t, m = R.shape
    return Reduction(
        S=np.asarray(R, dtype=np.int8).T.copy(),
        v=np.ones(t, dtype=np.int64),
        w=np.ones(m, dtype=np.int64),
        lam_bar=int(lam),
        eta_bar=eta_bar(lam, m),
        eta_offset=0,
        point_pattern=np.arange(m),
        pattern_fixed=np.zeros(m, dtype=np.int8),
        pattern_free=np.arange(m),
        tree_group=np.arange(t),
    )


def reduce(R: np.ndarray, lam: int, lower: float, upper: float) -> Reduction:
    """Algorithm 1, Steps 1-20 and the lambda / eta_bar update before its MILP.

    beta / gamma = number of points fixed positive / negative. The printed update
    'lambda_bar = min{0, lambda - beta}' is read as max{0, lambda - beta} (the text after Prop. 5:
    if |P| >= lambda, lambda becomes 0; else lambda - |P| points remain to be called positive).
    When beta > lambda the original eta is beta - lambda + eta' (``eta_offset``).
    """
    t, m = R.shape
    patterns, w_all, inverse = unique_patterns(R)
    fixed = fixed_classes(patterns, lower, upper)
    beta = int(w_all[fixed > 0].sum())
    gamma = int(w_all[fixed < 0].sum())
    lam_bar = max(0, int(lam) - beta)
    group, v = merge_trees(patterns)
    free = np.flatnonzero(fixed == 0)
    pattern_free = np.full(len(patterns), -1, dtype=np.int64)
    pattern_free[free] = np.arange(len(free))
    first_tree = np.unique(group, return_index=True)[1]
    return Reduction(
        S=patterns[free][:, first_tree],
        v=v,
        w=w_all[free],
        lam_bar=lam_bar,
        eta_bar=int(max(lam_bar, m - beta - gamma - lam_bar)),
        eta_offset=max(0, beta - int(lam)),
        point_pattern=inverse,
        pattern_fixed=fixed,
        pattern_free=pattern_free,
        tree_group=group,
    )

"""Shared helpers: small random vote matrices and a brute-force C2RF optimum."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog


def alpha_for(R: np.ndarray, z: np.ndarray, lower: float, upper: float) -> np.ndarray | None:
    """A weight vector with alpha^T r_i >= 1 where z_i = 1 and <= -1 where z_i = 0, or None."""
    sign = np.where(np.asarray(z) == 1, 1.0, -1.0)
    A = -(sign[:, None] * np.asarray(R, dtype=np.float64).T)  # -sign_i r_i^T alpha <= -1
    res = linprog(
        np.zeros(R.shape[0]),
        A_ub=A,
        b_ub=-np.ones(len(z)),
        bounds=[(lower, upper)] * R.shape[0],
        method="highs",
    )
    return res.x if res.status == 0 else None


def feasible_z(R: np.ndarray, lower: float = 1.0, upper: float = 100.0) -> list[np.ndarray]:
    """Every z in {0, 1}^m for which some alpha in the box realises it (enumeration)."""
    candidates = (np.array(bits) for bits in itertools.product((0, 1), repeat=R.shape[1]))
    return [z for z in candidates if alpha_for(R, z, lower, upper) is not None]


def brute_force(feasible: list[np.ndarray], lam: int) -> tuple[float, list[np.ndarray]]:
    """Optimal eta of Problem (2) over the enumerated feasible z, and all optimal z."""
    etas = [abs(int(z.sum()) - lam) for z in feasible]
    best = min(etas, default=float("inf"))
    return best, [z for z, eta in zip(feasible, etas) if eta == best]


def _random_votes(rng: np.random.Generator, t: int, m: int, lean: float = 0.0) -> np.ndarray:
    """t x m votes +-1; each tree votes +1 with its own probability around 0.5 + lean."""
    p = np.clip(0.5 + lean + rng.uniform(-0.3, 0.3, size=(t, 1)), 0.05, 0.95)
    return np.where(rng.random((t, m)) < p, 1, -1).astype(np.int8)


def _reduced_z(reduction, z: np.ndarray) -> np.ndarray:
    """A feasible z over the original points as z over the reduced free patterns."""
    free = reduction.pattern_free[reduction.point_pattern]
    out = np.zeros(len(reduction.w), dtype=np.int8)
    out[free[free >= 0]] = np.asarray(z)[free >= 0]
    return out


@pytest.fixture(scope="session")
def reduced_z():
    """``reduced_z(reduction, z)``: a feasible z over the original points as z over the free patterns."""
    return _reduced_z


@pytest.fixture(scope="session")
def random_votes():
    """``random_votes(rng, t, m, lean)``: t x m votes +-1, tree j votes +1 with probability ~ 0.5 + lean."""
    return _random_votes


@pytest.fixture(scope="session")
def tiny_instances() -> list[tuple]:
    """(R, lambda, l, u, brute-force eta*, optimal z's, all feasible z's) for small instances, some with
    eta* > 0.

    Repeated columns and repeated trees are planted so that Props. 3-5 all act.
    """
    rng = np.random.default_rng(20240605)
    cases = []
    for index in range(8):
        t, m = (3, 8) if index % 2 else (5, 9)
        R = _random_votes(rng, t, m, lean=0.3 if index % 3 == 0 else 0.0)
        R[:, -1] = R[:, 0]  # a repeated point (Prop. 3)
        R[-1] = R[0]  # a repeated tree (Prop. 4)
        R[:, 1] = 1  # a unanimous point (Prop. 5)
        upper = 100.0 if index < 5 else 3.0
        lam = int(rng.integers(0, m + 1)) if index % 4 else 1
        feasible = feasible_z(R, 1.0, upper)
        eta, optima = brute_force(feasible, lam)
        cases.append((R, lam, 1.0, upper, eta, optima, feasible))
    assert any(case[4] > 0 for case in cases) and any(case[4] == 0 for case in cases)
    return cases


@pytest.fixture(scope="session")
def tiny_reduced(tiny_instances) -> list[tuple]:
    """(reduction, l, u, all feasible z's) of the tiny instances that keep a free pattern."""
    from forestrepro.c2rf.preprocess import reduce

    cases = []
    for R, lam, lower, upper, _, _, feasible in tiny_instances:
        reduction = reduce(R, lam, lower, upper)
        if len(reduction.w):
            cases.append((reduction, lower, upper, feasible))
    return cases

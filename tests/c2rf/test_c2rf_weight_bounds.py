"""Tree-weight bounds at the library's entry (issue 68 item 5): an empty interval is an error, and
lower == upper gets one answer from every approach, the brute force's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.experiment import solve_approach
from forestrepro.c2rf.instances import build_instance

SOLVED = {name: kwargs for name, kwargs in APPROACHES.items() if kwargs is not None}


def _brute_force(R: np.ndarray, lam: int, weights) -> float:
    """min over alpha in weights^t of |#{i: alpha^T r_i > 0} - lam|."""
    return min(
        abs(int((np.asarray(alpha) @ R > 0).sum()) - lam)
        for alpha in itertools.product(weights, repeat=R.shape[0])
    )


@pytest.mark.parametrize("name", sorted(SOLVED))
def test_lower_above_upper_is_an_error_naming_both(name):
    R = np.array([[1, -1, 1], [-1, 1, 1]])
    with pytest.raises(ValueError, match=r"lower \(5\) must not exceed upper \(1\)"):
        solve_approach(R, 1, lower=5, upper=1, time_limit=5.0, **SOLVED[name])


@pytest.mark.parametrize("weight", [1.0, 3.0])
def test_equal_bounds_give_every_approach_the_brute_force_answer(weight):
    rng = np.random.default_rng(7)
    R = np.where(rng.random((5, 9)) < 0.5, 1, -1)
    for lam in range(10):
        best = _brute_force(R, lam, [weight])
        for name, kwargs in SOLVED.items():
            result = solve_approach(R, lam, lower=weight, upper=weight, time_limit=5.0, **kwargs)
            assert (result.status, result.eta, result.best_bound) == ("optimal", best, best), (name, lam)
            assert np.array_equal(result.alpha, np.full(5, weight)), name


def test_equal_bounds_on_the_documented_instance_one_answer():
    # docs/examples/c2rf.py's instance, where the approaches used to answer "infeasible", "no
    # solution" or an alpha below the bound
    X, y = load_breast_cancer(return_X_y=True)
    instance = build_instance(X, 1 - y, sampling="biased", seed=0, fraction=0.1)
    R, lam = instance.R, instance.lam
    majority = (R.sum(axis=0) > 0).astype(int)
    answers = {
        name: solve_approach(R, lam, lower=2.0, upper=2.0, time_limit=5.0, **kwargs)
        for name, kwargs in SOLVED.items()
    }
    assert {(r.status, r.eta) for r in answers.values()} == {("optimal", abs(int(majority.sum()) - lam))}
    for result in answers.values():
        assert np.array_equal(result.z, majority) and (result.alpha == 2.0).all()

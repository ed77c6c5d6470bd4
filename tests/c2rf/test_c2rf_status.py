"""Time-outs and infeasible models are statuses, never exceptions; larger instances agree with the plain model."""

from __future__ import annotations

import numpy as np
import pytest

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.experiment import solve_approach
from forestrepro.c2rf.solver import majority_vote, solve


@pytest.mark.parametrize("preprocess", [False, True])
@pytest.mark.parametrize("local_search", [False, True])
def test_infeasible_model_is_a_status(preprocess, local_search):
    # one point voted (+1, -1) with 1 <= alpha <= 1.5: alpha_1 - alpha_2 lies in [-0.5, 0.5], the dead zone
    R = np.array([[1], [-1]])
    result = solve(
        R, 1, lower=1.0, upper=1.5, preprocess=preprocess, local_search=local_search, time_limit=10
    )
    assert result.status == "infeasible"
    assert result.alpha is None and result.z is None and np.isnan(result.eta) and np.isnan(result.gap)


def test_time_out_is_a_status(random_votes):
    rng = np.random.default_rng(1)
    R = random_votes(rng, 20, 3000, lean=0.3)
    result = solve(R, 700, preprocess=False, time_limit=0.5)
    assert result.status == "time_limit"
    assert result.seconds < 30
    assert np.isnan(result.eta) or result.eta >= result.best_bound


def test_everything_fixed_by_preprocessing():
    R = np.array([[1, 1, -1], [1, 1, -1], [1, 1, -1]])
    result = solve(R, 1, time_limit=10)
    assert (result.status, result.solved_by, result.eta, result.n_binaries) == (
        "optimal",
        "preprocessing",
        1.0,
        0,
    )


def test_majority_vote_tie_is_negative():
    R = np.array([[1, 1, -1], [-1, 1, -1]])
    assert majority_vote(R).tolist() == [0, 1, 0]


def test_presets_agree_with_plain_model_on_larger_instances(random_votes):
    rng = np.random.default_rng(7)
    for lean, lam in ((0.0, 35), (0.35, 10)):
        R = random_votes(rng, 7, 80, lean=lean)
        plain = solve(R, lam, preprocess=False, time_limit=60)
        assert plain.status == "optimal"
        for name, kwargs in APPROACHES.items():
            if kwargs is not None:
                result = solve_approach(R, lam, time_limit=60, **kwargs)
                assert result.status == "optimal" and result.eta == plain.eta, name

"""HiGHS's log of a C2RF solve reaches the job's log (logger forestrepro.highs), never stdout."""

from __future__ import annotations

import logging

import numpy as np

from forestrepro.c2rf.solver import solve


def test_highs_log_goes_to_the_job_log_not_stdout(caplog, capfd):
    rng = np.random.default_rng(3)
    R = np.where(rng.random((15, 40)) < 0.6, 1, -1)
    with caplog.at_level(logging.INFO, logger="forestrepro.highs"):
        result = solve(R, 30, preprocess=False, time_limit=30.0)
    lines = [r.getMessage() for r in caplog.records if r.name == "forestrepro.highs"]
    assert result.status == "optimal"
    assert any(line.startswith("highs: Running HiGHS") for line in lines), lines[:5]
    assert any("Solving report" in line for line in lines)
    out, _ = capfd.readouterr()
    assert "HiGHS" not in out and "Solving report" not in out

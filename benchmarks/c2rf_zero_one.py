"""C2RF: how far the bounds from the 0-1 model on z can go, per instance.

Every lower bound of the exact chain but the final MILP (``cover``, ``clique``, ``combinatorial``)
is a bound on the 0-1 model of ``bounds.combinatorial_bound``, which keeps the pair rows every
realisable z obeys and drops alpha. Where lambda_bar lies below the counts that model allows, its
minimum is min w^T z - lambda_bar. This script finds that minimum where it can: the LP of the pair
rows has a half-integral optimum z_lp (``bounds.cover_lp_minimum``, by a minimum cut); HiGHS then
solves the 0-1 model with every integral entry of z_lp fixed, over the entries at 1/2 only. The
restricted optimum is a feasible z of the whole model, so when its count equals the LP's minimum
(rounded up), that is the model's minimum, proven: no bound from the 0-1 model, the clique LP
included, can exceed it. Whether that optimal z is realised by some alpha in [l, u]^q is then
checked with one LP (``bounds.realisability_cut``); if not, the gap between that bound and the
optimum of Problem (2) lies in alpha alone.

    .venv/bin/python benchmarks/c2rf_zero_one.py --root-seed 20180628 --datasets connect_4
        [--samples 0 1 2 3 4] [--sampling biased] [--time-limit 120]

One line per instance: free patterns h, lambda_bar, entries of z_lp at 1/2, the LP's bound on
eta' (ceil(min) - lambda_bar), the restricted model's status and eta', whether they meet, and
whether the restricted optimum is realisable (else the size of the infeasible subsystem found).
Only instances where lambda_bar lies below the model's counts (eta' > 0 on this side) are printed:
elsewhere this side bounds nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import highspy
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from c2rf import add_instance_options, instances

from forestrepro.c2rf.bounds import _z_model, cover_lp_minimum, realisability_cut
from forestrepro.c2rf.preprocess import reduce


def restricted_minimum(reduction, z_lp: np.ndarray, time_limit: float) -> tuple[str, np.ndarray | None]:
    """HiGHS on the 0-1 model with the integral entries of ``z_lp`` fixed: (status, z or None)."""
    h = len(reduction.w)
    lp = _z_model(reduction, 1.0, 100.0, [])
    lower, upper = np.asarray(lp.col_lower_, dtype=float), np.asarray(lp.col_upper_, dtype=float)
    fixed = np.flatnonzero(z_lp != 0.5)
    lower[fixed], upper[fixed] = z_lp[fixed], z_lp[fixed]
    lp.col_lower_, lp.col_upper_ = lower, upper
    highs = highspy.Highs()
    for name, value in {"output_flag": False, "threads": 1, "time_limit": time_limit}.items():
        highs.setOptionValue(name, value)
    highs.passModel(lp)
    highs.run()
    status = highs.getModelStatus()
    if highs.getInfo().primal_solution_status != highspy.SolutionStatus.kSolutionStatusFeasible:
        return str(status), None
    return str(status), np.round(np.asarray(highs.getSolution().col_value)[:h]).astype(np.int8)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_instance_options(parser)
    parser.add_argument("--time-limit", type=float, default=120.0, help="for the restricted 0-1 model")
    args = parser.parse_args(argv)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    print(
        f"{'data set':12s} {'sampling':8s} {'s':>2s} {'h':>6s} {'lam_bar':>7s} {'halves':>6s} "
        f"{'LP bound':>8s} {'0-1 model':>10s} {'eta_0-1':>8s} {'meet':>5s}  realisable  sec",
        flush=True,
    )
    for name, sampling, sample, _, instance in instances(args):
        reduction = reduce(instance.R, instance.lam, 1.0, 100.0)
        if len(reduction.w) == 0:
            continue
        started = time.monotonic()
        value, z_lp = cover_lp_minimum(reduction, 1.0, 100.0)
        bound = math.ceil(value - 1e-9) - reduction.lam_bar
        status, z = restricted_minimum(reduction, z_lp, args.time_limit)
        eta = None if z is None else int(reduction.w @ z) - reduction.lam_bar
        if eta is not None and eta <= 0:
            continue
        realised = "-"
        if z is not None:
            alpha, cut = realisability_cut(reduction.coefficients, z, 1.0, 100.0)
            realised = "yes" if alpha is not None else f"no ({0 if cut is None else len(cut[0])})"
        print(
            f"{name:12s} {sampling:8s} {sample:2d} {len(reduction.w):6d} {reduction.lam_bar:7d} "
            f"{int((z_lp == 0.5).sum()):6d} {bound:8d} {status.split('.')[-1][1:]:>10s} "
            f"{'-' if eta is None else eta:>8} {str(eta == bound):>5s}  {realised:10s} "
            f"{time.monotonic() - started:5.1f}",
            flush=True,
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()

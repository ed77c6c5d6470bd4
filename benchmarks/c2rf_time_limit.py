"""C2RF time limits: a solve under ``c2rf.highs_run``'s watchdog beside the same solve with HiGHS
run in this process, stopped by its own ``time_limit`` only (the code before the watchdog).

Instances are built as the pipeline builds them (``benchmarks/c2rf.py``); the default is the one
whose p-C2RF+ solve ran 3,510 s at a 600 s limit in the committed records: connect_4, the share
reading of the biased sampling, sample 2.

    .venv/bin/python benchmarks/c2rf_time_limit.py [--datasets connect_4] [--samples 2]
        [--bias share] [--approach p-C2RF+] [--time-limit 90]

One line per instance and run: seconds, seconds / limit, the allowance max(5 %, 5 s), eta, bound
and status; the load average is printed at the start and the end (wall times on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import highspy
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from c2rf import add_instance_options, instances

from forestrepro.c2rf import solver
from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.experiment import solve_approach
from forestrepro.c2rf.highs_run import STATUS, grace


def in_process_mip(lp, options, start, stop_at):
    """HiGHS in this process, stopped by its own ``time_limit`` only (``stop_at`` ignored)."""
    highs = highspy.Highs()
    for name, value in options.items():
        highs.setOptionValue(name, value)
    highs.setOptionValue("output_flag", False)
    highs.passModel(lp)
    if start is not None:
        solution = highspy.HighsSolution()
        solution.col_value = start
        solution.value_valid = True
        highs.setSolution(solution)
    highs.run()
    info = highs.getInfo()
    model_status = highs.getModelStatus()
    status = STATUS.get(model_status, highs.modelStatusToString(model_status).lower())
    feasible = info.primal_solution_status == highspy.SolutionStatus.kSolutionStatusFeasible
    x = np.asarray(highs.getSolution().col_value) if feasible else None
    bound = float("inf") if status == "infeasible" else float(info.mip_dual_bound)
    return status, x, bound, int(info.mip_node_count), False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_instance_options(parser)
    parser.set_defaults(datasets=["connect_4"], samples=[2], bias="share")
    parser.add_argument("--approach", default="p-C2RF+", choices=[a for a, k in APPROACHES.items() if k])
    parser.add_argument("--time-limit", type=float, default=90.0)
    args = parser.parse_args(argv)
    limit = args.time_limit
    print(
        f"load average at start: {os.getloadavg()[0]:.2f}; limit {limit:g} s, allowance {2 * grace(limit):g} s"
    )
    for name, sampling, sample, seed, instance in instances(args):
        for run, patch in (("watchdog", None), ("in-process", in_process_mip)):
            with mock.patch.object(solver, "run_mip", patch) if patch else nullcontext():
                begun = time.monotonic()
                result = solve_approach(
                    instance.R, instance.lam, time_limit=limit, seed=seed, **APPROACHES[args.approach]
                )
                wall = time.monotonic() - begun
            print(
                f"{name} {sampling} sample {sample} {args.approach} {run:>10}: {wall:8.1f} s "
                f"({wall / limit:.3f} x limit, {'within' if wall <= limit + 2 * grace(limit) else 'PAST'} "
                f"the allowance), eta {result.eta:g}, bound {result.best_bound:g}, {result.status}"
            )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

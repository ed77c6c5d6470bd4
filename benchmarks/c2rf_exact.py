"""C2RF: the exact chain ``c2rf.exact.solve_exact`` beside p-C2RF+ (``solver.solve``), per sample.

Instances are built exactly as ``benchmarks/c2rf.py`` builds them (Sec. 5.1; seed
``derive_seed(--root-seed, "c2rf", data set, sampling, sample)``). On each instance the exact chain
runs first, then p-C2RF+ with the same ``--time-limit``, in this process, one HiGHS thread each.

    .venv/bin/python benchmarks/c2rf_exact.py [--datasets phoneme magic] [--samples 0]
        [--sampling biased srs] [--time-limit 60] [--off clique] [--no-baseline] [--out rows.csv]

``--off`` switches steps of the chain off (``exact.STEPS``); ``--root-seed`` defaults to the
pipeline's (``conf/config.yaml``), so the instances are those of the committed records.

One line per instance: m, free patterns h, lambda, the kind of instance, then for the exact chain
eta, proven bound, status, the step that proved it (``solved_by``) and seconds, and for p-C2RF+
eta, bound, status and seconds. Kinds: ``reachable`` (optimal eta = 0); ``hole`` (eta > 0 although
counts on both sides of lambda are reachable: a dictator tree's count, which is exact, lies on the
other side of lambda than the best solution's count); ``below`` / ``above`` (eta > 0, lambda below /
above the best count and no dictator count on its other side; 'below' is the common case of biased
samples). The load average of the machine is printed at the start and the end (timings are wall
time on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from c2rf import add_instance_options, instances

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.exact import STEPS, solve_exact
from forestrepro.c2rf.preprocess import reduce
from forestrepro.c2rf.solver import solve


def kind(R: np.ndarray, lam: int, z: np.ndarray | None, eta: float) -> str:
    """The kind of instance (module docstring), from the best solution and the dictator counts."""
    if z is None:
        return "?"
    if eta == 0:
        return "reachable"
    dictators = (np.asarray(R) > 0).sum(axis=1)  # tree j alone decides: its positive votes
    count = int(z.sum())
    if count > lam:
        return "hole" if np.any(dictators < lam) else "below"
    return "hole" if np.any(dictators > lam) else "above"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_instance_options(parser)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument(
        "--off", nargs="+", choices=STEPS, default=[], help="steps of the chain to switch off"
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip p-C2RF+")
    parser.add_argument("--out", default=None, help="write every row to this CSV")
    args = parser.parse_args(argv)

    print(
        f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; time limit {args.time_limit:g} s"
    )
    header = (
        f"{'data set':12s} {'sampling':8s} {'s':>2s} {'m':>6s} {'h':>6s} {'lambda':>6s} {'kind':9s} | "
        f"{'eta':>6s} {'bound':>6s} {'status':10s} {'solved_by':13s} {'sec':>6s}"
    )
    if not args.no_baseline:
        header += f" | {'p-C2RF+ eta':>11s} {'bound':>6s} {'status':10s} {'sec':>6s}"
    print(header, flush=True)
    rows = []
    for name, sampling, sample, seed, instance in instances(args):
        R, lam = instance.R, instance.lam
        h = len(reduce(R, lam, 1.0, 100.0).w)
        off = dict.fromkeys(args.off, False)
        exact = solve_exact(R, lam, time_limit=args.time_limit, seed=seed, **off)
        row = {
            "dataset": name,
            "sampling": sampling,
            "sample": sample,
            "m": R.shape[1],
            "h": h,
            "lam": lam,
            "kind": kind(R, lam, exact.z, exact.eta),
            "eta": exact.eta,
            "bound": exact.best_bound,
            "status": exact.status,
            "solved_by": exact.solved_by,
            "seconds": exact.seconds,
            "steps": exact.steps,
        }
        line = (
            f"{name:12s} {sampling:8s} {sample:2d} {R.shape[1]:6d} {h:6d} {lam:6d} {row['kind']:9s} | "
            f"{exact.eta:6.0f} {exact.best_bound:6.0f} {exact.status:10s} {exact.solved_by:13s} "
            f"{exact.seconds:6.1f}"
        )
        if not args.no_baseline:
            started = time.monotonic()
            base = solve(R, lam, time_limit=args.time_limit, seed=seed, **APPROACHES["p-C2RF+"])
            row.update(
                base_eta=base.eta,
                base_bound=base.best_bound,
                base_status=base.status,
                base_seconds=time.monotonic() - started,
            )
            line += f" | {base.eta:11.0f} {base.best_bound:6.0f} {base.status:10s} {row['base_seconds']:6.1f}"
            if exact.status == "optimal" and base.status == "optimal" and base.eta != exact.eta:
                line += "  MISMATCH"
        rows.append(row)
        print(line, flush=True)
    frame = pd.DataFrame(rows)
    if args.out:
        frame.to_csv(args.out, index=False)
    solved = frame["status"] == "optimal"
    within = solved & (frame["seconds"] <= args.time_limit)
    print(
        f"\nexact chain: optimal within {args.time_limit:g} s on {int(within.sum())}/{len(frame)}; "
        f"median {frame['seconds'].median():.2f} s; solved_by: "
        + ", ".join(f"{k} {v}" for k, v in frame.loc[solved, "solved_by"].value_counts().items())
    )
    if not args.no_baseline:
        base_within = (frame["base_status"] == "optimal") & (frame["base_seconds"] <= args.time_limit)
        print(
            f"p-C2RF+:     optimal within {args.time_limit:g} s on {int(base_within.sum())}/{len(frame)}; "
            f"median {frame['base_seconds'].median():.2f} s"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    sys.exit(main())

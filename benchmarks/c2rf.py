"""C2RF on HiGHS: run time and eta of each approach per instance, and the share solved in the limit.

Instances as in Sec. 5.1 (``forestrepro.c2rf.instances``): per data set and sample, the seed is
``derive_seed(--root-seed, "c2rf", data set, sampling, sample)``. Approaches are the presets of
``forestrepro.c2rf.approaches`` (RF, C2RF, only PP, only PD, PP+PD, p-C2RF+, C2RF exact); every approach gets
``--time-limit`` seconds of wall time (the machine may be shared, so times are noisy).

    .venv/bin/python benchmarks/c2rf.py [--datasets phoneme mushroom] [--samples 0 1 2 3 4]
        [--sampling biased srs] [--bias inclusion|share] [--time-limit 60]
        [--approaches "C2RF" "only PP" "p-C2RF+"] [--ablation] [--out rows.csv]

``--ablation`` replaces the approaches by p-C2RF+ and its variants with one switch turned off
(or, for the priority dive and HiGHS's heuristic effort 0.3 instead of 0.05, turned on): the
methods of the report's ablation table, read from ``conf/`` (``ablation``).

Prints one line per instance (m, distinct vote patterns, lambda; then time in s and eta per
approach, '*' marking 'not solved': no proven optimum within the limit); then per approach the
share of instances solved within the limit and the worst time of a proven one; per data set and
sampling, each approach's samples solved, median time ('—' when fewer than half were solved)
and max time of the solved ones, beside the paper's Gurobi median (Table 2, biased samples) where
it has one; last, every sample an approach did not solve, with its eta, proven bound and gap
(issue 21's goal: p-C2RF+ / the exact chain on all 130 samples, ``--sampling biased srs``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from forestrepro.c2rf.approaches import APPROACHES, PAPER_COLUMN
from forestrepro.c2rf.experiment import run_instance
from forestrepro.data import apply_paper_target, load_dataset, load_spec
from forestrepro.evaluation.seeds import derive_seed

PAPER_DATASETS = [
    "phoneme",
    "magic",
    "adult",
    "churn",
    "ring",
    "twonorm",
    "waveform_21",
    "ann_thyroid",
    "mushroom",
    "waveform_40",
    "connect_4",
    "coil2000",
    "clean2",
]
PAPER_NAME = {"mushroom": "agaricus_lepiota"}
GOAL_COLUMN = {
    "p-C2RF+": "p-C2RF",
    "C2RF exact": "p-C2RF",
}  # ours, compared with the paper's p-C2RF (the goal)
PUBLISHED = Path(__file__).resolve().parents[1] / "src" / "forestrepro" / "report" / "published"
CONF = Path(__file__).resolve().parents[1] / "conf"
MIRROR = Path(__file__).resolve().parents[2] / "shared" / "datasets"
"""The local mirror beside the checkout, used unless --mirror or FORESTREPRO_MIRROR says otherwise."""
ROOT_SEED = yaml.safe_load((CONF / "config.yaml").read_text())["root_seed"]
"""The pipeline's root seed (``conf/config.yaml``): by default a benchmark builds the instances of the
committed reports."""


def ablation() -> dict[str, dict]:
    """p-C2RF+ and its one-switch variants: the methods of the report's ablation table
    (``conf/paper/c2rf.yaml``, ``tables.ablation_time``) with the parameters of their
    ``conf/method/<name>.yaml``, so the benchmark and the pipeline run the same variants."""
    paper = yaml.safe_load((CONF / "paper" / "c2rf.yaml").read_text())
    variants = {}
    for method in paper["tables"]["ablation_time"]["methods"]:
        params = yaml.safe_load((CONF / "method" / f"{method}.yaml").read_text())["params"]
        variants["p-C2RF+" if method == "c2rf_plus" else method] = params
    return variants


def load(name: str, mirror: str | None) -> tuple[np.ndarray, np.ndarray]:
    spec = load_spec(name)
    frame = load_dataset(spec, mirror_dir=mirror or os.environ.get("FORESTREPRO_MIRROR") or MIRROR).frame
    y = apply_paper_target(frame["target"].to_numpy(), spec, "c2rf")
    return frame.drop(columns="target").to_numpy(dtype=np.float64), y


def add_source_options(parser: argparse.ArgumentParser) -> None:
    """Where the instances come from: the root seed (the pipeline's by default) and the data
    mirror."""
    parser.add_argument("--root-seed", type=int, default=ROOT_SEED)
    parser.add_argument("--mirror", default=None, help="data mirror directory (default: ../shared/datasets)")


def paper_medians() -> dict[tuple[str, str], float]:
    """(paper data set name, approach column) -> Table 2's median seconds (nan for '—')."""
    table1 = pd.read_csv(PUBLISHED / "c2rf_table1_datasets.csv")
    table2 = pd.read_csv(PUBLISHED / "c2rf_table2_runtimes.csv").merge(table1[["id", "dataset"]], on="id")
    return {(r.dataset, r.method): r.median_seconds for r in table2.itertuples()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", default=PAPER_DATASETS)
    parser.add_argument("--samples", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--sampling", nargs="+", choices=["biased", "srs"], default=["biased"])
    parser.add_argument("--bias", choices=["share", "inclusion"], default="inclusion")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--approaches", nargs="+", default=list(APPROACHES))
    parser.add_argument("--ablation", action="store_true")
    add_source_options(parser)
    parser.add_argument("--out", default=None, help="write every row to this CSV")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.approaches) - set(APPROACHES))
    if unknown:
        parser.error(f"unknown approaches {unknown}; choose from {list(APPROACHES)}")
    approaches = ablation() if args.ablation else {name: APPROACHES[name] for name in args.approaches}

    rows = []
    print(
        "data set     sampling sample      m      h    lambda  " + "  ".join(f"{n:>18s}" for n in approaches)
    )
    for name in args.datasets:
        X, y = load(name, args.mirror)
        for sampling in args.sampling:
            for sample in args.samples:
                seed = derive_seed(args.root_seed, "c2rf", name, sampling, sample)
                result = run_instance(
                    X,
                    y,
                    sampling=sampling,
                    seed=seed,
                    approaches=approaches,
                    time_limit=args.time_limit,
                    bias=args.bias,
                )
                for row in result:
                    row.update(dataset=name, sample=sample)
                rows += result
                first = result[0]
                cells = [
                    f"{r['seconds']:8.2f}{'*' if not r['solved'] else ' '} {r['eta']:8.0f}" for r in result
                ]
                print(
                    f"{name:12s} {sampling:8s} {sample:6d} {first['m']:6d} {first['n_unique_patterns']:6d} "
                    f"{first['lam']:8d}  " + "  ".join(f"{c:>18s}" for c in cells),
                    flush=True,
                )
    frame = pd.DataFrame(rows)
    if args.out:
        frame.drop(columns=["switches"]).to_csv(args.out, index=False)
    summarise(frame, list(approaches), args)


def summarise(frame: pd.DataFrame, approaches: list[str], args: argparse.Namespace) -> None:
    """The share solved and worst proven time per approach, the per-instance table, and every
    sample left unsolved with its bound and gap."""
    samplings = "+".join(args.sampling)
    print(
        f"\nshare solved within {args.time_limit:g} s ({samplings}, bias={args.bias}); worst time of a proven one"
    )
    for name, group in frame.groupby("approach", sort=False):
        solved = group[group["solved"].astype(bool)]
        worst = solved.loc[solved["seconds"].idxmax()] if len(solved) else None
        where = (
            ""
            if worst is None
            else f"{worst['seconds']:.2f} s ({worst['dataset']} {worst['sampling']} {worst['sample']})"
        )
        print(
            f"  {name:10s} {len(solved) / len(group):6.1%}  ({len(solved)}/{len(group)})  worst {where or '—'}"
        )

    published = paper_medians()
    print(
        "\nper instance: solved of samples, median / max time (s) of the solved ones; "
        "in brackets the paper's Gurobi median (Table 2, biased samples)"
    )
    print(f"{'data set':12s} {'sampling':8s} " + " ".join(f"{n:>28s}" for n in approaches))
    for (name, sampling), group in frame.groupby(["dataset", "sampling"], sort=False):
        cells = []
        for approach in approaches:
            runs = group[group["approach"] == approach]
            solved = runs[runs["solved"].astype(bool)]
            median = f"{solved['seconds'].median():.2f}" if 2 * len(solved) > len(runs) else "—"
            high = f"{solved['seconds'].max():.2f}" if len(solved) else "—"
            column = PAPER_COLUMN.get(approach, GOAL_COLUMN.get(approach))
            paper = published.get((PAPER_NAME.get(name, name), column)) if sampling == "biased" else None
            paper = "" if paper is None else ("(—)" if np.isnan(paper) else f"({paper:g})")
            cells.append(f"{len(solved)}/{len(runs)} {median} / {high} {paper}")
        print(f"{name:12s} {sampling:8s} " + " ".join(f"{c:>28s}" for c in cells))

    unsolved = frame[~frame["solved"].astype(bool)]
    print(
        f"\nnot solved within {args.time_limit:g} s: {len(unsolved)} (eta / proven bound, gap, status, seconds)"
    )
    for row in unsolved.itertuples():
        print(
            f"  {row.approach:10s} {row.dataset:12s} {row.sampling:8s} {row.sample:3d}  "
            f"{row.eta:.0f} / {row.best_bound:.0f}  gap {row.gap:.3g}  {row.status}  {row.seconds:.1f}"
        )


if __name__ == "__main__":
    sys.exit(main())

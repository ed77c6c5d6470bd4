"""``python -m benchmarks``: run the comparisons and print one table of ratios, ours / the
anchor's seconds (below 1, ours is faster), with the machine's load average before and after:
the machine may be shared, and the ratios of one run are comparable because both sides of each
case ran side by side in it. A comparison whose anchor is not installed has one row saying so."""

from __future__ import annotations

import argparse
import os

from . import COMPARISONS
from .comparison import Row

HEADER = (
    "| comparison | case | ours (s) | anchor (s) | ours / anchor | agreement |\n|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> None:
    names = [comparison.name for comparison in COMPARISONS]
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="tiny synthetic data: a smoke test of seconds, no data mirror"
    )
    parser.add_argument("--only", nargs="+", choices=names, metavar="NAME", help=f"some of {names}")
    args = parser.parse_args(argv)
    chosen = [comparison() for comparison in COMPARISONS if comparison.name in (args.only or names)]

    print(f"load average before: {load_average()}")
    for comparison in chosen:
        print(f"{comparison.name}: {comparison.ours} against {comparison.anchor}")
    print(f"\n{HEADER}", flush=True)
    for comparison in chosen:
        reason = comparison.unavailable()
        if reason:
            print(f"| {comparison.name} | not run | | | | {reason} |", flush=True)
            continue
        for row in comparison.rows(quick=args.quick):
            print(line(comparison.name, row), flush=True)
    print(f"\nload average after: {load_average()}")


def line(name: str, row: Row) -> str:
    """A row of the table."""
    return (
        f"| {name} | {row.case} | {row.ours_seconds:.3f} | {row.anchor_seconds:.3f} | "
        f"{row.ratio:.2f} | {row.agreement} |"
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


if __name__ == "__main__":
    main()

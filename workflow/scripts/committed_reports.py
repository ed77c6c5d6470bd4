"""Rebuild every committed report under results/report/paper/ from the committed run records.

``results/report/paper/reports.yaml`` names each committed report: its directory, the tag
whose records it reads and the overrides that select its papers and experiments. For each,
Snakemake runs with ``report_dir=results/report/paper/<name>`` and ``records_only=true``
(planning stops with the list of jobs whose record is missing or stale, so no training job
can run), forcing the table, figure and report rules so nothing is taken from older files.

    python workflow/scripts/committed_reports.py            # make report
    python workflow/scripts/committed_reports.py --check    # and fail if git would see a change

The check is what CI runs on a fresh clone: every committed report must come back byte for
byte from the committed records, and no file may appear in or vanish from its directory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
COMMITTED = Path("results/report/paper")
MANIFEST = COMMITTED / "reports.yaml"
DERIVED_RULES = ("table", "plot_cd", "paper_figure", "report")


def load_manifest(repo: Path = REPO) -> dict[str, dict]:
    """``{name: {"tag": ..., "overrides": [...], "partial": bool, "covers": ...}}`` of the committed reports."""
    manifest = yaml.safe_load((repo / MANIFEST).read_text(encoding="utf-8")) or {}
    for name, entry in manifest.items():
        missing = {"tag", "overrides", "covers"} - set(entry)
        if missing:
            sys.exit(f"{MANIFEST}: report '{name}' lacks {sorted(missing)}")
    return manifest


def snakemake_command(name: str, entry: dict, cores: int) -> list[str]:
    return [
        str(Path(sys.executable).with_name("snakemake")), "--cores", str(cores),
        "--forcerun", *DERIVED_RULES, "--config", "profile=paper", f"tag={entry['tag']}",
        "overrides=" + json.dumps(entry["overrides"]), f"report_dir={COMMITTED / name}", "records_only=true",
        *(["partial=true"] if entry.get("partial") else []),
    ]


def rebuild(name: str, entry: dict, cores: int) -> None:
    started = time.perf_counter()
    proc = subprocess.run(snakemake_command(name, entry, cores), cwd=REPO, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        sys.exit(f"rebuilding {COMMITTED / name} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    ran = [line.split()[1].rstrip(":") for line in (proc.stdout + proc.stderr).splitlines()
           if line.startswith(("rule ", "localrule "))]
    training = [rule for rule in ran if rule not in (*DERIVED_RULES, "all")]
    if training:
        sys.exit(f"rebuilding {COMMITTED / name} ran {training}: a committed report must come from records alone")
    print(f"{COMMITTED / name}: rebuilt from records in {time.perf_counter() - started:.1f} s "
          f"({len(ran)} steps: {', '.join(sorted(set(ran)))})")


def check_unchanged() -> None:
    """Fail if the committed reports differ from git's (changed, added or removed files)."""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", str(COMMITTED)],
                            cwd=REPO, capture_output=True, text=True, check=True).stdout
    if status.strip():
        diff = subprocess.run(["git", "diff", "--stat", "--", str(COMMITTED)], cwd=REPO,
                              capture_output=True, text=True, check=False).stdout
        sys.exit(f"the rebuilt reports differ from the committed ones:\n{status}\n{diff}")
    print("every committed report was rebuilt byte for byte from the committed records")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if a rebuilt report differs from git's")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("names", nargs="*", help="only these reports (default: all in the manifest)")
    args = parser.parse_args()
    manifest = load_manifest()
    unknown = sorted(set(args.names) - set(manifest))
    if unknown:
        sys.exit(f"unknown committed reports {unknown}; {MANIFEST} has {sorted(manifest)}")
    started = time.perf_counter()
    for name in args.names or manifest:
        rebuild(name, manifest[name], args.cores)
    print(f"{len(args.names or manifest)} committed reports in {time.perf_counter() - started:.1f} s")
    if args.check:
        check_unchanged()


if __name__ == "__main__":
    main()

"""Our cascade forest (DF) against the deep-forest package, at matched settings, fit time.

Ours: ``CascadeForestClassifier`` (gcForest's level: 2 random forests and 2 completely random tree
forests of 100 trees, 3-fold out-of-fold class vectors). The anchor: ``deepforest.
CascadeForestClassifier`` of deep-forest-py310 in its own virtualenv (it needs scikit-learn < 1.6;
``bash benchmarks/deep_forest_anchor/setup.sh`` makes it), run by ``deep_forest_anchor/
run_anchor.py`` in its ``custom`` mode: ``set_estimator`` with the same scikit-learn forests,
cross-fitted over the same folds. Both grow exactly 3 levels (3 early-stopping rounds, at most 3
levels), one thread per forest.

Differences that remain: deep-forest bins every feature into at most 255 quantile bins, its folds
are plain (not stratified) k-fold, and it predicts with its last level, we with the best one.

Cases: yeast and a 4,000-row stratified sample of letter, each on 5 seeded, stratified 80/20
splits (each seed also seeds both sides), reported over the first 3 splits and over all 5; a row
sums both sides' fit seconds over its splits and gives the mean accuracy difference with its
standard error (one test set of a few hundred rows has a sampling error of 2-3 points).
Findings: ``cascade.md``.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

from forestrepro.cascade.forest import CascadeForestClassifier

from .comparison import Comparison, Row
from .data import load_sample, synthetic

ANCHOR = Path(__file__).resolve().parent / "deep_forest_anchor"
ANCHOR_PYTHON = ANCHOR / ".venv" / "bin" / "python"
DATA_SETS = ("yeast", "letter:4000")
SEEDS = (0, 1, 2, 3, 4)
REPORTED_SPLITS = (3, 5)
"""Each data set's rows: its first 3 splits, and all 5."""
SETTINGS = {"n_forests": 2, "n_trees": 100, "n_folds": 3, "max_levels": 3, "early_stopping_rounds": 3}
QUICK_SETTINGS = {"n_forests": 1, "n_trees": 5, "n_folds": 2, "max_levels": 1, "early_stopping_rounds": 1}


class Cascade(Comparison):
    name = "cascade"
    ours = "our cascade forest (CascadeForestClassifier, DF)"
    anchor = "the deep-forest package (deep-forest-py310, matched settings)"

    def unavailable(self) -> str | None:
        if not ANCHOR_PYTHON.exists():
            return f"no anchor environment: run bash {ANCHOR.relative_to(ANCHOR.parents[1])}/setup.sh"
        return None

    def rows(self, quick: bool) -> list[Row]:
        if quick:
            return [_row("synthetic 300", [synthetic(300, n_features=8, seed=0)], (0,), QUICK_SETTINGS)]
        rows = []
        for name in DATA_SETS:
            splits = _splits([load_sample(name, seed) for seed in SEEDS], SEEDS, SETTINGS)
            rows += [_summary(name, splits[:n], SEEDS[:n]) for n in REPORTED_SPLITS]
        return rows


def _row(case, samples, seeds, settings) -> Row:
    """Both sides on each seed's split of its sample; seconds summed over the splits."""
    return _summary(case, _splits(samples, seeds, settings), seeds)


def _splits(samples, seeds, settings) -> list[tuple[float, float, float, tuple[int, int]]]:
    """Per seed: our and the anchor's fit seconds, the accuracy difference (points) and the
    levels each side grew."""
    splits = []
    with tempfile.TemporaryDirectory() as tmp:
        for (X, y), seed in zip(samples, seeds, strict=True):
            X_train, X_test, y_train, y_test = train_test_split(
                X, y, test_size=0.2, stratify=y, random_state=seed
            )
            split = Path(tmp) / "split.npz"
            np.savez(split, X_train=X_train, X_test=X_test, y_train=y_train, y_test=y_test)
            ours = _ours(settings, seed)
            started = time.perf_counter()
            ours.fit(X_train, y_train)
            seconds = time.perf_counter() - started
            anchor = _fit_anchor(split, settings, seed)
            difference = 100 * (np.mean(ours.predict(X_test) == y_test) - anchor["accuracy"])
            splits.append(
                (seconds, anchor["fit_seconds"], difference, (ours.n_levels_, anchor["levels_grown"]))
            )
    return splits


def _summary(case, splits, seeds) -> Row:
    """One row over ``splits``: seconds summed, the mean accuracy difference and its s.e."""
    ours_seconds = sum(split[0] for split in splits)
    anchor_seconds = sum(split[1] for split in splits)
    differences = [split[2] for split in splits]
    levels = {split[3] for split in splits}
    spread = (
        f" ± {np.std(differences, ddof=1) / np.sqrt(len(differences)):.2f}" if len(differences) > 1 else ""
    )
    grown = ", ".join(f"{mine}/{theirs}" for mine, theirs in sorted(levels))
    return Row(
        f"{case}, {len(seeds)} split(s)",
        ours_seconds,
        anchor_seconds,
        f"accuracy {np.mean(differences):+.2f}{spread} points; levels grown {grown} (ours/anchor)",
    )


def _ours(settings, seed) -> CascadeForestClassifier:
    """An unfitted cascade of ``settings``."""
    return CascadeForestClassifier(
        n_rf=settings["n_forests"],
        n_crf=settings["n_forests"],
        n_trees=settings["n_trees"],
        n_folds=settings["n_folds"],
        early_stopping_rounds=settings["early_stopping_rounds"],
        max_levels=settings["max_levels"],
        n_jobs=1,
        random_state=seed,
    )


def _fit_anchor(split: Path, settings, seed) -> dict:
    """The anchor fitted on the saved split in its own interpreter: its JSON line."""
    params = {"mode": "custom", **settings, "n_jobs": 1, "seed": seed}
    done = subprocess.run(
        [str(ANCHOR_PYTHON), str(ANCHOR / "run_anchor.py"), str(split), json.dumps(params)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])

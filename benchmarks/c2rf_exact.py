"""C2RF: our exact chain against p-C2RF+'s MILP alone, per instance, solve time.

Ours: the approach ``C2RF exact`` (``c2rf.exact.solve_exact``: committees, local and relative
search, the cover, clique and 0-1 bounds, realisability cuts, then p-C2RF+'s MILP from the
incumbent). The anchor: ``p-C2RF+`` (``c2rf.solver.solve``: the MILP with preprocessing, cuts and a
local-search start). Both run on the same instance, one HiGHS thread, 60 s per solve, through
``c2rf.experiment.run_instance`` as the pipeline runs them; the instances are the committed
records' (Sec. 5.1, the pipeline's root seed): biased sample 0 of phoneme, magic and adult. A solve
that reaches the limit unproven counts its seconds (the ratio is then at most 1 by construction:
read the agreement column). Findings: ``c2rf_exact.md``, and the run over all 130 samples
(``c2rf.py``): ``c2rf.md``.
"""

from __future__ import annotations

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.experiment import run_instance
from forestrepro.evaluation.seeds import derive_seed

from .c2rf import ROOT_SEED, load
from .comparison import Comparison, Row
from .data import synthetic

OURS, ANCHOR = "C2RF exact", "p-C2RF+"
DATA_SETS = ("phoneme", "magic", "adult")
TIME_LIMIT = 60.0


class C2RFExact(Comparison):
    name = "c2rf_exact"
    ours = "our exact C2RF chain (C2RF exact)"
    anchor = "p-C2RF+'s MILP alone"

    def rows(self, quick: bool) -> list[Row]:
        if quick:
            X, y = synthetic(600, n_classes=2)
            return [_row("synthetic 600, simple random sample 0", X, y, "srs", 1, 10.0)]
        return [
            _row(
                f"{name}, biased sample 0",
                *load(name, None),
                "biased",
                derive_seed(ROOT_SEED, "c2rf", name, "biased", 0),
                TIME_LIMIT,
            )
            for name in DATA_SETS
        ]


def _row(case, X, y, sampling, seed, time_limit) -> Row:
    """Both approaches on the instance of ``seed``; eta and status of each."""
    approaches = {OURS: APPROACHES[OURS], ANCHOR: APPROACHES[ANCHOR]}
    ours, anchor = run_instance(
        X, y, sampling=sampling, seed=seed, approaches=approaches, time_limit=time_limit
    )
    return Row(
        case,
        ours["seconds"],
        anchor["seconds"],
        f"eta {ours['eta']:.0f} ({ours['status']}) / {anchor['eta']:.0f} ({anchor['status']})",
    )

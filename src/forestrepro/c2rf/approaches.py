"""Named approaches: keyword arguments of ``solve`` per approach of Sec. 5.2, plus ours.

- ``RF``: majority vote (no solve), Sec. 5.2 (a);
- ``C2RF``: Problem (2) as printed, M = u t + 1, eta_bar from (1), Sec. 5.2 (b);
- ``only PP``: Algorithm 1's preprocessing without branching priorities, Sec. 5.2 (d);
- ``only PD`` / ``PP+PD``: our HiGHS stand-ins for "only BR" (e) and "p-C2RF" (c). HiGHS has no
  branching priorities, so the paper's priority order drives a start solution instead (the
  priority dive of ``priorities.py``); the names say so, ``PAPER_COLUMN`` maps them to the paper's
  columns;
- ``p-C2RF+`` (ours, beyond the paper): preprocessing, the local search start, per-row big-M,
  dominance and conflict cuts, integral eta. It has neither branching priorities nor the priority
  dive (the ablation in ``benchmarks/c2rf.py`` measures the dive);
- ``C2RF exact`` (ours, beyond the paper): the chain of ``exact.py`` (committees, local search,
  min-cut and 0-1 lower bounds, realisability cuts, then p-C2RF+'s MILP from the incumbent with
  eta at least the proven bound); the key ``solver: exact`` selects it (``experiment.SOLVERS``).
"""

from __future__ import annotations

APPROACHES: dict[str, dict | None] = {
    "RF": None,
    "C2RF": {"preprocess": False},
    "only PP": {"preprocess": True},
    "only PD": {"preprocess": False, "priority_dive": True},
    "PP+PD": {"preprocess": True, "priority_dive": True},
    "p-C2RF+": {
        "preprocess": True,
        "local_search": True,
        "big_m": "row",
        "dominance": True,
        "conflicts": True,
        "integral_eta": True,
    },
    "C2RF exact": {"solver": "exact"},
}

PAPER_COLUMN = {"RF": "RF", "C2RF": "C2RF", "only PP": "only PP", "only PD": "only BR", "PP+PD": "p-C2RF"}

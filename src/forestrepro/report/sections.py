"""One table's section of a report: its cells with their verdicts, rank statistics, average rows,
paired tests, deviations and their causes, and the paper's claims (``build.py`` assembles the
sections into the report)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .cells import _cell_rows, _fmt, _missing_reason, _tolerance_verdict, grid_rows
from .claims import EQUIVALENT, FAILS, HOLDS, INCONCLUSIVE, UNKNOWN, evaluate_claim, verdict_text
from .deviations import (
    CONFIRMED,
    KINDS,
    MEASURED,
    UNEXPLAINED,
    ReadingColumn,
    counted,
    counted_kinds,
    data_candidates,
    explain,
    kind_counts,
    reading_columns,
    unidentified,
)
from .document import (
    Bullets,
    Figure,
    Heading,
    Paragraph,
    Styled,
    Table,
)


def _relative(target: Path, out_dir: Path) -> str:
    """``target`` (relative to the repository root) as seen from ``out_dir``."""
    return os.path.relpath(target, out_dir).replace(os.sep, "/")


def _rank_rows(ranks: dict, methods: dict) -> tuple:
    rows = []
    for key, label in (("ours", "regenerated"), ("published", "paper (same cells, re-ranked)")):
        s = ranks[key]
        mean_ranks = s.get("mean_ranks", {})
        rows.append(
            (
                label,
                *(_fmt(mean_ranks.get(m, float("nan"))) for m in methods),
                str(s["n_datasets"]),
                _fmt(s.get("friedman_chi2", float("nan")), 3),
                _fmt(s.get("friedman_p", float("nan")), 4),
                _fmt(s.get("iman_davenport_f", float("nan")), 3),
                _fmt(s.get("iman_davenport_p", float("nan")), 4),
                _fmt(s.get("nemenyi_cd", float("nan")), 3),
            )
        )
    return tuple(rows)


def _dataset_notes(spec: dict, dataset_specs: dict, data_provenance: dict, rows_fed: dict) -> list[str]:
    return [
        f"{dataset}: {found}"
        for dataset in spec["dataset_order"]
        for found in data_candidates(
            dataset,
            spec["paper"],
            dataset_specs,
            data_provenance,
            rows_fed.get(dataset),
            spec.get("dataset_options", {}).get(dataset),
        )
    ]


def ablation_blocks(explained: pd.DataFrame) -> list:
    """What an ablation table's cells outside tolerance mean: not deviations of the reproduction
    to be explained, but how far another reading (or our variant) lands from the paper's column."""
    return [
        Paragraph(
            f"An ablation (the table's ablation: true): each row runs a reading or variant other than the "
            f"paper's method on purpose, beside the paper's column to show which lands closer. Its "
            f"{len(explained)} cells outside tolerance are that finding, not deviations of the reproduction, "
            "and are not counted as unexplained; the paper's method is in the tables above."
        )
    ]


def kind_style(kind: str) -> str:
    """How a kind of cause is shown: measured ``ok``, unexplained ``out``, the others ``none``."""
    return {MEASURED: "ok", CONFIRMED: "ok", UNEXPLAINED: "out"}.get(kind, "none")


def deviation_blocks(
    explained: pd.DataFrame, digits: int, readings: list[ReadingColumn] | None = None
) -> list:
    """The cells outside tolerance, counted by kind and by cause, each with its kind, its cause
    (or none) and the evidence; then each reading of an ``ablation_within`` rule over its whole
    column (``readings``)."""
    blocks = []
    if not explained.empty:
        blocks += _deviation_list(explained, digits)
    if readings:
        blocks.append(reading_blocks(readings))
    return blocks


def reading_blocks(readings: list[ReadingColumn]) -> Table:
    """Each reading a rule uses to explain cells, applied to its whole column: the column's cells
    within tolerance under the default and under the reading, so that a reading is judged over
    the column, never for chosen cells."""
    return Table(
        (
            "Reading",
            "Column",
            "Cells",
            "Within: default",
            "Within: reading",
            "Brings in",
            "Takes out",
            "Counts",
        ),
        tuple(
            (
                r.name,
                ", ".join(r.rule["methods"]) if r.rule.get("methods") else "every method",
                str(r.cells),
                str(r.default_within),
                str(r.reading_within),
                ", ".join(r.brought) or "—",
                ", ".join(r.broken) or "—",
                Styled(
                    "measured: better over the column"
                    if r.better
                    else "not measured: not better over the column",
                    "ok" if r.better else "out",
                ),
            )
            for r in readings
        ),
        caption="Each reading a cause rule names, applied to its whole column (the rule's methods and "
        "data sets in this table): cells within tolerance under the default and under the reading. A "
        "cell the reading reproduces counts as measured only where the reading is better over the column.",
    )


def _deviation_list(explained: pd.DataFrame, digits: int) -> list:
    rows = tuple(
        (
            r["dataset"],
            r["method"],
            _fmt(r["delta"], digits),
            Styled(r["kind"], kind_style(r["kind"])),
            r["cause"] if r["cause"] != UNEXPLAINED else "—",
            "; ".join(
                part
                for part in (r["evidence"], r["candidates"] and f"candidate, not tested: {r['candidates']}")
                if part
            ),
        )
        for _, r in explained.iterrows()
    )
    return [
        Heading("Deviations", 4),
        Paragraph(
            f"{len(explained)} cells outside tolerance, by kind: {counted_kinds(explained)}; by cause: "
            f"{counted(explained)}. A cell needs a cause only where the difference lies outside our "
            "spread and the paper's too: within spread (the difference lies within the 95 % interval of "
            "the difference of the two means over their runs) needs none. A cause is attached only where the rule's test holds; its "
            "kind says how far numbers show it: measured (a run under the stated reading, protocol or "
            "data gives the paper's cell), confirmed (a second implementation of the same method gives "
            "our number and no reading tried gives the paper's: the paper's value is not reproduced by "
            "the method as described), bounded (a measured effect in the right direction, its size "
            "given, not shown to close the gap), stand-in (not comparable, not counted as explained), "
            "unexplained (no test, or one that shows no more than the difference itself, e.g. that our "
            "baseline beats the paper's); where two or more readings each reproduce a cell, its cause is "
            "not identified among them; a cause that leans on other cells counts as the weakest of them "
            "(report/deviations.py)."
        ),
        Table(("Data set", "Method", "Δ", "Kind", "Cause", "Evidence"), rows),
    ]


def claims_blocks(claims: list[dict]) -> list:
    """The table of claim verdicts (none when there is no claim)."""
    if not claims:
        return []
    return [
        Table(
            ("Claim", "On the paper's numbers", "On ours", "Evidence (paper; ours)"),
            tuple(
                (
                    c["claim"],
                    verdict_text(c, "paper"),
                    verdict_text(c, "ours"),
                    f"{c['paper_evidence']}; {c['ours_evidence']}",
                )
                for c in claims
            ),
            caption="The paper's claims, checked",
        )
    ]


def _figure_claims(png: Path) -> list[dict]:
    """The verdicts the figure rule wrote beside ``png`` (``<stem>.claims.json``), if any."""
    path = png.with_suffix(".claims.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def figure_caption(fspec: dict) -> str:
    """A figure's caption, with ``{dataset}`` replaced by the data set it draws and
    ``{datasets}`` by its experiment's data sets ("musk2 and sonar")."""
    names = list(fspec.get("dataset_order", []))
    datasets = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else "".join(names)
    return (
        fspec["caption"].replace("{dataset}", str(fspec.get("dataset", ""))).replace("{datasets}", datasets)
    )


@dataclass(frozen=True)
class TableResult:
    """A regenerated table as the report reads it, each part computed once: its cells
    (``<stem>.csv``), rank statistics (``<stem>_ranks.json``), claim verdicts, and the cells
    outside tolerance with their causes (``deviations.explain``)."""

    spec: dict
    cells: pd.DataFrame
    ranks: dict
    claims: list[dict]
    explained: pd.DataFrame
    readings: tuple = ()
    stand_ins: frozenset = frozenset()  # its data sets that are declared stand-ins (``stand_in``)


def _table_cells(stem: Path) -> pd.DataFrame:
    cells = pd.read_csv(stem.with_suffix(".csv"))
    cells["within"] = cells["within"].map(lambda v: None if pd.isna(v) else bool(v))
    if "beyond_limit" in cells:
        cells["beyond_limit"] = cells["beyond_limit"].astype(bool)
    return cells


def table_result(
    stem: Path, spec: dict, dataset_specs: dict, data_provenance: dict, table_cells=lambda table: None
) -> TableResult:
    """Read and judge one regenerated table; ``table_cells(table)`` gives the cells of another
    table of the paper (for the cause tests)."""
    cells = _table_cells(stem)
    ranks = json.loads((stem.parent / f"{stem.name}_ranks.json").read_text(encoding="utf-8"))
    claims = [evaluate_claim(c, cells, ranks, spec) for c in spec.get("claims", [])]
    return TableResult(
        spec,
        cells,
        ranks,
        claims,
        explain(cells, spec, table_cells, dataset_specs, data_provenance),
        tuple(reading_columns(cells, spec, table_cells)),
        frozenset(d for d in cells["dataset"] if (dataset_specs.get(d) or {}).get("stand_in")),
    )


def table_counts(result: TableResult) -> dict:
    """A table's counts, as its summary line and the report's one-line summary give them:
    ``judged`` (False where no tolerance compares the numbers: ``not_judged``), ``ablation``,
    cells ``computed`` and ``within`` tolerance, cells ``outside`` it and those of them of each
    kind of cause (``measured``, ``bounded``, ``stand-in``, ``unexplained``), ``empty`` cells, and
    the claims on our numbers by verdict (``claim_counts``)."""
    cells, spec, explained = result.cells, result.spec, result.explained
    within, stand_in_within = within_counts(result)
    claims = [c["ours"] for c in result.claims]
    return {
        "judged": "not_judged" not in spec,
        "ablation": bool(spec.get("ablation")),
        "computed": int(cells["within"].notna().sum()),
        "within": within,
        "stand_in_within": stand_in_within,
        "outside": len(explained),
        **kind_counts(explained),
        "unidentified": unidentified(explained),
        "empty": int(cells["mean"].isna().sum()),
        **claim_counts(claims),
    }


def within_counts(result: TableResult) -> tuple[int, int]:
    """The computed cells within tolerance on the paper's data, and those on a stand-in: a
    stand-in's cell is never "within tolerance", whatever its difference (it is not computed on
    the paper's data)."""
    within = result.cells[result.cells["within"].map(lambda v: v is True)]
    on_stand_in = int(within["dataset"].isin(result.stand_ins).sum())
    return len(within) - on_stand_in, on_stand_in


def claim_counts(verdicts: list[str]) -> dict:
    """``{"claims", "holds", "fails", "equivalent", "undecided"}``: claims by verdict (``claims``:
    how many in all; ``equivalent``: practically equivalent, neither holding nor reversed;
    ``undecided``: cannot be checked or inconclusive)."""
    return {
        "claims": len(verdicts),
        "holds": verdicts.count(HOLDS),
        "fails": verdicts.count(FAILS),
        "equivalent": verdicts.count(EQUIVALENT),
        "undecided": verdicts.count(UNKNOWN) + verdicts.count(INCONCLUSIVE),
    }


def claims_text(counts: dict) -> str:
    """``3 / 1 / 2 / 0``: claims that hold / do not / are practically equivalent / are undecided,
    or ``none`` where there is no claim."""
    keys = ("holds", "fails", "equivalent", "undecided")
    return " / ".join(str(counts[key]) for key in keys) if counts["claims"] else "none"


def kinds_text(counts: dict) -> str:
    """``0 / 3 / 1 / 0 / 1 / 2 of 7``: cells outside tolerance by kind (``KINDS``: within spread /
    measured / confirmed / bounded / stand-in / unexplained) of all of them."""
    return " / ".join(str(counts[kind]) for kind in KINDS) + f" of {counts['outside']}"


# How the summary marks a table of other readings (an ablation: its cells outside tolerance
# start so) and a table no tolerance compares with the paper; the index of the committed
# reports (report/index.py) leaves both out of its count of cells.
ABLATION = "ablation: "
NOT_JUDGED = "not judged"


def summary_row(result: TableResult, anchor: str) -> tuple[str, ...]:
    """A table's line in the report's summary: cells within tolerance, cells outside it by kind
    of cause, empty cells, claims on our numbers by verdict."""
    n = table_counts(result)
    return (
        result.spec["paper"].upper(),
        f"[{result.spec['table']}](#{anchor})",
        f"{n['within']} of {n['computed']}" if n["judged"] else NOT_JUDGED,
        # an ablation's cells run another reading on purpose: outside tolerance is its finding
        f"{ABLATION}{n['outside']} outside"
        if n["ablation"]
        else (kinds_text(n) if n["judged"] else NOT_JUDGED),
        str(n["empty"]),
        claims_text(n),
    )


def _p(value) -> str:
    return "—" if value is None else f"{value:.3g}"


def average_blocks(averages: list | None, spec: dict) -> list:
    """The table's average rows (the paper's "Avg" rows), ours beside the paper's."""
    if not averages:
        return []
    digits = spec.get("digits", 4)
    rows = []
    for a in averages:
        if a["within"] is not None:
            verdict = _tolerance_verdict(a["within"])
        else:
            verdict = Styled(
                "a cell of the group is missing" if a["mean"] is None else "not in the paper", "none"
            )
        paper = spec["methods"][a["method"]]
        rows.append(
            (
                f"Avg ({a['group']}: {', '.join(a['datasets'])})",
                a["method"] + (f" ({paper})" if paper else " (ours only)"),
                *(_fmt(a[key], digits) for key in ("published_mean", "mean", "delta", "tolerance")),
                verdict,
            )
        )
    return [
        Table(
            ("Average row", "Method (paper's name)", "Published", "Regenerated", "Δ", "Tolerance", "Verdict"),
            tuple(rows),
            caption="Average rows: the mean of each group's cells (the paper's from its cells)",
        )
    ]


def open_sample_blocks(listed: dict | None, spec: dict) -> list:
    """The samples the table's ``open_samples`` methods left without a proven optimum, one row
    each: objective, proven bound, relative gap, seconds and the step it ended in, under what
    was tried on them; a sentence when every sample was proven. In a partial report, the jobs of
    those methods without a record are counted, and no sample of theirs is called proven."""
    if listed is None:
        return []
    methods = ", ".join(spec["open_samples"]["methods"])
    waiting = (
        f" {listed['pending']} job(s) of {methods} in this experiment have no record yet; their samples are not listed."
        if listed["pending"]
        else ""
    )
    samples = listed["samples"]
    if not samples:
        if listed["pending"]:
            return [Paragraph(f"No finished sample of {methods} was left open.{waiting}")]
        return [Paragraph(f"Every sample of {methods} in this table's experiment was proven optimal.")]
    rows = tuple(
        (
            r["dataset"],
            r["method"],
            _fmt(r["repeat"], 0),
            _fmt(r["eta"], 0),
            _fmt(r["best_bound"], 0),
            "—" if r["gap"] is None else f"{100 * r['gap']:.2f} %",
            _fmt(r["seconds"], 1),
            r["solved_by"] or "—",
            r["status"] or "—",
        )
        for r in samples
    )
    return [
        Paragraph(
            f"{len(samples)} sample(s) of {methods} left without a proven optimum.{waiting} "
            f"What was tried: {spec['open_samples']['tried']}"
        ),
        Table(
            (
                "Data set",
                "Method",
                "Sample",
                "Objective (eta)",
                "Proven bound",
                "Gap",
                "Seconds",
                "Ended in",
                "Status",
            ),
            rows,
            caption="Samples left open, one by one (objective: the best solution's eta; gap: (eta - bound) / eta)",
        ),
    ]


def paired_blocks(paired: list | None, spec: dict) -> list:
    """Per data set, ``a`` − ``b`` on the same splits with the corrected resampled t-test; across
    data sets the sign and Wilcoxon signed-ranks tests (stats/paired.py)."""
    blocks = []
    digits = spec.get("digits", 4)
    for test in paired or []:
        rows = tuple(
            (
                dataset,
                str(d["n_splits"]),
                _fmt(d["mean_diff"], digits),
                _fmt(d["std_diff"], digits),
                _p(d["p"]),
                "—"
                if d["significant"] is None
                else (
                    ("yes, " + (test["a"] if d["mean_diff"] > 0 else test["b"]) + " better")
                    if d["significant"]
                    else "no"
                ),
            )
            for dataset, d in (
                (name, test["per_dataset"][name])
                for name in spec["dataset_order"]
                if name in test["per_dataset"]
            )
        )
        across = test["across"]
        blocks += [
            Table(
                (
                    "Data set",
                    "Splits",
                    f"{test['a']} − {test['b']} (mean)",
                    "std",
                    "p",
                    f"significant at α = {test['alpha']}",
                ),
                rows,
                caption=f"{test['a']} against {test['b']} on the same splits (positive: {test['a']} better); "
                "p of Nadeau and Bengio's corrected resampled t-test (none with one split)",
            ),
            Paragraph(
                f"Across the {across['n_datasets']} data sets: {test['a']} better on {across['wins']}, worse on "
                f"{across['losses']}, tied on {across['ties']}; sign test p = {_p(across['sign_p'])}, Wilcoxon "
                f"signed-ranks test p = {_p(across['wilcoxon_p'])} (Demšar 2006, Sec. 3.1)."
            ),
        ]
    return blocks


def table_section(
    result: TableResult, figure: Path | None, pending: dict | None = None, record_link=lambda job: None
) -> list:
    """The report section of one regenerated table; ``pending`` says why a job has no record
    yet (a partial report); ``record_link(job)`` is the link to a job's record, or None."""
    pending = pending or {}
    spec, cells, ranks = result.spec, result.cells, result.ranks
    computed = cells[cells["within"].notna()]
    agree, stand_in_within = within_counts(result)
    n_missing = int((cells["mean"].isna() & (cells["n_folds"] == 0)).sum())
    n_empty = int((cells["mean"].isna() & (cells["n_folds"] > 0)).sum())
    blocks = [
        Heading(f"{spec['table']}: {spec['caption']}", 3),
        Paragraph(
            (
                f"Not judged cell by cell: {spec['not_judged']}; "
                if "not_judged" in spec
                else f"{agree} of {len(computed)} regenerated cells with a published value lie within tolerance of the published value "
                f"(|Δ| ≤ max({spec['report']['tolerance_std_factor']} × published std, "
                f"{spec.get('tolerance_abs', spec['report']['tolerance_abs'])}))"
                + (
                    f", and {stand_in_within} more on stand-in data, which count as stand-ins, not as within "
                    "tolerance (not computed on the paper's data); "
                    if stand_in_within
                    else "; "
                )
            )
            + f"{n_missing} cells were not computed"
            + (f", {n_empty} have runs but no value" if n_empty else "")
            + f". Metric: {spec['metric']}, "
            + (
                "median over the samples."
                if spec.get("aggregate") == "median"
                else "mean ± std over folds and repeats (a single value where there is one split)."
            )
        ),
        Table(
            *grid_rows(cells, spec),
            caption="As the paper lays it out: ours, and the paper's in parentheses where it prints one",
        ),
        Table(
            ("Data set", "Method (paper's name)", "Published", "Regenerated", "Δ", "Tolerance", "Verdict"),
            _cell_rows(
                cells,
                spec,
                pending,
                record_link,
                result.stand_ins,
                {}
                if spec.get("ablation")
                else dict(
                    zip(
                        zip(result.explained["dataset"], result.explained["method"]),
                        result.explained["kind"],
                        strict=True,
                    )
                ),
            ),
            caption="Cell by cell",
        ),
        *average_blocks(ranks.get("averages"), spec),
        *paired_blocks(ranks.get("paired"), spec),
        *open_sample_blocks(ranks.get("open_samples"), spec),
        *(
            ablation_blocks(result.explained)
            if spec.get("ablation")
            else deviation_blocks(result.explained, spec.get("digits", 4), list(result.readings))
        ),
    ]
    unplaced = [f"{kind} {', '.join(names)}" for kind, names in spec.get("unplaced", {}).items() if names]
    if unplaced:
        blocks.insert(
            2,
            Paragraph(
                f"Run by experiment '{spec['experiment']}' but not in this table, whose published version has no "
                f"row or column for them: {'; '.join(unplaced)}. Their numbers are in the run records."
            ),
        )
    methods = spec["method_order"]
    if spec.get("rank", True):
        blocks.append(
            Table(
                ("Ranks of", *methods, "N", "Friedman χ²", "p", "Iman–Davenport F", "p", "Nemenyi CD"),
                _rank_rows(ranks, methods),
                caption=f"Mean ranks (1 = best) and tests at α = {spec.get('alpha', 0.05)}",
            )
        )
    printed = ranks["published"].get("paper_printed_mean_ranks", {})
    recomputed = ranks["published"].get("paper_recomputed_mean_ranks", {})
    if printed:
        blocks.append(
            Table(
                ("Mean ranks over the paper's whole table", *printed),
                (
                    ("printed in the paper", *(_fmt(r) for r in printed.values())),
                    (
                        "recomputed from the paper's own cells",
                        *(_fmt(recomputed.get(m, float("nan"))) for m in printed),
                    ),
                ),
                caption="A check of the paper's arithmetic (ties get the average rank)",
            )
        )
    blocks += claims_blocks(result.claims)
    if figure is not None:
        blocks.append(
            Figure(f"figures/{figure.name}", f"Critical-difference diagrams, {spec['paper']} {spec['table']}")
        )
    missing = cells[cells["mean"].isna()]
    notes = [
        f"{r['dataset']} / {r['method']}: {_missing_reason(r, spec, pending, record_link)}"
        for _, r in missing.iterrows()
    ]
    excluded = ranks["ours"].get("excluded_datasets", [])
    if excluded:
        notes.append("left out of the regenerated ranks for a missing cell: " + ", ".join(excluded))
    if notes:
        blocks += [Heading("Missing cells", 4), Bullets(tuple(notes))]
    return blocks

"""Regenerate one published table: cells beside the paper's, ranks, Friedman test, Nemenyi CD.

``build_table`` takes the per-fold rows of every (method, data set) job of the table and the
table's specification (``paper.<p>.tables.<t>`` of the config, plus the report tolerances) and
returns everything the table files, the figures and the report need. ``write_table`` writes
CSV, Markdown, LaTeX (booktabs) and a JSON of the table's statistics (ranks, and where the
table asks for them its average rows and paired tests), deterministically, so two runs with
the same results give byte-identical files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..io import atomic_path, write_text_atomic
from ..stats import compare_to_control, friedman_test, mean_ranks, nemenyi_cd
from ..stats.paired import paired_differences
from .compare import compare_cells, score_matrix, summarize_runs
from .document import Document, Table, table_to_latex, to_markdown
from .published import published_cells, published_mean_ranks


@dataclass
class TableResult:
    """A regenerated table: tidy cells, rank statistics for ours and the paper's numbers, the
    table's average rows (``averages``) and paired tests over the splits (``paired``)."""

    spec: dict
    cells: pd.DataFrame
    ours: dict
    published: dict
    averages: list | None = None
    paired: list | None = None
    open_samples: dict | None = None


OPEN_SAMPLE_COLUMNS = (
    "dataset",
    "method",
    "repeat",
    "eta",
    "best_bound",
    "gap",
    "seconds",
    "solved_by",
    "status",
)


def pending_methods(spec: dict, pending: dict) -> list[str]:
    """The method of each ``pending`` job (a partial report's jobs without a record, paths
    ``<paper>/<experiment>/<method>/<dataset>...``) in the table's experiment, one per job."""
    prefix = f"{spec['paper']}/{spec['experiment']}/"
    return [job[len(prefix) :].split("/")[0] for job in pending if job.startswith(prefix)]


def open_samples(runs: pd.DataFrame, spec: dict, pending: dict) -> dict:
    """What a C2RF table's ``open_samples`` lists (issue 68: each sample left open named with its
    gap): ``samples``, those of its methods left without a proven optimum (``solved`` false), one
    dict each with the columns of ``OPEN_SAMPLE_COLUMNS`` (NaN as None), by data set, method and
    sample; ``pending``, how many of those methods' jobs in the table's experiment have no record
    yet (a partial report), whose samples cannot be listed."""
    methods = spec["open_samples"]["methods"]
    waiting = sum(method in methods for method in pending_methods(spec, pending))
    if not len(runs) or "solved" not in runs:
        return {"samples": [], "pending": waiting}
    rows = runs[runs["method"].isin(methods) & ~runs["solved"].astype(bool)]
    rows = rows.reindex(columns=list(OPEN_SAMPLE_COLUMNS)).sort_values(["dataset", "method", "repeat"])
    samples = [
        {k: (None if pd.isna(v) else v.item() if hasattr(v, "item") else v) for k, v in row.items()}
        for row in rows.to_dict("records")
    ]
    return {"samples": samples, "pending": waiting}


def average_rows(cells: pd.DataFrame, spec: dict) -> list[dict]:
    """The table's average rows (``averages: [{group, datasets}]``, e.g. the WDF paper's "Avg"
    rows over its low- and high-dimensional data sets), in the configured order: per group and
    method, the mean of our cells and of the paper's over the group, the difference, and
    whether it lies within the table's absolute tolerance. A mean needs every cell of the group
    (else None)."""
    tolerance = spec.get("tolerance_abs", spec["report"]["tolerance_abs"])
    rows = []
    for group, datasets in ((a["group"], a["datasets"]) for a in spec.get("averages", [])):
        for method in spec["method_order"]:
            mine = cells[(cells["method"] == method) & cells["dataset"].isin(datasets)]
            complete = len(mine) == len(datasets)
            ours = float(mine["mean"].mean()) if complete and mine["mean"].notna().all() else None
            published = (
                float(mine["published_mean"].mean())
                if complete and mine["published_mean"].notna().all()
                else None
            )
            delta = None if ours is None or published is None else ours - published
            rows.append(
                {
                    "group": group,
                    "datasets": list(datasets),
                    "method": method,
                    "mean": ours,
                    "published_mean": published,
                    "delta": delta,
                    "tolerance": tolerance,
                    "within": None if delta is None else bool(abs(delta) <= tolerance),
                }
            )
    return rows


def rank_statistics(
    scores: pd.DataFrame, *, higher_is_better: bool, alpha: float, control: str | None = None
) -> dict:
    """Mean ranks, Friedman chi^2 and Iman-Davenport F, and the Nemenyi CD of a scores matrix;
    with a ``control`` method, its Holm post-hoc test against each other method (Demšar 3.2.2).

    Data sets with a missing cell are left out (and listed), since ranks need every method.
    """
    complete = scores.dropna()
    excluded = sorted(set(scores.index) - set(complete.index))
    stats = {
        "alpha": alpha,
        "excluded_datasets": excluded,
        "n_datasets": len(complete),
        "k_methods": scores.shape[1],
    }
    if len(complete) < 2 or scores.shape[1] < 2:
        stats["note"] = "fewer than 2 complete data sets or methods: no rank statistics"
        return stats
    result = friedman_test(complete, higher_is_better=higher_is_better)
    stats.update(
        {
            "mean_ranks": {m: float(r) for m, r in result.mean_ranks.items()},
            "friedman_chi2": float(result.chi2),
            "friedman_p": float(result.p_chi2),
            "iman_davenport_f": float(result.iman_davenport_f),
            "iman_davenport_p": float(result.p_iman_davenport),
            "nemenyi_cd": float(nemenyi_cd(result.k, result.n, alpha)),
        }
    )
    if control is not None:
        table = compare_to_control(complete, control, higher_is_better=higher_is_better, alpha=alpha)
        stats["control"] = {
            "method": control,
            "versus": {
                m: {"z": float(r["z"]), "p_holm": float(r["p_holm"]), "significant": bool(r["significant"])}
                for m, r in table.iterrows()
                if m != control
            },
        }
    return stats


def _pooled_rows(runs: pd.DataFrame, spec: dict, pending: dict) -> pd.DataFrame:
    """The rows a table that pools its data sets (``pool_datasets``) may pool in a partial
    report: those of the methods none of whose jobs in the table's experiment is ``pending``
    (job paths ``<paper>/<experiment>/<method>/<dataset>...``). A pool of the data sets that
    happen to have run would be read as a value over all of them."""
    return runs[~runs["method"].isin(set(pending_methods(spec, pending)))]


def over_limit_pct(runs: pd.DataFrame) -> pd.Series:
    """Per C2RF solve row, 100 if the call ended past its ``time_limit`` by more than its
    allowance max(5 %, 5 s), twice the grace after which ``c2rf.highs_run`` stops a solve, else 0;
    NaN for rows of no solve (the majority vote)."""
    from ..c2rf.highs_run import grace

    limit = runs["time_limit"].astype(float)
    over = runs["seconds"].astype(float) > limit + 2 * limit.map(grace)
    return (100.0 * over).where(runs["status"] != "majority_vote")


# metrics a table may name that the records do not hold, computed from their columns
DERIVED_METRICS = {"over_limit_pct": over_limit_pct}


def build_table(runs: pd.DataFrame, spec: dict, pending: dict | None = None) -> TableResult:
    """Compare ``runs`` (per-fold rows) with the published table described by ``spec``;
    ``pending`` (a partial report's jobs without a current record) empties pooled cells whose
    jobs have not all run (``_pooled_rows``)."""
    metric = spec["metric"]
    published_metric = spec.get("published_metric", metric)
    listed = open_samples(runs, spec, pending or {}) if "open_samples" in spec else None
    if spec.get("pool_datasets") and len(runs):
        runs = _pooled_rows(runs, spec, pending or {})
        runs = runs.assign(dataset="all")  # one cell per method over every data set's rows
    if len(runs) and metric not in runs and metric in DERIVED_METRICS:
        runs = runs.assign(**{metric: DERIVED_METRICS[metric](runs)})
    if len(runs) and metric not in runs:
        # runs that do not record the metric (e.g. a stopping-rule reading of a cascade grown
        # with fewer rounds than the reading): their cells have no value, and say so
        runs = runs.assign(**{metric: np.nan})
    summary = (
        summarize_runs(
            runs,
            metric,
            aggregate=spec.get("aggregate", "mean"),
            min_solved_share=spec.get("min_solved_share"),
        )
        if len(runs)
        else pd.DataFrame(columns=["mean", "std", "n_folds", "min", "max"])
    )
    published = published_cells(spec.get("published"), published_metric)
    cells = compare_cells(
        summary,
        published,
        {m: spec["methods"][m] for m in spec["method_order"]},
        {d: spec["datasets"][d] for d in spec["dataset_order"]},
        std_factor=spec["report"]["tolerance_std_factor"],
        abs_tolerance=spec.get("tolerance_abs", spec["report"]["tolerance_abs"]),
        limit=spec.get("limit_value"),
        judged="not_judged" not in spec,
    )
    if len(runs):  # what an empty cell's runs did: how many, how many solved, their solver status
        groups = runs.groupby(["dataset", "method"])
        keys = list(zip(cells["dataset"], cells["method"], strict=True))
        cells["n_runs"] = [int(groups.size().get(k, 0)) for k in keys]
        if "solved" in runs:
            solved = groups["solved"].sum()
            cells["n_solved"] = [int(solved[k]) if k in solved.index else 0 for k in keys]
        if "status" in runs:
            empty = (
                runs[runs[metric].isna()]
                .groupby(["dataset", "method"])["status"]
                .agg(
                    lambda s: ", ".join(
                        f"{status} x{n}" for status, n in s.value_counts().sort_index().items()
                    )
                )
            )
            cells["empty_status"] = [empty.get(k, "") for k in keys]
    if "n_rows" in runs and len(runs):
        # The rows the protocol fed the method (C2RF: after its duplicate removal), per data set:
        # what the data notes compare with the paper's table of data sets.
        cells["rows_fed"] = cells["dataset"].map(runs.groupby("dataset")["n_rows"].max())
    if "n_train" in runs and len(runs):
        # the mean training rows of the cell's fits: where a learning curve is read (deviations.py)
        n_train = runs.groupby(["dataset", "method"])["n_train"].mean()
        cells["n_train"] = [
            float(n_train.get(k, float("nan"))) for k in zip(cells["dataset"], cells["method"], strict=True)
        ]
    higher = spec.get("higher_is_better", True)
    alpha = spec.get("alpha", 0.05)
    extra = {
        "averages": average_rows(cells, spec) if "averages" in spec else None,
        "paired": [
            paired_differences(runs, p["a"], p["b"], metric, higher_is_better=higher, alpha=alpha)
            for p in spec.get("paired", [])
        ]
        if "paired" in spec and len(runs)
        else None,
        "open_samples": listed,
    }
    if not spec.get("rank", True):
        skipped = {"note": "this table is not ranked", "n_datasets": 0, "excluded_datasets": []}
        return TableResult(spec=spec, cells=cells, ours=dict(skipped), published=dict(skipped), **extra)
    ours_scores = score_matrix(cells, "mean")
    control = spec.get("control")
    ours = rank_statistics(ours_scores, higher_is_better=higher, alpha=alpha, control=control)
    # The paper's numbers are ranked on the same cells as ours, so the two rankings compare.
    same_cells = score_matrix(cells, "published_mean").loc[ours_scores.dropna().index]
    theirs = rank_statistics(same_cells, higher_is_better=higher, alpha=alpha, control=control)
    printed = published_mean_ranks(spec.get("published"))
    if len(printed):
        theirs["paper_printed_mean_ranks"] = {m: float(r) for m, r in printed.items()}
        full = published_cells(spec["published"], published_metric)["mean"].unstack("method")[
            list(printed.index)
        ]
        recomputed = mean_ranks(full.dropna(), higher_is_better=higher)
        theirs["paper_recomputed_mean_ranks"] = {m: float(r) for m, r in recomputed.items()}
    return TableResult(spec=spec, cells=cells, ours=ours, published=theirs, **extra)


def format_cell(mean: float, std: float, digits: int = 4) -> str:
    """``mean ± std`` with ``digits`` decimals; the mean alone without a std; — when missing."""
    if np.isnan(mean):
        return "—"
    return f"{mean:.{digits}f} ± {std:.{digits}f}" if not np.isnan(std) else f"{mean:.{digits}f}"


def wide_table(result: TableResult) -> Table:
    """Data sets as rows; for each method its regenerated and, where the paper has the method,
    its published mean ± std."""
    methods = result.spec["method_order"]
    published = {m for m in methods if result.spec["methods"][m] is not None}  # not ours-only variants
    digits = result.spec.get("digits", 4)
    header = ["Data set"]
    for m in methods:
        header += [f"{m} (ours)"] + ([f"{result.spec['methods'][m]} (paper)"] if m in published else [])
    rows = []
    for dataset in result.spec["dataset_order"]:
        row = [dataset]
        for m in methods:
            cell = result.cells[(result.cells["dataset"] == dataset) & (result.cells["method"] == m)].iloc[0]
            row.append(format_cell(cell["mean"], cell["std"], digits))
            if m in published:
                row.append(format_cell(cell["published_mean"], cell["published_std"], digits))
        rows.append(tuple(row))
    ranks_ours = result.ours.get("mean_ranks", {})
    ranks_pub = result.published.get("mean_ranks", {})
    rank_row = ["mean rank"]
    for m in methods:
        rank_row.append(f"{ranks_ours[m]:.4f}" if m in ranks_ours else "—")
        if m in published:
            rank_row.append(f"{ranks_pub[m]:.4f}" if m in ranks_pub else "—")
    rows.append(tuple(rank_row))
    groups = {}
    for average in result.averages or []:
        groups.setdefault(average["group"], {})[average["method"]] = average
    for group, by_method in groups.items():
        row = [f"Avg ({group})"]
        for m in methods:
            cell = by_method[m]
            row.append(format_cell(np.nan if cell["mean"] is None else cell["mean"], np.nan, digits))
            if m in published:
                pub = cell["published_mean"]
                row.append(format_cell(np.nan if pub is None else pub, np.nan, digits))
        rows.append(tuple(row))
    return Table(tuple(header), tuple(rows), caption=result.spec["caption"])


def write_table(result: TableResult, stem: str | Path) -> None:
    """Write ``<stem>.csv``, ``.md``, ``.tex`` and ``_ranks.json`` atomically."""
    stem = Path(stem)
    with atomic_path(stem.with_suffix(".csv")) as tmp:
        result.cells.to_csv(tmp, index=False, float_format="%.6f", lineterminator="\n")
    table = wide_table(result)
    doc = Document(result.spec["caption"], [Table(table.header, table.rows)])
    write_text_atomic(stem.with_suffix(".md"), to_markdown(doc))
    write_text_atomic(stem.with_suffix(".tex"), table_to_latex(table))
    ranks = {"ours": result.ours, "published": result.published}
    if result.averages is not None:
        ranks["averages"] = result.averages
    if result.paired is not None:
        ranks["paired"] = result.paired
    if result.open_samples is not None:
        ranks["open_samples"] = result.open_samples
    write_text_atomic(
        stem.parent / f"{stem.name}_ranks.json", json.dumps(ranks, indent=2, sort_keys=True) + "\n"
    )

"""Published numbers, transcribed from the papers into ``report/published/*.csv``.

The code never hard-codes a published result: every one is read from these files (copied from
``shared/papers/tables/``, see ``shared/papers/README.md`` for the transcription notes), plus
``c2rf_text_solved_share.csv``: shares the C2RF paper states in its text (Sec. 5.4), not in a table.
One copy completes its source: ``rcrf_table5_kappa_error.csv`` holds zoo's row, the last of the
RCRF paper's Table 5, which the shared transcription leaves out (tests/rcrf checks the row against
the paper's text).
"""

from __future__ import annotations

from importlib import resources

import pandas as pd


def published_path(filename: str):
    """The packaged CSV ``filename`` (e.g. ``brf_table2_accuracy.csv``)."""
    path = resources.files("forestrepro.report") / "published" / filename
    if not path.is_file():
        available = sorted(p.name for p in (resources.files("forestrepro.report") / "published").iterdir())
        raise FileNotFoundError(f"no published table '{filename}'; available: {available}")
    return path


def load_published(filename: str) -> pd.DataFrame:
    """A published table as a tidy frame (paper, table, dataset, method, metric, mean, std)."""
    with published_path(filename).open(encoding="utf-8") as handle:
        return pd.read_csv(handle)


# Metrics a paper prints only in another form, derived by an exact increasing linear map
# value = scale * printed + offset (so a median maps to the median, a std to scale * std): the
# C2RF paper prints MCC as (MCC + 1) / 2 x 100 (Sec. 5.3, Tables 3-4).
DERIVED = {"mcc": ("mcc_pct", 0.02, -1.0)}


def published_cells(filename: str | None, metric: str) -> pd.DataFrame:
    """The per-data-set cells of ``metric`` as ``mean`` and ``std``, indexed by (data set, method);
    none for a table without a published one (``filename`` None: data the paper never ran).

    Tables that print a mean ± std (BRF, RCRF) give both; tables that print one value (WDF) or a
    median over samples (C2RF, whose rows are instance ids) give it as ``mean`` with no std. A
    metric the table does not print but ``DERIVED`` maps from one it prints is derived.
    """
    if filename is None:
        index = pd.MultiIndex.from_tuples([], names=["dataset", "method"])
        return pd.DataFrame({"mean": [], "std": []}, index=index, dtype=float)
    table = load_published(filename)
    if "metric" in table and metric in DERIVED and not (table["metric"] == metric).any():
        source, scale, offset = DERIVED[metric]
        cells = published_cells(filename, source)
        return cells.assign(mean=scale * cells["mean"] + offset, std=scale * cells["std"])
    if "metric" in table:
        cells = table[table["metric"] == metric].copy()
    else:  # one column per metric (RCRF Table 5)
        cells = table.rename(columns={metric: "mean"})
    if "dataset" not in cells:
        cells["dataset"] = cells["id"].astype(str)
    for column in ("value", "median"):
        if column in cells:
            cells["mean"] = cells[column]
    if "std" not in cells:
        cells["std"] = float("nan")
    # Some tables mix verdict rows (True/False) into the value column: the cells are numbers.
    cells["mean"] = pd.to_numeric(cells["mean"])
    cells["std"] = pd.to_numeric(cells["std"])
    return cells.set_index(["dataset", "method"])[["mean", "std"]]


def published_mean_ranks(filename: str | None) -> pd.Series:
    """The mean ranks the paper prints (rows with metric ``mean_rank``), by published method."""
    if filename is None:
        return pd.Series(dtype=float)
    table = load_published(filename)
    ranks = table[table["metric"] == "mean_rank"]
    return pd.to_numeric(ranks.set_index("method")["mean"]) if len(ranks) else pd.Series(dtype=float)

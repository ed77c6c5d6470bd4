"""Critical-difference diagrams of a regenerated table, beside the paper's on the same cells."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from ..io import atomic_path  # noqa: E402
from .cd_diagram import plot_cd_diagram  # noqa: E402


def plot_cd_pair(ranks: dict, title: str, stem: str | Path) -> list[Path]:
    """Draw the CD diagram of our ranks over the paper's, save ``<stem>.png`` and ``.pdf``.

    ``ranks`` is the ``_ranks.json`` of a table: ``{"ours": {...}, "published": {...}}``.
    A panel without rank statistics (fewer than two complete data sets) says so.
    """
    fig, axes = plt.subplots(2, 1, figsize=(8, 5.5))
    for ax, key, label in zip(axes, ("ours", "published"), ("regenerated", "published, same cells")):
        stats = ranks[key]
        if "mean_ranks" in stats:
            plot_cd_diagram(
                pd.Series(stats["mean_ranks"]),
                stats["nemenyi_cd"],
                title=f"{title}: {label} (N = {stats['n_datasets']}, CD = {stats['nemenyi_cd']:.3f})",
                ax=ax,
            )
        else:
            ax.axis("off")
            ax.set_title(f"{title}: {label}: {stats.get('note', 'no rank statistics')}")
    fig.tight_layout()
    stem = Path(stem)
    written = []
    for suffix, kwargs in (
        (".png", {"dpi": 150, "metadata": {"Software": None}}),
        (".pdf", {"metadata": {"CreationDate": None}}),
    ):
        path = stem.with_suffix(suffix)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=suffix[1:], **kwargs)
        written.append(path)
    plt.close(fig)
    return written

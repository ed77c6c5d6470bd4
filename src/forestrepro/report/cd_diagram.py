"""Critical-difference (CD) diagrams of Demšar (2006), Sec. 3.2.4 and Fig. 1.

The diagram shows a rank axis from 1 (best, left) to k, each method's average rank with its
name, a bar of length CD, and thick lines joining groups of methods that are *not*
significantly different: methods whose average ranks differ by less than CD. Demšar's
criterion is that two methods differ significantly when their average ranks "differ by at
least the critical difference", so a group is a run of consecutive methods (sorted by average
rank) whose extreme ranks differ by strictly less than CD; only maximal runs are drawn.

The figure is built on :class:`matplotlib.figure.Figure` with the non-interactive Agg canvas;
pyplot and its global state (current figure, backend, ``show``) are never touched.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..stats.cd_groups import cd_groups, check_cd, sorted_ranks

__all__ = ["plot_cd_diagram"]


def _label(name: str, rank: float) -> str:
    return f"{name} ({rank:.2f})"


def plot_cd_diagram(
    mean_ranks: pd.Series,
    cd: float,
    *,
    title: str | None = None,
    ax: Axes | None = None,
) -> Figure:
    """Draw Demšar's critical-difference diagram.

    Parameters
    ----------
    mean_ranks
        Average rank per method, indexed by method name (e.g. ``FriedmanResult.mean_ranks``).
    cd
        Critical difference, e.g. :func:`forestrepro.stats.nemenyi_cd`.
    title
        Optional title above the diagram.
    ax
        Axes to draw into. When omitted a new figure is sized to fit the method names;
        when given, the diagram fills ``ax`` (whose axis frame is switched off).

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the diagram; save it with ``fig.savefig(path)``.

    Layout: the rank axis runs along the top from 1 (left, best) to k; the CD bar sits above
    it at the left. The better half of the methods is labelled on the left, the worse half on
    the right, each with its average rank; thick black lines below the axis join the groups
    of :func:`cd_groups`.
    """
    cd = check_cd(cd)
    ordered = sorted_ranks(mean_ranks)
    names = [str(name) for name in ordered.index]
    ranks = ordered.to_numpy()
    k = len(names)
    groups = cd_groups(ordered, cd)

    n_left = math.ceil(k / 2)
    left = list(range(n_left))  # best methods, labelled on the left
    right = list(range(k - 1, n_left - 1, -1))  # worst first, labelled on the right
    labels = [_label(name, r) for name, r in zip(names, ranks)]
    max_chars = max(len(lab) for lab in labels)

    # Vertical geometry, in arbitrary units (0 = rank axis, negative = below).
    row_step = 0.55
    group_step = 0.3
    groups_top = -0.45
    first_row = groups_top - max(len(groups), 1) * group_step - 0.25
    n_rows = max(len(left), len(right))
    y_min = first_row - (n_rows - 1) * row_step - 0.45
    y_max = 1.65 if title is None else 2.25

    # Horizontal geometry: the rank axis spans [lo, hi] in rank units; the labels need
    # about 0.6 em per character, so the side margins are sized in inches and converted.
    lo, hi = 1.0, float(max(k, 1.0 + cd))
    gap_inches, pad_inches = 0.35, 0.15
    unit_inches = 0.42  # height of one vertical unit at the nominal font size
    fontsize = 10.0
    if ax is None:
        axis_inches = max(4.0, 1.0 * (hi - lo))
        label_inches = max_chars * 0.6 * fontsize / 72.0
        width = axis_inches + 2.0 * (gap_inches + label_inches + pad_inches)
        fig = Figure(figsize=(width, (y_max - y_min) * unit_inches))
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    else:
        fig = ax.figure
        fig_w, fig_h = fig.get_size_inches()
        box = ax.get_position()
        width, height = box.width * fig_w, box.height * fig_h
        # Shrink the font when the given axes are too small for the nominal layout: keep the
        # labels within ~55 % of the width and the rows within the height.
        fit_w = 0.55 * width / (2.0 * max_chars * 0.6 * 10.0 / 72.0)
        fit_h = height / ((y_max - y_min) * unit_inches)
        fontsize = float(np.clip(10.0 * min(1.0, fit_w, fit_h), 6.0, 10.0))
        label_inches = max_chars * 0.6 * fontsize / 72.0
        axis_inches = max(width - 2.0 * (gap_inches + label_inches + pad_inches), 0.2 * width)
    inch_per_rank = axis_inches / (hi - lo)
    gap = gap_inches / inch_per_rank
    margin = (gap_inches + label_inches + pad_inches) / inch_per_rank
    x_min, x_max = lo - margin, hi + margin

    ax.set_xlim(x_min, x_max)
    ax.set_ylim(y_min, y_max)
    ax.set_axis_off()

    line_kw = dict(color="black", linewidth=1.0, solid_capstyle="butt")

    # Rank axis with integer ticks (and half ticks) labelled 1..k.
    ax.plot([lo, hi], [0.0, 0.0], **line_kw)
    for t in np.arange(lo, hi + 0.25, 0.5):
        major = float(t).is_integer()
        ax.plot([t, t], [0.0, 0.18 if major else 0.09], **line_kw)
        if major and t <= k:
            ax.text(t, 0.28, f"{int(t)}", ha="center", va="bottom", fontsize=fontsize)

    # CD bar above the axis, starting at rank 1.
    cd_y = 1.05
    ax.plot([lo, lo + cd], [cd_y, cd_y], color="black", linewidth=1.6)
    for x in (lo, lo + cd):
        ax.plot([x, x], [cd_y - 0.1, cd_y + 0.1], **line_kw)
    ax.text(lo + cd / 2.0, cd_y + 0.14, f"CD = {cd:.3f}", ha="center", va="bottom", fontsize=fontsize)

    # Method markers, elbow lines and labels.
    for row, i in enumerate(left):
        y = first_row - row * row_step
        ax.plot([ranks[i], ranks[i], lo - gap], [0.0, y, y], **line_kw)
        ax.text(lo - gap - 0.05 / inch_per_rank, y, labels[i], ha="right", va="center", fontsize=fontsize)
    for row, i in enumerate(right):
        y = first_row - row * row_step
        ax.plot([ranks[i], ranks[i], hi + gap], [0.0, y, y], **line_kw)
        ax.text(hi + gap + 0.05 / inch_per_rank, y, labels[i], ha="left", va="center", fontsize=fontsize)
    ax.plot(ranks, np.zeros(k), "o", color="black", markersize=3.5, zorder=3)

    # Thick lines joining methods that are not significantly different.
    overhang = 0.06 / inch_per_rank
    for g, group in enumerate(groups):
        y = groups_top - g * group_step
        first, last = names.index(group[0]), names.index(group[-1])
        ax.plot(
            [ranks[first] - overhang, ranks[last] + overhang],
            [y, y],
            color="black",
            linewidth=3.0,
            solid_capstyle="butt",
            zorder=4,
        )

    if title is not None:
        ax.text((x_min + x_max) / 2.0, y_max - 0.1, title, ha="center", va="top", fontsize=fontsize + 1)
    return fig

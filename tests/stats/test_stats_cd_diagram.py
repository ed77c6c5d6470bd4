import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from forestrepro.report.cd_diagram import plot_cd_diagram
from forestrepro.stats import cd_groups, nemenyi_cd


def test_groups_of_a_hand_made_vector():
    # Sorted: A 1.0, B 1.5, C 2.5, D 3.0, E 4.25; CD = 1.25 (all values exact in binary).
    #   from A: B (+0.5) joins, C (+1.5) does not      -> (A, B)
    #   from B: C (+1.0) joins, D (+1.5) does not      -> (B, C)
    #   from C: D (+0.5) joins, E (+1.75) does not     -> (C, D)
    #   from D: E (+1.25 = CD) is significant, no join -> nothing
    ranks = pd.Series({"E": 4.25, "C": 2.5, "A": 1.0, "D": 3.0, "B": 1.5})
    assert cd_groups(ranks, 1.25) == [("A", "B"), ("B", "C"), ("C", "D")]


def test_nested_runs_are_not_repeated():
    # From A the run reaches C; from B it also ends at C, a sub-group, so it is dropped.
    ranks = pd.Series({"A": 1.0, "B": 1.5, "C": 2.0, "D": 4.0})
    assert cd_groups(ranks, 1.5) == [("A", "B", "C")]


def test_all_in_one_group_and_no_group():
    ranks = pd.Series({"A": 1.5, "B": 2.0, "C": 2.5})
    assert cd_groups(ranks, 5.0) == [("A", "B", "C")]
    assert cd_groups(ranks, 0.25) == []


def test_groups_of_demsar_figure_1(demsar_table6):
    # Demšar (2006), Fig. 1 (Nemenyi, alpha = 0.10, CD = 1.12): C4.5+m+cf, C4.5+m and
    # C4.5+cf are joined, and C4.5+cf with C4.5; at alpha = 0.05 (CD = 1.25) one group.
    from forestrepro.stats import mean_ranks

    r = mean_ranks(demsar_table6)
    assert cd_groups(r, nemenyi_cd(4, 14, 0.10)) == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+cf", "C4.5"),
    ]
    assert cd_groups(r, nemenyi_cd(4, 14, 0.05)) == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]


def _thick_lines(fig: Figure):
    return [ln for ax in fig.axes for ln in ax.lines if ln.get_linewidth() >= 3.0]


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_diagram_draws_to_png(tmp_path, k):
    names = [f"Method number {i} (long-ish name)" for i in range(k)]
    ranks = pd.Series(np.linspace(1.2, k - 0.3, k), index=names)
    cd = 1.1
    fig = plot_cd_diagram(ranks, cd, title="test")
    assert isinstance(fig, Figure)
    path = tmp_path / f"cd_{k}.png"
    fig.savefig(path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000
    # One thick line per group, and every method name appears in the figure.
    assert len(_thick_lines(fig)) == len(cd_groups(ranks, cd))
    texts = " ".join(t.get_text() for ax in fig.axes for t in ax.texts)
    assert all(name in texts for name in names)
    assert "CD = 1.100" in texts


def test_diagram_into_given_axes(tmp_path):
    fig = Figure(figsize=(6, 3))
    ax = fig.add_subplot()
    ranks = pd.Series({"BRFs": 2.27, "SVMs": 2.43, "RFs": 2.90, "KNNs": 2.93, "Biau12": 4.47})
    out = plot_cd_diagram(ranks, 1.575, ax=ax)
    assert out is fig
    assert len(_thick_lines(fig)) == 2
    fig.savefig(tmp_path / "into_ax.png")


def test_diagram_leaves_pyplot_alone():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    plot_cd_diagram(pd.Series({"a": 1.0, "b": 2.0}), 0.5)
    assert plt.get_fignums() == before


@pytest.mark.parametrize("cd", [0.0, -1.0, float("nan"), float("inf")])
def test_invalid_cd(cd):
    with pytest.raises(ValueError):
        cd_groups(pd.Series({"a": 1.0, "b": 2.0}), cd)


def test_invalid_ranks():
    with pytest.raises(ValueError):
        cd_groups(pd.Series({"a": 1.0}), 1.0)
    with pytest.raises(ValueError):
        cd_groups(pd.Series([1.0, np.nan], index=["a", "b"]), 1.0)
    with pytest.raises(TypeError):
        cd_groups([1.0, 2.0], 1.0)  # type: ignore[arg-type]

"""Hand-check against the BRF paper (Sun et al. 2018, Sec. 6.1 and Table 2).

The published accuracies and mean ranks are read from the transcribed table; the paper's
numbers are never used in src/.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from forestrepro.stats import cd_groups, friedman_test, mean_ranks, nemenyi_cd, rank_scores

TABLE = Path("/work/shared/papers/tables/brf_table2_accuracy.csv")
METHODS = ["SVMs", "KNNs", "RFs", "Biau12", "BRFs"]

pytestmark = pytest.mark.skipif(not TABLE.exists(), reason=f"{TABLE} not available")


@pytest.fixture(scope="module")
def brf_table() -> pd.DataFrame:
    return pd.read_csv(TABLE)


@pytest.fixture(scope="module")
def accuracy(brf_table) -> pd.DataFrame:
    rows = brf_table[brf_table["dataset"] != "meanrank"]
    return rows.pivot(index="dataset", columns="method", values="mean")[METHODS]


@pytest.fixture(scope="module")
def published_mean_ranks(brf_table) -> pd.Series:
    rows = brf_table[brf_table["dataset"] == "meanrank"]
    return rows.set_index("method")["mean"][METHODS]


def test_table_shape(accuracy):
    assert accuracy.shape == (15, 5)
    assert not accuracy.isna().any().any()


def test_published_ties_share_ranks(accuracy):
    ranks = rank_scores(accuracy)
    # ionosphere: SVMs first; RFs and BRFs print the same accuracy and share ranks 2 and 3.
    assert ranks.loc["ionosphere"].to_dict() == {
        "SVMs": 1.0,
        "KNNs": 5.0,
        "RFs": 2.5,
        "Biau12": 4.0,
        "BRFs": 2.5,
    }
    # isolet: SVMs and BRFs print the same accuracy and share ranks 1 and 2.
    assert ranks.loc["isolet"].to_dict() == {"SVMs": 1.5, "KNNs": 5.0, "RFs": 3.0, "Biau12": 4.0, "BRFs": 1.5}


def test_recomputed_mean_ranks(accuracy):
    # Rank sums over the 15 data sets, counted by hand from Table 2 (ties averaged):
    # SVMs 38.5, KNNs 43, RFs 43.5, Biau12 68, BRFs 32 (total 225 = 15 * 5*6/2).
    expected = np.array([38.5, 43.0, 43.5, 68.0, 32.0]) / 15
    np.testing.assert_allclose(mean_ranks(accuracy).to_numpy(), expected, rtol=1e-12)


def test_published_mean_ranks_versus_recomputed(accuracy, published_mean_ranks):
    # The paper prints 2.4333, 2.9333, 2.9000, 4.4667, 2.2667 (rank sums 36.5, 44, 43.5, 67,
    # 34). Recomputed from its own accuracies only RFs agrees; the others are off by whole
    # rank units over 15 data sets: SVMs +2/15, KNNs -1/15, Biau12 +1/15, BRFs -2/15
    # (recomputed minus published). No tie convention (average, min, max, first) reproduces
    # the printed row. This test pins the discrepancy so that any change in either the
    # transcription or the ranking code is noticed.
    recomputed = mean_ranks(accuracy)
    diff = (recomputed - published_mean_ranks) * 15
    np.testing.assert_allclose(diff.to_numpy(), [2.0, -1.0, 0.0, 1.0, -2.0], atol=2e-3)
    assert published_mean_ranks.sum() == pytest.approx(15.0, abs=1e-3)  # still a rank vector
    assert (recomputed - published_mean_ranks).abs().max() == pytest.approx(2 / 15, abs=1e-3)


def test_cd_and_conclusions(accuracy, published_mean_ranks):
    cd = nemenyi_cd(5, 15)
    assert cd == pytest.approx(1.5750, abs=1e-3)  # printed in Sec. 6.1
    # The paper: BRFs significantly better than Biau12, comparable with RFs, KNNs, SVMs.
    for ranks in (published_mean_ranks, mean_ranks(accuracy)):
        assert ranks["Biau12"] - ranks["BRFs"] >= cd
        for other in ("RFs", "KNNs", "SVMs"):
            assert abs(ranks[other] - ranks["BRFs"]) < cd
    # The groups differ: with the printed ranks Biau12 is not separated from RFs and KNNs
    # (4.4667 - 2.9000 = 1.567 < CD), with the recomputed ranks it is (1.633 and 1.667 > CD).
    assert cd_groups(published_mean_ranks, cd) == [
        ("BRFs", "SVMs", "RFs", "KNNs"),
        ("RFs", "KNNs", "Biau12"),
    ]
    assert cd_groups(mean_ranks(accuracy), cd) == [("BRFs", "SVMs", "KNNs", "RFs")]


def test_friedman_on_published_accuracies(accuracy):
    result = friedman_test(accuracy)
    assert (result.k, result.n) == (5, 15)
    # Significant, the precondition for the Nemenyi step the paper takes.
    assert result.p_iman_davenport < 0.05

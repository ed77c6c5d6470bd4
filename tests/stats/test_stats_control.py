import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from forestrepro.stats import bonferroni_dunn_cd, compare_to_control, holm_adjust


def test_hand_checked_three_methods():
    # k = 3, N = 6, the control is first, B second and C third on every data set:
    #   R = (1, 2, 3), se = sqrt(3*4 / (6*6)) = sqrt(1/3) = 0.57735
    #   B: z = 1/0.57735 = 1.7321, p = 2(1 - Phi(1.7321)) = 0.083265
    #   C: z = 2/0.57735 = 3.4641, p = 0.000532
    #   Holm (m = 2): C first: 2 * 0.000532 = 0.001064 < 0.05 -> reject
    #                 B next:  1 * 0.083265 = 0.083265 > 0.05 -> retain
    scores = pd.DataFrame({"ctrl": [0.9] * 6, "B": [0.8] * 6, "C": [0.7] * 6})
    out = compare_to_control(scores, "ctrl")
    assert list(out.index) == ["C", "B"]  # ordered by p-value, as in Holm's procedure
    assert out.loc["B", "z"] == pytest.approx(math.sqrt(3), rel=1e-12)
    assert out.loc["C", "z"] == pytest.approx(2 * math.sqrt(3), rel=1e-12)
    assert out.loc["B", "p_value"] == pytest.approx(0.083265, abs=1e-6)
    assert out.loc["C", "p_value"] == pytest.approx(0.000532, abs=1e-6)
    assert out.loc["C", "p_holm"] == pytest.approx(2 * out.loc["C", "p_value"])
    assert out.loc["B", "p_holm"] == pytest.approx(out.loc["B", "p_value"])
    assert out.loc["B", "p_bonferroni"] == pytest.approx(2 * out.loc["B", "p_value"])
    assert out["significant"].to_dict() == {"C": True, "B": False}
    assert out.loc["C", "rank_diff"] == 2.0 and out.loc["C", "mean_rank"] == 3.0
    assert out.attrs["control_mean_rank"] == 1.0


def test_demsar_example_with_c45_as_control(demsar_table6):
    # Demšar (2006) Table 6, control C4.5 (R = 3.143), se = sqrt(20/84) = 0.48795:
    #   C4.5+m+cf: z = (1.964 - 3.143)/0.488 = -2.415, p = 0.0157
    #   C4.5+m:    z = (2.000 - 3.143)/0.488 = -2.342, p = 0.0192
    #   C4.5+cf:   z = (2.893 - 3.143)/0.488 = -0.512, p = 0.608
    # Holm: 0.0157 < 0.05/3 = 0.0167 reject, 0.0192 < 0.05/2 = 0.025 reject,
    #       0.608 > 0.05 retain. Adjusted: 0.0472, max(0.0472, 0.0383) = 0.0472, 0.608.
    out = compare_to_control(demsar_table6, "C4.5")
    assert list(out.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    np.testing.assert_allclose(out["z"], [-2.415, -2.342, -0.512], atol=2e-3)
    np.testing.assert_allclose(out["p_value"], [0.0157, 0.0192, 0.608], atol=1e-3)
    np.testing.assert_allclose(out["p_holm"], [0.0472, 0.0472, 0.608], atol=1e-3)
    assert out["significant"].tolist() == [True, True, False]
    # Bonferroni-Dunn (single step, 3 p-values) is stricter and rejects only the first.
    assert (out["p_bonferroni"] < 0.05).tolist() == [True, False, False]


def test_holm_adjust_monotone_and_bounded():
    p = pd.Series([0.04, 0.001, 0.03, 0.5], index=list("abcd"))
    # sorted: b 0.001*4 = 0.004, c 0.03*3 = 0.09, a max(0.09, 0.04*2) = 0.09, d min(1, 0.5) = 0.5
    adjusted = holm_adjust(p)
    assert adjusted.to_dict() == pytest.approx({"a": 0.09, "b": 0.004, "c": 0.09, "d": 0.5})
    assert holm_adjust(pd.Series([0.6, 0.7])).tolist() == pytest.approx([1.0, 1.0])


@pytest.mark.parametrize("k, q", [(2, 1.960), (3, 2.241), (4, 2.394), (5, 2.498), (6, 2.576)])
def test_bonferroni_dunn_critical_values_match_demsar_table_5b(k, q):
    n = 10
    se = math.sqrt(k * (k + 1) / (6 * n))
    assert bonferroni_dunn_cd(k, n) / se == pytest.approx(q, abs=1e-3)


def test_direction_flips_the_sign_of_z(rng):
    scores = pd.DataFrame(rng.normal(size=(12, 4)), columns=list("ABCD"))
    up = compare_to_control(scores, "A")
    down = compare_to_control(scores, "A", higher_is_better=False)
    np.testing.assert_allclose(up["z"], -down.loc[up.index, "z"])
    np.testing.assert_allclose(up["p_value"], down.loc[up.index, "p_value"])


def test_unknown_control_raises(tiny_scores):
    with pytest.raises(KeyError, match="nope"):
        compare_to_control(tiny_scores, "nope")


def test_p_values_are_two_sided_normal(rng):
    scores = pd.DataFrame(rng.normal(size=(20, 5)), columns=list("ABCDE"))
    out = compare_to_control(scores, "C")
    np.testing.assert_allclose(out["p_value"], 2 * sps.norm.sf(np.abs(out["z"])))

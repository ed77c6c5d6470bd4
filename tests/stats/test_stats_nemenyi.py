import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from forestrepro.stats import nemenyi_cd, nemenyi_pairwise, nemenyi_q


# Demšar (2006), Table 5(a): critical values q_alpha of the two-tailed Nemenyi test. The
# printed entries look truncated rather than rounded (k = 3: 2.3437 is printed 2.343), hence
# the 1e-3 tolerance.
@pytest.mark.parametrize("k, expected", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (6, 2.850)])
def test_q_alpha_005_matches_demsar_table_5a(k, expected):
    assert nemenyi_q(k, 0.05) == pytest.approx(expected, abs=1e-3)


def test_q_alpha_010_for_k4_matches_demsar_table_5a():
    assert nemenyi_q(4, 0.10) == pytest.approx(2.291, abs=1e-3)


def test_q_for_k2_is_the_normal_quantile():
    # The range of two N(0,1) variables is |X1 - X2| ~ sqrt(2)|Z|, so q_alpha = z_{1-alpha/2}.
    for alpha in (0.01, 0.05, 0.10):
        assert nemenyi_q(2, alpha) == pytest.approx(sps.norm.isf(alpha / 2), abs=1e-6)


def test_studentized_range_converges_to_the_infinite_df_value():
    # scipy evaluates studentized_range with df=inf through its asymptotic form (used for
    # df > 100000). The finite-df quantiles must decrease towards it.
    k = 5
    q_inf = sps.studentized_range.ppf(0.95, k, np.inf)
    assert math.isfinite(q_inf)
    finite = [sps.studentized_range.ppf(0.95, k, df) for df in (10, 100, 1_000, 10_000)]
    gaps = [q - q_inf for q in finite]
    assert all(g > 0 for g in gaps)
    assert all(later < earlier for earlier, later in zip(gaps, gaps[1:]))
    assert gaps[-1] < 1e-3
    assert sps.studentized_range.ppf(0.95, k, 1e6) == pytest.approx(q_inf, abs=1e-9)
    assert nemenyi_q(k) == pytest.approx(q_inf / math.sqrt(2), rel=1e-12)


def test_cd_of_the_brf_paper():
    # BRF paper, Sec. 6.1: k = 5 methods, N = 15 data sets, alpha = 0.05 -> CD = 1.5750.
    assert nemenyi_cd(5, 15) == pytest.approx(1.575, abs=1e-3)
    # Same CD by hand: 2.728 * sqrt(5*6 / (6*15)) = 2.728 / sqrt(3)
    assert nemenyi_cd(5, 15) == pytest.approx(2.728 / math.sqrt(3), abs=1e-3)


def test_cd_of_demsar_example():
    # Demšar (2006), Sec. 3.2.2: k = 4, N = 14; CD = 2.569 sqrt(4*5/(6*14)) = 1.25 at 0.05
    # and 2.291 sqrt(20/84) = 1.12 at 0.10.
    assert nemenyi_cd(4, 14, 0.05) == pytest.approx(1.25, abs=5e-3)
    assert nemenyi_cd(4, 14, 0.10) == pytest.approx(1.12, abs=5e-3)


def test_cd_shrinks_with_more_data_sets_and_larger_alpha():
    assert nemenyi_cd(5, 30) < nemenyi_cd(5, 15)
    assert nemenyi_cd(5, 15, 0.10) < nemenyi_cd(5, 15, 0.05)
    assert nemenyi_cd(5, 60) == pytest.approx(nemenyi_cd(5, 15) / 2)


@pytest.mark.parametrize("k, alpha", [(1, 0.05), (0, 0.05), (5, 0.0), (5, 1.0), (5, -0.1)])
def test_invalid_q_arguments(k, alpha):
    with pytest.raises(ValueError):
        nemenyi_q(k, alpha)


def test_invalid_cd_arguments():
    with pytest.raises(ValueError):
        nemenyi_cd(5, 0)
    with pytest.raises(TypeError):
        nemenyi_q(2.5)  # type: ignore[arg-type]


def test_pairwise_matrix_shape_and_symmetry(demsar_table6):
    p = nemenyi_pairwise(demsar_table6)
    methods = list(demsar_table6.columns)
    assert list(p.index) == methods and list(p.columns) == methods
    np.testing.assert_allclose(p.to_numpy(), p.to_numpy().T)
    np.testing.assert_allclose(np.diag(p.to_numpy()), 1.0)
    assert ((p.to_numpy() >= 0) & (p.to_numpy() <= 1)).all()


def test_pairwise_pvalues_agree_with_the_studentized_range(demsar_table6):
    # p_ij = P(Q_{k,inf} > sqrt(2) |R_i - R_j| / sqrt(k(k+1)/(6N))), computed independently.
    p = nemenyi_pairwise(demsar_table6)
    r = np.array([44, 28, 40.5, 27.5]) / 14  # rank sums by hand, see test_stats_friedman
    se = math.sqrt(4 * 5 / (6 * 14))
    for i in range(4):
        for j in range(i + 1, 4):
            expected = sps.studentized_range.sf(math.sqrt(2) * abs(r[i] - r[j]) / se, 4, np.inf)
            assert p.iloc[i, j] == pytest.approx(expected, rel=1e-6)
    # Demšar: at alpha = 0.05 no pair differs (best vs worst 1.179 < CD 1.25) ...
    assert (p.to_numpy() > 0.05).all()
    # ... at alpha = 0.10 C4.5 is worse than C4.5+m and C4.5+m+cf and nothing else differs.
    significant = {(a, b) for a in p.index for b in p.columns if a < b and p.loc[a, b] < 0.10}
    assert significant == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}


def test_pvalue_at_the_critical_difference_is_alpha():
    # Ties q_alpha (nemenyi_q) and the pairwise p-values (scikit-posthocs) together.
    for k, alpha in [(3, 0.05), (5, 0.05), (6, 0.10)]:
        q = nemenyi_q(k, alpha)
        assert sps.studentized_range.sf(q * math.sqrt(2), k, np.inf) == pytest.approx(alpha, rel=1e-6)


def test_pairwise_does_not_depend_on_direction(demsar_table6):
    up = nemenyi_pairwise(demsar_table6)
    down = nemenyi_pairwise(demsar_table6, higher_is_better=False)
    pd.testing.assert_frame_equal(up, down)


def test_pairwise_rejects_nan(demsar_table6):
    demsar_table6.loc["wine", "C4.5"] = np.nan
    with pytest.raises(ValueError, match="wine"):
        nemenyi_pairwise(demsar_table6)

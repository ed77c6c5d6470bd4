"""Comparing one control method with all others: z tests with Holm / Bonferroni–Dunn control.

Demšar (2006), Sec. 3.2.2: when all classifiers are compared with a control classifier, the
statistic for comparing the i-th and j-th classifier is

    z = (R_i - R_j) / sqrt( k(k+1) / (6N) ),

referred to the standard normal distribution. The k-1 two-sided p-values are then adjusted
for multiplicity. Demšar recommends Holm's step-down procedure (Sec. 3.2.2, "Holm's
procedure"): order the p-values ``p_1 <= ... <= p_{k-1}``, reject while
``p_i < alpha / (k - i)``, and stop at the first retained hypothesis. The equivalent
adjusted p-values are ``p_holm_(i) = max_{j <= i} min(1, (k - j) p_(j))``, and a hypothesis
is rejected iff ``p_holm < alpha``. The single-step Bonferroni–Dunn adjustment
``min(1, (k-1) p)`` is reported alongside; it is what Demšar's CD for comparisons with a
control uses (``q_alpha`` = normal quantile at ``1 - alpha / (2(k-1))``, Table 5(b)), see
:func:`bonferroni_dunn_cd`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from .nemenyi import _check_alpha, _check_k, rank_difference_se
from .ranks import rank_scores

__all__ = ["compare_to_control", "holm_adjust", "bonferroni_dunn_cd"]


def holm_adjust(pvalues: pd.Series) -> pd.Series:
    """Holm step-down adjusted p-values, in the order of the input.

    ``p_holm_(i) = max_{j <= i} min(1, (m - j + 1) p_(j))`` for the ascending p-values
    ``p_(1) <= ... <= p_(m)`` (ties keep their input order).
    """
    p = pd.Series(pvalues, dtype=float)
    if p.isna().any():
        raise ValueError("p-values must not be NaN")
    m = len(p)
    order = np.argsort(p.to_numpy(), kind="mergesort")
    sorted_p = p.to_numpy()[order]
    factors = m - np.arange(m)
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(factors * sorted_p))
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return pd.Series(adjusted, index=p.index, name="p_holm")


def bonferroni_dunn_cd(k: int, n: int, alpha: float = 0.05) -> float:
    """Critical difference of the Bonferroni–Dunn test against a control (Demšar 2006, Sec. 3.2.2).

    ``CD = q_alpha sqrt(k(k+1)/(6N))`` with ``q_alpha = Phi^{-1}(1 - alpha / (2(k-1)))``,
    the two-sided normal critical value for ``alpha / (k-1)`` (Demšar's Table 5(b)).
    """
    k = _check_k(k)
    alpha = _check_alpha(alpha)
    q = float(sps.norm.isf(alpha / (2.0 * (k - 1))))
    return q * rank_difference_se(k, n)


def compare_to_control(
    scores: pd.DataFrame,
    control: str,
    higher_is_better: bool = True,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Test every method against ``control`` with Demšar's z statistic and Holm's procedure.

    Parameters
    ----------
    scores
        Rows = data sets, columns = methods; ``control`` must be one of the columns.
    control
        Name of the control method (e.g. the proposed method).
    higher_is_better
        Direction of the scores.
    alpha
        Family-wise significance level for the Holm procedure.

    Returns
    -------
    pandas.DataFrame
        One row per non-control method (index ``method``), sorted by ascending p-value (the
        order of Holm's step-down), with columns

        ``mean_rank``      the method's average rank,
        ``rank_diff``      ``R_method - R_control``; positive means the control ranks better,
        ``z``              ``rank_diff / sqrt(k(k+1)/(6N))``,
        ``p_value``        two-sided, ``2 * (1 - Phi(|z|))``, unadjusted,
        ``p_holm``         Holm-adjusted,
        ``p_bonferroni``   Bonferroni–Dunn adjusted, ``min(1, (k-1) p)``,
        ``significant``    ``p_holm < alpha``.

        The control's own average rank is in ``result.attrs["control_mean_rank"]``.
    """
    alpha = _check_alpha(alpha)
    ranks = rank_scores(scores, higher_is_better=higher_is_better)
    if control not in ranks.columns:
        raise KeyError(f"control method {control!r} is not a column of scores: {list(ranks.columns)}")
    n, k = ranks.shape
    se = rank_difference_se(k, n)
    mean = ranks.mean(axis=0)
    others = [m for m in ranks.columns if m != control]

    rank_diff = mean[others] - mean[control]
    z = rank_diff / se
    p = pd.Series(2.0 * sps.norm.sf(np.abs(z.to_numpy())), index=others)
    result = pd.DataFrame(
        {
            "mean_rank": mean[others].to_numpy(),
            "rank_diff": rank_diff.to_numpy(),
            "z": z.to_numpy(),
            "p_value": p.to_numpy(),
            "p_holm": holm_adjust(p).to_numpy(),
            "p_bonferroni": np.minimum(1.0, (k - 1) * p.to_numpy()),
        },
        index=pd.Index(others, name="method"),
    )
    result["significant"] = result["p_holm"] < alpha
    result = result.sort_values("p_value", kind="mergesort")
    result.attrs["control"] = control
    result.attrs["control_mean_rank"] = float(mean[control])
    result.attrs["alpha"] = alpha
    result.attrs["n"] = n
    result.attrs["k"] = k
    return result

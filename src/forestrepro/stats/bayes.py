"""Does "method a beats method b" generalise across data sets? Wilcoxon and Bayesian signed-rank.

One claim, two methods, N data sets, one score per data set and method (e.g. the mean
accuracy over the folds). With ``z_i`` the signed difference on data set i, oriented so that
``z_i > 0`` means ``a`` did better (``z_i = a_i - b_i`` when higher is better, ``b_i - a_i``
when lower is better), :func:`pairwise_claim` reports

* the **Wilcoxon signed-ranks test** (Demšar 2006, Sec. 3.1.3) of "a better", one-sided
  (``scipy.stats.wilcoxon(z, zero_method="zsplit", alternative="greater")``): zero
  differences are kept and their ranks split evenly between the positive and the negative
  sum, as Demšar recommends; the statistic is that positive sum ``R+``; scipy's default
  ``method="auto"`` (exact null distribution for N <= 50 without zeros or ties, normal
  approximation otherwise);

* the **Bayesian signed-rank test** with a region of practical equivalence (ROPE)
  ``[-r, r]`` of A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a change: a
  tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18(77):1-36,
  2017 (the Bayesian signed-rank test for two classifiers on multiple data sets), which
  builds on Benavoli et al., "A Bayesian Wilcoxon signed-rank test based on the Dirichlet
  process", ICML 2014. The differences are i.i.d. from an unknown distribution F with a
  Dirichlet-process prior DP(s, delta_{z_0}): prior strength ``s`` (default 0.5, as in
  the tutorial's R code and in ``baycomp``) on a single pseudo-observation at ``z_0 = 0``. The
  posterior is DP(s + N, (s delta_{z_0} + sum_i delta_{z_i}) / (s + N)); by the paper's
  approximation its weights on ``z_0, z_1, ..., z_N`` are ``w ~ Dirichlet(s, 1, ..., 1)``,
  and the probabilities that a Walsh average ``(z_i + z_j)/2`` of two draws from F falls
  right of, inside, or left of the ROPE are

      theta_a  = sum_{i=0..N} sum_{j=0..N} w_i w_j  I[z_i + z_j >  2r]    (a better)
      theta_eq = sum_{i=0..N} sum_{j=0..N} w_i w_j  I[|z_i + z_j| < 2r]   (equivalent)
      theta_b  = sum_{i=0..N} sum_{j=0..N} w_i w_j  I[z_i + z_j < -2r]    (b better)

  (i = j and the pseudo-observation included). As in the paper, the reported posterior
  probabilities are those of each region being the most probable one,
  ``P(a better) = P(theta_a > max(theta_eq, theta_b))`` and so on, estimated by Monte
  Carlo over ``nsamples`` draws of ``w``. A Walsh sum exactly on the ROPE's edge
  (``z_i + z_j = +-2r``) counts half inside and half outside, and a draw in which two
  regions tie for the maximum gives each half (three: a third), so the three probabilities
  sum to 1 and swapping ``a`` and ``b`` swaps ``P(a better)`` and ``P(b better)`` exactly.

The verdict on the claim (``threshold``, default 0.95):

* ``"generalises"``: P(a better) >= threshold;
* ``"equivalent"``: P(equivalent) >= threshold -- the claim does not generalise, the two
  methods are practically equivalent across data sets;
* ``"reversed"``: P(b better) >= threshold -- the claim does not generalise, b is better;
* ``"inconclusive"``: none of the three reaches the threshold (too few data sets, or
  differences that straddle the ROPE).

The ROPE is in the units of the scores. The default ``rope=0.01`` is one percentage point
of accuracy on a 0-1 scale (``accuracy``); for scores in percent (``accuracy_pct``,
``mcc_pct``) pass ``rope=1.0``. It is compared against the differences as computed, without
rounding: round the scores first (``scores.round(4)``) if they should be compared at a
printed precision.

Determinism: the Dirichlet weights come from ``numpy.random.RandomState(seed)``, numpy's
legacy generator whose stream numpy keeps fixed across versions (NEP 19), so the same scores,
ROPE, prior, ``nsamples`` and seed give the same probabilities, bit for bit. (They are also
the draws of the ``baycomp`` package's ``SignedRankTest`` with ``random_state=seed``, whose
probabilities these reproduce; see ``pairwise_claim`` for why this module does not depend
on it.) With the default 50,000 draws the Monte Carlo standard error of a probability is at
most 0.0023, and 0.001 near 0.95.

Missing scores are not dropped here (as everywhere in ``forestrepro.stats``): a NaN or
infinite score of ``a`` or ``b`` raises ``ValueError`` naming the data sets; drop them with
``scores[[a, b]].dropna()`` if that is what the claim should be judged on. Missing scores of
other methods in the table are ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from .ranks import validate_scores

__all__ = ["ClaimTest", "pairwise_claim", "signed_rank_posterior", "ROPE_ACCURACY", "VERDICTS"]

ROPE_ACCURACY = 0.01
"""Default ROPE: one percentage point of accuracy on a 0-1 scale (use 1.0 for percent)."""

VERDICTS = ("generalises", "equivalent", "reversed", "inconclusive")
"""The possible :attr:`ClaimTest.verdict` values; "equivalent" and "reversed" both mean the
claim does not generalise."""

_CHUNK = 8192  # Dirichlet draws per block of the Monte Carlo (bounds the memory to a few MB)


@dataclass(frozen=True)
class ClaimTest:
    """Outcome of :func:`pairwise_claim` for the claim "``a`` beats ``b``".

    Attributes
    ----------
    a, b
        The two methods (columns of the score table).
    n
        Number of data sets N.
    rope
        Half-width r of the region of practical equivalence ``[-r, r]``, in score units.
    mean_difference
        Mean of the oriented differences ``z_i`` (positive: ``a`` better on average), in
        score units.
    wilcoxon_statistic, wilcoxon_p
        Wilcoxon signed-ranks ``R+`` (sum of the ranks of the positive ``z_i``, zero
        differences split evenly) and its one-sided p-value for "a better".
    p_a_better, p_equivalent, p_b_better
        Posterior probabilities of the Bayesian signed-rank test (they sum to 1).
    verdict
        One of :data:`VERDICTS`: "generalises", "equivalent", "reversed" or "inconclusive".
    """

    a: str
    b: str
    n: int
    rope: float
    mean_difference: float
    wilcoxon_statistic: float
    wilcoxon_p: float
    p_a_better: float
    p_equivalent: float
    p_b_better: float
    verdict: str

    @property
    def generalises(self) -> bool:
        """``True`` for the verdict "generalises"."""
        return self.verdict == "generalises"


def _heaviside(x: np.ndarray, edge: float) -> np.ndarray:
    """``I[x > edge] + I[x == edge] / 2``: 1 above the edge, 1/2 on it, 0 below."""
    return (x > edge).astype(float) + 0.5 * (x == edge).astype(float)


def signed_rank_posterior(
    z: np.ndarray, rope: float, *, prior_strength: float = 0.5, nsamples: int = 50_000, seed: int = 0
) -> tuple[float, float, float]:
    """``(P(a better), P(equivalent), P(b better))`` of the Bayesian signed-rank test.

    ``z`` are the oriented differences (positive: ``a`` better), ``rope`` the half-width r of
    the ROPE in their units; see the module docstring for the model (Benavoli et al. 2017):
    weights ``w ~ Dirichlet(s, 1, ..., 1)`` on ``(0, z_1, ..., z_N)``, the three region
    probabilities ``theta = w^T M w`` with ``M_ij`` the indicator of ``z_i + z_j`` above
    ``2r``, within ``(-2r, 2r)`` or below ``-2r`` (halves on the edges), and each
    probability the fraction of draws in which that region's theta is the largest.
    """
    z = np.asarray(z, dtype=float)
    if z.ndim != 1:
        raise ValueError(f"differences must be one-dimensional, got shape {z.shape}")
    if not np.all(np.isfinite(z)):
        raise ValueError("differences must be finite")
    if not (math.isfinite(rope) and rope >= 0):
        raise ValueError(f"rope must be a finite number >= 0, got {rope}")
    if not (math.isfinite(prior_strength) and prior_strength > 0):
        raise ValueError(f"prior_strength must be > 0, got {prior_strength}")
    if isinstance(nsamples, bool) or not isinstance(nsamples, int | np.integer) or nsamples < 1:
        raise ValueError(f"nsamples must be a positive integer, got {nsamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**32:
        raise ValueError(f"seed must be an integer in [0, 2**32), got {seed!r}")

    points = np.concatenate(([0.0], z))  # the prior's pseudo-observation z_0 = 0 first
    sums = points[:, None] + points[None, :]  # twice the Walsh averages; exactly antisymmetric in z
    above = _heaviside(sums, 2.0 * rope)
    below = _heaviside(-sums, 2.0 * rope)
    inside = 1.0 - above - below  # exact: entries are 0, 1/2 or 1
    regions = (above, inside, below)
    alpha = np.ones(len(points))
    alpha[0] = prior_strength

    generator = np.random.RandomState(int(seed))
    shares = np.zeros(3)
    for start in range(0, nsamples, _CHUNK):
        w = generator.dirichlet(alpha, min(_CHUNK, nsamples - start))
        theta = np.stack([np.einsum("si,si->s", w @ m, w) for m in regions], axis=1)
        top = theta == theta.max(axis=1, keepdims=True)
        shares += (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
    p_a, p_eq, p_b = (float(v) for v in shares / nsamples)
    return p_a, p_eq, p_b


def pairwise_claim(
    scores: pd.DataFrame,
    a: str,
    b: str,
    rope: float = ROPE_ACCURACY,
    *,
    higher_is_better: bool = True,
    threshold: float = 0.95,
    prior_strength: float = 0.5,
    nsamples: int = 50_000,
    seed: int = 0,
) -> ClaimTest:
    """Judge the claim "``a`` beats ``b``" across the data sets of ``scores``.

    Parameters
    ----------
    scores
        Rows = data sets, columns = methods (one score per data set, e.g. the mean over
        folds); only the columns ``a`` and ``b`` are used.
    a, b
        The claim's winner and loser.
    rope
        Half-width r of the region of practical equivalence, **in the units of the scores**:
        the default 0.01 is one percentage point of accuracy on a 0-1 scale; pass 1.0 for
        scores in percent. 0 gives a test without equivalence (P(equivalent) = 0).
    higher_is_better
        ``True`` for accuracy-like scores, ``False`` for errors, losses, run times.
    threshold
        Posterior probability a verdict needs (default 0.95); must exceed 1/2 so that at
        most one outcome can reach it.
    prior_strength
        Strength s of the Dirichlet-process prior's pseudo-observation at 0 (default 0.5).
    nsamples, seed
        Monte Carlo draws of the Dirichlet weights and the seed of their generator
        (``numpy.random.RandomState``); the same inputs and seed give the same result.

    Returns
    -------
    ClaimTest
        N, the ROPE, the mean difference, the one-sided Wilcoxon test, the three posterior
        probabilities and the verdict (see the module docstring for the definitions).

    Raises
    ------
    TypeError
        If ``scores`` is not a DataFrame or the column ``a`` or ``b`` is not numeric.
    KeyError
        If ``a`` or ``b`` is not a column of ``scores``.
    ValueError
        If ``a == b``, a score of ``a`` or ``b`` is missing or infinite (the message names
        the data sets), the table is empty, or a parameter is out of range.

    Notes
    -----
    The ``baycomp`` package (by the paper's authors) implements the same test
    (``baycomp.SignedRankTest``) and, given ``random_state=seed``, draws the same Dirichlet
    weights, so its probabilities agree with these. This module does not depend on it
    because, in its release 1.0.3 (2023, an sdist only): a draw in which two regions tie
    goes to the first one (``argmax``), so two identical methods with ``rope=0`` come out
    "a better" with a probability set by rounding noise instead of 1/2; its signed-rank
    sampler loops over the draws in Python; and ``random_state`` defaults to an unseeded
    generator. The test itself is the few lines of :func:`signed_rank_posterior`.
    """
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a pandas DataFrame, got {type(scores).__name__}")
    if a == b:
        raise ValueError(f"a and b must be two different methods, got {a!r} twice")
    missing = [m for m in (a, b) if m not in scores.columns]
    if missing:
        raise KeyError(f"method(s) {missing} not among the score columns {list(scores.columns)}")
    if not (math.isfinite(threshold) and 0.5 < threshold <= 1.0):
        raise ValueError(f"threshold must be in (0.5, 1], got {threshold}")
    pair = scores[[a, b]]
    non_numeric = [m for m in (a, b) if not pd.api.types.is_numeric_dtype(pair[m])]
    if non_numeric:
        raise TypeError(f"non-numeric score columns: {non_numeric}")
    bad = ~np.isfinite(pair.to_numpy(dtype=float)).all(axis=1)
    if bad.any():
        names = [str(name) for name in pair.index[bad]]
        raise ValueError(
            f"missing or infinite scores of {a!r} or {b!r} on data set(s) {names}; "
            f"drop them first, e.g. scores[[{a!r}, {b!r}]].dropna(), to judge the claim on the rest"
        )
    values = validate_scores(pair)

    sign = 1.0 if higher_is_better else -1.0
    z = sign * (values[a].to_numpy() - values[b].to_numpy())
    wilcoxon = sps.wilcoxon(z, zero_method="zsplit", alternative="greater")
    p_a, p_eq, p_b = signed_rank_posterior(
        z, rope, prior_strength=prior_strength, nsamples=nsamples, seed=seed
    )
    if p_a >= threshold:
        verdict = "generalises"
    elif p_eq >= threshold:
        verdict = "equivalent"
    elif p_b >= threshold:
        verdict = "reversed"
    else:
        verdict = "inconclusive"
    return ClaimTest(
        a=a,
        b=b,
        n=len(z),
        rope=float(rope),
        mean_difference=float(np.mean(z)),
        wilcoxon_statistic=float(wilcoxon.statistic),
        wilcoxon_p=float(wilcoxon.pvalue),
        p_a_better=p_a,
        p_equivalent=p_eq,
        p_b_better=p_b,
        verdict=verdict,
    )

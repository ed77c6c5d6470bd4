"""Statistical comparison of classifiers over multiple data sets, after Demšar (2006).

J. Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7:1-30, 2006.

Score tables are ``pandas.DataFrame`` objects with one row per data set and one column per
method. The modules, one job each:

* :mod:`.ranks`       within-data-set ranks and average ranks (Sec. 3.2.2);
* :mod:`.friedman`    Friedman chi^2_F and Iman–Davenport F_F (Sec. 3.2.2);
* :mod:`.nemenyi`     Nemenyi q_alpha, critical difference, pairwise p-values (Sec. 3.2.2);
* :mod:`.control`     one control vs the others: z tests, Holm and Bonferroni–Dunn (Sec. 3.2.2);
* :mod:`.cd_groups`   groups of methods within the critical difference (Sec. 3.2.4; drawn by
                      ``report/cd_diagram.py``, Fig. 1);
* :mod:`.paired`      two methods on the same splits: corrected resampled t-test per data set,
                      sign and Wilcoxon signed-ranks tests across data sets (Sec. 3.1);
* :mod:`.bayes`       one claim "a beats b" across data sets: Wilcoxon and the Bayesian
                      signed-rank test with a ROPE (Benavoli et al., JMLR 18(77), 2017), verdict.
"""

from .bayes import ClaimTest, pairwise_claim
from .cd_groups import cd_groups
from .control import bonferroni_dunn_cd, compare_to_control, holm_adjust
from .friedman import FriedmanResult, friedman_test
from .nemenyi import nemenyi_cd, nemenyi_pairwise, nemenyi_q
from .ranks import mean_ranks, rank_scores

__all__ = [
    "ClaimTest",
    "FriedmanResult",
    "bonferroni_dunn_cd",
    "cd_groups",
    "compare_to_control",
    "friedman_test",
    "holm_adjust",
    "mean_ranks",
    "nemenyi_cd",
    "nemenyi_pairwise",
    "nemenyi_q",
    "pairwise_claim",
    "rank_scores",
]

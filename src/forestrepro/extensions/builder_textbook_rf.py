"""The textbook random forest grown by our tree builder: a second implementation of the BRF
report's textbook RF (conf/method/rf.yaml), which grows scikit-learn's trees.

That forest (``ensembles/textbook_rf.py``) is UML Sec. 18.3's: each tree on a bootstrap sample of
all n rows, at each node the best threshold by information gain among k features drawn at random,
trees grown until pure, a majority vote, and k = round(log2 M + C) with C chosen by the protocol's
inner 5-fold CV (BRF paper Sec. 6.1). ``BuilderTextbookRF`` grows the same forest with no
scikit-learn tree code: each tree is ``forestrepro.trees.PluggableTreeClassifier("entropy",
max_features=k)``, bagged by ``ensembles/_base.BaggedForest``. Where it gives the textbook RF's
number and not the paper's, that number is what this forest gives on these folds, not an artefact
of one tree code (conf/paper/brf.yaml, cause test ``independent_within``).
"""

from __future__ import annotations

from .._validation import REAL
from ..ensembles._base import BaggedForest, TreePredictionsMixin, base_arguments
from ..methods.baselines import subset_size
from ..trees.estimator import PluggableTreeClassifier


class BuilderTextbookRF(TreePredictionsMixin, BaggedForest):
    """Bagged information-gain trees of our builder, k features per node, majority vote.

    Parameters
    ----------
    n_estimators : int, default=100
        The number of trees.
    k_offset : float, default=0.0
        C in k = round(log2 M + C), the features drawn at each node (``methods.baselines.subset_size``,
        as the textbook RF's grid maps it).
    voting : {"hard", "soft"}, default="hard"
        One vote per tree (the textbook's majority vote) or the mean of the trees' class
        probabilities.

    The other parameters (``bootstrap``, ``max_samples``, ``oob_score``, ``n_jobs``,
    ``random_state``) are ``BaggedForest``'s.
    """

    _parameter_constraints: dict[str, list] = {**BaggedForest._parameter_constraints, "k_offset": [REAL]}

    def __init__(
        self,
        n_estimators=100,
        *,
        k_offset=0.0,
        bootstrap=True,
        max_samples=None,
        voting="hard",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        super().__init__(**base_arguments(BaggedForest, locals()))
        self.k_offset = k_offset

    def _make_tree(self, seed):
        k = subset_size(self.n_features_in_, self.k_offset)
        return PluggableTreeClassifier("entropy", max_features=k, random_state=seed)

"""The forests of the RCRF paper as methods: Breiman's RF, the credal RF (CRF) and RCRF.

All three are grown by the project's tree builder (bagging, majority vote), so they share
bootstrap samples, feature draws and threshold scanning; ``params`` are the estimators' own.
"""

from __future__ import annotations

from ..ensembles.credal import BreimanForestClassifier, CredalForestClassifier
from ..ensembles.rcrf import RCRFClassifier
from .base import Method


class _ForestMethod(Method):
    """A bagged forest with fixed parameters (no inner search)."""

    estimator_class: type

    def estimator(self, random_state: int):
        return self.estimator_class(random_state=random_state, **self.params)

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}


class BreimanRF(_ForestMethod):
    """RF (Breiman 2001): Gini, m = log2(M) features per node, fully grown trees."""

    key = "breiman_rf"
    estimator_class = BreimanForestClassifier


class CredalRF(_ForestMethod):
    """CRF (Abellán, Mantas, Castellano 2017): credal trees split by imprecise information gain."""

    key = "credal_rf"
    estimator_class = CredalForestClassifier


class RCRF(_ForestMethod):
    """RCRF (Guan, Pang, Liang 2019, Algorithms 1-2): a random priority class per tree."""

    key = "rcrf"
    estimator_class = RCRFClassifier

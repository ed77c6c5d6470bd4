"""Forests grown by the project's tree builder as methods.

The RCRF paper's Breiman RF, credal RF (CRF) and RCRF, and the BRF paper's gain-ratio RF, BRF
(and PBRF), Biau12 (and Biau12V) and the greedy empirical-error forest of its Sec. 5.2. All bag their trees and vote, so they share bootstrap
samples, feature draws and threshold scanning; ``params`` are the estimators' own.
"""

from __future__ import annotations

from importlib import import_module

from .base import Method


class _ForestMethod(Method):
    """A bagged forest with fixed parameters (no inner search).

    ``estimator_class`` is ``"<module of forestrepro.ensembles>:<class>"``, imported when the
    method builds its first estimator, so a job imports only its own forest's code."""

    estimator_class: str

    def estimator(self, random_state: int):
        module, name = self.estimator_class.split(":")
        cls = getattr(import_module(f"..ensembles.{module}", __package__), name)
        return cls(random_state=random_state, **self.params)

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}


class BreimanRF(_ForestMethod):
    """RF (Breiman 2001): Gini, m = log2(M) features per node, fully grown trees."""

    key = "breiman_rf"
    estimator_class = "credal:BreimanForestClassifier"


class CredalRF(_ForestMethod):
    """CRF (Abellán, Mantas, Castellano 2017): credal trees split by imprecise information gain."""

    key = "credal_rf"
    estimator_class = "credal:CredalForestClassifier"


class RCRF(_ForestMethod):
    """RCRF (Guan, Pang, Liang 2019, Algorithms 1-2): a random priority class per tree."""

    key = "rcrf"
    estimator_class = "rcrf:RCRFClassifier"


class EmpiricalErrorRF(_ForestMethod):
    """The greedy forest of the BRF paper's Sec. 5.2 example: Breiman's RF with each node cut
    at the threshold of least empirical (training) error, fully grown trees, majority vote."""

    key = "empirical_error_rf"
    estimator_class = "empirical_error_rf:EmpiricalErrorForestClassifier"


class _SearchedForest(_ForestMethod):
    """A forest whose ``grid`` entries are its own estimator parameters, searched by inner CV."""

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {k: list(v) for k, v in self.grid.items()}


class GainRatioRF(_SearchedForest):
    """RF as the BRF paper ran it (Sec. 6.1): best threshold by information gain ratio,
    h = round(log2 M + C) features (C = ``h_offset``), majority vote."""

    key = "gain_ratio_rf"
    grid_keys = frozenset({"h_offset"})
    estimator_class = "brf:GainRatioForestClassifier"


class BanzhafRF(_SearchedForest):
    """BRF / PBRF (Sec. 4.3): the Banzhaf power index picks each split feature over the tree's
    subspace of h = round(log2 M + C) features, cut at the midpoint; ϖ = ``max_coalition``."""

    key = "banzhaf_rf"
    grid_keys = frozenset({"h_offset", "max_coalition"})
    estimator_class = "brf:BanzhafForestClassifier"


class Biau12(_SearchedForest):
    """Biau12 / Biau12V (Sec. 6.1-6.2): strong/weak features by gain ratio (or Banzhaf index)
    of the midpoint cut, h random candidates per node, midpoint split."""

    key = "biau12"
    grid_keys = frozenset({"h_offset"})
    estimator_class = "biau:Biau12ForestClassifier"

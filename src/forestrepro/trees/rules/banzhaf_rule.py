"""The split of a Banzhaf decision tree (BRF paper, Sun et al. 2018, Secs. 4.2-4.3,
Algorithm 1): the candidate feature of highest Banzhaf power index, cut at its midpoint.

At a node every feature of the tree's pool (its random subspace of ``h`` features; with
``n_eval`` smaller than the pool, that many drawn at random) that is not constant at the
node is a player; constant features cannot be cut and are left out of the game.  Each
player is discretised (below), ``I(f_i; y)`` and ``I(f_i; y | f_j)`` are estimated from the
node's weighted samples (``forestrepro.trees.mutual_information.information``: ``h (h - 1) / 2``
compiled passes over the node; a node of at most 64 samples with two bins is counted from
bit sets made straight from ``X``, ``banzhaf_node.node_bitsets``), the interdependence relation (Eq. 4) gives each player's
number ``a`` of interdependent partners, and ``beta`` (Eq. 1, or Sec. 4.4 with
``max_coalition``) follows in ``O(h * w)`` arithmetic.  ``beta`` strictly increases with
``a``, so the argmax of Algorithm 1 is taken over ``a`` itself (same order, same ties, same
draws of the generator) and ``beta`` is only computed where its values matter, for
``selection="sample"``.  The chosen feature is cut at the
midpoint of the node's cell (or data range), ``_scan.midpoint``.

- ``selection="argmax"`` (Algorithm 1): the feature of largest ``beta``, ties broken
  uniformly at random by the tree's generator (the paper does not say how; ties are common
  since ``beta`` only depends on ``a``).  ``selection="sample"``: drawn with probability
  ``zeta_i`` (Eq. 2), the selection model of the consistency proof (Sec. 5.1); uniformly
  when every ``beta`` is 0.
- ``root="gain_ratio"`` (BRF): the root's feature is the one whose midpoint cut has the
  largest information gain ratio (Sec. 4.2), cut at that midpoint.  ``root="banzhaf"``
  (PBRF, Sec. 6.2): the root is chosen like every other node.  A node with a single player
  is cut on it; a node without players is a leaf.

**Discretisation** (the paper does not say; ``n_bins`` and ``of``): ``n_bins`` equal-width
bins over the interval whose midpoint the rule cuts: the node's cell after dropping empty
halves (``of="cell"``, the dyadic interval of ``_scan.midpoint``) or the node's data range
(``of="data"``).  With the default ``n_bins=2`` a feature's two bins are exactly the two
children of its candidate cut, so ``I(f_i; y)`` is the information gain of that cut and
``I(f_i; y | f_j)`` its gain inside the halves of ``f_j``'s cut: the game is played on the
splits the tree can make.  Two bins also keep the plug-in estimates least biased in small
nodes (the upward bias of a plug-in CMI grows with the number of cells, ``B**2 * K``, and
would make nearly every pair "interdependent").  Equal-width bins need one pass per feature;
quantile bins would need a sort per feature and node and would no longer line up with the
midpoint cut.
"""

from dataclasses import dataclass
from numbers import Integral
from typing import ClassVar

import numpy as np
from numba import njit

from ..._validation import Interval, StrOptions, at_least, check_params
from .._kernel_api import SPLIT_KERNEL_SIG
from ..banzhaf import INTERDEPENDENCE
from . import _scan, gain_ratio
from .banzhaf_node import node_range, node_scores, select
from .base import CompiledSplitRule

_ROOTS = ("gain_ratio", "banzhaf")
_OF = ("cell", "data")
_SELECTIONS = ("argmax", "sample")
MAX_BINS = 256


@njit(cache=True, nogil=True)
def banzhaf_split(
    X,
    y,
    w,
    n_classes,
    samples,
    start,
    end,
    counts,
    cell_lo,
    cell_hi,
    features,
    n_eval,
    of_data,
    n_bins,
    max_coalition,
    sample,
    beats_partner,
    rng,
):
    """Algorithm 1 at one node: ``(feature, midpoint)`` of the chosen player, or
    ``(-1, 0)`` when no candidate feature varies at the node.

    A node of two samples of two classes needs no counting when ``n_bins`` is even: every
    player's bins separate the two samples, so ``I(f_i; y) = H(y) > 0 = I(f_i; y | f_j)``,
    no player has an interdependent partner and all tie (``beta = 0``)."""
    n_pool = features.shape[0]
    rows = min(n_pool, max(n_eval, 1))  # drawing goes past n_eval only while no player
    players = np.empty(rows, dtype=np.intp)
    bounds = np.empty((rows, 2))
    n_players = 0
    n_drawn = 0
    while _scan.keep_drawing(n_drawn, n_players, n_pool, n_eval):
        f = _scan.draw_feature(features, n_drawn, n_eval, rng)
        n_drawn += 1
        if node_range(X, samples, start, end, f, of_data, cell_lo, cell_hi, bounds[n_players]):
            players[n_players] = f
            n_players += 1
    if n_players == 0:
        return -1, 0.0
    chosen = 0
    if n_players > 1:
        scores = np.zeros(n_players)
        two_classes = np.count_nonzero(counts > 0.0) == 2
        if not (end - start == 2 and n_bins % 2 == 0 and two_classes):
            node_scores(
                X,
                y,
                w,
                n_classes,
                samples,
                start,
                end,
                counts,
                players[:n_players],
                bounds[:n_players],
                n_bins,
                max_coalition,
                sample,
                beats_partner,
                scores,
            )
        chosen = select(scores, sample, rng)
    return players[chosen], bounds[chosen, 0] / 2.0 + bounds[chosen, 1] / 2.0


@njit(SPLIT_KERNEL_SIG, cache=True, nogil=True)
def banzhaf_midpoint_kernel(
    X,
    y,
    w,
    n_classes,
    samples,
    start,
    end,
    counts,
    cell_lo,
    cell_hi,
    features,
    n_eval,
    depth,
    params,
    rng,
    Xf,
    buf,
    ibuf,
    codes,
    code_values,
    code_offsets,
):
    """``params = [root is Banzhaf, of data, n_bins, max_coalition (-1: Eq. 1), sample,
    beats_partner]``."""
    of_data = params[1] > 0.0
    if depth == 0 and params[0] == 0.0:
        return _scan.best_midpoint(
            gain_ratio.score,
            gain_ratio.node_stat,
            False,
            of_data,
            X,
            y,
            w,
            n_classes,
            samples,
            start,
            end,
            counts,
            cell_lo,
            cell_hi,
            features,
            n_eval,
            params,
            rng,
            buf,
        )
    return banzhaf_split(
        X,
        y,
        w,
        n_classes,
        samples,
        start,
        end,
        counts,
        cell_lo,
        cell_hi,
        features,
        n_eval,
        of_data,
        np.intp(params[2]),
        np.intp(params[3]),
        params[4] > 0.0,
        params[5] > 0.0,
        rng,
    )


BANZHAF_OPTIONS: dict[str, list] = {
    "of": [StrOptions(set(_OF))],
    "n_bins": [Interval(Integral, 2, MAX_BINS, closed="both")],
    "max_coalition": [None, at_least(1)],
}
"""Constraints of the discretisation and the coalition bound (shared with Biau12V)."""


@dataclass(frozen=True)
class BanzhafMidpoint(CompiledSplitRule):
    """Banzhaf decision tree split (see the module docstring).

    ``root``: "gain_ratio" (BRF) or "banzhaf" (PBRF); ``of``: "cell" or "data" (midpoint
    and bin range); ``n_bins``: bins per feature for the mutual information;
    ``max_coalition``: the bound ``w`` of Sec. 4.4 (None: Eq. 1 over all coalitions);
    ``selection``: "argmax" (Algorithm 1) or "sample" (probability ``zeta``, Sec. 5.1);
    ``interdependence``: "eq4" (Eq. 4 as printed) or "beats_partner" (the reading under which
    an informative feature has the larger index; ``forestrepro.trees.banzhaf.count_partners``).
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "root": [StrOptions(set(_ROOTS))],
        "selection": [StrOptions(set(_SELECTIONS))],
        "interdependence": [StrOptions(set(INTERDEPENDENCE))],
        **BANZHAF_OPTIONS,
    }

    root: str = "gain_ratio"
    of: str = "cell"
    n_bins: int = 2
    max_coalition: int | None = 3
    selection: str = "argmax"
    interdependence: str = "eq4"

    def __post_init__(self):
        check_params(self)

    @property
    def needs_cell(self):
        return self.of == "cell"

    @property
    def kernel(self):
        return banzhaf_midpoint_kernel

    def params(self):
        return np.array(
            [
                float(self.root == "banzhaf"),
                float(self.of == "data"),
                float(self.n_bins),
                -1.0 if self.max_coalition is None else float(self.max_coalition),
                float(self.selection == "sample"),
                float(self.interdependence == "beats_partner"),
            ]
        )

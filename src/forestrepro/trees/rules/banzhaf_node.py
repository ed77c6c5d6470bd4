"""The Banzhaf game at one node (BRF paper, Secs. 4.1-4.4, Algorithm 1): the players' ranges
and bins (``node_range``, ``node_codes``), their mutual information (histograms, or bit sets
for small nodes: ``node_information``, ``node_bitsets``), their interdependent partners and
Banzhaf scores (``scores_from_information``, ``player_scores``, ``node_scores``), and the choice
among them (``select``). ``banzhaf_rule.py`` (the split rule) and ``biau.py`` (Biau12V's
feature scores) compile them into their kernels; see ``banzhaf_rule``'s docstring for the
discretisation and numba's cache."""

import numpy as np
from numba import njit

from .._rng import next_u64, rand_int
from ..banzhaf import count_partners, powers
from ..mutual_information import (
    BITSET_MAX_SAMPLES,
    XLOGX_TABLE_SIZE,
    add_weight_bits,
    information,
    information_from_bitsets,
    weight_planes_needed,
)


@njit(cache=True, nogil=True)
def node_range(X, samples, start, end, f, of_data, cell_lo, cell_hi, out):
    """Set ``out = (low, high)``, the interval whose midpoint ``_scan.midpoint`` cuts for
    feature ``f`` at the node (the same arithmetic, so ``low / 2 + high / 2`` is that cut);
    False if ``f`` is constant at the node."""
    low = X[samples[start], f]
    high = low
    for p in range(start + 1, end):
        v = X[samples[p], f]
        low = min(low, v)
        high = max(high, v)
    if not high > low:
        return False
    if of_data:
        out[0] = low
        out[1] = high
        return True
    cell_low = cell_lo[f]
    cell_high = cell_hi[f]
    while True:
        t = cell_low / 2.0 + cell_high / 2.0
        if high <= t:
            cell_high = t
        elif low > t:
            cell_low = t
        else:
            out[0] = cell_low
            out[1] = cell_high
            return True


@njit(cache=True, nogil=True)
def node_codes(X, samples, start, end, f, low, high, n_bins, out):
    """``out[p - start]``: the bin of ``X[samples[p], f]`` among the ``n_bins`` equal-width
    bins of ``[low, high]``; a value on an edge goes to the lower bin (as ``<=`` goes left).

    Edge ``k`` is ``low (n_bins - k) / n_bins + high k / n_bins``; for even ``n_bins`` the
    middle one is bit-identical to the midpoint cut ``low / 2 + high / 2``, so with two bins
    the codes are the sides of the candidate cut."""
    scale = n_bins / (high - low)
    last = n_bins - 1
    for p in range(start, end):
        x = X[samples[p], f]
        b = min(max(np.intp((x - low) * scale), 0), last)
        while b > 0 and x <= low * ((n_bins - b) / n_bins) + high * (b / n_bins):
            b -= 1
        while b < last and x > low * ((last - b) / n_bins) + high * ((b + 1) / n_bins):
            b += 1
        out[p - start] = b


@njit(cache=True, nogil=True)
def _uniform(rng):
    """Uniform float in ``[0, 1)`` from the tree's generator."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def select(beta, sample, rng):
    """Index of the chosen player: largest score ``beta`` (or any score of the same order,
    such as ``a``) with uniform tie-breaking, or drawn with probability
    ``beta_i / sum(beta)`` (uniform if the sum is 0)."""
    n = beta.shape[0]
    if sample:
        total = beta.sum()
        if total == 0.0:
            return rand_int(rng, 0, n)
        target = _uniform(rng) * total
        cumulative = 0.0
        for i in range(n):
            cumulative += beta[i]
            if target < cumulative:
                return i
        for i in range(n - 1, -1, -1):
            if beta[i] > 0.0:
                return i
    best = beta.max()
    n_best = 0
    for i in range(n):
        if beta[i] == best:
            n_best += 1
    r = rand_int(rng, 0, n_best)
    for i in range(n):
        if beta[i] == best:
            if r == 0:
                return i
            r -= 1
    return -1


@njit(cache=True, nogil=True)
def node_information(y, w, n_classes, samples, start, end, counts, codes, n_bins, mi, cmi):
    """``mi`` and ``cmi`` of the players whose bins at the node are ``codes`` (one row per
    player, ``node_codes``); classes absent from the node are dropped so the histograms
    stay small."""
    n = end - start
    compact = np.empty(n_classes + n, dtype=np.intp)
    k = 0
    for c in range(n_classes):
        compact[c] = k
        if counts[c] > 0.0:
            k += 1
    labels = compact[n_classes:]
    weights = np.empty(n)
    for p in range(n):
        s = samples[start + p]
        labels[p] = compact[y[s]]
        weights[p] = w[s]
    information(codes, n_bins, labels, k, weights, mi, cmi)


@njit(cache=True, nogil=True)
def scores_from_information(mi, cmi, max_coalition, as_power, beats_partner, out):
    """Score of each player from the node's mutual information: the interdependence
    relation (Eq. 4, or the ``beats_partner`` reading: ``banzhaf.count_partners``) gives each
    player's number ``a`` of interdependent partners;
    ``as_power``: ``out = beta``, Eq. (1) or its bounded form (Sec. 4.4); otherwise
    ``out = a``.  ``beta`` strictly increases with ``a`` (``banzhaf`` module docstring), so
    both orders, and ties, are the same: the argmax of Algorithm 1 needs only ``a``, the
    selection by ``zeta`` needs ``beta``."""
    h = mi.shape[0]
    partners = np.empty(h, dtype=np.intp)
    count_partners(mi, cmi, beats_partner, partners)
    if as_power:
        powers(partners, max_coalition, out)
    else:
        for u in range(h):
            out[u] = partners[u]


@njit(cache=True, nogil=True)
def player_scores(
    y, w, n_classes, samples, start, end, counts, codes, n_bins, max_coalition, as_power, beats_partner, out
):
    """``scores_from_information`` for the players whose bins at the node are ``codes``."""
    h = codes.shape[0]
    mi = np.empty(h)
    cmi = np.empty((h, h))
    node_information(y, w, n_classes, samples, start, end, counts, codes, n_bins, mi, cmi)
    scores_from_information(mi, cmi, max_coalition, as_power, beats_partner, out)


@njit(cache=True, nogil=True)
def node_bitsets(X, y, w, n_classes, samples, start, end, counts, players, bounds):
    """The bit sets of ``mutual_information.information_from_bitsets`` for the node with two bins,
    made straight from ``X`` (a player's upper bin is the side ``> midpoint`` of its cut):
    ``(sets, n_present_classes, n_planes)``, or an empty ``sets`` when the node does not
    qualify (more than ``BITSET_MAX_SAMPLES`` samples, or weights that are not small
    integers)."""
    n = end - start
    none = np.empty(0, dtype=np.uint64)
    if n > BITSET_MAX_SAMPLES:
        return none, 0, 0
    max_weight = 0.0
    total = 0.0
    for p in range(start, end):
        weight = w[samples[p]]
        if weight != np.floor(weight) or weight < 0.0:
            return none, 0, 0
        max_weight = max(max_weight, weight)
        total += weight
    if total >= XLOGX_TABLE_SIZE:
        return none, 0, 0
    n_planes = weight_planes_needed(max_weight)
    compact = np.empty(n_classes, dtype=np.intp)
    k = 0
    for c in range(n_classes):
        compact[c] = k
        if counts[c] > 0.0:
            k += 1
    h = players.shape[0]
    first_feature = k * n_planes
    sets = np.zeros(first_feature + h, dtype=np.uint64)
    for p in range(n):
        s = samples[start + p]
        bit = np.uint64(1) << np.uint64(p)
        add_weight_bits(sets, compact[y[s]] * n_planes, n_planes, w[s], bit)
        for u in range(h):
            if X[s, players[u]] > bounds[u, 0] / 2.0 + bounds[u, 1] / 2.0:
                sets[first_feature + u] |= bit
    return sets, k, n_planes


@njit(cache=True, nogil=True)
def node_scores(
    X,
    y,
    w,
    n_classes,
    samples,
    start,
    end,
    counts,
    players,
    bounds,
    n_bins,
    max_coalition,
    as_power,
    beats_partner,
    out,
):
    """``scores_from_information`` of the node's ``players`` (cut at the midpoints of
    ``bounds``): counted from bit sets where the node qualifies (``node_bitsets``), else
    from the players' bins (``node_codes``, ``player_scores``); both give the same bits."""
    h = players.shape[0]
    if n_bins == 2:
        sets, k, n_planes = node_bitsets(X, y, w, n_classes, samples, start, end, counts, players, bounds)
        if sets.shape[0] > 0:
            mi = np.empty(h)
            cmi = np.empty((h, h))
            information_from_bitsets(sets, k, n_planes, mi, cmi)
            scores_from_information(mi, cmi, max_coalition, as_power, beats_partner, out)
            return
    codes = np.empty((h, end - start), dtype=np.uint8)
    for u in range(h):
        node_codes(X, samples, start, end, players[u], bounds[u, 0], bounds[u, 1], n_bins, codes[u])
    player_scores(
        y,
        w,
        n_classes,
        samples,
        start,
        end,
        counts,
        codes,
        n_bins,
        max_coalition,
        as_power,
        beats_partner,
        out,
    )

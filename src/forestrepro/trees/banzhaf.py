"""The Banzhaf power index of features (BRF paper, Sun et al. 2018, Secs. 4.1-4.4).

**The game.**  The players are the candidate features of a node.  Feature ``f_j`` is
*interdependent* with ``f_i`` when knowing ``f_j`` does not lower the information ``f_i``
carries about the class, ``I(f_i; y) <= I(f_i; y | f_j)`` (Eq. 4, with mutual information in
bits on discretised features).  A coalition ``S`` of other features is *won* by ``f_i`` when
the fraction ``sigma`` of ``S`` interdependent with ``f_i`` is at least ``tau = 1/2``
(Eq. 3); the empty coalition has no fraction and is never won.  ``tau = 1/2`` is inclusive:
the paper's worked example counts ``{f2, f3}`` with only ``f2`` interdependent as won.

**Closed-form counting (Sec. 4.4).**  Whether ``f_i`` wins ``S`` depends only on how many of
``S`` are interdependent with it, so only on ``a``, the number of features interdependent
with ``f_i`` among the ``n - 1`` others (``b = n - 1 - a`` are not).  A coalition of ``s``
members, ``k`` of them interdependent, is won iff ``k >= ceil(s/2)``, so the number of won
coalitions of size ``s`` is

    W_s = sum_{k >= ceil(s/2)} C(a, k) C(b, s - k).

With ``m = s - k`` non-interdependent members the condition is ``m <= k``; summing over the
sizes ``1 <= s <= w`` (``w`` the bound on coalition size) gives

    sum_{s=1}^{w} W_s = sum_{k=1}^{min(a, w)} C(a, k) P_b(min(k, w - k)),
    P_b(t) = sum_{m=0}^{min(t, b)} C(b, m),

``O(w)`` arithmetic per feature with the prefix sums ``P_b`` (``k = 0`` would leave only
the empty coalition).  Eq. (1) divides the count over all sizes (``w = n - 1``) by
``2**(n-1)``, the number of all coalitions, the empty one included; the bounded form of
Sec. 4.4 divides the count over ``1 <= s <= w`` by the number of such coalitions,
``sum_{s=1}^{w} C(n-1, s)``.

*The paper's* ``M_2``.  Sec. 4.4 writes the number of won two-member coalitions as
``M_2 = C(M_1, 2) + C(M_1, 1) C(n - M_1, 1)`` with ``M_1`` the number of won singletons
(``= a``) and ``n`` "the number of features at the node".  The formula above gives
``W_2 = C(a, 2) + C(a, 1) C(n - 1 - a, 1)``: the paper's formula is right only if its ``n``
counts the features *other than* ``f_i``; with ``n`` the node's features it counts ``f_i``
itself as a partner.  The paper's own worked example (``n = 4``, ``a = 1``, two won pairs)
has ``W_2 = 2`` where the printed formula gives 3.

*Consequence.*  ``beta`` depends on the feature only through ``a`` and strictly increases
with it (making one more partner interdependent can only turn lost coalitions into won
ones, and turns that partner's singleton into a won one).  So ``argmax beta`` (Algorithm 1)
is the feature with the most interdependent partners whatever the bound ``w`` is; ``w``
only changes the values of ``beta`` and ``zeta``, which matter when a feature is drawn with
probability ``zeta`` (the selection model of the consistency proof, Sec. 5.1).

*Uninformative features.*  A feature with ``I(f_i; y) = 0`` (pure noise) satisfies Eq. (4)
with every partner (``0 <= I(f_i; y | f_j)``), so it has the most partners and the largest
index; with plug-in estimates it nearly does (the conditional estimate has the larger
upward bias).  This is the paper's definition, kept as is: at nodes below the root BRF
then tends to cut noise features rather than informative ones.

Counts are float64, exact while below ``2**53``; Eq. (1) needs ``2**(n-1)`` to be finite,
so it takes at most 1024 players (the bounded form has no such limit in practice).

**Mutual information.**  ``information`` estimates ``I(f_i; y)`` and ``I(f_i; y | f_j)`` by
plug-in (weighted histogram counts) from discretised features: per pair of features one
compiled pass over the samples fills the joint histogram of ``(f_i, f_j, y)``, which gives
both ``I(f_i; y | f_j)`` and ``I(f_j; y | f_i)``, so a node with ``h`` players costs
``h (h - 1) / 2`` passes (``O(h**2)`` CMI evaluations), plus ``h`` passes for ``I(f_i; y)``.
Nodes of at most 64 samples with two bins and bootstrap (integer) weights, most nodes of a
deep tree, are counted with bit sets and population counts instead
(``information_from_bitsets``), with the same sums in the same order, so the same bits.
How the features are discretised is the caller's choice (see
``forestrepro.trees.rules.banzhaf_rule``).

The split rules compile these functions into their kernels, and numba's disk cache of a
kernel only notices edits to the kernel's own file: after editing this module, delete the
``__pycache__`` folders of ``forestrepro/trees`` (see ``_kernel_api``).
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

INTERDEPENDENCE_TOL = 1e-9
"""``I(f_i; y) <= I(f_i; y | f_j) + tol`` (bits): equal values up to rounding count as
interdependent, as the ``<=`` of Eq. (4) says."""

MAX_PLAYERS_EQ1 = 1024
"""Largest game Eq. (1) handles in float64 (``2**(n-1)`` must be finite)."""


# --- closed-form counting -----------------------------------------------------------------


@njit(cache=True, nogil=True)
def _binomials(n, k_max, out):
    """``out[k] = C(n, k)`` for ``k = 0..k_max`` (``k_max <= n``)."""
    out[0] = 1.0
    for k in range(1, k_max + 1):
        out[k] = out[k - 1] * (n - k + 1) / k


@njit(cache=True, nogil=True)
def won_coalitions(a, n_others, max_size, prefix, c_ak):
    """Number of non-empty coalitions of at most ``max_size`` of the ``n_others`` other
    players that a player with ``a`` interdependent partners wins (Eq. 3):
    ``sum_{k=1}^{min(a, w)} C(a, k) P_b(min(k, w - k))`` (see the module docstring).
    ``prefix`` and ``c_ak`` are scratch arrays of at least ``min(max_size, n_others) + 1``
    entries."""
    b = n_others - a
    w = min(max_size, n_others)
    k_max = min(a, w)
    if k_max < 1:
        return 0.0
    t_max = min(b, w // 2)
    _binomials(b, t_max, prefix)
    for t in range(1, t_max + 1):
        prefix[t] += prefix[t - 1]
    _binomials(a, k_max, c_ak)
    total = 0.0
    for k in range(1, k_max + 1):
        total += c_ak[k] * prefix[min(k, w - k, t_max)]
    return total


@njit(cache=True, nogil=True)
def powers(n_partners, max_coalition, out):
    """``out[i] = beta_i`` for players with ``n_partners[i]`` interdependent partners each;
    ``max_coalition < 0``: Eq. (1), over ``2**(n-1)`` coalitions; else the bounded form of
    Sec. 4.4, over the number of non-empty coalitions of at most ``max_coalition`` members.
    ``beta`` is computed once per value of ``a``: ``O(n * w)`` arithmetic for ``n`` players
    and bound ``w``."""
    n = n_partners.shape[0]
    if n == 0:
        return
    n_others = n - 1
    max_size = n_others if max_coalition < 0 else min(max_coalition, n_others)
    scratch = np.empty((3, n))
    if max_coalition < 0:
        denominator = 2.0 ** n_others
    else:
        _binomials(n_others, max_size, scratch[0])
        denominator = scratch[0, 1:max_size + 1].sum()
    by_a = scratch[2]
    by_a[:] = -1.0
    for i in range(n):
        a = n_partners[i]
        if by_a[a] < 0.0:
            by_a[a] = 0.0 if denominator == 0.0 else won_coalitions(
                a, n_others, max_size, scratch[0], scratch[1]) / denominator
        out[i] = by_a[a]


def banzhaf_index(interdependent: np.ndarray, max_coalition: int | None = None) -> np.ndarray:
    """Banzhaf power index ``beta`` of every feature (BRF paper, Eq. 1 and Sec. 4.4).

    ``interdependent[i, j]``: feature ``j`` is interdependent with feature ``i`` (Eq. 4);
    the diagonal is ignored.  ``max_coalition=None``: Eq. (1), won coalitions over all
    ``2**(n-1)`` coalitions of the other features.  ``max_coalition=w``: won coalitions
    among the non-empty coalitions of at most ``w`` members, over their number.
    Counted in closed form (module docstring), ``O(n * w)`` arithmetic once ``a`` is known.
    """
    matrix = np.asarray(interdependent)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"interdependent must be a square matrix, got shape {matrix.shape}")
    if matrix.dtype != np.bool_:
        raise TypeError(f"interdependent must be boolean, got {matrix.dtype}")
    n = matrix.shape[0]
    if max_coalition is None:
        if n > MAX_PLAYERS_EQ1:
            raise ValueError(f"Eq. (1) handles at most {MAX_PLAYERS_EQ1} features in "
                             f"float64, got {n}; bound the coalitions with max_coalition")
        bound = -1
    else:
        if isinstance(max_coalition, bool) or not isinstance(max_coalition, (int, np.integer)):
            raise TypeError(f"max_coalition must be an int or None, got {max_coalition!r}")
        if max_coalition < 1:
            raise ValueError(f"max_coalition must be >= 1, got {max_coalition}")
        bound = int(max_coalition)
    n_partners = (matrix & ~np.eye(n, dtype=bool)).sum(axis=1).astype(np.intp)
    beta = np.empty(n)
    powers(n_partners, bound, beta)
    return beta


def normalize(beta: np.ndarray) -> np.ndarray:
    """The normalised index ``zeta_i = beta_i / sum_j beta_j`` (Eq. 2); when no feature
    wins any coalition (all ``beta = 0``) every feature gets ``1/n``."""
    beta = np.asarray(beta, dtype=np.float64)
    total = beta.sum()
    if total == 0.0:
        return np.full(beta.shape, 1.0 / beta.size)
    return beta / total


# --- mutual information -------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _xlogx_memo(w, total):
    """A memo of ``c * log2(c)`` for the integers ``c = 0..total``, filled on first use
    (-1: not yet computed), when every weight is an integer (bootstrap multiplicities): a
    histogram's counts then repeat few values, each needing one logarithm.  Else an empty
    array (every count gets its own logarithm)."""
    for p in range(w.shape[0]):
        if w[p] != np.floor(w[p]):
            return np.empty(0)
    return np.full(np.intp(total) + 1, -1.0)


@njit(cache=True, nogil=True, inline="always")
def _xlogx(c, memo):
    """``c * log2(c)`` for a count ``c > 0``, through ``memo`` (see ``_xlogx_memo``)."""
    if memo.shape[0] == 0:
        return c * np.log2(c)
    i = np.intp(c)
    if memo[i] < 0.0:
        memo[i] = c * np.log2(c)
    return memo[i]


LANE_MIN_SAMPLES = 64
"""From this many samples on, histograms are filled in two interleaved copies (even and odd
samples): consecutive samples often fall in the same cell, and one copy would serialise
their additions; below it the second copy costs more than it saves."""


@njit(cache=True, nogil=True, inline="always")
def _plogp_sums(table, lanes, size, n_cells, n_classes, memo):
    """``(sum c log2 c over the cells of (X, y), same over the marginal cells of X)`` of the
    weighted histogram ``table[lane * size + x * n_classes + c]`` summed over its ``lanes``
    copies; zeroes the histogram."""
    s_xy = 0.0
    s_x = 0.0
    for x in range(n_cells):
        marginal = 0.0
        for cell in range(x * n_classes, (x + 1) * n_classes):
            c = table[cell]
            if lanes == 2:
                c += table[size + cell]
                table[size + cell] = 0.0
            if c > 0.0:
                s_xy += _xlogx(c, memo)
                marginal += c
                table[cell] = 0.0
        if marginal > 0.0:
            s_x += _xlogx(marginal, memo)
    return s_xy, s_x


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM's ``ctpop``)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


BITSET_MAX_SAMPLES = 64
"""Nodes of at most this many samples, two bins and integer weights of total below
``XLOGX_TABLE_SIZE`` are counted with bit sets (``_information_bitsets``)."""
XLOGX_TABLE_SIZE = 4096


@njit(cache=True, nogil=True)
def _xlogx_table(size):
    """``c * log2(c)`` for ``c = 0..size-1`` (0 for ``c = 0``), computed as ``_xlogx``
    computes it, so table and memo give the same bits."""
    table = np.zeros(size)
    for c in range(1, size):
        table[c] = float(c) * np.log2(float(c))
    return table


_XLOGX = _xlogx_table(XLOGX_TABLE_SIZE)  # a compile-time constant of the kernels below


@njit(cache=True, nogil=True)
def _bitsets_apply(codes, n_bins, w):
    """Whether ``information`` may count with bit sets: two bins, at most
    ``BITSET_MAX_SAMPLES`` samples, non-negative integer weights summing to less than
    ``XLOGX_TABLE_SIZE``."""
    if n_bins != 2 or codes.shape[1] > BITSET_MAX_SAMPLES:
        return False
    total = 0.0
    for p in range(w.shape[0]):
        if w[p] != np.floor(w[p]) or w[p] < 0.0:
            return False
        total += w[p]
    return total < XLOGX_TABLE_SIZE


@njit(cache=True, nogil=True, inline="always")
def _weighted_count(mask, planes, first, n_planes):
    """Total weight of the samples in ``mask``: ``planes[first + k]`` holds the samples
    whose weight has bit ``k`` set."""
    total = np.uint64(0)
    for k in range(n_planes):
        total += _popcount(mask & planes[first + k]) << np.uint64(k)
    return np.intp(total)


@njit(cache=True, nogil=True)
def weight_planes_needed(max_weight):
    """Number of bits of the largest integer weight (at least 1)."""
    n_planes = 1
    while 2.0 ** n_planes <= max_weight:
        n_planes += 1
    return n_planes


@njit(cache=True, nogil=True, inline="always")
def add_weight_bits(sets, first, n_planes, weight, bit):
    """Put a sample (its ``bit``) of integer ``weight`` into the planes
    ``sets[first:first + n_planes]`` of its class: plane ``k`` if bit ``k`` of the weight
    is set."""
    value = np.uint64(weight)
    for k in range(n_planes):
        if (value >> np.uint64(k)) & np.uint64(1):
            sets[first + k] |= bit


@njit(cache=True, nogil=True)
def _information_bitsets(codes, y, n_classes, w, mi, cmi):
    """``information`` for two bins, at most 64 samples and small integer weights: the bit
    sets of ``information_from_bitsets`` made from ``codes``."""
    h, n = codes.shape
    n_planes = weight_planes_needed(w.max() if n > 0 else 0.0)
    sets = np.zeros(n_classes * n_planes + h, dtype=np.uint64)
    for p in range(n):
        bit = np.uint64(1) << np.uint64(p)
        add_weight_bits(sets, y[p] * n_planes, n_planes, w[p], bit)
        for i in range(h):
            if codes[i, p]:
                sets[n_classes * n_planes + i] |= bit
    information_from_bitsets(sets, n_classes, n_planes, mi, cmi)


@njit(cache=True, nogil=True)
def information_from_bitsets(sets, n_classes, n_planes, mi, cmi):
    """``mi`` and ``cmi`` of ``information`` for two bins, counted with bit sets over at
    most 64 samples: ``sets[c * n_planes + k]`` holds the samples of class ``c`` whose
    (integer) weight has bit ``k`` set, and ``sets[n_classes * n_planes + i]`` the samples
    in feature ``i``'s upper bin.  A cell's weight is a sum of population counts.  Per pair
    only the ``(1, 1, c)`` cells are counted; the other three follow from the features'
    and classes' totals, and ``c log2 c`` is read from a table.  The sums run over the
    cells and classes in the order ``_plogp_sums`` uses, on the same integer counts (a
    zero cell adds an exact 0), so the results are bit-identical to the histogram path.
    The total weight must be below ``XLOGX_TABLE_SIZE``."""
    h = sets.shape[0] - n_classes * n_planes
    bits = sets[n_classes * n_planes:]
    counts = np.empty((h + 2) * n_classes, dtype=np.intp)
    class_total = counts[:n_classes]
    upper = counts[n_classes:(h + 1) * n_classes]  # upper[i * n_classes + c]
    both = counts[(h + 1) * n_classes:]
    all_samples = ~np.uint64(0)
    total = 0
    s_y = 0.0
    for c in range(n_classes):
        class_total[c] = _weighted_count(all_samples, sets, c * n_planes, n_planes)
        total += class_total[c]
        s_y += _XLOGX[class_total[c]]
    sums = np.empty(2 * h)
    s_x = sums[:h]
    s_xy = sums[h:]
    for i in range(h):
        up_i = upper[i * n_classes:(i + 1) * n_classes]
        for c in range(n_classes):
            up_i[c] = _weighted_count(bits[i], sets, c * n_planes, n_planes)
        s_xy[i] = 0.0
        s_x[i] = 0.0
        for cell in range(2):
            marginal = 0
            for c in range(n_classes):
                count = up_i[c] if cell == 1 else class_total[c] - up_i[c]
                s_xy[i] += _XLOGX[count]
                marginal += count
            s_x[i] += _XLOGX[marginal]
    log_total = np.log2(float(total))
    for i in range(h):
        mi[i] = log_total + (s_xy[i] - s_x[i] - s_y) / total
    for i in range(h):
        cmi[i, i] = 0.0
        up_i = upper[i * n_classes:(i + 1) * n_classes]
        for j in range(i + 1, h):
            up_j = upper[j * n_classes:(j + 1) * n_classes]
            mask = bits[i] & bits[j]
            for c in range(n_classes):
                both[c] = _weighted_count(mask, sets, c * n_planes, n_planes)
            s_ijy = 0.0
            s_ij = 0.0
            for cell in range(4):
                marginal = 0
                for c in range(n_classes):
                    if cell == 0:
                        count = class_total[c] - up_i[c] - up_j[c] + both[c]
                    elif cell == 1:
                        count = up_j[c] - both[c]
                    elif cell == 2:
                        count = up_i[c] - both[c]
                    else:
                        count = both[c]
                    s_ijy += _XLOGX[count]
                    marginal += count
                s_ij += _XLOGX[marginal]
            cmi[i, j] = (s_ijy - s_ij - s_xy[j] + s_x[j]) / total
            cmi[j, i] = (s_ijy - s_ij - s_xy[i] + s_x[i]) / total


@njit(cache=True, nogil=True)
def information(codes, n_bins, y, n_classes, w, mi, cmi):
    """Plug-in ``mi[i] = I(f_i; y)`` and ``cmi[i, j] = I(f_i; y | f_j)`` in bits.

    Small nodes with two bins and bootstrap weights are counted with bit sets
    (``_information_bitsets``), all others with histograms (``_information_histograms``);
    both give the same numbers.
    """
    if _bitsets_apply(codes, n_bins, w):
        _information_bitsets(codes, y, n_classes, w, mi, cmi)
    else:
        _information_histograms(codes, n_bins, y, n_classes, w, mi, cmi)


@njit(cache=True, nogil=True)
def _information_histograms(codes, n_bins, y, n_classes, w, mi, cmi):
    """Plug-in ``mi[i] = I(f_i; y)`` and ``cmi[i, j] = I(f_i; y | f_j)`` in bits.

    ``codes``: (n_features, n_samples) bins in ``[0, n_bins)``; ``y`` labels in
    ``[0, n_classes)``; ``w`` positive sample weights.  With entropies of weighted
    histograms of mass ``N``, ``H = log2 N - S / N`` where ``S = sum_cells c log2 c``,
    ``I(X; Y) = H(X) + H(Y) - H(X, Y)`` and
    ``I(X; Y | Z) = H(X, Z) + H(Y, Z) - H(Z) - H(X, Y, Z)`` become sums of ``S`` terms.
    One pass over the samples per pair fills the histogram of ``(f_i, f_j, y)``, which
    gives both ``I(f_i; y | f_j)`` and ``I(f_j; y | f_i)``.
    """
    h, n = codes.shape
    total = w.sum()
    size = n_bins * n_bins * n_classes
    lanes = 2 if n >= LANE_MIN_SAMPLES else 1
    odd = size if lanes == 2 else 0
    table = np.zeros(lanes * size)
    memo = _xlogx_memo(w, total)
    for p in range(n):
        table[(p & 1) * odd + y[p]] += w[p]
    s_y = _plogp_sums(table, lanes, size, 1, n_classes, memo)[0]
    s_x = np.empty(h)
    s_xy = np.empty(h)
    for i in range(h):
        row = codes[i]
        for p in range(n):
            table[(p & 1) * odd + np.intp(row[p]) * n_classes + y[p]] += w[p]
        s_xy[i], s_x[i] = _plogp_sums(table, lanes, size, n_bins, n_classes, memo)
    log_total = np.log2(total)
    for i in range(h):
        mi[i] = log_total + (s_xy[i] - s_x[i] - s_y) / total
    for i in range(h):
        cmi[i, i] = 0.0
        row_i = codes[i]
        for j in range(i + 1, h):
            row_j = codes[j]
            for p in range(n):
                cell = np.intp(row_i[p]) * n_bins + np.intp(row_j[p])
                table[(p & 1) * odd + cell * n_classes + y[p]] += w[p]
            s_ijy, s_ij = _plogp_sums(table, lanes, size, n_bins * n_bins, n_classes, memo)
            cmi[i, j] = (s_ijy - s_ij - s_xy[j] + s_x[j]) / total
            cmi[j, i] = (s_ijy - s_ij - s_xy[i] + s_x[i]) / total


@njit(cache=True, nogil=True)
def count_partners(mi, cmi, out):
    """``out[i]``: the number of ``j != i`` interdependent with ``i`` (Eq. 4)."""
    h = mi.shape[0]
    for i in range(h):
        a = 0
        for j in range(h):
            if j != i and mi[i] <= cmi[i, j] + INTERDEPENDENCE_TOL:
                a += 1
        out[i] = a


def interdependence_matrix(X_disc, y_disc, features=None, sample_weight=None):
    """``interdependent[i, j]``: ``I(f_i; y) <= I(f_i; y | f_j)`` (Eq. 4) for the columns
    ``features`` (default: all) of the discretised ``X_disc`` (non-negative integer bins,
    fewer than 256) and integer labels ``y_disc``; the diagonal is False.

    Returns ``(interdependent, mi, cmi)``: ``mi[i] = I(f_i; y)``, ``cmi[i, j] =
    I(f_i; y | f_j)`` in bits (plug-in, weighted by ``sample_weight``).
    """
    X_disc = np.asarray(X_disc)
    y_disc = np.asarray(y_disc)
    if X_disc.ndim != 2 or y_disc.shape != (X_disc.shape[0],):
        raise ValueError("X_disc must be (n_samples, n_features) and y_disc (n_samples,)")
    if not (np.issubdtype(X_disc.dtype, np.integer) and np.issubdtype(y_disc.dtype,
                                                                       np.integer)):
        raise TypeError("X_disc and y_disc must hold integer bins and labels")
    columns = np.arange(X_disc.shape[1]) if features is None else np.asarray(features)
    w = (np.ones(X_disc.shape[0]) if sample_weight is None
         else np.asarray(sample_weight, dtype=np.float64))
    keep = w > 0
    codes = np.ascontiguousarray(X_disc[keep][:, columns].T)
    if codes.size and (codes.min() < 0 or codes.max() > 255 or y_disc.min() < 0):
        raise ValueError("bins must be in [0, 255] and labels non-negative")
    _, labels = np.unique(y_disc[keep], return_inverse=True)
    n_bins = int(codes.max()) + 1 if codes.size else 1
    h = columns.shape[0]
    mi = np.empty(h)
    cmi = np.empty((h, h))
    information(codes.astype(np.uint8), n_bins, labels.astype(np.intp),
                int(labels.max()) + 1, np.ascontiguousarray(w[keep]), mi, cmi)
    interdependent = mi[:, None] <= cmi + INTERDEPENDENCE_TOL
    np.fill_diagonal(interdependent, False)
    return interdependent, mi, cmi

"""Plug-in mutual information of discretised features, the kernels of the Banzhaf rule (BRF
paper, Eq. 4).

``information`` estimates ``I(f_i; y)`` and ``I(f_i; y | f_j)`` by
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
    while 2.0**n_planes <= max_weight:
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
    bits = sets[n_classes * n_planes :]
    counts = np.empty((h + 2) * n_classes, dtype=np.intp)
    class_total = counts[:n_classes]
    upper = counts[n_classes : (h + 1) * n_classes]  # upper[i * n_classes + c]
    both = counts[(h + 1) * n_classes :]
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
        up_i = upper[i * n_classes : (i + 1) * n_classes]
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
        up_i = upper[i * n_classes : (i + 1) * n_classes]
        for j in range(i + 1, h):
            up_j = upper[j * n_classes : (j + 1) * n_classes]
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

"""Sort a node's feature values and its sample indices together.

From ``RADIX_MIN`` values on, a least-significant-digit radix sort on the float32 bit
patterns, over only the bits where the node's values differ, in digits of at most
``MAX_DIGIT_BITS`` bits (one pass for a feature of a few small integers, three for continuous
values; a digit shared by all keys is skipped): linear time, several times faster than
comparison sorting on the large nodes near the root.  It is stable, so its order is the one
stable order of the values, whatever its digits.  Below it, introsort
with median-of-three pivots and three-way partitioning (fast with many repeated values),
heapsort past the depth limit, insertion sort below 16 elements: the algorithm of
scikit-learn's ``simultaneous_sort`` (Musser 1997; Bentley and McIlroy 1993).
"""

import numpy as np
from numba import njit

RADIX_MIN = 256
MAX_DIGIT_BITS = 11
_SIGN = np.uint32(0x80000000)
_ALL_BITS = np.uint32(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def _swap(values, indices, i, j):
    values[i], values[j] = values[j], values[i]
    indices[i], indices[j] = indices[j], indices[i]


@njit(cache=True, nogil=True)
def _insertion_sort(values, indices, lo, hi):
    for i in range(lo + 1, hi):
        v = values[i]
        idx = indices[i]
        j = i
        while j > lo and values[j - 1] > v:
            values[j] = values[j - 1]
            indices[j] = indices[j - 1]
            j -= 1
        values[j] = v
        indices[j] = idx


@njit(cache=True, nogil=True)
def _sift_down(values, indices, lo, root, end):
    while True:
        child = 2 * root + 1
        largest = root
        if child < end and values[lo + largest] < values[lo + child]:
            largest = child
        if child + 1 < end and values[lo + largest] < values[lo + child + 1]:
            largest = child + 1
        if largest == root:
            return
        _swap(values, indices, lo + root, lo + largest)
        root = largest


@njit(cache=True, nogil=True)
def _heapsort(values, indices, lo, hi):
    n = hi - lo
    root = (n - 2) // 2
    while root >= 0:
        _sift_down(values, indices, lo, root, n)
        root -= 1
    end = n - 1
    while end > 0:
        _swap(values, indices, lo, lo + end)
        _sift_down(values, indices, lo, 0, end)
        end -= 1


@njit(cache=True, nogil=True, inline="always")
def _median3(values, lo, hi):
    a = values[lo]
    b = values[lo + (hi - lo) // 2]
    c = values[hi - 1]
    if a < b:
        if b < c:
            return b
        if a < c:
            return c
        return a
    if b < c:
        if a < c:
            return a
        return c
    return b


@njit(cache=True, nogil=True)
def _introsort(values, indices, lo, hi, max_depth):
    # Musser's recursion on the part below the pivot, kept on a stack of pending ranges and
    # their depth budgets (the ranges are disjoint, so the order they are sorted in changes
    # nothing; numba failed to load this function from its cache, "Symbol not found", once it
    # was compiled for two argument types while it was recursive).
    # Budgets decrease up the stack, so it never holds more than max_depth + 1 ranges.
    stack = np.empty((max_depth + 1, 3), dtype=np.intp)
    stack[0, 0], stack[0, 1], stack[0, 2] = lo, hi, max_depth
    top = 1
    while top > 0:
        top -= 1
        lo, hi, depth = stack[top, 0], stack[top, 1], stack[top, 2]
        heap_sorted = False
        while hi - lo > 15:
            if depth <= 0:
                _heapsort(values, indices, lo, hi)
                heap_sorted = True
                break
            depth -= 1
            pivot = _median3(values, lo, hi)
            i = lo
            left = lo
            right = hi
            while i < right:
                if values[i] < pivot:
                    _swap(values, indices, i, left)
                    i += 1
                    left += 1
                elif values[i] > pivot:
                    right -= 1
                    _swap(values, indices, i, right)
                else:
                    i += 1
            stack[top, 0], stack[top, 1], stack[top, 2] = lo, left, depth
            top += 1
            lo = right
        if not heap_sorted:
            _insertion_sort(values, indices, lo, hi)


@njit(cache=True, nogil=True, inline="always")
def _key(b):
    """The order-preserving map of float32 bits to uint32: flip negatives, set the sign of others."""
    return (b ^ _ALL_BITS) if b >= _SIGN else (b | _SIGN)


@njit(cache=True, nogil=True)
def _digits(varying, n):
    """``(low, passes, width)``: the digits of an LSD radix sort over the bits where keys differ
    (``varying``, their OR of XORs), from bit ``low`` in ``passes`` digits of ``width`` bits, each
    at most ``MAX_DIGIT_BITS`` and at most about ``log2(n)`` bits (at least 8), so a pass's
    buckets cost no more than its keys."""
    low = 0
    while (varying >> np.uint32(low)) & np.uint32(1) == 0:
        low += 1
    high = 32
    while (varying >> np.uint32(high - 1)) & np.uint32(1) == 0:
        high -= 1
    most = min(MAX_DIGIT_BITS, max(8, int(np.log2(n))))
    passes = (high - low + most - 1) // most
    return low, passes, (high - low + passes - 1) // passes


@njit(cache=True, nogil=True)
def _radix_sort(values, indices, lo, hi):
    n = hi - lo
    bits = values[lo:hi].view(np.uint32)
    keys = np.empty(n, dtype=np.uint32)
    first = _key(bits[0])
    varying = np.uint32(0)
    for i in range(n):
        k = _key(bits[i])
        keys[i] = k
        varying |= k ^ first
    if varying == 0:
        return
    low, passes, width = _digits(varying, n)
    mask = np.uint32((1 << width) - 1)
    offsets = np.empty(1 << width, dtype=np.intp)
    src_keys = keys
    src_indices = indices[lo:hi]
    dst_keys = np.empty(n, dtype=np.uint32)
    dst_indices = np.empty(n, dtype=np.intp)
    for digit in range(passes):
        shift = np.uint32(low + digit * width)
        offsets[:] = 0
        for i in range(n):
            offsets[(src_keys[i] >> shift) & mask] += 1
        if offsets.max() == n:
            continue
        total = 0
        for bucket in range(offsets.shape[0]):
            size = offsets[bucket]
            offsets[bucket] = total
            total += size
        for i in range(n):
            k = src_keys[i]
            bucket = (k >> shift) & mask
            position = offsets[bucket]
            offsets[bucket] = position + 1
            dst_keys[position] = k
            dst_indices[position] = src_indices[i]
        src_keys, dst_keys = dst_keys, src_keys
        src_indices, dst_indices = dst_indices, src_indices
    out = indices[lo:hi]
    for i in range(n):
        k = src_keys[i]
        bits[i] = (k ^ _SIGN) if k >= _SIGN else (k ^ _ALL_BITS)
        out[i] = src_indices[i]


@njit(cache=True, nogil=True)
def sort_together(values, indices, lo, hi, radix_min=RADIX_MIN):
    """Sort ``values[lo:hi]`` ascending, applying the same permutation to ``indices``; by radix
    sort from ``radix_min`` values on."""
    n = hi - lo
    if n >= radix_min:
        _radix_sort(values, indices, lo, hi)
    elif n > 15:
        _introsort(values, indices, lo, hi, 2 * int(np.log2(n)))
    elif n > 1:
        _insertion_sort(values, indices, lo, hi)  # what introsort does below 16 values

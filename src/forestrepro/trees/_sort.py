"""Sort a node's feature values and its sample indices together.

From ``RADIX_MIN`` values on, a least-significant-digit radix sort on the float32 bit
patterns (four 8-bit digits, a digit shared by all keys is skipped): linear time, several
times faster than comparison sorting on the large nodes near the root.  Below it, introsort
with median-of-three pivots and three-way partitioning (fast with many repeated values),
heapsort past the depth limit, insertion sort below 16 elements: the algorithm of
scikit-learn's ``simultaneous_sort`` (Musser 1997; Bentley and McIlroy 1993).
"""

import numpy as np
from numba import njit

RADIX_MIN = 256
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
    while hi - lo > 15:
        if max_depth <= 0:
            _heapsort(values, indices, lo, hi)
            return
        max_depth -= 1
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
        _introsort(values, indices, lo, left, max_depth)
        lo = right
    _insertion_sort(values, indices, lo, hi)


@njit(cache=True, nogil=True)
def _radix_sort(values, indices, lo, hi):
    n = hi - lo
    bits = values[lo:hi].view(np.uint32)
    # order-preserving map of float32 bits to uint32: flip negatives, set the sign of others
    keys = np.empty(n, dtype=np.uint32)
    counts = np.zeros((4, 256), dtype=np.intp)
    for i in range(n):
        b = bits[i]
        k = (b ^ _ALL_BITS) if b >= _SIGN else (b | _SIGN)
        keys[i] = k
        counts[0, k & 255] += 1
        counts[1, (k >> 8) & 255] += 1
        counts[2, (k >> 16) & 255] += 1
        counts[3, k >> 24] += 1
    src_keys = keys
    src_indices = indices[lo:hi]
    dst_keys = np.empty(n, dtype=np.uint32)
    dst_indices = np.empty(n, dtype=np.intp)
    for digit in range(4):
        offsets = counts[digit]
        if offsets.max() == n:
            continue
        total = 0
        for bucket in range(256):
            size = offsets[bucket]
            offsets[bucket] = total
            total += size
        shift = np.uint32(8 * digit)
        for i in range(n):
            k = src_keys[i]
            bucket = (k >> shift) & 255
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
def sort_together(values, indices, lo, hi):
    """Sort ``values[lo:hi]`` ascending, applying the same permutation to ``indices``."""
    n = hi - lo
    if n >= RADIX_MIN:
        _radix_sort(values, indices, lo, hi)
    elif n > 1:
        _introsort(values, indices, lo, hi, 2 * int(np.log2(n)))

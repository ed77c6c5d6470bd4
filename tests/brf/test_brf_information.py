"""Mutual information and the interdependence relation (Eq. 4) on hand-computed tables."""

import numpy as np
import pytest
from banzhaf_reference import banzhaf_index, interdependence_matrix

H_QUARTER = -(0.25 * np.log2(0.25) + 0.75 * np.log2(0.75))  # 0.811278 bits

# f0 = 0 0 0 0 1 1 1 1, f1 = 0 0 1 1 0 0 1 1, y = 0 0 0 1 0 1 1 1.
# I(f0; y) = H(y) - H(y | f0) = 1 - H(1/4) = 0.188722 (y given f0: 3:1 and 1:3).
# Given f1 = 0: (f0, y) = (0,0) (0,0) (1,0) (1,1): I = H(1/4) - (0 + 1)/2 = 0.311278, and the
# same given f1 = 1, so I(f0; y | f1) = 0.311278 > I(f0; y): f1 is interdependent with f0
# (and, by symmetry, f0 with f1).
TABLE_X = np.array([[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 0, 0, 1, 1]]).T
TABLE_Y = np.array([0, 0, 0, 1, 0, 1, 1, 1])


def test_hand_computed_table():
    interdependent, mi, cmi = interdependence_matrix(TABLE_X, TABLE_Y)
    np.testing.assert_allclose(mi, [1 - H_QUARTER] * 2, atol=1e-12)
    np.testing.assert_allclose(cmi, [[0, H_QUARTER - 0.5], [H_QUARTER - 0.5, 0]], atol=1e-12)
    assert mi[0] == pytest.approx(0.188722, abs=1e-6)
    assert cmi[0, 1] == pytest.approx(0.311278, abs=1e-6)
    np.testing.assert_array_equal(interdependent, [[False, True], [True, False]])


def test_xor_makes_each_feature_informative():
    # y = f0 XOR f1: alone each feature says nothing about y, given the other everything.
    f0, f1 = np.array([0, 0, 1, 1] * 3), np.array([0, 1, 0, 1] * 3)
    y = f0 ^ f1
    interdependent, mi, cmi = interdependence_matrix(np.column_stack([f0, f1]), y)
    np.testing.assert_allclose(mi, [0, 0], atol=1e-12)
    np.testing.assert_allclose(cmi, [[0, 1], [1, 0]], atol=1e-12)
    assert interdependent[0, 1] and interdependent[1, 0]


def test_redundant_copies_are_not_interdependent():
    # f1 is a copy of f0 = y: given f1, f0 adds nothing (I drops from 1 bit to 0).
    y = np.array([0, 1] * 5)
    interdependent, mi, cmi = interdependence_matrix(np.column_stack([y, y]), y)
    np.testing.assert_allclose(mi, [1, 1], atol=1e-12)
    np.testing.assert_allclose(cmi, [[0, 0], [0, 0]], atol=1e-12)
    assert not interdependent.any()


def _entropy(*columns, weight):
    _, cells = np.unique(np.column_stack(columns), axis=0, return_inverse=True)
    p = np.bincount(cells.ravel(), weights=weight) / weight.sum()
    p = p[p > 0]
    return -np.sum(p * np.log2(p))


def _assert_numpy_entropies(X, y, weight):
    """``interdependence_matrix``'s MI and CMI equal sums of entropies computed by numpy."""
    _, mi, cmi = interdependence_matrix(X, y, sample_weight=weight)
    H = lambda *cols: _entropy(*cols, weight=weight)  # noqa: E731
    for i in range(X.shape[1]):
        assert mi[i] == pytest.approx(H(X[:, i]) + H(y) - H(X[:, i], y), abs=1e-10)
        for j in range(X.shape[1]):
            if j != i:
                expected = H(X[:, i], X[:, j]) + H(y, X[:, j]) - H(X[:, j]) - H(X[:, i], y, X[:, j])
                assert cmi[i, j] == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("n", [30, 300])  # below and above the two-lane histograms
def test_against_numpy_entropies(n):
    rng = np.random.default_rng(n)
    X = rng.integers(0, 4, size=(n, 5))
    y = (X[:, 0] + rng.integers(0, 3, size=n)) % 4
    weight = rng.integers(1, 4, size=n).astype(float)
    _assert_numpy_entropies(X, y, weight)


def test_weights_are_multiplicities():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(120, 4))
    y = rng.integers(0, 3, size=120)
    weight = rng.integers(0, 4, size=120)
    repeated = np.repeat(np.arange(120), weight)
    weighted = interdependence_matrix(X, y, sample_weight=weight)
    expanded = interdependence_matrix(X[repeated], y[repeated])
    halved = interdependence_matrix(X, y, sample_weight=weight / 2.0)  # no integer path
    for got in (weighted, halved):
        np.testing.assert_array_equal(got[0], expanded[0])
        np.testing.assert_allclose(got[1], expanded[1], atol=1e-12)
        np.testing.assert_allclose(got[2], expanded[2], atol=1e-12)


def test_feature_subset():
    X = np.column_stack([TABLE_X, TABLE_Y, TABLE_X[:, ::-1]])
    full = interdependence_matrix(X, TABLE_Y)
    part = interdependence_matrix(X, TABLE_Y, features=[0, 1])
    np.testing.assert_allclose(part[2], full[2][:2, :2], atol=1e-12)
    with pytest.raises(TypeError, match="integer"):
        interdependence_matrix(X.astype(float), TABLE_Y)


def test_noise_feature_has_the_largest_index():
    # f0 and f2 are copies of y, f1 is independent of y (and of them): I(f1; y) = 0 <=
    # I(f1; y | f_j) for both partners, while each copy loses its information given the
    # other.  Eq. (4) as printed makes the noise feature the most powerful.
    y = np.array([0, 0, 1, 1] * 2)
    noise = np.array([0, 1, 0, 1] * 2)
    interdependent, _, _ = interdependence_matrix(np.column_stack([y, noise, y]), y)
    np.testing.assert_array_equal(interdependent.sum(axis=1), [1, 2, 1])
    beta = banzhaf_index(interdependent)
    assert np.argmax(beta) == 1


@pytest.mark.parametrize("seed", range(6))
def test_bitset_counts_equal_histogram_counts(seed):
    # small nodes with two bins and bootstrap weights are counted with bit sets; the numbers
    # must be the histograms' to the last bit (same sums in the same order)
    from forestrepro.trees.mutual_information import (
        _bitsets_apply,
        _information_bitsets,
        _information_histograms,
    )

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 65))
    h = int(rng.integers(2, 9))
    k = int(rng.integers(1, 6))
    codes = rng.integers(0, 2, size=(h, n)).astype(np.uint8)
    y = rng.integers(0, k, size=n).astype(np.intp)
    w = rng.integers(0, 6, size=n).astype(np.float64)
    w[0] = max(w[0], 1.0)
    assert _bitsets_apply(codes, 2, w)
    got = np.empty(h), np.empty((h, h))
    expected = np.empty(h), np.empty((h, h))
    _information_bitsets(codes, y, k, w, *got)
    _information_histograms(codes, 2, y, k, w, *expected)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_bitsets_only_where_they_count_exactly():
    from forestrepro.trees.mutual_information import _bitsets_apply

    codes = np.zeros((3, 10), dtype=np.uint8)
    assert _bitsets_apply(codes, 2, np.ones(10))
    assert not _bitsets_apply(codes, 4, np.ones(10))  # more than two bins
    assert not _bitsets_apply(codes, 2, np.full(10, 0.5))  # fractional weights
    assert not _bitsets_apply(np.zeros((3, 65), dtype=np.uint8), 2, np.ones(65))  # > 64


def test_two_bin_small_node_against_numpy_entropies():
    # counted with bit sets (two bins, 40 samples, integer weights)
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2, size=(40, 4))
    y = (X[:, 0] ^ rng.integers(0, 2, size=40)) + X[:, 1]
    _assert_numpy_entropies(X, y, rng.integers(1, 4, size=40).astype(float))

"""``column_codes``: each value's rank among its column's distinct values, and those values."""

import numpy as np
import pytest

from forestrepro.cascade.column_codes import column_codes


def test_codes_are_ranks_and_give_the_values_back():
    rng = np.random.RandomState(0)
    X = rng.randint(0, 7, size=(40, 5)).astype(np.float32) / 7
    X[:, 2] = rng.normal(size=40)  # 40 distinct values
    X[:, 4] = 3.0  # one value
    coded = column_codes(X)
    assert coded.codes.dtype == np.uint8 and coded.shape == X.shape
    for j in range(X.shape[1]):
        distinct = np.unique(X[:, j])
        np.testing.assert_array_equal(coded.values[coded.offsets[j] : coded.offsets[j + 1]], distinct)
        np.testing.assert_array_equal(coded.codes[:, j], np.searchsorted(distinct, X[:, j]))
        np.testing.assert_array_equal(coded.values[coded.offsets[j] + coded.codes[:, j]], X[:, j])


def test_code_width_and_memory_order_follow_the_input():
    X = np.asfortranarray(np.arange(600, dtype=np.float32).reshape(300, 2))
    coded = column_codes(X)
    assert coded.codes.dtype == np.uint16 and coded.codes.flags.f_contiguous
    assert column_codes(X[:256].copy()).codes.dtype == np.uint8
    assert column_codes(np.ascontiguousarray(X)).codes.flags.c_contiguous


def test_signed_zeros_share_a_code():
    X = np.array([[0.0], [-0.0], [1.0]], dtype=np.float32)
    coded = column_codes(X)
    assert list(coded.codes[:, 0]) == [0, 0, 1] and len(coded.values) == 2


def test_refuses_what_it_cannot_code():
    with pytest.raises(ValueError, match="float32"):
        column_codes(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="finite"):
        column_codes(np.array([[np.inf]], dtype=np.float32))

"""``tree_codes``: the tree builder's coding of ``X`` by column, the ranks and distinct values of
the cascade's ``column_codes`` as int32 in C order."""

import numpy as np
import pytest
from tree_data import load_pmlb

from forestrepro.cascade.column_codes import column_codes
from forestrepro.trees.tree_codes import tree_codes


def assert_codes_of_the_cascade(X):
    """``tree_codes(X)`` has ``column_codes(X)``'s ranks, distinct values and offsets."""
    ours, cascade = tree_codes(X), column_codes(np.ascontiguousarray(X, dtype=np.float32))
    assert ours.codes.dtype == np.int32 and ours.codes.flags.c_contiguous and ours.shape == X.shape
    assert np.array_equal(ours.codes, cascade.codes)
    assert np.array_equal(ours.values.view(np.uint32), cascade.values.view(np.uint32))
    assert np.array_equal(ours.offsets, cascade.offsets)


# the cascade's codes take 1 byte (letter), 2 (magic) and 4 (connect_4: 67,557 rows)
@pytest.mark.parametrize("name", ["letter", "satimage", "magic", "ionosphere", "vowel", "connect_4"])
def test_the_codes_of_mirror_data_sets_are_the_cascades(name):
    X, _ = load_pmlb(name)
    assert_codes_of_the_cascade(X)


def test_the_codes_give_X_back_and_are_the_cascades_on_signed_zeros():
    rng = np.random.RandomState(0)
    X = rng.randint(0, 7, size=(300, 5)).astype(np.float32) / 7
    X[:, 2] = rng.normal(size=300)  # 300 distinct values
    X[:, 3] = 0.0
    X[::3, 3] = -0.0  # one value: they compare equal
    X[:, 4] = 3.0
    codes = tree_codes(X)
    assert np.array_equal(codes.values[codes.offsets[np.arange(5)] + codes.codes], X)
    assert list(np.diff(codes.offsets)) == [7, 7, 300, 1, 1]
    assert_codes_of_the_cascade(X)


def test_refuses_what_it_cannot_code():
    with pytest.raises(ValueError, match="2-d"):
        tree_codes(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        tree_codes(np.array([[np.nan]]))

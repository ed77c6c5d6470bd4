"""The scan store's encoding of vote fractions gives back every array bit for bit."""

import numpy as np
import pytest

from forestrepro.checkpoint.fractions import decode_fractions, encode_fractions, stored_names


def _round_trip(x, denominator):
    stored = encode_fractions("a", x, denominator)
    assert stored_names(stored) == {"a"}
    out = decode_fractions("a", stored)
    assert out.dtype == np.float32 and out.shape == x.shape
    assert out.view(np.uint32).tobytes() == x.view(np.uint32).tobytes()
    return stored


def test_vote_fractions_become_small_counts():
    """k / 500 for k = 0..500, worked out by hand: the counts are k themselves."""
    k = np.arange(501)
    x = (k / 500).astype(np.float32).reshape(3, 167)
    stored = _round_trip(x, 500)
    np.testing.assert_array_equal(stored["a.counts"].ravel(), k)
    assert stored["a.counts"].dtype == np.uint16 and stored["a.exception_at"].size == 0


def test_test_shares_of_fold_forests_and_sums_in_another_order():
    """A test row's share k / 500 / 3, and fractions summed tree by tree in float64 (as
    WindowForest sums them), whose last bit may differ from k / 500: all come back exactly."""
    rng = np.random.default_rng(0)
    votes = rng.integers(0, 2, size=(40, 500))
    summed = np.zeros(40)
    for t in range(500):
        summed += votes[:, t] * (1 / 500)
    _round_trip(summed.astype(np.float32), 500)
    _round_trip((summed / 3).astype(np.float32), 1500)


def test_impure_fractions_are_kept_as_exceptions():
    x = (np.arange(20) / 20).astype(np.float32)
    x[[3, 11]] = [0.123456, 0.987654]  # an impure leaf's fractions
    stored = _round_trip(x, 20)
    np.testing.assert_array_equal(stored["a.exception_at"], [3, 11])


@pytest.mark.parametrize(
    "x, denominator",
    [
        (np.random.default_rng(1).random((5, 7), dtype=np.float32), 500),  # not fractions at all
        (np.array([0.5, np.nan, np.inf], dtype=np.float32), 2),
        (np.array([0.25, 0.5], dtype=np.float32), 100_000),  # beyond uint16
        (np.array([-0.0, 0.0], dtype=np.float32), 4),  # the sign of zero is kept
        (np.zeros((0, 3), dtype=np.float32), 500),
    ],
)
def test_anything_else_comes_back_unchanged(x, denominator):
    _round_trip(x, denominator)

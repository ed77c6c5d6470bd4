"""The builder's fast paths choose what the plain ones choose: the radix sort's digits, and the
Gini kernel for integer sample weights (``builder.integer_weights``), which counts the codes of
``X`` (``tree_codes``, made once per forest) where a column has few distinct values."""

from dataclasses import dataclass

import numpy as np
import pytest

from forestrepro.ensembles import _base
from forestrepro.ensembles.forest import PluggableForestClassifier
from forestrepro.trees import build_tree
from forestrepro.trees._sort import RADIX_MIN, sort_together
from forestrepro.trees.builder import INTEGER_TOTAL, integer_weights
from forestrepro.trees.rules import BestThreshold, gini
from forestrepro.trees.tree_codes import tree_codes

RNG = np.random.default_rng(3)


def _order_keys(values):
    """The uint32 keys whose order is the float32 order, -0.0 before 0.0."""
    bits = values.view(np.uint32)
    return np.where(bits >= 0x80000000, ~bits, bits | np.uint32(0x80000000))


@pytest.mark.parametrize(
    "values",
    [
        RNG.integers(0, 16, 5000).astype(np.float32),  # few small integers: one pass
        RNG.integers(0, 16, 300).astype(np.float32),  # the same below 2**11 values: 8-bit digits
        RNG.normal(size=5000).astype(np.float32),  # both signs, every bit varies
        RNG.normal(size=700).astype(np.float32) * 1e-30,
        np.repeat(np.float32([-0.0, 0.0, 1.5, -2.0]), 100),
        np.full(400, 3.0, dtype=np.float32),
    ],
)
def test_radix_sort_is_the_stable_sort(values):
    assert values.size >= RADIX_MIN
    keys = _order_keys(values.copy())
    indices = np.arange(values.size, dtype=np.intp) * 7
    expected = np.argsort(keys, kind="stable")
    sorted_values = values.copy()
    sort_together(sorted_values, indices, 0, values.size)
    assert np.array_equal(indices, expected * 7)
    assert np.array_equal(sorted_values.view(np.uint32), values[expected].view(np.uint32))


@pytest.mark.parametrize("n", [2, 15, 16, 40, 255])
def test_introsort_sorts_small_ranges_in_place(n):
    values = np.concatenate([[9.0], RNG.integers(0, 5, n), [-9.0]]).astype(np.float32)
    original = values.copy()
    indices = np.arange(n + 2, dtype=np.intp)
    sort_together(values, indices, 1, n + 1)
    assert values[0] == 9.0 and values[-1] == -9.0 and indices[0] == 0 and indices[-1] == n + 1
    assert np.all(np.diff(values[1:-1]) >= 0)
    assert np.array_equal(original[indices], values)


def test_integer_weights():
    assert integer_weights(np.ones(10))
    assert integer_weights(np.bincount(RNG.integers(0, 50, 50), minlength=50).astype(np.float64))
    assert not integer_weights(np.full(10, 0.5))
    assert not integer_weights(np.full(4, INTEGER_TOTAL / 4))


@dataclass(frozen=True)
class _PlainGini(BestThreshold):
    """The Gini rule that runs its plain kernel whatever the weights."""

    @property
    def integer_weight_kernel(self):
        return self.kernel


def test_gini_rule_has_an_integer_weight_kernel():
    assert BestThreshold("gini").integer_weight_kernel is gini.best_threshold_integer_kernel
    assert BestThreshold("entropy").integer_weight_kernel is BestThreshold("entropy").kernel


@pytest.mark.parametrize("n_eval", [None, 3])
def test_integer_weight_gini_kernel_grows_the_plain_kernels_tree(n_eval):
    # 26 classes, values with many ties, bootstrap weights, several feature draws per node
    X = np.concatenate([RNG.integers(0, 8, (3000, 6)), RNG.normal(size=(3000, 3))], axis=1)
    X = X.astype(np.float32)
    y = RNG.integers(0, 26, 3000)
    w = np.bincount(RNG.integers(0, 3000, 3000), minlength=3000).astype(np.float64)
    fast, plain = (
        build_tree(X, y, 26, rule, sample_weight=w, n_eval=n_eval, seed=5)
        for rule in (BestThreshold("gini"), _PlainGini("gini"))
    )
    assert fast.node_count > 500
    for name in ("children_left", "children_right", "feature", "threshold", "value", "depth"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name))


def _integer_data(n=2000):
    """Few distinct values (counted at most nodes) beside continuous ones (sorted), 26 classes."""
    X = np.concatenate([RNG.integers(0, 16, (n, 4)), RNG.normal(size=(n, 2))], axis=1).astype(np.float32)
    return X, RNG.integers(0, 26, n), np.bincount(RNG.integers(0, n, n), minlength=n).astype(np.float64)


def test_a_tree_grown_from_given_codes_is_the_tree_grown_from_X():
    X, y, w = _integer_data()
    grown, given = (
        build_tree(X, y, 26, BestThreshold("gini"), sample_weight=w, n_eval=3, seed=2, codes=codes)
        for codes in (None, tree_codes(X))
    )
    assert grown.node_count > 300
    for name in ("children_left", "children_right", "feature", "threshold", "value"):
        assert np.array_equal(getattr(grown, name), getattr(given, name))


def test_codes_of_another_X_are_refused():
    X, y, w = _integer_data(300)
    with pytest.raises(ValueError, match="codes must be tree_codes"):
        build_tree(X, y, 26, BestThreshold("gini"), sample_weight=w, codes=tree_codes(X[:-1]))


def test_a_forest_codes_its_X_once(monkeypatch):
    made = []

    def counted(X):
        made.append(X.shape)
        return tree_codes(X)

    monkeypatch.setattr(_base, "tree_codes", counted)
    X, y, _ = _integer_data(300)
    PluggableForestClassifier(4, random_state=0).fit(X, y)
    assert made == [X.shape]

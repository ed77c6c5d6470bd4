"""``WindowForest``: the class vectors of windows read in place from their rows are bit for bit
those of ``predict_proba`` on the cut windows, also once the model's trees are dropped or when
the forest is grown in chunks of trees, and the float32 thresholds route every float32 value
as scikit-learn's float64 thresholds do."""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from forestrepro.cascade.members import class_vectors, member_templates, seeded
from forestrepro.cascade.scanning import sample_windows, window_layout
from forestrepro.cascade.window_forest import WindowForest, float32_floor, pack_tree


def test_float32_floor_keeps_every_comparison_with_a_float32_value():
    rng = np.random.default_rng(0)
    a, b = np.sort(rng.normal(size=(2, 2000)).astype(np.float32), axis=0)
    thresholds = np.concatenate(
        [
            a / 2.0 + b / 2.0,  # scikit-learn's midpoints
            a.astype(np.float64),
            [0.1, -0.1, 1e30, 0.0],
        ]
    )
    floors = float32_floor(thresholds)
    assert floors.dtype == np.float32
    for step in (-2, -1, 0, 1, 2):  # values around each threshold
        x = floors.copy()
        for _ in range(abs(step)):
            x = np.nextafter(x, np.float32(np.sign(step) * np.inf))
        np.testing.assert_array_equal(x <= thresholds, x <= floors)
    np.testing.assert_array_equal(float32_floor(a.astype(np.float64)), a)  # exact ones kept


def _rows(n, d, n_classes, seed):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, d)) + np.sin(np.arange(d) * (1 + y[:, None]) / 3)
    return X.astype(np.float32), y


def test_a_pure_leaf_is_packed_as_its_class_and_an_impure_one_keeps_its_fractions():
    X = np.array([[0.0], [0.0], [1.0], [2.0], [2.0]], dtype=np.float32)
    y = np.array([0, 1, 2, 1, 1])  # x = 0 is both classes 0 and 1: an impure leaf
    tree = DecisionTreeClassifier(random_state=0).fit(X, y).tree_
    ints, _, impure = pack_tree(tree, 3)
    leaves = ints[:, 0] == -1
    assert sorted(ints[leaves, 2]) == [-3, -2, 0]  # class 2, class 1, impure row 0
    np.testing.assert_array_equal(impure, [[0.5, 0.5, 0.0]])


@pytest.mark.parametrize("shape, size", [((24,), 5), ((6, 6), 3)])
@pytest.mark.parametrize("weighting", ["none", "accuracy"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_window_class_vectors_equal_predict_proba_on_the_cut_windows(shape, size, weighting, n_jobs):
    X, y = _rows(40, int(np.prod(shape)), 4, seed=1)
    X[:, :18] = 0.0  # windows in this corner are equal across classes: impure leaves
    layout = window_layout(size, shape)
    trained_on = np.flatnonzero(y != 3)  # the model never sees class 3
    windows, labels = sample_windows(X, y, trained_on, layout, 400, seed=0)
    template = member_templates(1, 1, 20, weighting=weighting, n_jobs=n_jobs)  # 20 > 16 trees
    rows = np.array([5, 0, 39, 12])
    starts, offsets = layout
    cut = X[rows][:, starts[:, None] + offsets].reshape(-1, offsets.size)
    for member in template:
        model = seeded(member, 7).fit(windows, labels)
        ints, _, impure = pack_tree(model.forest_.estimators_[0].tree_, 3)
        leaf_codes = ints[ints[:, 0] == -1, 2]
        assert (leaf_codes < 0).any() and impure.shape[0] == (leaf_codes >= 0).sum() > 0
        expected = class_vectors(model, cut, 4)
        got = WindowForest(model, 4).class_vectors(X, rows, starts, offsets)
        assert got.dtype == expected.dtype and not got[:, 3].any()
        np.testing.assert_array_equal(got, expected)
        taken = WindowForest(model, 4, take_trees=True)  # the model's trees dropped
        assert all(tree is None for tree in model.forest_.estimators_)
        np.testing.assert_array_equal(taken.class_vectors(X, rows, starts, offsets), expected)


@pytest.mark.parametrize("chunk_trees", [1, 7, 20, 50])  # 7 does not divide 20
def test_a_forest_grown_in_chunks_gives_the_class_vectors_of_a_single_fit(chunk_trees):
    X, y = _rows(40, 24, 4, seed=2)
    layout = window_layout(5, (24,))
    windows, labels = sample_windows(X, y, np.flatnonzero(y != 3), layout, 300, seed=0)
    rows = np.array([3, 8, 0, 31])
    for member in member_templates(1, 1, 20, crf_bootstrap=True, n_jobs=2):
        expected = WindowForest(seeded(member, 11).fit(windows, labels), 4)
        grown = WindowForest.grow(seeded(member, 11), windows, labels, 4, chunk_trees)
        np.testing.assert_array_equal(
            grown.class_vectors(X, rows, *layout), expected.class_vectors(X, rows, *layout)
        )


def test_only_unweighted_forests_are_grown_in_chunks():
    X, y = _rows(40, 24, 4, seed=2)
    member = member_templates(1, 0, 4, weighting="accuracy")[0]
    with pytest.raises(ValueError, match="unweighted"):
        WindowForest.grow(seeded(member, 0), X, y, 4)

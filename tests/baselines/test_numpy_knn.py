"""NumpyKNN, the second implementation of the BRF paper's KNN (src/forestrepro/extensions/numpy_knn.py):
checked by hand on a worked example, against scikit-learn's KNeighborsClassifier where no
distances tie, and by scikit-learn's estimator checks."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.extensions.numpy_knn import NumpyKNN


def test_a_worked_example_on_a_line():
    # training points 0, 1, 2 (class a) and 10, 11 (class b); the test point 4 has the three
    # nearest 2, 1, 0 (distances 2, 3, 4): all a; with k = 5 the vote is 3 a to 2 b
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0]])
    y = np.array(["a", "a", "a", "b", "b"])
    assert NumpyKNN(n_neighbors=1).fit(X, y).predict([[9.0]]).tolist() == ["b"]
    assert NumpyKNN(n_neighbors=3).fit(X, y).predict([[4.0], [8.0]]).tolist() == ["a", "b"]
    np.testing.assert_allclose(NumpyKNN(n_neighbors=5).fit(X, y).predict_proba([[4.0]]), [[0.6, 0.4]])


def test_ties_go_to_the_earlier_training_row_and_the_first_class():
    # the test point 1 is at distance 1 from both training points: k = 1 takes the earlier row
    X = np.array([[2.0], [0.0]])
    assert NumpyKNN(n_neighbors=1).fit(X, [1, 0]).predict([[1.0]]).tolist() == [1]
    # k = 2: one vote each, the first class of classes_ wins
    assert NumpyKNN(n_neighbors=2).fit(X, [1, 0]).predict([[1.0]]).tolist() == [0]


@pytest.mark.parametrize("k", [1, 4, 15])
def test_it_predicts_as_scikit_learn_where_no_distances_tie(k):
    rng = np.random.default_rng(k)
    X, y = rng.normal(size=(200, 6)), rng.integers(0, 3, 200)
    test = rng.normal(size=(1100, 6))  # more than one block of test rows
    ours = NumpyKNN(n_neighbors=k).fit(X, y)
    theirs = KNeighborsClassifier(n_neighbors=k).fit(X, y)
    np.testing.assert_array_equal(ours.predict(test), theirs.predict(test))
    np.testing.assert_allclose(ours.predict_proba(test), theirs.predict_proba(test))


def test_k_above_the_training_rows_uses_them_all():
    X = np.array([[0.0], [1.0], [5.0]])
    np.testing.assert_allclose(
        NumpyKNN(n_neighbors=10).fit(X, [0, 1, 1]).predict_proba([[0.0]]), [[1 / 3, 2 / 3]]
    )


def test_scikit_learn_estimator_checks():
    check_estimator(NumpyKNN())

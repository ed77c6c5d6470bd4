"""The Sec. 5.2 distribution: three unit squares, stripes and a checkerboard."""

import numpy as np
import pytest

from forestrepro.data.synthetic import stripe_label, stripes_checkerboard


def test_stripe_labels():
    # stripes 1, 2, 3, 4, ... = [3/4, 1), [1/2, 3/4), [3/8, 1/2), [1/4, 3/8), ...,
    # label 1 on odd stripes; deeper stripes merge into stripe n_stripes
    u = np.array([0.9, 0.75, 0.7, 0.5, 0.45, 0.375, 0.3, 0.25, 0.2, 2.0**-10, 0.0])
    np.testing.assert_array_equal(stripe_label(u, 40), [1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(stripe_label(u, 3), [1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    np.testing.assert_array_equal(stripe_label(u, 4), [1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0])


def test_sampler():
    X, y = stripes_checkerboard(30000, n_stripes=36, seed=1)
    assert X.shape == (30000, 2) and set(np.unique(y)) == {0, 1}
    vertical = (X[:, 0] < 1) & (X[:, 1] >= 2)
    horizontal = (X[:, 0] >= 2) & (X[:, 1] < 1)
    board = (X[:, 0] >= 1) & (X[:, 0] < 2) & (X[:, 1] >= 1) & (X[:, 1] < 2)
    assert np.all(vertical | horizontal | board)
    for part in (vertical, horizontal, board):
        assert part.mean() == pytest.approx(1 / 3, abs=0.01)
    np.testing.assert_array_equal(y[vertical], stripe_label(X[vertical, 0], 36))
    np.testing.assert_array_equal(y[horizontal], stripe_label(X[horizontal, 1], 36))
    u = X[board] - 1
    np.testing.assert_array_equal(y[board], (u[:, 0] < 0.5) == (u[:, 1] < 0.5))
    for part in (vertical, horizontal, board):
        assert y[part].mean() == pytest.approx(0.5, abs=0.02)  # balanced classes
    again = stripes_checkerboard(30000, n_stripes=36, seed=1)
    np.testing.assert_array_equal(X, again[0])
    assert not np.array_equal(X, stripes_checkerboard(30000, seed=2)[0])
    with pytest.raises(ValueError):
        stripes_checkerboard(0)

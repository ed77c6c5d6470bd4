"""``seeded``: a thread's reseeded ``RandomState`` draws what a new ``RandomState(seed)`` draws."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from forestrepro.trees.seeded import seeded


def test_it_draws_what_a_new_random_state_draws_whatever_was_drawn_before():
    for seed in (0, 7, 2**31 - 2, np.int64(123456)):
        seeded(seed + 1).normal(size=3)  # a draw, and a cached Gaussian, before
        assert np.array_equal(
            seeded(seed).randint(0, 1000, 50), np.random.RandomState(seed).randint(0, 1000, 50)
        )
        assert seeded(seed).normal() == np.random.RandomState(seed).normal()
        assert np.array_equal(
            seeded(seed).choice(10, 4, replace=False),
            np.random.RandomState(seed).choice(10, 4, replace=False),
        )


def test_each_thread_has_its_own():
    own = seeded(0)  # made before the pool's, which live while the pool's threads do
    with ThreadPoolExecutor(2) as pool:
        assert all(state is not own for state in pool.map(lambda _: seeded(0), range(4)))

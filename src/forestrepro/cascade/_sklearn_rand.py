"""scikit-learn's tree random generator, draw for draw, for compiled code.

A splitter of scikit-learn (``sklearn/tree/_splitter.pyx``) draws its state once,
``random_state.randint(0, RAND_R_MAX)``, then every draw is ``our_rand_r``
(``sklearn/utils/_random.pxd``: a 32-bit xorshift, 13/17/5, its result modulo 2^31) through
``rand_int`` and ``rand_uniform`` (``sklearn/tree/_utils.pyx``). The state here is a
one-element int64 array holding the uint32 value; every shift is masked to 32 bits, as C's
``uint32_t`` arithmetic wraps.
"""

import numpy as np
from numba import njit
from sklearn.utils import check_random_state

RAND_R_MAX = 2147483647
_MASK = 0xFFFFFFFF


def splitter_state(random_state):
    """The state a scikit-learn splitter draws at ``init`` from ``random_state`` (int, None or
    ``RandomState``, as ``check_random_state`` takes it)."""
    draw = check_random_state(random_state).randint(0, RAND_R_MAX)
    return np.array([draw], dtype=np.int64)


@njit(cache=True, nogil=True)
def our_rand_r(state):
    """Next value of ``our_rand_r``: a uint32 xorshift step, returned modulo 2^31."""
    seed = state[0]
    if seed == 0:
        seed = 1
    seed ^= (seed << 13) & _MASK
    seed ^= seed >> 17
    seed ^= (seed << 5) & _MASK
    state[0] = seed
    return seed % (RAND_R_MAX + 1)


@njit(cache=True, nogil=True)
def rand_int(low, high, state):
    """scikit-learn's ``rand_int``: an integer in ``[low, high)``."""
    return low + our_rand_r(state) % (high - low)


@njit(cache=True, nogil=True)
def rand_uniform(low, high, state):
    """scikit-learn's ``rand_uniform``: ``(high - low) * r / RAND_R_MAX + low`` in float64."""
    return (high - low) * np.float64(our_rand_r(state)) / np.float64(RAND_R_MAX) + low

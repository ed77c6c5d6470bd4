"""A small explicit random generator for compiled code (SplitMix64, Steele et al. 2014).

The state is a one-element uint64 array owned by one tree, so a tree's random draws depend
only on its seed, never on which thread grows it.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def new_state(seed):
    """Generator state for an integer seed."""
    return np.array([seed], dtype=np.uint64)


@njit(cache=True, nogil=True)
def next_u64(state):
    """Next 64 random bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def rand_int(state, low, high):
    """Uniform integer in ``[low, high)``."""
    return low + np.intp(next_u64(state) % np.uint64(high - low))

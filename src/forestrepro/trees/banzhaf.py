"""The Banzhaf power index of features (BRF paper, Sun et al. 2018, Secs. 4.1-4.4): its counting.

The mutual information that decides interdependence (Eq. 4) is ``mutual_information.py``.

**The game.**  The players are the candidate features of a node.  Feature ``f_j`` is
*interdependent* with ``f_i`` when knowing ``f_j`` does not lower the information ``f_i``
carries about the class, ``I(f_i; y) <= I(f_i; y | f_j)`` (Eq. 4, with mutual information in
bits on discretised features).  A coalition ``S`` of other features is *won* by ``f_i`` when
the fraction ``sigma`` of ``S`` interdependent with ``f_i`` is at least ``tau = 1/2``
(Eq. 3); the empty coalition has no fraction and is never won.  ``tau = 1/2`` is inclusive:
the paper's worked example counts ``{f2, f3}`` with only ``f2`` interdependent as won.

**Closed-form counting (Sec. 4.4).**  Whether ``f_i`` wins ``S`` depends only on how many of
``S`` are interdependent with it, so only on ``a``, the number of features interdependent
with ``f_i`` among the ``n - 1`` others (``b = n - 1 - a`` are not).  A coalition of ``s``
members, ``k`` of them interdependent, is won iff ``k >= ceil(s/2)``, so the number of won
coalitions of size ``s`` is

    W_s = sum_{k >= ceil(s/2)} C(a, k) C(b, s - k).

With ``m = s - k`` non-interdependent members the condition is ``m <= k``; summing over the
sizes ``1 <= s <= w`` (``w`` the bound on coalition size) gives

    sum_{s=1}^{w} W_s = sum_{k=1}^{min(a, w)} C(a, k) P_b(min(k, w - k)),
    P_b(t) = sum_{m=0}^{min(t, b)} C(b, m),

``O(w)`` arithmetic per feature with the prefix sums ``P_b`` (``k = 0`` would leave only
the empty coalition).  Eq. (1) divides the count over all sizes (``w = n - 1``) by
``2**(n-1)``, the number of all coalitions, the empty one included; the bounded form of
Sec. 4.4 divides the count over ``1 <= s <= w`` by the number of such coalitions,
``sum_{s=1}^{w} C(n-1, s)``.

*The paper's* ``M_2``.  Sec. 4.4 writes the number of won two-member coalitions as
``M_2 = C(M_1, 2) + C(M_1, 1) C(n - M_1, 1)`` with ``M_1`` the number of won singletons
(``= a``) and ``n`` "the number of features at the node".  The formula above gives
``W_2 = C(a, 2) + C(a, 1) C(n - 1 - a, 1)``: the paper's formula is right only if its ``n``
counts the features *other than* ``f_i``; with ``n`` the node's features it counts ``f_i``
itself as a partner.  The paper's own worked example (``n = 4``, ``a = 1``, two won pairs)
has ``W_2 = 2`` where the printed formula gives 3.

*Consequence.*  ``beta`` depends on the feature only through ``a`` and strictly increases
with it (making one more partner interdependent can only turn lost coalitions into won
ones, and turns that partner's singleton into a won one).  So ``argmax beta`` (Algorithm 1)
is the feature with the most interdependent partners whatever the bound ``w`` is; ``w``
only changes the values of ``beta`` and ``zeta``, which matter when a feature is drawn with
probability ``zeta`` (the selection model of the consistency proof, Sec. 5.1).

*Uninformative features.*  A feature with ``I(f_i; y) = 0`` (pure noise) satisfies Eq. (4)
with every partner (``0 <= I(f_i; y | f_j)``), so it has the most partners and the largest
index; with plug-in estimates it nearly does (the conditional estimate has the larger
upward bias).  This is the paper's definition, kept as the default ("eq4"): at nodes below
the root BRF then tends to cut noise features rather than informative ones.  The reading
"beats_partner" (``count_partners``) compares ``I(f_i; y | f_j)`` with what the partner says
alone, ``I(f_j; y)``, so that the informative features have the most partners; it is not in
the text, and the report runs it beside the default as an ablation.

Counts are float64, exact while below ``2**53``; Eq. (1) needs ``2**(n-1)`` to be finite,
so it takes at most 1024 players (the bounded form has no such limit in practice).

The split rules compile these functions into their kernels, and numba's disk cache of a
kernel only notices edits to the kernel's own file: after editing this module, delete the
``__pycache__`` folders of ``forestrepro/trees`` (see ``_kernel_api``).
"""

import numpy as np
from numba import njit

INTERDEPENDENCE_TOL = 1e-9
"""``I(f_i; y) <= I(f_i; y | f_j) + tol`` (bits): equal values up to rounding count as
interdependent, as the ``<=`` of Eq. (4) says."""

MAX_PLAYERS_EQ1 = 1024
"""Largest game Eq. (1) handles in float64 (``2**(n-1)`` must be finite)."""


# --- closed-form counting -----------------------------------------------------------------


@njit(cache=True, nogil=True)
def _binomials(n, k_max, out):
    """``out[k] = C(n, k)`` for ``k = 0..k_max`` (``k_max <= n``)."""
    out[0] = 1.0
    for k in range(1, k_max + 1):
        out[k] = out[k - 1] * (n - k + 1) / k


@njit(cache=True, nogil=True)
def won_coalitions(a, n_others, max_size, prefix, c_ak):
    """Number of non-empty coalitions of at most ``max_size`` of the ``n_others`` other
    players that a player with ``a`` interdependent partners wins (Eq. 3):
    ``sum_{k=1}^{min(a, w)} C(a, k) P_b(min(k, w - k))`` (see the module docstring).
    ``prefix`` and ``c_ak`` are scratch arrays of at least ``min(max_size, n_others) + 1``
    entries."""
    b = n_others - a
    w = min(max_size, n_others)
    k_max = min(a, w)
    if k_max < 1:
        return 0.0
    t_max = min(b, w // 2)
    _binomials(b, t_max, prefix)
    for t in range(1, t_max + 1):
        prefix[t] += prefix[t - 1]
    _binomials(a, k_max, c_ak)
    total = 0.0
    for k in range(1, k_max + 1):
        total += c_ak[k] * prefix[min(k, w - k, t_max)]
    return total


@njit(cache=True, nogil=True)
def powers(n_partners, max_coalition, out):
    """``out[i] = beta_i`` for players with ``n_partners[i]`` interdependent partners each;
    ``max_coalition < 0``: Eq. (1), over ``2**(n-1)`` coalitions; else the bounded form of
    Sec. 4.4, over the number of non-empty coalitions of at most ``max_coalition`` members.
    ``beta`` is computed once per value of ``a``: ``O(n * w)`` arithmetic for ``n`` players
    and bound ``w``."""
    n = n_partners.shape[0]
    if n == 0:
        return
    n_others = n - 1
    max_size = n_others if max_coalition < 0 else min(max_coalition, n_others)
    scratch = np.empty((3, n))
    if max_coalition < 0:
        denominator = 2.0**n_others
    else:
        _binomials(n_others, max_size, scratch[0])
        denominator = scratch[0, 1 : max_size + 1].sum()
    by_a = scratch[2]
    by_a[:] = -1.0
    for i in range(n):
        a = n_partners[i]
        if by_a[a] < 0.0:
            by_a[a] = (
                0.0
                if denominator == 0.0
                else won_coalitions(a, n_others, max_size, scratch[0], scratch[1]) / denominator
            )
        out[i] = by_a[a]


INTERDEPENDENCE = ("eq4", "beats_partner")
"""The readings of the interdependence relation (``count_partners``)."""


@njit(cache=True, nogil=True)
def count_partners(mi, cmi, beats_partner, out):
    """``out[i]``: the number of ``j != i`` interdependent with ``i``.

    ``beats_partner=False`` ("eq4", the text as printed): ``I(f_i; y) <= I(f_i; y | f_j)``,
    knowing ``f_j`` does not lower what ``f_i`` says about the class.  ``True``
    ("beats_partner", a reading not in the text, under which an informative feature has the
    larger index): ``I(f_j; y) <= I(f_i; y | f_j)``, ``f_i`` adds, beyond ``f_j``, at least
    what ``f_j`` says alone.  A pure-noise ``f_i`` then wins only against partners that say
    nothing either, and an informative one against the noise and the weaker features."""
    h = mi.shape[0]
    for i in range(h):
        a = 0
        for j in range(h):
            base = mi[j] if beats_partner else mi[i]
            if j != i and base <= cmi[i, j] + INTERDEPENDENCE_TOL:
                a += 1
        out[i] = a

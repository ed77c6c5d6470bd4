"""``_borrow``: an array borrowed in compiled code is the same data without an owner, so numba
counts no references to it or to its views (the grow loop's arrays)."""

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from forestrepro.trees._borrow import borrow, hold


@intrinsic
def _owned(typingctx, array):
    """Whether ``array`` has an owner (a meminfo), whose references numba counts."""

    def codegen(context, builder, signature, args):
        meminfo = context.make_array(array)(context, builder, value=args[0]).meminfo
        return builder.icmp_unsigned("!=", meminfo, cgutils.get_null_value(meminfo.type))

    return types.boolean(array), codegen


@njit
def _borrowed_owners(a, b):
    """Owners of ``a``, its borrowed self and view, of a borrowed tuple's arrays and of a borrowed
    array made here; each borrowed array writes 7 into its first element."""
    made = np.zeros(3)
    kept = borrow(made)
    borrowed = borrow(a)
    view = borrowed[1:]
    first, second = borrow((a, b))
    view[0] = 7.0
    second[0] = 7
    kept[0] = 7.0
    owners = (_owned(a), _owned(borrowed), _owned(view), _owned(first), _owned(second), _owned(kept))
    total = kept.sum()
    hold((made,))
    return owners, total


def test_a_borrowed_array_is_the_same_data_without_an_owner():
    a, b = np.zeros(4), np.zeros((2, 2), dtype=np.intp)
    owners, total = _borrowed_owners(a, b)
    assert owners == (True, False, False, False, False, False)
    assert a[1] == 7.0 and b[0, 0] == 7 and total == 7.0

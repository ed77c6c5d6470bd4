"""Arrays borrowed for the length of a compiled loop, without reference counting.

numba counts a reference (an atomic increment and decrement, each through a function it never
inlines) for every array argument of every compiled function it enters, for every array it takes
from a tuple and for every view it makes, although each of these arrays outlives the call or the
view. In the grow loop that was 70,000 a tree of letter's forest, about half a millisecond
(``benchmarks/tree_builder.md``). ``borrow(arrays)`` gives an array, or each array of a tuple,
without its owner: the same data, shape and strides, with a null meminfo and parent (as numba's
``carray`` makes an array over memory it does not own), so counting its references, or those of
its views, does nothing. The caller keeps the arrays themselves alive while the borrowed ones are
used: an argument is alive for the whole call (its caller holds it); an array the function made is
freed after its variable's last use, so ``hold`` it after the borrowed arrays' last use. A borrowed
array is never returned.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _borrowed(context, builder, array_type, value):
    """The array ``value`` of ``array_type`` with a null meminfo and parent."""
    array = context.make_array(array_type)(context, builder, value=value)
    array.meminfo = cgutils.get_null_value(array.meminfo.type)
    array.parent = cgutils.get_null_value(array.parent.type)
    return array._getvalue()


@intrinsic
def borrow(typingctx, arrays):
    """``arrays`` (an array or a tuple of arrays) borrowed: no reference counting."""
    if isinstance(arrays, types.Array):

        def codegen(context, builder, signature, args):
            return _borrowed(context, builder, arrays, args[0])

        return arrays(arrays), codegen
    if isinstance(arrays, types.BaseTuple) and all(isinstance(t, types.Array) for t in arrays):

        def codegen_tuple(context, builder, signature, args):
            borrowed = args[0]
            for i, array_type in enumerate(arrays):
                array = _borrowed(context, builder, array_type, builder.extract_value(borrowed, i))
                borrowed = builder.insert_value(borrowed, array, i)
            return borrowed

        return arrays(arrays), codegen_tuple
    return None


@intrinsic
def hold(typingctx, owners):
    """Nothing: a use of ``owners`` that keeps them alive until this point."""

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(owners), codegen

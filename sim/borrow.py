"""Compiled hot loops without array reference counting.

Numba keeps an atomic reference count per array: every call that passes an array and every
variable that holds one increments and decrements it, through a call into the runtime. In a
loop of many small calls this dominates (about 40 % of the Carpe Diem play loop's time, and
half of a placement's evaluation). Two remedies:

* ``borrow(array)``: a view with the same data, shape and strides but no owner, so the counts
  do nothing; a tuple (named or not) gives the same tuple with each array in it borrowed. Valid
  only while its owner is alive: borrow the arguments of a compiled function whose caller holds
  the owners for the whole call; never return or keep a borrowed view.
* ``njit_without_refcounts``: ``njit(cache=True)`` with the counting left out. Numba compiles
  the callees of such a kernel without it too, so only for kernels whose whole call tree
  allocates no array (an allocation below it fails to compile); indexing, slicing and passing
  arrays on are fine.

With ``NUMBA_DISABLE_JIT=1`` both are plain Python (``borrow`` returns the array).
"""

from bgsim.sim.numba_cache import configure_numba_cache
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

configure_numba_cache()  # before the first kernel is compiled

__all__ = ["borrow", "njit_inline_without_refcounts", "njit_without_refcounts"]


def _without_owner(context, builder, typ, value):
    """``value`` of numba type ``typ`` with every array in it (through nested tuples) unowned."""
    if isinstance(typ, types.Array):
        view = context.make_array(typ)(context, builder, value=value)  # a copy of the struct
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    if isinstance(typ, types.BaseTuple):
        items = [_without_owner(context, builder, item, builder.extract_value(value, i)) for i, item in enumerate(typ)]
        return context.make_tuple(builder, typ, items)
    return value


@intrinsic
def _view_without_owner(typingctx, value):
    if not isinstance(value, (types.Array, types.BaseTuple)):
        return None

    def codegen(context, builder, signature, args):
        return _without_owner(context, builder, value, args[0])

    return value(value), codegen


if config.DISABLE_JIT:

    def borrow(value):
        """``value`` itself (no reference counts to avoid without compilation)."""
        return value

else:

    @njit(cache=True)
    def borrow(value):
        """A view of ``value`` (a NumPy array, or a tuple holding arrays) without an owner: see
        the module doc."""
        return _view_without_owner(value)


def njit_without_refcounts(function):
    """``njit(cache=True)`` without reference counting: see the module doc. Integer division
    by zero is not checked either (``error_model="numpy"``): the kernels never divide by zero,
    and the check's exception path keeps loops from being optimised."""
    return njit(cache=True, _nrt=False, error_model="numpy")(function)


def njit_inline_without_refcounts(function):
    """``njit_without_refcounts`` for a kernel called in a hot loop with many array arguments:
    Numba inlines its body into each caller, since a call passes every array as about seven
    machine words (a placement's valuation spent more on its arguments than on its work)."""
    return njit(cache=True, _nrt=False, error_model="numpy", inline="always")(function)

"""Compiled hot loops without array reference counting.

Numba keeps an atomic reference count per array: every call that passes an array and every
variable that holds one increments and decrements it, through a call into the runtime. In a
loop of many small calls this dominates (about 40 % of the Carpe Diem play loop's time, and
half of a placement's evaluation). Two remedies:

* ``borrow(array)``: a view with the same data, shape and strides but no owner, so the counts
  do nothing. Valid only while its owner is alive: borrow the arguments of a compiled function
  whose caller holds the owners for the whole call; never return or keep a borrowed view.
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


@intrinsic
def _view_without_owner(typingctx, array):
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(array)(context, builder, value=args[0])  # a copy of the struct
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


if config.DISABLE_JIT:

    def borrow(array):
        """``array`` itself (no reference counts to avoid without compilation)."""
        return array

else:

    @njit(cache=True)
    def borrow(array):
        """A view of ``array`` (any NumPy array) without an owner: see the module doc."""
        return _view_without_owner(array)


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

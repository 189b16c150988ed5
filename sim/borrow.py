"""Array views without reference counting, for hot compiled loops.

Numba keeps an atomic reference count per array: every call that passes an array and every
variable that holds one increments and decrements it. In a loop of many small calls these
atomic operations dominate (about 40 % of the Carpe Diem play loop's time). A borrowed view
has the same data, shape and strides but no owner, so those operations do nothing.

A borrowed view is valid only while its owner is alive. Borrow the arguments of a compiled
function whose caller holds the owners for the whole call, and never return or keep a
borrowed view beyond that call. With ``NUMBA_DISABLE_JIT=1`` ``borrow`` returns the array.
"""

from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["borrow"]


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

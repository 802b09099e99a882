"""Bit tricks for the kernels: hardware popcount, count-trailing-zeros and count-leading-zeros on int64 words.

numba has no portable popcount, so these are LLVM intrinsics; under ``NUMBA_DISABLE_JIT=1``
they fall back to plain Python.
"""

from __future__ import annotations

from numba import config, types
from numba.extending import intrinsic

from boardpuzzles._kernels import jit

if getattr(config, "DISABLE_JIT", False):

    def popcount(x):
        return (int(x) & 0xFFFF_FFFF_FFFF_FFFF).bit_count()  # as the 64-bit word it stands for

    def lowest_bit_index(x):
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest_bit_index(x):
        return (int(x) & 0xFFFF_FFFF_FFFF_FFFF).bit_length() - 1

else:

    @intrinsic
    def _ctpop(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], context.get_constant(types.boolean, True))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], context.get_constant(types.boolean, True))

        return types.int64(types.int64), codegen

    @jit
    def popcount(x):
        return _ctpop(x)  # type: ignore[call-arg]  # an intrinsic: numba supplies its context

    @jit
    def lowest_bit_index(x):
        """Index of the lowest set bit of a non-zero word."""
        return _cttz(x)  # type: ignore[call-arg]

    @jit
    def highest_bit_index(x):
        """Index of the highest set bit of a non-zero word (bit 63 included)."""
        return 63 - _ctlz(x)  # type: ignore[call-arg]

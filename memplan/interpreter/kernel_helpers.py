"""Building blocks of the numpy kernels that evaluate scalar ops (arith, math).

A kernel takes the op, its operands as arrays (0-d for scalars) and the index
bitwidth, and returns the result array, so the same kernel serves a scalar op
and the same op vectorized over a whole `linalg.generic`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from memplan.interpreter.element_types import convert, numpy_dtype, unsigned_dtype

Kernel = Callable[[Operation, list[np.ndarray], int], np.ndarray]
"""(op, operands as arrays, index bitwidth) -> result array."""


def as_array(value: object, dtype: np.dtype) -> np.ndarray:
    """`value` as an array of `dtype`, wrapping integers like the hardware."""
    array = np.asarray(value)
    return array if array.dtype == dtype else convert(array, dtype)


def operand_dtype(op: Operation, index: int, bits: int) -> np.dtype:
    return numpy_dtype(op.operands[index].type, bits)


def result_dtype(op: Operation, bits: int) -> np.dtype:
    return numpy_dtype(op.results[0].type, bits)


def unary(ufunc: Callable[[np.ndarray], np.ndarray]) -> Kernel:
    """A kernel applying `ufunc` to one operand in the result's dtype."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        dtype = result_dtype(op, bits)
        return as_array(ufunc(as_array(args[0], dtype)), dtype)

    return kernel


def sign_extended(array: np.ndarray) -> np.ndarray:
    """An i1 array as the signed values MLIR gives it (true is -1)."""
    return -array.astype(np.int8)


def binary(ufunc: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Kernel:
    """A kernel applying `ufunc` to two operands in the result's dtype; on
    i1, to their signed values, keeping the low bit (`addi` is then xor)."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        dtype = result_dtype(op, bits)
        lhs, rhs = as_array(args[0], dtype), as_array(args[1], dtype)
        if dtype == np.bool_:
            return as_array(ufunc(sign_extended(lhs), sign_extended(rhs)), dtype)
        return ufunc(lhs, rhs)

    return kernel


def unsigned_binary(ufunc: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Kernel:
    """A kernel reading both (signless) integer operands as unsigned."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        signed = result_dtype(op, bits)
        if signed == np.bool_:  # i1 as unsigned: 0 and 1
            lhs, rhs = (as_array(a, signed).astype(np.uint8) for a in args[:2])
            return as_array(ufunc(lhs, rhs), signed)
        unsigned = unsigned_dtype(op.results[0].type, bits)
        lhs = as_array(args[0], signed).view(unsigned)
        rhs = as_array(args[1], signed).view(unsigned)
        return ufunc(lhs, rhs).view(signed)

    return kernel

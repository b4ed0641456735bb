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


def binary(ufunc: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Kernel:
    """A kernel applying `ufunc` to two operands in the result's dtype."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        dtype = result_dtype(op, bits)
        return ufunc(as_array(args[0], dtype), as_array(args[1], dtype))

    return kernel


def unsigned_binary(ufunc: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Kernel:
    """A kernel reading both (signless) integer operands as unsigned."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        signed = result_dtype(op, bits)
        unsigned = unsigned_dtype(op.results[0].type, bits)
        lhs = as_array(args[0], signed).view(unsigned)
        rhs = as_array(args[1], signed).view(unsigned)
        return ufunc(lhs, rhs).view(signed)

    return kernel

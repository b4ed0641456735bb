"""arith on numpy values, shared by scalars and vectors; the kernel table.

xDSL's arith implementations compute on Python ints; here every op is one
numpy kernel that takes arrays (0-d for scalars), so a scalar `arith.addi`
and the same op vectorized over a whole `linalg.generic` wrap identically
(i32 wraps at 2**31).  `KERNELS` joins these with math's and `cf.assert`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
)
from xdsl.ir import Attribute, Operation

from memplan.dialects.arith import CmpfOp, CmpiOp, RemFOp, TruncIOp
from memplan.interpreter.cf_impl import CF_KERNELS
from memplan.interpreter.element_types import numpy_dtype, unsigned_dtype
from memplan.interpreter.errors import ModelError
from memplan.interpreter.float_extrema import MAXIMUMF, MINIMUMF, maxnumf, minnumf
from memplan.interpreter.kernel_helpers import (
    Kernel,
    as_array,
    binary,
    operand_dtype,
    result_dtype,
    sign_extended,
    unary,
    unsigned_binary,
)
from memplan.interpreter.math_impl import MATH_KERNELS

__all__ = [
    "FLOAT_COMPARE",
    "KERNELS",
    "SIGNED_COMPARE",
    "UNSIGNED_COMPARE",
    "as_array",
    "ceil_div",
    "constant_value",
    "evaluate",
]


def _nonzero_divisor(kernel: Kernel) -> Kernel:
    def checked(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        if np.any(np.asarray(args[1]) == 0):
            raise ModelError("integer division by zero")
        return kernel(op, args, bits)

    return checked


def _div_toward_zero(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    return (lhs - np.fmod(lhs, rhs)) // rhs


def ceil_div(lhs: Any, rhs: Any) -> Any:
    """The floor quotient, one up when the division leaves a remainder (no
    negation: -INT_MIN would wrap).  Operators, not ufuncs: numpy scalars
    (the fast path of scalar code) and arrays alike."""
    quotient = lhs // rhs
    return quotient + (lhs % rhs != 0)


def _cast(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    source = as_array(args[0], operand_dtype(op, 0, bits))
    return as_array(source, result_dtype(op, bits))


def _sign_extend(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """A cast that reads its integer operand as signed (`extsi`, `sitofp`,
    `index_cast`): an i1 true is -1."""
    source = as_array(args[0], operand_dtype(op, 0, bits))
    if source.dtype == np.bool_:
        source = sign_extended(source)
    return as_array(source, result_dtype(op, bits))


def _cast_from_unsigned(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    source = as_array(args[0], operand_dtype(op, 0, bits))
    if source.dtype != np.bool_:
        source = source.view(unsigned_dtype(op.operands[0].type, bits))
    return as_array(source, result_dtype(op, bits))


def _float_to_unsigned(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    unsigned = unsigned_dtype(op.results[0].type, bits)
    return np.asarray(args[0]).astype(unsigned).view(result_dtype(op, bits))


def _bitcast(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    source = as_array(args[0], operand_dtype(op, 0, bits))
    return source.view(result_dtype(op, bits))


def _select(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    dtype = result_dtype(op, bits)
    return np.where(
        as_array(args[0], np.dtype(np.bool_)),
        as_array(args[1], dtype),
        as_array(args[2], dtype),
    )


SIGNED_COMPARE = {
    0: np.equal,
    1: np.not_equal,
    2: np.less,
    3: np.less_equal,
    4: np.greater,
    5: np.greater_equal,
}
UNSIGNED_COMPARE = {6: np.less, 7: np.less_equal, 8: np.greater, 9: np.greater_equal}


def _cmpi(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    assert isinstance(op, arith.CmpiOp)
    predicate = op.predicate.value.data
    dtype = operand_dtype(op, 0, bits)
    lhs, rhs = as_array(args[0], dtype), as_array(args[1], dtype)
    if predicate in SIGNED_COMPARE:
        if dtype == np.bool_:
            lhs, rhs = sign_extended(lhs), sign_extended(rhs)
        return SIGNED_COMPARE[predicate](lhs, rhs)
    if dtype != np.bool_:
        unsigned = unsigned_dtype(op.operands[0].type, bits)
        lhs, rhs = lhs.view(unsigned), rhs.view(unsigned)
    return UNSIGNED_COMPARE[predicate](lhs, rhs)


FLOAT_COMPARE = {
    1: np.equal,
    2: np.greater,
    3: np.greater_equal,
    4: np.less,
    5: np.less_equal,
    6: np.not_equal,
}


def _cmpf(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    assert isinstance(op, arith.CmpfOp)
    predicate = op.predicate.value.data
    lhs, rhs = np.asarray(args[0]), np.asarray(args[1])
    unordered = np.isnan(lhs) | np.isnan(rhs)
    if predicate in (0, 15):
        return np.full(np.broadcast(lhs, rhs).shape, predicate == 15)
    if predicate == 7:
        return ~unordered
    if predicate == 14:
        return unordered
    if predicate in FLOAT_COMPARE:
        return FLOAT_COMPARE[predicate](lhs, rhs) & ~unordered
    return FLOAT_COMPARE[predicate - 7](lhs, rhs) | unordered


def constant_value(value: Attribute, dtype: np.dtype) -> np.ndarray:
    """The numpy value of an `arith.constant` attribute."""
    if isinstance(value, IntegerAttr):
        number = value.value.data
        if dtype == np.bool_:
            return np.asarray(number != 0)
        bits = dtype.itemsize * 8
        wrapped = (number + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
        return np.asarray(wrapped, dtype=dtype)
    if isinstance(value, FloatAttr):
        return as_array(value.value.data, dtype)
    if isinstance(value, DenseIntOrFPElementsAttr):
        return as_array(value.get_values(), dtype).reshape(value.get_shape())
    raise ModelError(f"constant {value} is not supported by the interpreter")


def _constant(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    assert isinstance(op, arith.ConstantOp)
    result_type = op.result.type
    element = getattr(result_type, "element_type", result_type)
    return constant_value(op.value, numpy_dtype(element, bits))


ARITH_KERNELS: dict[type[Operation], Kernel] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: binary(np.add),
    arith.SubiOp: binary(np.subtract),
    arith.MuliOp: binary(np.multiply),
    arith.AndIOp: binary(np.bitwise_and),
    arith.OrIOp: binary(np.bitwise_or),
    arith.XOrIOp: binary(np.bitwise_xor),
    arith.MaxSIOp: binary(np.maximum),
    arith.MinSIOp: binary(np.minimum),
    arith.MaxUIOp: unsigned_binary(np.maximum),
    arith.MinUIOp: unsigned_binary(np.minimum),
    arith.DivSIOp: _nonzero_divisor(binary(_div_toward_zero)),
    arith.RemSIOp: _nonzero_divisor(binary(np.fmod)),
    arith.FloorDivSIOp: _nonzero_divisor(binary(np.floor_divide)),
    arith.CeilDivSIOp: _nonzero_divisor(binary(ceil_div)),
    arith.DivUIOp: _nonzero_divisor(unsigned_binary(np.floor_divide)),
    arith.CeilDivUIOp: _nonzero_divisor(unsigned_binary(ceil_div)),
    arith.RemUIOp: _nonzero_divisor(unsigned_binary(np.remainder)),
    arith.ShLIOp: binary(np.left_shift),
    arith.ShRSIOp: binary(np.right_shift),
    arith.ShRUIOp: unsigned_binary(np.right_shift),
    arith.AddfOp: binary(np.add),
    arith.SubfOp: binary(np.subtract),
    arith.MulfOp: binary(np.multiply),
    arith.DivfOp: binary(np.divide),
    RemFOp: binary(np.fmod),
    arith.MaximumfOp: binary(MAXIMUMF),
    arith.MinimumfOp: binary(MINIMUMF),
    arith.MaxnumfOp: binary(maxnumf),
    arith.MinnumfOp: binary(minnumf),
    arith.NegfOp: unary(np.negative),
    arith.CmpiOp: _cmpi,  # built by xDSL's own builders
    CmpiOp: _cmpi,  # with the predicate checked: what memplan parses
    arith.CmpfOp: _cmpf,
    CmpfOp: _cmpf,
    arith.SelectOp: _select,
    arith.IndexCastOp: _sign_extend,
    arith.ExtSIOp: _sign_extend,
    arith.ExtUIOp: _cast_from_unsigned,
    arith.TruncIOp: _cast,  # built by xDSL's own builders
    TruncIOp: _cast,  # MLIR's, with overflowFlags: what memplan parses
    arith.SIToFPOp: _sign_extend,
    arith.UIToFPOp: _cast_from_unsigned,
    arith.FPToSIOp: _cast,
    arith.FPToUIOp: _float_to_unsigned,
    arith.ExtFOp: _cast,
    arith.TruncFOp: _cast,
    arith.BitcastOp: _bitcast,
}

KERNELS: dict[type[Operation], Kernel] = ARITH_KERNELS | MATH_KERNELS | CF_KERNELS
"""Every op the interpreter evaluates with numpy, scalar or vectorized."""


def evaluate(op: Operation, args: list[np.ndarray], index_bitwidth: int) -> np.ndarray:
    """Run `op`'s kernel on (possibly broadcast) arrays."""
    return KERNELS[type(op)](op, args, index_bitwidth)

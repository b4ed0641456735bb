"""numpy kernels for the math dialect.

Float ops compute in the result's dtype, as MLIR's lowering does; `erf` goes
through the C library's `erf` in double precision (numpy has none), and the
other transcendental functions of f16, bf16 and f32 compute in f64 and
round through f32 (`in_double`), as close as numpy gets to the C library's
f32 functions that MLIR's code calls, and the same on arrays and alone;
numpy's own f32 and f16 SIMD code is 1 ulp off them on up to 40 % of
inputs, and differs from CPU to CPU.  `fma`
rounds once (`fused_multiply_add`); `fpowi` multiplies by repeated squaring,
as LLVM's `powi` does.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from memplan.interpreter.element_types import unsigned_dtype
from memplan.interpreter.fused_multiply_add import fma
from memplan.interpreter.kernel_helpers import (
    Kernel,
    as_array,
    binary,
    operand_dtype,
    result_dtype,
    sign_extended,
    unary,
)

_erf = np.frompyfunc(pymath.erf, 1, 1)


def _erf_kernel(values: np.ndarray) -> np.ndarray:
    return np.asarray(_erf(values.astype(np.float64)), dtype=np.float64)


def in_double(ufunc: np.ufunc) -> Callable[..., np.ndarray]:
    """`ufunc` computed in f64 and rounded to its operands' float type."""

    def kernel(*values: np.ndarray) -> np.ndarray:
        dtype = np.result_type(*values)
        if dtype == np.float64:
            return ufunc(*values)
        wide = [np.asarray(v, np.float64) for v in values]
        return np.asarray(ufunc(*wide)).astype(np.float32).astype(dtype)

    return kernel


EXP = in_double(np.exp)
"""`math.exp` and `linalg.exp` (and softmax's exponential)."""
LOG = in_double(np.log)
"""`math.log` and `linalg.log`."""


def _rsqrt(values: np.ndarray) -> np.ndarray:
    return np.reciprocal(np.sqrt(values))


def _round_half_away(values: np.ndarray) -> np.ndarray:
    truncated = np.trunc(values)
    away = np.abs(values - truncated) >= 0.5
    return np.where(away, truncated + np.copysign(1, values), truncated)


def _fpowi(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """x ** n by binary powering (the first factor taken as it is, each
    product rounded to x's type), then 1 / that for a negative n: what LLVM
    expands `powi` to and what its runtime (`__powisf2`, `__powidf2`)
    computes, not the C library's `pow`."""
    dtype = result_dtype(op, bits)
    base = as_array(args[0], dtype)
    exponent_type = operand_dtype(op, 1, bits)
    exponent = as_array(args[1], exponent_type)
    if exponent_type == np.bool_:
        exponent = sign_extended(exponent)
    exponent = exponent.astype(np.int64)
    remaining = np.abs(exponent).view(np.uint64)
    power, square = np.ones_like(base), base
    started = np.zeros(remaining.shape, np.bool_)
    with np.errstate(all="ignore"):
        while True:
            bit = (remaining & 1) == 1
            product = np.where(started, power * square, square)
            power = np.where(bit, product, power).astype(dtype)
            started |= bit
            remaining = remaining >> np.uint64(1)
            if not remaining.any():
                break
            square = (square * square).astype(dtype)
        return np.where(exponent < 0, dtype.type(1) / power, power).astype(dtype)


def _ipowi(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """Integer power; a negative exponent gives 1/base**-e truncated, as MLIR."""
    dtype = result_dtype(op, bits)
    base, exponent = as_array(args[0], dtype), as_array(args[1], dtype)
    negative = exponent < 0
    positive_power = np.power(base, np.where(negative, 0, exponent))
    odd = (exponent % 2) != 0
    reciprocal = np.where(
        base == 1,
        1,
        np.where(base == -1, np.where(odd, -1, 1), 0),
    ).astype(dtype)
    return np.where(negative, reciprocal, positive_power)


def _fma(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    dtype = result_dtype(op, bits)
    a, b, c = (as_array(arg, dtype) for arg in args)
    return as_array(fma(a, b, c), dtype)


def _bit_count(kind: str) -> Kernel:
    """ctpop, ctlz or cttz on the operand's bits read as unsigned."""

    def kernel(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
        dtype = result_dtype(op, bits)
        unsigned = unsigned_dtype(op.results[0].type, bits)
        value = as_array(args[0], dtype).view(unsigned)
        width = unsigned.itemsize * 8
        if kind == "ctpop":
            return np.bitwise_count(value).astype(dtype)
        count = np.zeros(value.shape, dtype)
        still = np.ones(value.shape, np.bool_)
        order = range(width - 1, -1, -1) if kind == "ctlz" else range(width)
        for bit in order:
            still &= ((value >> unsigned.type(bit)) & unsigned.type(1)) == 0
            count += still.astype(dtype)
        return count

    return kernel


MATH_KERNELS: dict[type[Operation], Kernel] = {
    math.AbsFOp: unary(np.abs),
    math.AbsIOp: unary(np.abs),
    math.AcosOp: unary(in_double(np.arccos)),
    math.AcoshOp: unary(in_double(np.arccosh)),
    math.AsinOp: unary(in_double(np.arcsin)),
    math.AsinhOp: unary(in_double(np.arcsinh)),
    math.AtanOp: unary(in_double(np.arctan)),
    math.AtanhOp: unary(in_double(np.arctanh)),
    math.Atan2Op: binary(in_double(np.arctan2)),
    math.CbrtOp: unary(in_double(np.cbrt)),
    math.CeilOp: unary(np.ceil),
    math.CopySignOp: binary(np.copysign),
    math.CosOp: unary(in_double(np.cos)),
    math.CoshOp: unary(in_double(np.cosh)),
    math.CountLeadingZerosOp: _bit_count("ctlz"),
    math.CountTrailingZerosOp: _bit_count("cttz"),
    math.CtPopOp: _bit_count("ctpop"),
    math.ErfOp: unary(_erf_kernel),
    math.ExpOp: unary(EXP),
    math.Exp2Op: unary(in_double(np.exp2)),
    math.ExpM1Op: unary(in_double(np.expm1)),
    math.FloorOp: unary(np.floor),
    math.FmaOp: _fma,
    math.FPowIOp: _fpowi,
    math.IPowIOp: _ipowi,
    math.LogOp: unary(LOG),
    math.Log10Op: unary(in_double(np.log10)),
    math.Log1pOp: unary(in_double(np.log1p)),
    math.Log2Op: unary(in_double(np.log2)),
    math.PowFOp: binary(np.power),
    math.RoundOp: unary(_round_half_away),
    math.RoundEvenOp: unary(np.rint),
    math.RsqrtOp: unary(_rsqrt),
    math.SinOp: unary(in_double(np.sin)),
    math.SinhOp: unary(in_double(np.sinh)),
    math.SqrtOp: unary(np.sqrt),
    math.TanOp: unary(in_double(np.tan)),
    math.TanhOp: unary(in_double(np.tanh)),
    math.TruncOp: unary(np.trunc),
}
"""Every math op of xDSL's dialect, as a numpy kernel."""

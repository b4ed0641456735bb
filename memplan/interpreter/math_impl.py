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

With `--libm-math` (`libm.active()`) every function that MLIR's standard
lowering turns into a C library call calls it (`libm.call`: `expf` on f32,
`exp` on f64), and the ops that lowering expands itself compute its
expansion: `expm1` as exp(x) - 1, `log1p` as log(1 + x) (each step rounded
to the element type), `fpowi` of the exponent type's minimum as the power
of the maximum times x (`convert-math-to-funcs`).
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from functools import partial

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import Operation, OpResult, SSAValue

from memplan.interpreter import libm
from memplan.interpreter.element_types import numpy_dtype, unsigned_dtype
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


def either(
    default: Callable[..., np.ndarray], as_mlir: Callable[..., np.ndarray]
) -> Callable[..., np.ndarray]:
    """`default`, or `as_mlir` with `--libm-math` (asked on each call)."""

    def kernel(*values: np.ndarray) -> np.ndarray:
        return (as_mlir if libm.active() else default)(*values)

    return kernel


def c_function(
    name: str, default: Callable[..., np.ndarray]
) -> Callable[..., np.ndarray]:
    """`default`, or the C library's `name` with `--libm-math`."""
    return either(default, partial(libm.call, name))


def _expm1_expanded(values: np.ndarray) -> np.ndarray:
    """exp(x) - 1, as MLIR's lowering of `math.expm1`."""
    return libm.call("exp", values) - np.ones((), values.dtype)


def _log1p_expanded(values: np.ndarray) -> np.ndarray:
    """log(1 + x), as MLIR's lowering of `math.log1p`."""
    return libm.call("log", np.ones((), values.dtype) + values)


EXP = c_function("exp", in_double(np.exp))
"""`math.exp` and `linalg.exp` (and softmax's exponential)."""
LOG = c_function("log", in_double(np.log))
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
    computes, not the C library's `pow`.  With `--libm-math`, what
    `convert-math-to-funcs` makes of it, which differs at the exponent
    type's minimum only: x ** maximum, times x."""
    dtype = result_dtype(op, bits)
    base = as_array(args[0], dtype)
    exponent_type = operand_dtype(op, 1, bits)
    exponent = as_array(args[1], exponent_type)
    if exponent_type == np.bool_:
        exponent = sign_extended(exponent)
    minimum = (
        exponent == np.iinfo(exponent_type).min
        if libm.active() and exponent_type != np.bool_
        else np.zeros(exponent.shape, np.bool_)
    )
    exponent = exponent.astype(np.int64)
    remaining = np.where(minimum, -(exponent + 1), np.abs(exponent)).view(np.uint64)
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
        power = np.where(minimum, power * base, power).astype(dtype)
        return np.where(exponent < 0, dtype.type(1) / power, power).astype(dtype)


def _known_constant(value: SSAValue, bits: int) -> float | None:
    """The value LLVM's optimizer knows `value` to hold: an `arith.constant`
    float, through the `extf` / `truncf` it folds; None for any other."""
    casts: list[Operation] = []
    while isinstance(value, OpResult) and isinstance(
        value.op, arith.ExtFOp | arith.TruncFOp
    ):
        casts.append(value.op)
        value = value.op.operands[0]
    if not (
        isinstance(value, OpResult)
        and isinstance(value.op, arith.ConstantOp)
        and isinstance(value.op.value, FloatAttr)
    ):
        return None
    known = as_array(value.op.value.value.data, numpy_dtype(value.type, bits))
    for cast in reversed(casts):
        known = as_array(known, numpy_dtype(cast.results[0].type, bits))
    return float(known)


MAX_EXP2_POWER = 62
"""LLVM rewrites (2 ** n) ** y where 2 ** |n| fits a signed 64-bit integer."""


def _powf(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """numpy's `power`; with `--libm-math` the C library's `pow`, or what
    LLVM's optimizer (InstCombine, -O1 and up) makes of it when an operand
    is a constant it sees: x ** 1.0 is x, x ** 2.0 is x * x, x ** -1.0 is
    1 / x, x ** 0.5 is |sqrt(x)| (+inf at -inf), (2 ** n) ** y is
    exp2(n * y) for an integer n."""
    dtype = result_dtype(op, bits)
    base, exponent = as_array(args[0], dtype), as_array(args[1], dtype)
    if not libm.active():
        return np.power(base, exponent)
    known_exponent = _known_constant(op.operands[1], bits)
    if known_exponent == 1.0:
        return np.broadcast_arrays(base, exponent)[0].copy()
    if known_exponent == 2.0:
        return base * base
    if known_exponent == -1.0:
        return np.ones((), dtype) / base
    if known_exponent == 0.5:
        return np.where(base == -np.inf, np.inf, np.abs(np.sqrt(base))).astype(dtype)
    known_base = _known_constant(op.operands[0], bits)
    if known_base is not None and known_base > 0:
        log2 = pymath.log2(known_base)
        if log2.is_integer() and 0 < abs(log2) <= MAX_EXP2_POWER:
            return libm.call("exp2", exponent * np.asarray(log2, dtype))
    return libm.call("pow", base, exponent)


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
    math.AcosOp: unary(c_function("acos", in_double(np.arccos))),
    math.AcoshOp: unary(c_function("acosh", in_double(np.arccosh))),
    math.AsinOp: unary(c_function("asin", in_double(np.arcsin))),
    math.AsinhOp: unary(c_function("asinh", in_double(np.arcsinh))),
    math.AtanOp: unary(c_function("atan", in_double(np.arctan))),
    math.AtanhOp: unary(c_function("atanh", in_double(np.arctanh))),
    math.Atan2Op: binary(c_function("atan2", in_double(np.arctan2))),
    math.CbrtOp: unary(c_function("cbrt", in_double(np.cbrt))),
    math.CeilOp: unary(np.ceil),
    math.CopySignOp: binary(np.copysign),
    math.CosOp: unary(c_function("cos", in_double(np.cos))),
    math.CoshOp: unary(c_function("cosh", in_double(np.cosh))),
    math.CountLeadingZerosOp: _bit_count("ctlz"),
    math.CountTrailingZerosOp: _bit_count("cttz"),
    math.CtPopOp: _bit_count("ctpop"),
    math.ErfOp: unary(c_function("erf", _erf_kernel)),
    math.ExpOp: unary(EXP),
    math.Exp2Op: unary(c_function("exp2", in_double(np.exp2))),
    math.ExpM1Op: unary(either(in_double(np.expm1), _expm1_expanded)),
    math.FloorOp: unary(np.floor),
    math.FmaOp: _fma,
    math.FPowIOp: _fpowi,
    math.IPowIOp: _ipowi,
    math.LogOp: unary(LOG),
    math.Log10Op: unary(c_function("log10", in_double(np.log10))),
    math.Log1pOp: unary(either(in_double(np.log1p), _log1p_expanded)),
    math.Log2Op: unary(c_function("log2", in_double(np.log2))),
    math.PowFOp: _powf,
    math.RoundOp: unary(_round_half_away),
    math.RoundEvenOp: unary(np.rint),
    math.RsqrtOp: unary(_rsqrt),
    math.SinOp: unary(c_function("sin", in_double(np.sin))),
    math.SinhOp: unary(c_function("sinh", in_double(np.sinh))),
    math.SqrtOp: unary(np.sqrt),
    math.TanOp: unary(c_function("tan", in_double(np.tan))),
    math.TanhOp: unary(c_function("tanh", in_double(np.tanh))),
    math.TruncOp: unary(np.trunc),
}
"""Every math op of xDSL's dialect, as a numpy kernel."""

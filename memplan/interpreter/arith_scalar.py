"""Scalar arith in the interpreter: the kernels, or numpy's scalar operators
where they provably compute the kernel's value.

Scalar loop code runs millions of arith ops, and a kernel call converts each
operand to a 0-d array and looks up dtypes before its ufunc runs (several
microseconds).  A numpy scalar operator (`+`, `//`, `<`, a scalar type's
constructor) on operands that are numpy scalars of the op's type computes
the same value, of the same type, in a tenth of that, on the operands listed
per op below.  Python ints (`scf.for` induction variables) count as scalars
of an integer type when in its range: the kernel's conversion keeps them
exact there.  Any other operands go to the kernel, so its errors (a zero
divisor) and its edge cases (division overflow, shifts by the width or more,
NaN payloads, i1 arithmetic) stay what they were.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from memplan.dialects.arith import CmpfOp, CmpiOp, TruncIOp
from memplan.interpreter.arith_impl import (
    FLOAT_COMPARE,
    KERNELS,
    SIGNED_COMPARE,
    UNSIGNED_COMPARE,
    ceil_div,
    evaluate,
)
from memplan.interpreter.element_types import is_scalar_type, numpy_dtype
from memplan.interpreter.errors import ModelError
from memplan.interpreter.regions import Compiled, CompilingFunctions

Operator = Callable[[Any, Any], Any]
Domain = Callable[[Any, Any, int], bool]
"""(lhs, rhs, bit width) -> whether the operator gives the kernel's value."""

_COMPARISONS: dict[np.ufunc, Operator] = {
    np.equal: operator.eq,
    np.not_equal: operator.ne,
    np.less: operator.lt,
    np.less_equal: operator.le,
    np.greater: operator.gt,
    np.greater_equal: operator.ge,
}
"""numpy's scalar operator for each comparison ufunc of the kernels."""


def _naturals(lhs: Any, rhs: Any, width: int) -> bool:
    """Unsigned ops read these as signed ones do."""
    return lhs >= 0 and rhs >= 0


def _natural_by_positive(lhs: Any, rhs: Any, width: int) -> bool:
    """Divisions that truncate, floor or read unsigned agree on these."""
    return lhs >= 0 and rhs > 0


def _positive_divisor(lhs: Any, rhs: Any, width: int) -> bool:
    """No zero divisor (an error) and no overflow (INT_MIN by -1)."""
    return rhs > 0


def _shift(lhs: Any, rhs: Any, width: int) -> bool:
    return 0 <= rhs < width


def _natural_shift(lhs: Any, rhs: Any, width: int) -> bool:
    return lhs >= 0 and 0 <= rhs < width


_INTEGER_BINARY: dict[type[Operation], tuple[Operator, Domain | None]] = {
    arith.AddiOp: (operator.add, None),
    arith.SubiOp: (operator.sub, None),
    arith.MuliOp: (operator.mul, None),
    arith.AndIOp: (operator.and_, None),
    arith.OrIOp: (operator.or_, None),
    arith.XOrIOp: (operator.xor, None),
    arith.MaxSIOp: (max, None),
    arith.MinSIOp: (min, None),
    arith.MaxUIOp: (max, _naturals),
    arith.MinUIOp: (min, _naturals),
    arith.DivSIOp: (operator.floordiv, _natural_by_positive),
    arith.RemSIOp: (operator.mod, _natural_by_positive),
    arith.FloorDivSIOp: (operator.floordiv, _positive_divisor),
    arith.CeilDivSIOp: (ceil_div, _positive_divisor),
    arith.DivUIOp: (operator.floordiv, _natural_by_positive),
    arith.RemUIOp: (operator.mod, _natural_by_positive),
    arith.CeilDivUIOp: (ceil_div, _natural_by_positive),
    arith.ShLIOp: (operator.lshift, _shift),
    arith.ShRSIOp: (operator.rshift, _shift),
    arith.ShRUIOp: (operator.rshift, _natural_shift),
}
"""Integer ops as one operator on the operands of its domain (all when None).
`max` and `min` return one operand, which `np.maximum` and `np.minimum` copy."""
_BOOLEAN_BINARY = (arith.AndIOp, arith.OrIOp, arith.XOrIOp)
"""The ops above whose i1 kernels are the operators' (`+` and `-` are not)."""
_FLOAT_BINARY: dict[type[Operation], Operator] = {
    arith.AddfOp: operator.add,
    arith.SubfOp: operator.sub,
    arith.MulfOp: operator.mul,
    arith.DivfOp: operator.truediv,
}
"""Float ops whose scalar operators are one correctly rounded IEEE operation
in the operands' type, signed zeros alike.  Not the NaN they return from two
NaNs: C may swap the operands of an add, so NaN results go to the kernel."""
_FLOAT_TYPES = (np.float32, np.float64)

_CASTS = (
    arith.IndexCastOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.ExtFOp,
    arith.TruncFOp,
)
"""Casts, computed by the result type's constructor: on values it holds
exactly (an exact conversion has one result however it is computed), and
from float to float on all but NaNs (one C conversion, as the kernel's)."""
_FROM_UNSIGNED = (arith.ExtUIOp, arith.UIToFPOp, arith.FPToUIOp)
_FROM_SIGNED = (arith.ExtSIOp, arith.SIToFPOp, arith.IndexCastOp)


def _scalar_type(type_: Attribute, bits: int) -> type[Any] | None:
    """The numpy scalar type of values of `type_`, for integers and f32/f64."""
    if not is_scalar_type(type_):
        return None
    try:
        dtype = numpy_dtype(type_, bits)
    except ModelError:
        return None
    return dtype.type if dtype.kind in "bi" or dtype.type in _FLOAT_TYPES else None


def _range(scalar: type[np.generic]) -> tuple[int, int]:
    """[low, limit): the integers `scalar` holds exactly."""
    if scalar is np.bool_:
        return 0, 2
    if scalar in _FLOAT_TYPES:
        exact = 2 ** (np.finfo(scalar).nmant + 1)
        return -exact, exact + 1
    half = 1 << (np.dtype(scalar).itemsize * 8 - 1)
    return -half, half


def _converter(scalar: type[np.generic]) -> Callable[[object], Any]:
    """`value` as `scalar`, or None: Python ints of an integer type's range
    are what the kernel's conversion makes them."""
    low, limit = _range(scalar)
    accepts_int = scalar not in (np.bool_, *_FLOAT_TYPES)

    def convert(value: object) -> Any:
        if type(value) is scalar:
            return value
        if accepts_int and type(value) is int and low <= value < limit:
            return scalar(value)
        return None

    return convert


def _binary(
    operation: Operator,
    domain: Domain | None,
    scalar: type[np.generic],
    width: int,
    kernel: Compiled,
) -> Compiled:
    convert = _converter(scalar)

    def run(args: PythonValues) -> PythonValues:
        lhs, rhs = args
        if type(lhs) is not scalar:
            lhs = convert(lhs)
        if type(rhs) is not scalar:
            rhs = convert(rhs)
        if (
            lhs is None
            or rhs is None
            or (domain is not None and not domain(lhs, rhs, width))
        ):
            return kernel(args)
        return (operation(lhs, rhs),)

    return run


def _integer_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    operation, domain = _INTEGER_BINARY[type(op)]
    scalar = _scalar_type(op.results[0].type, bits)
    if scalar is None or scalar in _FLOAT_TYPES:
        return None
    if scalar is np.bool_ and not isinstance(op, _BOOLEAN_BINARY):
        return None
    width = np.dtype(scalar).itemsize * 8
    return _binary(operation, domain, scalar, width, kernel)


def _cmpi_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    assert isinstance(op, arith.CmpiOp)
    predicate = op.predicate.value.data
    scalar = _scalar_type(op.lhs.type, bits)
    if scalar is None:
        return None
    signed = SIGNED_COMPARE.get(predicate)
    if signed is not None:
        if scalar is np.bool_ and predicate > 1:
            return None  # i1 orders as signed: true (-1) is below false
        return _binary(_COMPARISONS[signed], None, scalar, 0, kernel)
    # i1 compares as it is; wider types compare their bits as unsigned.
    domain = None if scalar is np.bool_ else _naturals
    operation = _COMPARISONS[UNSIGNED_COMPARE[predicate]]
    return _binary(operation, domain, scalar, 0, kernel)


def _cmpf_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    """Without a NaN, a predicate and its unordered twin (`olt`, `ult`)
    compare alike, and `ord`, `uno`, `true`, `false` are constants."""
    assert isinstance(op, arith.CmpfOp)
    predicate = op.predicate.value.data
    scalar = _scalar_type(op.lhs.type, bits)
    if scalar not in _FLOAT_TYPES:
        return None
    ordered = FLOAT_COMPARE.get(predicate, FLOAT_COMPARE.get(predicate - 7))
    constant = np.bool_(predicate in (7, 15))
    operation = _COMPARISONS[ordered] if ordered is not None else None

    def run(args: PythonValues) -> PythonValues:
        lhs, rhs = args
        if type(lhs) is scalar and type(rhs) is scalar and lhs == lhs and rhs == rhs:
            return (constant if operation is None else operation(lhs, rhs),)
        return kernel(args)

    return run


def _select_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    scalar = _scalar_type(op.results[0].type, bits)
    if scalar is None:
        return None
    convert = _converter(scalar)

    def run(args: PythonValues) -> PythonValues:
        condition, lhs, rhs = args
        if type(condition) is np.bool_:
            if type(lhs) is not scalar:
                lhs = convert(lhs)
            if type(rhs) is not scalar:
                rhs = convert(rhs)
            if lhs is not None and rhs is not None:
                return (lhs if condition else rhs,)
        return kernel(args)

    return run


def _cast_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    source = _scalar_type(op.operands[0].type, bits)
    target = _scalar_type(op.results[0].type, bits)
    if source is None or target is None or target is np.bool_:
        return None
    if source is np.bool_ and isinstance(op, _FROM_SIGNED):
        return None  # i1 true reads as -1
    if source in _FLOAT_TYPES and target in _FLOAT_TYPES:
        return _float_cast(source, target, kernel)
    low, limit = _range(target)
    if source not in _FLOAT_TYPES:
        source_low, source_limit = _range(source)
        low, limit = max(low, source_low), min(limit, source_limit)
    if isinstance(op, _FROM_UNSIGNED):
        low = max(low, 0)
    accepts_int = source not in (np.bool_, *_FLOAT_TYPES)

    def run(args: PythonValues) -> PythonValues:
        (value,) = args
        if (type(value) is source or (accepts_int and type(value) is int)) and (
            low <= value < limit
        ):
            return (target(value),)
        return kernel(args)

    return run


def _float_cast(
    source: type[np.generic], target: type[np.generic], kernel: Compiled
) -> Compiled:
    def run(args: PythonValues) -> PythonValues:
        (value,) = args
        if type(value) is source and value == value:
            return (target(value),)
        return kernel(args)

    return run


def _constant_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    """A scalar constant's value, computed on its first run (numpy scalars
    are immutable: every run may return the same one)."""
    if not is_scalar_type(op.results[0].type):
        return None
    value: list[PythonValues] = []

    def run(args: PythonValues) -> PythonValues:
        if not value:
            value.append(kernel(args))
        return value[0]

    return run


def _float_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    scalar = _scalar_type(op.results[0].type, bits)
    if scalar not in _FLOAT_TYPES:
        return None
    operation = _FLOAT_BINARY[type(op)]

    def run(args: PythonValues) -> PythonValues:
        lhs, rhs = args
        if type(lhs) is scalar and type(rhs) is scalar:
            result = operation(lhs, rhs)
            if result == result:
                return (result,)
        return kernel(args)

    return run


def _negf_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    """`-x` flips the sign bit as `np.negative` does, of NaNs too."""
    scalar = _scalar_type(op.results[0].type, bits)
    if scalar not in _FLOAT_TYPES:
        return None

    def run(args: PythonValues) -> PythonValues:
        (value,) = args
        if type(value) is scalar:
            return (-value,)
        return kernel(args)

    return run


Builder = Callable[[Operation, int, Compiled], Compiled | None]
"""(op, index bitwidth, the op's kernel) -> its fast path, or None."""
_BUILDERS: dict[type[Operation], Builder] = {
    **dict.fromkeys(_INTEGER_BINARY, _integer_path),
    **dict.fromkeys(_FLOAT_BINARY, _float_path),
    **dict.fromkeys(_CASTS, _cast_path),
    arith.NegfOp: _negf_path,
    arith.CmpiOp: _cmpi_path,
    CmpiOp: _cmpi_path,
    arith.CmpfOp: _cmpf_path,
    CmpfOp: _cmpf_path,
    arith.SelectOp: _select_path,
    arith.ConstantOp: _constant_path,
}


def _scalar(value: np.ndarray) -> object:
    return value[()] if value.ndim == 0 else value


def _run_kernel(
    self: InterpreterFunctions,
    interpreter: Interpreter,
    op: Operation,
    args: PythonValues,
) -> PythonValues:
    arrays = [np.asarray(a) for a in args]
    result = evaluate(op, arrays, interpreter.index_bitwidth)
    return (_scalar(result),) if op.results else ()


def _run_select(
    self: InterpreterFunctions,
    interpreter: Interpreter,
    op: Operation,
    args: PythonValues,
) -> PythonValues:
    """A select of memrefs picks one of the tensors itself (a pointer), not a
    copy of its values."""
    if isinstance(op.results[0].type, MemRefType):
        return (args[1] if args[0] else args[2],)
    return _run_kernel(self, interpreter, op, args)


def fast_path(op: Operation, bits: int, kernel: Compiled) -> Compiled | None:
    """`op` on numpy scalars where that gives the value of `kernel` (its
    kernel, run on these operands), else through `kernel`; None when `op`
    has no fast path.  `bits`: the index bitwidth."""
    build = _BUILDERS.get(type(op))
    if build is None or not op.results:
        return None
    return build(op, bits, kernel)


def _compile(
    self: CompilingFunctions, interpreter: Interpreter, op: Operation
) -> Compiled | None:
    kernel = partial(_run_kernel, self, interpreter, op)
    return fast_path(op, interpreter.index_bitwidth, kernel)


NumpyArithFunctions = register_impls(
    type(
        "NumpyArithFunctions",
        (CompilingFunctions,),
        {
            "compile": _compile,
            **{
                f"run_{op_type.__name__}": impl(op_type)(
                    _run_select if op_type is arith.SelectOp else _run_kernel
                )
                for op_type in KERNELS
            },
        },
    )
)
"""Scalar arith, math and cf.assert through the same kernels as vectorized
bodies (or their fast paths); `arith.select` of memrefs picks a tensor."""

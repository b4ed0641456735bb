"""Scalar arith on numpy's scalar operators (`arith_scalar.py`) gives the
kernels' values bit for bit, their types and their errors, on every pair of
edge values: wrap-around, the integer minimum by -1, zero divisors, shifts
by the width, i1, NaNs, signed zeros, index at 32 and 64 bits, and Python
ints (induction variables) in and out of the type's range."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from interpreter_helpers import parse
from xdsl.dialects import arith, func
from xdsl.ir import Operation

from memplan.interpreter.arith_impl import evaluate
from memplan.interpreter.arith_scalar import fast_path
from memplan.interpreter.element_types import numpy_dtype

INTEGER_BINARY = [
    "addi",
    "subi",
    "muli",
    "andi",
    "ori",
    "xori",
    "maxsi",
    "minsi",
    "maxui",
    "minui",
    "divsi",
    "remsi",
    "floordivsi",
    "ceildivsi",
    "divui",
    "remui",
    "ceildivui",
    "shli",
    "shrsi",
    "shrui",
]
INTEGER_PREDICATES = arith.CMPI_COMPARISON_OPERATIONS
FLOAT_PREDICATES = arith.CMPF_COMPARISON_OPERATIONS
CASTS = [
    ("index_cast", "i32", "index"),
    ("index_cast", "index", "i32"),
    ("index_cast", "index", "i64"),
    ("extsi", "i8", "i32"),
    ("extsi", "i1", "i32"),
    ("extui", "i8", "i32"),
    ("extui", "i1", "i64"),
    ("trunci", "i64", "i8"),
    ("trunci", "i32", "i16"),
    ("sitofp", "i32", "f32"),
    ("sitofp", "i64", "f32"),
    ("sitofp", "i64", "f64"),
    ("uitofp", "i32", "f32"),
    ("fptosi", "f32", "i32"),
    ("fptosi", "f64", "i64"),
    ("fptosi", "f32", "i8"),
    ("fptoui", "f32", "i32"),
    ("extf", "f32", "f64"),
    ("truncf", "f64", "f32"),
]


def _integers(dtype: np.dtype) -> list[object]:
    """Edge values of an integer dtype, as its scalars; Python ints around
    and outside its range, as induction variables are; a scalar of another
    width, which the kernel converts."""
    if dtype == np.bool_:
        return [np.False_, np.True_]
    info = np.iinfo(dtype)
    width = dtype.itemsize * 8
    numbers = {0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, width - 1, width, width + 1}
    numbers |= {2**24 + 1, -(2**24) - 1, 2**53 + 1}  # round to f32, f64
    numbers |= {int(info.min), int(info.min) + 1, int(info.max), int(info.max) - 1}
    scalars: list[object] = [
        dtype.type(n) for n in sorted(numbers) if info.min <= n <= info.max
    ]
    outside = [int(info.max) + 1, int(info.min) - 1]
    other = np.int16(5) if dtype != np.int16 else np.int32(5)
    return [*scalars, 0, 5, -3, width, *outside, other]


def _floats(dtype: np.dtype) -> list[object]:
    """Signed zeros, infinities, NaNs with payloads and signs, subnormals,
    extremes, and values at the edges of exact integer conversion."""
    info = np.finfo(dtype)
    values = [0.0, -0.0, 1.0, -1.0, 2.5, -7.9, 127.5, -128.5, np.inf, -np.inf]
    values += [float(info.max), -float(info.max), float(info.smallest_subnormal)]
    values += [
        2.0**24,
        2.0**24 + 2,
        2.0**31,
        -(2.0**31),
        2.0**63,
        3.4028235677973366e38,
    ]
    bits = np.array([np.nan, np.nan], dtype).view(f"u{dtype.itemsize}")
    bits |= np.array([5, 9], bits.dtype)
    bits[1] |= np.array(1, bits.dtype) << (8 * dtype.itemsize - 1)
    with np.errstate(over="ignore"):
        scalars = [dtype.type(v) for v in values]
    return [*scalars, *bits.view(dtype), np.float16(1.5)]


def _values(type_name: str, bits: int) -> list[object]:
    dtype = numpy_dtype(parse_type(type_name), bits)
    return _floats(dtype) if dtype.kind == "f" else _integers(dtype)


def parse_type(name: str):
    module = parse(f"func.func private @f(%a: {name})")
    op = module.body.block.first_op
    assert isinstance(op, func.FuncOp)
    return op.function_type.inputs.data[0]


def _op(text: str, types: Sequence[str]) -> Operation:
    """The one op of `text`, whose operands are %a, %b, %c of `types`."""
    names = ", ".join(f"%{n}: {t}" for n, t in zip("abc", types, strict=False))
    module = parse(f"func.func @f({names}) {{\n  {text}\n  func.return\n}}")
    function = module.body.block.first_op
    assert isinstance(function, func.FuncOp)
    op = function.body.block.first_op
    assert op is not None
    return op


def _outcome(run, args: tuple[object, ...]) -> tuple[object, ...]:
    """The value's type and bytes, or the error's type and words."""
    try:
        with np.errstate(all="ignore"):
            (value,) = run(args)
    except Exception as error:
        return type(error), str(error)
    return type(value), np.asarray(value).tobytes()


def _compare(op: Operation, bits: int, operands: list[list[object]]) -> int:
    """Run the op's fast path and its kernel on every combination of
    `operands`; returns how many the fast path computed itself (none when
    the op has no fast path)."""

    def kernel(args: tuple[object, ...]) -> tuple[object, ...]:
        return (evaluate(op, [np.asarray(a) for a in args], bits)[()],)

    fallbacks: list[tuple[object, ...]] = []
    fast = fast_path(op, bits, lambda args: fallbacks.append(args) or kernel(args))
    if fast is None:
        return 0
    mismatches = []
    combinations = list(itertools.product(*operands))
    for args in combinations:
        expected = _outcome(kernel, args)
        actual = _outcome(fast, args)
        if actual != expected:
            mismatches.append((args, expected, actual))
    assert not mismatches, (
        f"{op.name}: {len(mismatches)} mismatches, e.g. {mismatches[:3]}"
    )
    return len(combinations) - len(fallbacks)


TYPES = [("i8", 64), ("i32", 64), ("i64", 64), ("index", 64), ("index", 32)]


@pytest.mark.parametrize("name", INTEGER_BINARY)
@pytest.mark.parametrize("type_name, bits", [("i1", 64), *TYPES])
def test_integer_fast_paths_give_the_kernels_bits(name: str, type_name: str, bits: int):
    """i1 has fast paths for andi, ori and xori only: numpy's `-` refuses
    bools, and its `+` on them is an or."""
    op = _op(f"%r = arith.{name} %a, %b : {type_name}", [type_name] * 2)
    values = _values(type_name, bits)
    logic = name in ("andi", "ori", "xori")
    assert (_compare(op, bits, [values, values]) > 0) == (type_name != "i1" or logic)


@pytest.mark.parametrize("predicate", INTEGER_PREDICATES)
@pytest.mark.parametrize("type_name, bits", [("i1", 64), *TYPES])
def test_cmpi_fast_paths_give_the_kernels_bits(
    predicate: str, type_name: str, bits: int
):
    op = _op(f"%r = arith.cmpi {predicate}, %a, %b : {type_name}", [type_name] * 2)
    values = _values(type_name, bits)
    # i1 orders as signed (true is -1) through the kernel only.
    signed_order = predicate in ("slt", "sle", "sgt", "sge")
    fast = _compare(op, bits, [values, values])
    assert (fast > 0) == (type_name != "i1" or not signed_order)


@pytest.mark.parametrize("predicate", FLOAT_PREDICATES)
@pytest.mark.parametrize("type_name", ["f32", "f64"])
def test_cmpf_fast_paths_give_the_kernels_bits(predicate: str, type_name: str):
    op = _op(f"%r = arith.cmpf {predicate}, %a, %b : {type_name}", [type_name] * 2)
    values = _values(type_name, 64)
    assert _compare(op, 64, [values, values]) > 0


@pytest.mark.parametrize("name", ["addf", "subf", "mulf", "divf"])
@pytest.mark.parametrize("type_name", ["f32", "f64"])
def test_float_fast_paths_give_the_kernels_bits(name: str, type_name: str):
    op = _op(f"%r = arith.{name} %a, %b : {type_name}", [type_name] * 2)
    values = _values(type_name, 64)
    assert _compare(op, 64, [values, values]) > 0


@pytest.mark.parametrize("type_name", ["f32", "f64"])
def test_negf_fast_path_gives_the_kernels_bits(type_name: str):
    op = _op(f"%r = arith.negf %a : {type_name}", [type_name])
    assert _compare(op, 64, [_values(type_name, 64)]) > 0


@pytest.mark.parametrize("type_name, bits", [("i1", 64), ("f32", 64), *TYPES])
def test_select_fast_path_gives_the_kernels_bits(type_name: str, bits: int):
    op = _op(f"%r = arith.select %c, %a, %b : {type_name}", [type_name] * 2 + ["i1"])
    values = _values(type_name, bits)
    conditions = [np.False_, np.True_, 1]
    assert _compare(op, bits, [conditions, values[:12], values[-6:]]) > 0


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize("name, source, target", CASTS)
def test_cast_fast_paths_give_the_kernels_bits(
    name: str, source: str, target: str, bits: int
):
    """No fast path sign-extends i1 (to -1): the kernel does."""
    op = _op(f"%r = arith.{name} %a : {source} to {target}", [source])
    sign_extends_i1 = (name, source) == ("extsi", "i1")
    assert (_compare(op, bits, [_values(source, bits)]) > 0) != sign_extends_i1


TYPICAL: dict[str, Any] = {
    "i1": np.True_,
    "i8": np.int8(6),
    "i32": np.int32(6),
    "i64": np.int64(6),
    "index": 6,
    "f32": np.float32(2.5),
    "f64": np.float64(2.5),
}
"""An operand of each type as scalar loop code has them (an induction
variable for index)."""


def _typical_cases() -> list[tuple[str, list[str], tuple[object, ...]]]:
    """(op, operand types, operands) for every fast path."""
    cases: list[tuple[str, list[str], tuple[object, ...]]] = [
        (f"%r = arith.{name} %a, %b : {t}", [t, t], (TYPICAL[t], TYPICAL[t] - 2))
        for name in INTEGER_BINARY
        for t in ("i32", "index")
    ]
    cases += [
        (f"%r = arith.cmpi {p}, %a, %b : {t}", [t, t], (TYPICAL[t], TYPICAL[t]))
        for p in INTEGER_PREDICATES
        for t in ("i1", "index")
        if (t, p[0]) != ("i1", "s")  # i1 orders as signed in the kernel only
    ]
    cases += [
        (
            f"%r = arith.cmpf {p}, %a, %b : f32",
            ["f32"] * 2,
            (np.float32(-0.0), TYPICAL["f32"]),
        )
        for p in FLOAT_PREDICATES
    ]
    cases += [
        (
            f"%r = arith.{name} %a, %b : f64",
            ["f64"] * 2,
            (TYPICAL["f64"], TYPICAL["f64"]),
        )
        for name in ("addf", "subf", "mulf", "divf")
    ]
    cases += [
        (f"%r = arith.{name} %a : {source} to {target}", [source], (TYPICAL[source],))
        for name, source, target in CASTS
        if source != "i1" or name not in ("extsi", "sitofp", "index_cast")
    ]
    cases += [
        (
            f"%r = arith.select %c, %a, %b : {t}",
            [t, t, "i1"],
            (np.True_, TYPICAL[t], TYPICAL[t]),
        )
        for t in ("index", "f32", "i1")
    ]
    cases += [("%r = arith.negf %a : f32", ["f32"], (TYPICAL["f32"],))]
    cases += [
        (f"%r = arith.{name} %a, %b : i1", ["i1"] * 2, (np.True_, np.False_))
        for name in ("andi", "ori", "xori")
    ]
    return cases


@pytest.mark.parametrize("text, types, args", _typical_cases())
def test_typical_operands_take_the_fast_path(
    text: str, types: list[str], args: tuple[object, ...]
):
    """Not one of these may fall back to the kernel: that would leave scalar
    loop code as slow as before, with every result still right."""
    op = _op(text, types)
    assert _compare(op, 64, [[arg] for arg in args]) == 1

"""Loop nests of scalar code run on whole arrays (`loop_vectorize.py`) give
what the op-by-op run gives: results bit for bit, every statistic, the
modeled cycles and the first error, word for word."""

from __future__ import annotations

from dataclasses import dataclass
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interpreter_helpers import parse
from stable_strategies import one_of_values

from memplan.interpreter import InterpretationError, loop_vectorize
from memplan.interpreter.cost import with_cost_overrides
from memplan.interpreter.element_types import BF16
from memplan.interpreter.loop_vectorize import SCALAR_LOOPS_ENV
from memplan.interpreter.runner import Runner
from memplan.targets import Target, get_target

Outcome = tuple[object, ...]


@pytest.fixture(autouse=True)
def small_nests(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' nests are small: run them on arrays however few their ops
    (a speed threshold, not a condition of correctness)."""
    monkeypatch.setattr(loop_vectorize, "MIN_OPS", 1)


@dataclass(frozen=True)
class Case:
    text: str
    shapes: tuple[tuple[int, ...], ...]
    dtype: str
    same_array: bool
    """Arguments 0 and 1 are one array (they alias)."""
    seed: int
    uninitialized: bool
    bits: int
    costly: bool
    """A cost model whose cycles are not multiples of a power of two."""


def _target(costly: bool) -> Target:
    target = get_target()
    if not costly:
        return target
    return with_cost_overrides(
        target, {"scopes": {"global": {"bytes_per_cycle": 3}}}, set()
    )


def _arguments(case: Case) -> list[np.ndarray]:
    rng = np.random.default_rng(case.seed)
    arrays = []
    for shape in case.shapes:
        if case.dtype == "f32":
            values = rng.choice(
                np.array([0.0, -0.0, 1.5, -2.25, 3.0, np.inf, np.nan, 1e30], "f4"),
                size=shape,
            )
        elif case.dtype in ("f16", "bf16"):
            values = (rng.standard_normal(shape) * 100).astype(
                ELEMENT_DTYPES[case.dtype]
            )
        else:
            values = rng.integers(-3, 4, size=shape, dtype="i4")
            values.flat[:: max(1, values.size // 2)] = np.iinfo("i4").max
        arrays.append(np.ascontiguousarray(values))
    if case.same_array:
        arrays[1] = arrays[0]
    return arrays


def run(case: Case, vectorize: bool) -> tuple[Outcome, int]:
    """(the arguments' bytes after the run with its statistics, or the
    error; how many nests ran on whole arrays)."""
    runner = Runner(
        parse(case.text),
        _target(case.costly),
        index_bitwidth=32 if case.bits == 32 else 64,
        check_uninitialized=case.uninitialized,
        vectorize_loops=vectorize,
    )
    arrays = _arguments(case)
    runs = lambda: runner.vectorizer.nests_run if runner.vectorizer else 0  # noqa: E731
    try:
        result = runner.run("main", arrays)
    except InterpretationError as error:
        return ("error", str(error), [a.tobytes() for a in arrays]), runs()
    return ([a.tobytes() for a in arrays], result.stats.to_json()), runs()


ELEMENT = {"f32": "f32", "f16": "f16", "bf16": "bf16", "i32": "i32"}
ELEMENT_DTYPES = {"f16": np.dtype(np.float16), "bf16": BF16}
FLOAT_OPS = ("addf", "subf", "mulf", "divf", "maximumf")
INTEGER_OPS = ("addi", "subi", "muli", "divsi", "remsi", "maxsi", "floordivsi")
FLOAT_MATH = ("exp", "tanh", "erf", "sqrt", "rsqrt", "log", "absf", "round", "floor")
FLOAT_MATH += ("sin", "atan", "log10", "powf", "fma", "copysign", "atan2")
"""What GELU, softmax, sigmoid and layer norm bodies hold, and ops kept op
by op (on every type, or on f16 only)."""
INTEGER_MATH = ("absi", "ctpop", "ctlz", "cttz", "ipowi")
MATH_ARITY = {"powf": 2, "copysign": 2, "atan2": 2, "ipowi": 2, "fma": 3}
SHAPES = ((12,), (5, 6), (16,), (3, 4))


def _memref_type(shape: tuple[int, ...], element: str, layout: str = "") -> str:
    return f"memref<{'x'.join(map(str, shape))}x{element}{layout}>"


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A function of one or two perfect loop nests (scf or affine) over
    argument memrefs, a view of one of them and a fresh buffer: loads and
    stores at affine indices (out of bounds too, and repeated by several
    iterations), arith and math on the loaded values and on induction
    variables."""
    dtype = draw(one_of_values(tuple(ELEMENT)))
    element = ELEMENT[dtype]
    shapes = tuple(draw(one_of_values(SHAPES)) for _ in range(draw(st.integers(1, 2))))
    same_array = len(shapes) == 2 and shapes[0] == shapes[1] and draw(st.booleans())
    memrefs = [
        (f"%m{i}", shape, _memref_type(shape, element))
        for i, shape in enumerate(shapes)
    ]
    args = ", ".join(f"{name}: {type_}" for name, _, type_ in memrefs)
    lines = [f"func.func @main({args}) {{"]
    lines += [f"  %c{k} = arith.constant {k} : index" for k in range(9)]
    constant = "1.5" if element != "i32" else "3"
    lines.append(f"  %k = arith.constant {constant} : {element}")
    if len(shapes[0]) == 1 and draw(st.booleans()):
        view = _memref_type((4,), element, ", strided<[1], offset: 1>")
        lines.append(
            f"  %view = memref.subview %m0[1] [4] [1] : {memrefs[0][2]} to {view}"
        )
        memrefs.append(("%view", (4,), view))
    fresh = draw(st.booleans())
    if fresh:
        lines.append(f"  %t = memref.alloc() : {_memref_type((5,), element)}")
        memrefs.append(("%t", (5,), _memref_type((5,), element)))
    nests = draw(st.integers(1, 2))
    for nest in range(nests):
        lines += _nest(draw, nest, memrefs, element)
        if fresh and nest == 0 and nests == 2 and draw(st.booleans()):
            lines.append("  memref.dealloc %t : " + _memref_type((5,), element))
    lines += ["  func.return", "}"]
    return Case(
        "\n".join(lines),
        shapes,
        dtype,
        same_array,
        draw(st.integers(0, 2**16)),
        draw(st.booleans()),
        draw(one_of_values((64, 32))),
        draw(st.booleans()),
    )


def _nest(
    draw: st.DrawFn,
    nest: int,
    memrefs: list[tuple[str, tuple[int, ...], str]],
    element: str,
) -> list[str]:
    affine_form = draw(st.booleans())
    depth = draw(st.integers(1, 3))
    ivs = [f"%i{nest}_{level}" for level in range(depth)]
    lines: list[str] = []
    for level, iv in enumerate(ivs):
        low, high = draw(st.integers(0, 1)), draw(one_of_values((4, 5, 3, 0, 6)))
        step = draw(one_of_values((1, 1, 2)))
        pad = "  " * (level + 1)
        if affine_form:
            lines.append(f"{pad}affine.for {iv} = {low} to {high} step {step} {{")
        elif draw(st.booleans()):
            # Bounds defined in the enclosing body, as lower-affine leaves them.
            bounds = [f"{iv}_{part}" for part in ("low", "high", "step")]
            for name, value in zip(bounds, (low, high, step), strict=True):
                lines.append(f"{pad}{name} = arith.constant {value} : index")
            lower, upper, stride = bounds
            lines.append(f"{pad}scf.for {iv} = {lower} to {upper} step {stride} {{")
        else:
            lines.append(f"{pad}scf.for {iv} = %c{low} to %c{high} step %c{step} {{")
    pad = "  " * (depth + 1)
    dims = ", ".join(f"d{level}" for level in range(depth))
    iv_list = ", ".join(ivs)
    index_types = ", ".join(["index"] * depth)
    values = ["%k"]
    for position in range(draw(st.integers(1, 8))):
        name = f"%v{nest}_{position}"
        kind = draw(
            one_of_values(("load", "store", "arith", "iv", "load", "store", "math"))
        )
        if kind in ("load", "store"):
            memref_name, shape, type_ = draw(one_of_values(memrefs))
            exprs = []
            for size in shape:
                terms = [
                    f"d{level} * {draw(one_of_values((1, 0, 0, 2)))}"
                    for level in range(depth)
                ]
                offset = draw(one_of_values((0, 1, -1, 2)))
                expr = " + ".join([*terms, str(offset)])
                # In bounds, so that stores and loads meet often.
                exprs.append(f"({expr}) mod {size}" if draw(st.booleans()) else expr)
            access = f"affine_map<({dims}) -> ({', '.join(exprs)})>"
            if affine_form:
                if kind == "load":
                    lines.append(
                        f'{pad}{name} = "affine.load"({memref_name}, {iv_list}) '
                        f"<{{map = {access}}}> : ({type_}, {index_types}) -> {element}"
                    )
                    values.append(name)
                else:
                    value = draw(one_of_values(values[::-1]))
                    lines.append(
                        f'{pad}"affine.store"({value}, {memref_name}, {iv_list}) '
                        f"<{{map = {access}}}> : "
                        f"({element}, {type_}, {index_types}) -> ()"
                    )
                continue
            indices = []
            for axis, expr in enumerate(exprs):
                index = f"{name}_a{axis}"
                lines.append(
                    f"{pad}{index} = affine.apply affine_map<({dims}) -> ({expr})>"
                    f"({iv_list})"
                )
                indices.append(index)
            where = f"{memref_name}[{', '.join(indices)}] : {type_}"
            if kind == "load":
                lines.append(f"{pad}{name} = memref.load {where}")
                values.append(name)
            else:
                lines.append(
                    f"{pad}memref.store {draw(one_of_values(values[::-1]))}, {where}"
                )
        elif kind == "arith":
            ops = INTEGER_OPS if element == "i32" else FLOAT_OPS
            op = draw(one_of_values(ops))
            lhs = draw(one_of_values(values[::-1]))
            rhs = draw(one_of_values(values))
            lines.append(f"{pad}{name} = arith.{op} {lhs}, {rhs} : {element}")
            values.append(name)
        elif kind == "math":
            op = draw(one_of_values(INTEGER_MATH if element == "i32" else FLOAT_MATH))
            operands = ", ".join(
                draw(one_of_values(values[::-1])) for _ in range(MATH_ARITY.get(op, 1))
            )
            lines.append(f"{pad}{name} = math.{op} {operands} : {element}")
            values.append(name)
        else:
            iv = draw(one_of_values(ivs))
            lines.append(f"{pad}{name}_i = arith.index_cast {iv} : index to i32")
            if element == "i32":
                lines.append(f"{pad}{name} = arith.muli {name}_i, {name}_i : i32")
            else:
                lines.append(f"{pad}{name} = arith.sitofp {name}_i : i32 to {element}")
            values.append(name)
    for level in reversed(range(depth)):
        lines.append("  " * (level + 1) + "}")
    return lines


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(cases())
def test_a_vectorized_nest_gives_what_the_scalar_run_gives(case: Case):
    """Results, statistics, modeled cycles and errors, whether a nest ran on
    whole arrays or fell back (a dependence, an error, an unwritten read)."""
    with patch.object(loop_vectorize, "MIN_POINTS_PER_STEP", 1):
        vectorized, _ = run(case, vectorize=True)
    scalar, _ = run(case, vectorize=False)
    assert vectorized == scalar, case.text


ALL_FLOAT_MATH = ("absf", "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2")
ALL_FLOAT_MATH += ("cbrt", "ceil", "copysign", "cos", "cosh", "erf", "exp", "exp2")
ALL_FLOAT_MATH += ("expm1", "floor", "fma", "log", "log10", "log1p", "log2", "powf")
ALL_FLOAT_MATH += ("round", "roundeven", "rsqrt", "sin", "sinh", "sqrt", "tan")
ALL_FLOAT_MATH += ("tanh", "trunc")
"""Every float math op of one type (`fpowi` takes an integer)."""
FLOAT_DTYPES = {
    "f16": np.dtype(np.float16),
    "bf16": BF16,
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}


@dataclass(frozen=True)
class MathCase:
    text: str
    arrays: tuple[np.ndarray, ...]


def _float_values(rng: np.random.Generator, dtype: np.dtype, size: int) -> np.ndarray:
    """Normal values at some scale, NaNs (quiet and signaling, both signs),
    infinities, zeros, the exponents `np.power` special-cases and random
    bit patterns."""
    unsigned = np.dtype(f"u{dtype.itemsize}")
    scale = rng.choice(np.asarray([1e-3, 1.0, 4.0, 100.0]))
    values = (rng.standard_normal(size) * scale).astype(dtype)
    special = rng.random(size) < 0.3
    nan = np.asarray(np.nan, dtype).view(unsigned)
    bits = np.concatenate(
        (
            np.asarray([nan, nan | 1, (nan ^ (nan >> 1)) | 1], unsigned),
            np.asarray([0.0, -0.0, np.inf, -np.inf], dtype).view(unsigned),
            rng.integers(0, np.iinfo(unsigned).max, 4, unsigned, endpoint=True),
        )
    )
    signs = rng.choice(np.asarray([0, 1 << (dtype.itemsize * 8 - 1)], unsigned), size)
    chosen = (rng.choice(bits, size) | signs).astype(unsigned).view(dtype)
    exponents = rng.choice(np.asarray([0.5, 2.0, 3.0], dtype), size)
    return np.where(
        special, chosen, np.where(rng.random(size) < 0.2, exponents, values)
    )


@st.composite
def math_cases(draw: st.DrawFn) -> MathCase:
    """One loop over two arrays of floats: math ops (every one, those kept
    op by op too), the first on their elements, the others on any earlier
    value and the induction variable, each stored to a row of a third array."""
    element = draw(one_of_values(tuple(FLOAT_DTYPES)))
    size = draw(one_of_values((4, 9, 17, 40, 100)))
    count = draw(st.integers(1, 4))
    type_ = _memref_type((size,), element)
    out_type = _memref_type((count, size), element)
    lines = [f"func.func @main(%a: {type_}, %b: {type_}, %out: {out_type}) {{"]
    lines += [f"  %c{k} = arith.constant {k} : index" for k in range(count)]
    lines += [
        "  %one = arith.constant 1 : index",
        f"  %n = arith.constant {size} : index",
        "  scf.for %i = %c0 to %n step %one {",
        f"    %x = memref.load %a[%i] : {type_}",
        f"    %y = memref.load %b[%i] : {type_}",
        "    %ii = arith.index_cast %i : index to i32",
        f"    %z = arith.sitofp %ii : i32 to {element}",
    ]
    values = ["%x", "%y"]
    for position in range(count):
        op = draw(one_of_values(ALL_FLOAT_MATH))
        operands = ", ".join(
            draw(one_of_values(values[::-1])) for _ in range(MATH_ARITY.get(op, 1))
        )
        lines.append(f"    %v{position} = math.{op} {operands} : {element}")
        lines.append(
            f"    memref.store %v{position}, %out[%c{position}, %i] : {out_type}"
        )
        values += [f"%v{position}", "%z"][: 1 + (position == 0)]
    lines += ["  }", "  func.return", "}"]
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    dtype = FLOAT_DTYPES[element]
    arrays = tuple(_float_values(rng, dtype, size) for _ in range(2))
    return MathCase("\n".join(lines), (*arrays, np.zeros((count, size), dtype)))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(math_cases())
def test_a_nest_of_math_ops_gives_the_bits_of_the_scalar_run(case: MathCase):
    """Every math op on every float type: those whose kernels agree on
    arrays run there, the others keep the nest op by op; the bits, the
    statistics and any error are the scalar run's."""
    _, runs = _both(case.text, *case.arrays)
    agree = all(
        loop_vectorize._agrees_on_arrays(op)  # pyright: ignore[reportPrivateUsage]
        for op in parse(case.text).walk()
        if op.name.startswith("math.")
    )
    assert runs == agree


def _math_nest(op: str, element: str, size: int) -> str:
    """`out[i] = math.op(a[i], b[i], c[i])` over `size` points."""
    type_ = _memref_type((size,), element)
    names = ["%x", "%y", "%w"][: MATH_ARITY.get(op, 1)]
    loads = "\n".join(
        f"    {name} = memref.load %{arg}[%i] : {type_}"
        for name, arg in zip(names, "abc", strict=False)
    )
    return f"""
func.func @main(%a: {type_}, %b: {type_}, %c: {type_}, %out: {type_}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  scf.for %i = %c0 to %n step %c1 {{
{loads}
    %r = math.{op} {", ".join(names)} : {element}
    memref.store %r, %out[%i] : {type_}
  }}
  func.return
}}
"""


def test_powf_keeps_its_nests_op_by_op_and_fma_and_fpowi_run_on_arrays():
    """On arrays `np.power` of arrays is not its one-element self (x ** 0.5
    1 ulp apart on f32): such nests run op by op, giving the scalar bits.
    `fma` and `fpowi` choose their NaNs and products themselves, so their
    nests run on arrays, with the bits of one element, NaNs of both kinds
    included."""
    rng = np.random.default_rng(0)
    base = (rng.standard_normal(100) * 4).astype(np.float32)
    half = np.full(100, 0.5, np.float32)
    out = np.zeros(100, np.float32)
    assert _both(_math_nest("powf", "f32", 100), base, half, half, out)[1] == 0
    signaling = np.full(100, 0x7F800001, np.uint32).view(np.float32)
    quiet = np.full(100, np.nan, np.float32)
    assert _both(_math_nest("fma", "f32", 100), base, signaling, quiet, out)[1] == 1
    fpowi = _math_nest("powf", "f32", 100).replace(
        "%r = math.powf %x, %y : f32",
        "%e = arith.fptosi %y : f32 to i32\n    %r = math.fpowi %x, %e : f32, i32",
    )
    exponents = rng.integers(-9, 9, 100).astype(np.float32)
    assert _both(fpowi, signaling, exponents, half, out)[1] == 1
    assert _both(fpowi, base, exponents, half, out)[1] == 1
    assert _both(_math_nest("exp", "f32", 100), base, half, half, out)[1] == 1


@pytest.mark.parametrize("op", ["addf", "mulf"])
def test_two_nans_meeting_in_addf_or_mulf_keep_the_nest_op_by_op(op: str):
    """Of two NaNs, numpy's SIMD add and multiply keep the second on arrays
    of 17 or more elements, the one-element loop the first: a nest where
    that happens runs op by op (its stores undone), one where it does not
    runs on arrays."""
    nest = _math_nest("powf", "f32", 100).replace("math.powf", f"arith.{op}")
    first = np.full(100, 0x7FC00001, np.uint32).view(np.float32)
    second = np.full(100, 0x7FC00002, np.uint32).view(np.float32)
    numbers = np.linspace(-3, 3, 100, dtype=np.float32)
    out = np.zeros(100, np.float32)
    outcome, runs = _both(nest, first, second, second, out)
    assert runs == 0
    assert isinstance(outcome[0], list)
    assert set(np.frombuffer(outcome[0][3], np.uint32)) == {0x7FC00001}
    assert _both(nest, numbers, second, second, out)[1] == 1


@st.composite
def dependent_cases(draw: st.DrawFn) -> Case:
    """One or two loops that load, add and store elements of one array at
    indices `(a * i + b * j + c) mod 8`: in bounds, and meeting elements
    other iterations store, or the same, as often as not."""
    element = draw(one_of_values(("i32", "f32")))
    type_ = _memref_type((8,), element)
    depth = draw(st.integers(1, 2))
    ivs = ["%i", "%j"][:depth]
    lines = [f"func.func @main(%m0: {type_}, %m1: {type_}) {{"]
    for level, iv in enumerate(ivs):
        trips = draw(st.integers(1, 6))
        lines.append(f"{'  ' * (level + 1)}affine.for {iv} = 0 to {trips} {{")
    pad = "  " * (depth + 1)
    dims = ", ".join(f"d{level}" for level in range(depth))
    values: list[str] = []
    for position in range(draw(st.integers(2, 5))):
        terms = [f"d{level} * {draw(st.integers(0, 3))}" for level in range(depth)]
        index = f"({' + '.join([*terms, str(draw(st.integers(0, 7)))])}) mod 8"
        access = f"affine_map<({dims}) -> ({index})>"
        memref_name = draw(one_of_values(("%m0", "%m1")))
        operands = f"{memref_name}, {', '.join(ivs)}"
        index_types = ", ".join(["index"] * depth)
        if values and draw(st.booleans()):
            value = f"%s{position}"
            add = "addi" if element == "i32" else "addf"
            lines.append(
                f"{pad}{value} = arith.{add} {values[-1]}, {values[0]} : {element}"
            )
            lines.append(
                f'{pad}"affine.store"({value}, {operands}) <{{map = {access}}}> : '
                f"({element}, {type_}, {index_types}) -> ()"
            )
        else:
            value = f"%l{position}"
            lines.append(
                f'{pad}{value} = "affine.load"({operands}) <{{map = {access}}}> : '
                f"({type_}, {index_types}) -> {element}"
            )
        values.append(value)
    lines += [f"{'  ' * (level + 1)}}}" for level in reversed(range(depth))]
    lines += ["  func.return", "}"]
    dtype = "f32" if element == "f32" else "i32"
    return Case(
        "\n".join(lines),
        ((8,), (8,)),
        dtype,
        draw(st.booleans()),
        draw(st.integers(0, 2**16)),
        False,
        64,
        False,
    )


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(dependent_cases())
def test_a_nest_with_dependences_between_iterations_gives_the_scalar_values(
    case: Case,
):
    """Elements read and written by several iterations, in one array or two
    that alias: the nest runs in steps only in the order the loops give."""
    with patch.object(loop_vectorize, "MIN_POINTS_PER_STEP", 1):
        vectorized, _ = run(case, vectorize=True)
    scalar, _ = run(case, vectorize=False)
    assert vectorized == scalar, case.text


def _both(
    text: str, *arrays: np.ndarray, check_uninitialized: bool = False
) -> tuple[Outcome, int]:
    """Run `text` on whole arrays and op by op on copies of `arrays`; the
    outcome (the same for both) and how many nests ran on whole arrays."""
    outcomes = []
    for vectorize in (True, False):
        copies = [a.copy() for a in arrays]
        runner = Runner(
            parse(text),
            check_uninitialized=check_uninitialized,
            vectorize_loops=vectorize,
        )
        try:
            stats = runner.run("main", copies).stats.to_json()
            outcome: Outcome = ([c.tobytes() for c in copies], stats)
        except InterpretationError as error:
            outcome = ("error", str(error), [c.tobytes() for c in copies])
        outcomes.append(
            (outcome, runner.vectorizer.nests_run if runner.vectorizer else 0)
        )
    (vectorized, runs), (scalar, _) = outcomes
    assert vectorized == scalar
    return vectorized, runs


def _argument(arrays: object, position: int, dtype: type) -> np.ndarray:
    """Argument `position` of an outcome's list of argument bytes."""
    assert isinstance(arrays, list)
    data = arrays[position]  # pyright: ignore[reportUnknownVariableType]
    assert isinstance(data, bytes)
    return np.frombuffer(data, dtype)


MATMUL = """
func.func @main(%a: memref<6x5xf32>, %b: memref<5x7xf32>, %c: memref<6x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      scf.for %k = %c0 to %c5 step %c1 {
        %x = memref.load %a[%i, %k] : memref<6x5xf32>
        %y = memref.load %b[%k, %j] : memref<5x7xf32>
        %acc = memref.load %c[%i, %j] : memref<6x7xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<6x7xf32>
      }
    }
  }
  func.return
}
"""


def test_a_matmul_nest_runs_on_arrays_one_step_per_k_in_order():
    """The accumulator is loaded and stored at every k: each step (one k)
    runs over all (i, j), the sums rounding in the sequential order."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((6, 5)).astype(np.float32)
    b = rng.standard_normal((5, 7)).astype(np.float32)
    c = rng.standard_normal((6, 7)).astype(np.float32)
    (results, _), runs = _both(MATMUL, a, b, c)
    assert runs == 1
    expected = c.copy()
    for k in range(5):
        expected += a[:, k : k + 1] * b[k : k + 1, :]
    assert _argument(results, 2, np.float32).tobytes() == expected.tobytes()


CONV_AFFINE = """
func.func @main(%x: memref<1x2x6x6xf32>, %w: memref<3x2x3x3xf32>,
                %o: memref<1x3x4x4xf32>) {
  affine.for %n = 0 to 1 {
    affine.for %f = 0 to 3 {
      affine.for %h = 0 to 4 {
        affine.for %v = 0 to 4 {
          affine.for %c = 0 to 2 {
            affine.for %kh = 0 to 3 {
              affine.for %kw = 0 to 3 {
                %ih = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%h, %kh)
                %iw = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%v, %kw)
                %a = affine.load %x[%n, %c, %ih, %iw] : memref<1x2x6x6xf32>
                %b = affine.load %w[%f, %c, %kh, %kw] : memref<3x2x3x3xf32>
                %acc = affine.load %o[%n, %f, %h, %v] : memref<1x3x4x4xf32>
                %p = arith.mulf %a, %b : f32
                %s = arith.addf %acc, %p : f32
                affine.store %s, %o[%n, %f, %h, %v] : memref<1x3x4x4xf32>
              }
            }
          }
        }
      }
    }
  }
  func.return
}
"""


def test_a_convolution_in_affine_loops_runs_as_one_nest():
    rng = np.random.default_rng(2)
    arrays = (
        rng.standard_normal((1, 2, 6, 6)).astype(np.float32),
        rng.standard_normal((3, 2, 3, 3)).astype(np.float32),
        np.zeros((1, 3, 4, 4), np.float32),
    )
    _, runs = _both(CONV_AFFINE, *arrays)
    assert runs == 1


SHIFT = """
func.func @main(%a: memref<16xi32>, %b: memref<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  scf.for %i = %c0 to %c15 step %c1 {
    %x = memref.load %a[%i] : memref<16xi32>
    %j = arith.addi %i, %c1 : index
    %y = arith.addi %x, %x : i32
    memref.store %y, %b[%j] : memref<16xi32>
  }
  func.return
}
"""


def test_a_loop_that_reads_what_an_earlier_iteration_wrote_stays_scalar():
    """With one array for both arguments, iteration i reads what iteration
    i - 1 stored: the check sees the alias through the addresses."""
    a = np.ones(16, dtype=np.int32)
    runner = Runner(parse(SHIFT))
    runner.run("main", (a, a))
    assert runner.vectorizer is not None and runner.vectorizer.nests_run == 0
    assert a.tolist() == [2**i for i in range(16)]
    b = np.zeros(16, np.int32)
    _, runs = _both(SHIFT, np.arange(16, dtype=np.int32), b)
    assert runs == 1


def test_an_index_out_of_bounds_in_the_last_iteration_is_the_scalar_error():
    text = SHIFT.replace("%c15 = arith.constant 15", "%c15 = arith.constant 16")
    outcome, runs = _both(text, np.arange(16, dtype=np.int32), np.zeros(16, np.int32))
    assert outcome[0] == "error" and runs == 0
    assert "memref.store" in str(outcome[1]) and "index [16] is out of bounds" in str(
        outcome[1]
    )


DIVIDE = """
func.func @main(%a: memref<4xi32>, %b: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %x = memref.load %a[%k] : memref<4xi32>
      %acc = memref.load %b[%i] : memref<8xi32>
      %y = arith.divsi %acc, %x : i32
      memref.store %y, %b[%i] : memref<8xi32>
    }
  }
  func.return
}
"""


def test_a_division_by_zero_in_a_later_step_undoes_the_earlier_steps():
    """Steps k = 0 and 1 store into every b[i] before step k = 2 divides by
    zero: those stores are undone, and the scalar run stores into b[0]
    twice before it fails."""
    a = np.array([2, 3, 0, 5], np.int32)
    b = np.full(8, 600, np.int32)
    outcome, runs = _both(DIVIDE, a, b)
    assert outcome[0] == "error" and "integer division by zero" in str(outcome[1])
    assert runs == 0
    stored = _argument(outcome[2], 1, np.int32)
    assert stored.tolist() == [100] + [600] * 7
    a[2] = 1
    outcome, runs = _both(DIVIDE, a, b)
    assert runs == 1 and _argument(outcome[0], 1, np.int32).tolist() == [20] * 8


UNWRITTEN = """
func.func @main(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c7 step %c1 {
    memref.store %one, %t[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %t[%i] : memref<8xf32>
    memref.store %x, %out[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  func.return
}
"""


def test_a_read_of_unwritten_bytes_is_the_scalar_error():
    """The first nest runs on arrays and marks what it wrote; the second
    reads element 7, never written: it falls back, and the scalar run names
    the load."""
    out = np.zeros(8, np.float32)
    outcome, runs = _both(UNWRITTEN, out, check_uninitialized=True)
    assert runs == 1
    assert outcome[0] == "error"
    assert "memref.load" in str(outcome[1]) and "never written" in str(outcome[1])
    written = UNWRITTEN.replace("%c7 step", "%c8 step")
    outcome, runs = _both(written, out, check_uninitialized=True)
    assert outcome[0] != "error" and runs == 2


def test_a_load_after_dealloc_is_the_scalar_error():
    text = UNWRITTEN.replace(
        "  scf.for %i = %c0 to %c8",
        "  memref.dealloc %t : memref<8xf32>\n  scf.for %i = %c0 to %c8",
    ).replace("  memref.dealloc %t : memref<8xf32>\n  func.return", "  func.return")
    outcome, runs = _both(text, np.zeros(8, np.float32))
    assert outcome[0] == "error" and "memref.load" in str(outcome[1]) and runs == 1


def test_cycles_that_no_power_of_two_divides_are_added_in_the_scalar_order():
    """bytes_per_cycle = 3 makes each load and store cost a third: the float
    total then depends on the order of the additions."""
    target = with_cost_overrides(
        get_target(), {"scopes": {"global": {"bytes_per_cycle": 3}}}, set()
    )
    rng = np.random.default_rng(3)
    arrays = [
        rng.standard_normal(s).astype(np.float32) for s in ((6, 5), (5, 7), (6, 7))
    ]
    cycles = []
    for vectorize in (True, False):
        runner = Runner(parse(MATMUL), target, vectorize_loops=vectorize)
        cycles.append(
            runner.run("main", [a.copy() for a in arrays]).stats.modeled_cycles
        )
        assert runner.tracker.cycles % 1 != 0
    assert cycles[0] == cycles[1]


def test_the_environment_variable_runs_every_loop_op_by_op(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setenv(SCALAR_LOOPS_ENV, "1")
    assert Runner(parse(MATMUL)).vectorizer is None
    monkeypatch.setenv(SCALAR_LOOPS_ENV, "0")
    assert Runner(parse(MATMUL)).vectorizer is not None


MAXNUM = """
func.func @main(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %k = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = arith.maxnumf %x, %k : f32
    memref.store %y, %b[%i] : memref<64xf32>
  }
  func.return
}
"""


@pytest.mark.parametrize("op", ["maxnumf", "minnumf"])
def test_maxnumf_and_minnumf_of_a_signaling_nan_give_the_number_on_arrays(op: str):
    """A NaN operand, signaling too, gives the other operand, as MLIR
    defines them (numpy's fmax gave the quieted NaN on one element), the
    same on arrays as op by op."""
    a = np.full(64, 1.0, np.float32)
    a.view(np.uint32)[3] = 0x7F800001  # a signaling NaN
    (results, _), runs = _both(
        MAXNUM.replace("maxnumf", op), a, np.zeros(64, np.float32)
    )
    assert runs == 1
    assert _argument(results, 1, np.float32)[3] == 2.0


LOWERED = """
func.func @main(%a: memref<4x6xf32>, %b: memref<4x6xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %z = arith.constant 0 : index
    %n = arith.constant 6 : index
    %one = arith.constant 1 : index
    scf.for %j = %z to %n step %one {
      %x = memref.load %a[%i, %j] : memref<4x6xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<4x6xf32>
    }
  }
  func.return
}
"""


def test_constants_before_an_inner_loop_keep_the_nest_perfect():
    """`lower-affine` defines each inner loop's bounds in the body of the
    loop around it: the nest still runs on arrays, counting those constants."""
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    (results, stats), runs = _both(LOWERED, a, np.zeros((4, 6), np.float32))
    assert runs == 1
    assert _argument(results, 1, np.float32).tolist() == (a * a).ravel().tolist()
    assert isinstance(stats, dict) and stats["ops_executed"] == 5 + 4 * (5 + 6 * 4)

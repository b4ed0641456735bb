"""Each math op gives numpy's (or libm's) result, scalar and inside a linalg body."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError

RNG = np.random.default_rng(1)

Reference = Callable[[np.ndarray], np.ndarray]

UNARY_FLOAT: dict[str, tuple[Reference, tuple[float, float]]] = {
    "absf": (np.abs, (-3, 3)),
    "acos": (np.arccos, (-1, 1)),
    "acosh": (np.arccosh, (1, 4)),
    "asin": (np.arcsin, (-1, 1)),
    "asinh": (np.arcsinh, (-3, 3)),
    "atan": (np.arctan, (-3, 3)),
    "atanh": (np.arctanh, (-0.9, 0.9)),
    "cbrt": (np.cbrt, (-8, 8)),
    "ceil": (np.ceil, (-3, 3)),
    "cos": (np.cos, (-3, 3)),
    "cosh": (np.cosh, (-3, 3)),
    "erf": (np.vectorize(math.erf), (-3, 3)),
    "exp": (np.exp, (-3, 3)),
    "exp2": (np.exp2, (-3, 3)),
    "expm1": (np.expm1, (-3, 3)),
    "floor": (np.floor, (-3, 3)),
    "log": (np.log, (0.1, 5)),
    "log10": (np.log10, (0.1, 5)),
    "log1p": (np.log1p, (-0.5, 5)),
    "log2": (np.log2, (0.1, 5)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.1, 5)),
    "sin": (np.sin, (-3, 3)),
    "sinh": (np.sinh, (-3, 3)),
    "sqrt": (np.sqrt, (0, 5)),
    "tan": (np.tan, (-1.5, 1.5)),
    "tanh": (np.tanh, (-3, 3)),
    "trunc": (np.trunc, (-3, 3)),
}


def _unary_body(op: str, type_: str = "f32", size: int = 16) -> str:
    memref = f"memref<{size}x{type_}>"
    return f"""
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: {memref}, %c: {memref}) {{
      linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}} ins(%a : {memref}) outs(%c : {memref}) {{
      ^bb0(%x: {type_}, %unused: {type_}):
        %r = math.{op} %x : {type_}
        linalg.yield %r : {type_}
      }}
      func.return
    }}
    """


def _scalar_program(op: str, argument_types: list[str], op_types: str) -> str:
    """`%r = math.op %a, %b... : op_types`; the result has the first argument's type."""
    names = [f"%{chr(ord('a') + i)}" for i in range(len(argument_types))]
    args = ", ".join(f"{n}: {t}" for n, t in zip(names, argument_types, strict=True))
    return f"""
    func.func @main({args}) -> {argument_types[0]} {{
      %r = math.{op} {", ".join(names)} : {op_types}
      func.return %r : {argument_types[0]}
    }}
    """


@pytest.mark.parametrize("op", sorted(UNARY_FLOAT))
def test_unary_float_op_in_a_body_matches_numpy(run: Run, op: str):
    reference, (low, high) = UNARY_FLOAT[op]
    a = RNG.uniform(low, high, 16).astype(np.float32)
    c = np.zeros_like(a)
    run(_unary_body(op), a, c)
    expected = reference(a.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(c, expected, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("op", sorted(UNARY_FLOAT))
def test_unary_float_op_on_a_scalar_matches_numpy(run: Run, op: str):
    reference, (low, high) = UNARY_FLOAT[op]
    value = np.float64(RNG.uniform(low, high))
    result = run(_scalar_program(op, ["f64"], "f64"), value).results[0]
    assert result == pytest.approx(float(reference(np.asarray(value))), rel=1e-12)


def test_erf_in_f64_is_libm_erf(run: Run):
    a = np.linspace(-4, 4, 16)
    c = np.zeros_like(a)
    run(_unary_body("erf", "f64"), a, c)
    np.testing.assert_array_equal(c, [math.erf(v) for v in a])


def test_round_goes_half_away_from_zero_and_roundeven_to_even(run: Run):
    a = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.49999997], np.float32)
    rounded, even = np.zeros_like(a), np.zeros_like(a)
    run(_unary_body("round", size=8), a, rounded)
    run(_unary_body("roundeven", size=8), a, even)
    np.testing.assert_array_equal(rounded, [-3, -2, -1, 1, 2, 3, 0, 0])
    np.testing.assert_array_equal(even, [-2, -2, 0, 0, 2, 2, 0, 0])


@pytest.mark.parametrize(
    ("op", "reference"),
    [("powf", np.power), ("atan2", np.arctan2), ("copysign", np.copysign)],
)
def test_binary_float_op_matches_numpy(run: Run, op: str, reference: Callable):
    x = np.float32(RNG.uniform(0.5, 3))
    y = np.float32(RNG.uniform(-2, 2))
    result = run(_scalar_program(op, ["f32", "f32"], "f32"), x, y).results[0]
    assert result == _rounded_from_double(reference, x, y)


def _rounded_from_double(reference: Callable, *values: np.floating) -> np.float32:
    """`reference` in f64, rounded to f32: how transcendental f32 functions
    compute (`powf` as numpy's f32 power)."""
    if reference is np.power:
        return np.float32(reference(*values))
    return np.float32(reference(*(np.float64(v) for v in values)))


def test_f32_transcendental_functions_round_their_double_results(run: Run):
    """numpy's own f32 `exp` is 1 ulp off the rounded double (and the C
    library's `expf`, which MLIR's code calls) on many inputs."""
    x = (RNG.standard_normal(4096) * 10).astype(np.float32)
    out = np.zeros_like(x)
    program = _unary_body("exp", "f32", 4096)
    run(program, x, out)
    rounded = np.exp(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(out, rounded)


def test_remf_keeps_the_sign_of_the_dividend_scalar_and_in_a_body(run: Run):
    """arith.remf is C's fmod (torch.remainder's Python-style result is built
    around it by torch-mlir), not numpy's `%`."""
    a = np.array([5.5, -5.5, 5.5, -5.5, 0.75, -0.0], np.float32)
    b = np.array([2.0, 2.0, -2.0, -2.0, 1.0, 3.0], np.float32)
    c = np.zeros_like(a)
    run(
        """
        #id = affine_map<(d0) -> (d0)>
        func.func @main(%a: memref<6xf32>, %b: memref<6xf32>, %c: memref<6xf32>) {
          linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
              ins(%a, %b : memref<6xf32>, memref<6xf32>) outs(%c : memref<6xf32>) {
          ^bb0(%x: f32, %y: f32, %unused: f32):
            %r = arith.remf %x, %y : f32
            linalg.yield %r : f32
          }
          func.return
        }
        """,
        a,
        b,
        c,
    )
    np.testing.assert_array_equal(c, [1.5, -1.5, 1.5, -1.5, 0.75, -0.0])
    assert np.signbit(c[5])
    scalar = """
    func.func @main(%a: f64, %b: f64) -> f64 {
      %r = arith.remf %a, %b : f64
      func.return %r : f64
    }
    """
    assert run(scalar, -7.25, 2.0).results == (-1.25,)


def test_trunci_with_overflow_flags_wraps_like_without(run: Run):
    """torch-mlir's int64 -> int8 casts print `overflowFlags` in generic form;
    memplan-run keeps the low bits, as MLIR's trunci does."""
    ids = np.array([-9, 3, 127, 128, 300, -129], np.int64)
    out = np.zeros(6, np.int8)
    run(
        """
        #id = affine_map<(d0) -> (d0)>
        func.func @main(%a: memref<6xi64>, %b: memref<6xi8>) {
          linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
              ins(%a : memref<6xi64>) outs(%b : memref<6xi8>) {
          ^bb0(%x: i64, %unused: i8):
            %t = "arith.trunci"(%x) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i8
            linalg.yield %t : i8
          }
          func.return
        }
        """,
        ids,
        out,
    )
    np.testing.assert_array_equal(out, ids.astype(np.int8))
    scalar = """
    func.func @main(%a: i32) -> i16 {
      %t = arith.trunci %a overflow<nsw> : i32 to i16
      func.return %t : i16
    }
    """
    assert run(scalar, np.int32(70000)).results == (np.int16(70000 - 65536),)


def test_fpowi_raises_to_integer_powers_of_either_sign(run: Run):
    program = _scalar_program("fpowi", ["f32", "i32"], "f32, i32")
    assert run(program, np.float32(-2.0), np.int32(3)).results[0] == -8.0
    assert run(program, np.float32(2.0), np.int32(-2)).results[0] == 0.25
    assert run(program, np.float32(5.0), np.int32(0)).results[0] == 1.0


def test_fpowi_multiplies_by_repeated_squaring_as_llvm_powi(run: Run):
    """x ** 3 is (x * x) * x rounded twice, x ** -5 is 1 / (x * x ** 4): not
    the C library's correctly rounded-ish `pow`, which differs here."""
    cube = _scalar_program("fpowi", ["f32", "i32"], "f32, i32")
    x = np.float32(1.1015075)
    expected = np.float32(np.float32(x * x) * x)
    assert expected != np.power(x, np.float32(3))
    assert run(cube, x, np.int32(3)).results[0] == expected
    inverse = _scalar_program("fpowi", ["f64", "i64"], "f64, i64")
    y = 1.1004008016032065
    squared = y * y
    expected64 = 1 / (y * (squared * squared))
    assert expected64 != np.power(y, -5.0)
    assert run(inverse, y, np.int64(-5)).results[0] == expected64


def test_fpowi_keeps_its_first_factor_and_reaches_the_extreme_exponents(run: Run):
    """A signaling NaN to the first power comes back as it is (LLVM takes the
    first factor without multiplying by 1); to the 0th it is 1; -2**31 is a
    magnitude of 2**31, and 2 to it underflows to 0."""
    stored = """
    func.func @main(%x: memref<2xf32>, %n: memref<2xi32>, %out: memref<2xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      scf.for %i = %c0 to %c2 step %c1 {
        %v = memref.load %x[%i] : memref<2xf32>
        %e = memref.load %n[%i] : memref<2xi32>
        %r = math.fpowi %v, %e : f32, i32
        memref.store %r, %out[%i] : memref<2xf32>
      }
      func.return
    }
    """
    signaling = np.array([0x7FA00001, 0x7FA00001], np.uint32).view(np.float32)
    out = np.zeros(2, np.float32)
    run(stored, signaling, np.array([1, 0], np.int32), out)
    assert out.view(np.uint32)[0] == 0x7FA00001
    assert out[1] == 1.0
    program = _scalar_program("fpowi", ["f32", "i32"], "f32, i32")
    assert run(program, np.float32(1.0), np.int32(-(2**31))).results[0] == 1.0
    assert run(program, np.float32(2.0), np.int32(-(2**31))).results[0] == 0.0


@pytest.mark.parametrize(
    ("base", "exponent", "expected"),
    [(3, 4, 81), (-2, 3, -8), (2, -1, 0), (1, -5, 1), (-1, -3, -1), (-1, -2, 1)],
)
def test_ipowi_truncates_negative_powers_like_mlir(
    run: Run, base: int, exponent: int, expected: int
):
    program = _scalar_program("ipowi", ["i32", "i32"], "i32")
    assert run(program, np.int32(base), np.int32(exponent)).results[0] == expected


def test_fma_multiplies_then_adds(run: Run):
    program = _scalar_program("fma", ["f64", "f64", "f64"], "f64")
    assert run(program, 1.5, -2.0, 0.25).results[0] == 1.5 * -2.0 + 0.25


FUSED_CASES = [
    # (type, a, b, c, fused result); a * b + c rounded twice gives the first
    # term of the result alone
    ("f32", 1 + 2.0**-12, 1 + 2.0**-12, -1.0, 2.0**-11 + 2.0**-24),
    ("f16", 1 + 2.0**-6, 1 + 2.0**-6, -1.0, 2.0**-5 + 2.0**-12),
    ("f64", 1 + 2.0**-27, 1 + 2.0**-27, -1.0, 2.0**-26 + 2.0**-54),
    # factors too large to split, a product too small for its error: exact
    ("f64", 2.0**1000 * (1 + 2.0**-30), 2.0**-1000 * (1 + 2.0**-30), -1.0,
     2.0**-29 + 2.0**-60),
    ("f64", 2.0**-500 * (1 + 2.0**-30), 2.0**-500 * (1 + 2.0**-30), -(2.0**-1000),
     2.0**-1029 + 2.0**-1060),
    # a product past the largest double plus an infinity: that infinity
    ("f64", 2.0**600, 2.0**600, -np.inf, -np.inf),
]  # fmt: skip


@pytest.mark.parametrize(("type_", "a", "b", "c", "fused"), FUSED_CASES)
def test_fma_rounds_once_like_llvm_fma(
    run: Run, type_: str, a: float, b: float, c: float, fused: float
):
    """`math.fma` lowers to `llvm.intr.fma`: one rounding, scalar and in a
    body (f16 as f32 rounded to f16, as LLVM promotes it)."""
    dtype = np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_])
    a_, b_, c_ = (dtype.type(v) for v in (a, b, c))
    with np.errstate(all="ignore"):
        assert a_ * b_ + c_ != dtype.type(fused)
    scalar = _scalar_program("fma", [type_] * 3, type_)
    assert run(scalar, a_, b_, c_).results[0] == dtype.type(fused)
    memref = f"memref<4x{type_}>"
    body = f"""
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: {memref}, %b: {memref}, %c: {memref}, %out: {memref}) {{
      linalg.generic {{indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}} ins(%a, %b, %c : {memref}, {memref}, {memref}) outs(%out : {memref}) {{
      ^bb0(%x: {type_}, %y: {type_}, %z: {type_}, %unused: {type_}):
        %r = math.fma %x, %y, %z : {type_}
        linalg.yield %r : {type_}
      }}
      func.return
    }}
    """
    out = np.zeros(4, dtype)
    run(body, np.full(4, a_), np.full(4, b_), np.full(4, c_), out)
    np.testing.assert_array_equal(out, np.full(4, fused, dtype))


def test_fma_of_nans_gives_the_first_nan_quieted(run: Run):
    program = _scalar_program("fma", ["f32", "f32", "f32"], "f32")
    first, second = np.array([0x7F800001, 0xFFC00002], np.uint32).view(np.float32)
    (result,) = run(program, np.float32(1.0), first, second).results
    assert np.asarray(result, np.float32).view(np.uint32) == 0x7FC00001
    (result,) = run(program, second, first, first).results
    assert np.asarray(result, np.float32).view(np.uint32) == 0xFFC00002


@pytest.mark.parametrize(
    ("op", "value", "expected"),
    [
        ("ctlz", 1, 31),
        ("ctlz", 0, 32),
        ("ctlz", -1, 0),
        ("cttz", 8, 3),
        ("cttz", 0, 32),
        ("ctpop", -1, 32),
        ("ctpop", 0b1011, 3),
    ],
)
def test_bit_counts_read_the_bits_as_unsigned(
    run: Run, op: str, value: int, expected: int
):
    program = _scalar_program(op, ["i32"], "i32")
    assert run(program, np.int32(value)).results[0] == expected


def test_absi_wraps_the_minimum(run: Run):
    program = _scalar_program("absi", ["i32"], "i32")
    assert run(program, np.int32(-7)).results[0] == 7
    assert run(program, np.int32(-(2**31))).results[0] == -(2**31)


def test_gelu_erf_body_matches_its_formula(run: Run):
    program = """
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: memref<32xf32>, %c: memref<32xf32>) {
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<32xf32>) outs(%c : memref<32xf32>) {
      ^bb0(%x: f32, %unused: f32):
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %sqrt2 = arith.constant 1.41421354 : f32
        %s = arith.divf %x, %sqrt2 : f32
        %e = math.erf %s : f32
        %p = arith.addf %e, %one : f32
        %h = arith.mulf %x, %half : f32
        %r = arith.mulf %h, %p : f32
        linalg.yield %r : f32
      }
      func.return
    }
    """
    a = RNG.standard_normal(32).astype(np.float32)
    c = np.zeros_like(a)
    run(program, a, c)
    erf = np.vectorize(math.erf)(a / np.float32(1.41421354)).astype(np.float32)
    np.testing.assert_allclose(c, a * 0.5 * (erf + 1), rtol=1e-6, atol=1e-7)


def test_cf_assert_fails_with_its_message(run: Run):
    program = """
    func.func @main(%x: i32) {
      %zero = arith.constant 0 : i32
      %ok = arith.cmpi sge, %x, %zero : i32
      cf.assert %ok, "index must be larger or equal to 0"
      func.return
    }
    """
    run(program, np.int32(3))
    with pytest.raises(
        InterpretationError,
        match=r"cf\.assert.*assertion failed: index must be larger or equal to 0",
    ):
        run(program, np.int32(-1))

"""linalg.elementwise, linalg.contract, linalg.batch_reduce_matmul and the
`cast` attribute run as numpy computes them."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.targets import GLOBAL_SCOPE, get_target

RNG = np.random.default_rng(1)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(x)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp,
    "log": np.log,
    "abs": np.abs,
    "ceil": np.ceil,
    "floor": np.floor,
    "negf": np.negative,
    "reciprocal": np.reciprocal,
    "round": _round_half_away,
    "sqrt": np.sqrt,
    "rsqrt": _rsqrt,
    "square": np.square,
    "tanh": np.tanh,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "acos": np.arccos,
    "asin": np.arcsin,
    "asinh": np.arcsinh,
    "atan": np.arctan,
    "atanh": np.arctanh,
    "log10": np.log10,
    "log1p": np.log1p,
    "log2": np.log2,
}
"""Every unary kind but erf (no numpy function) and acosh (domain >= 1,
checked on its own)."""


def _elementwise(kind: str, types: list[str], maps: str = "") -> str:
    *ins, out = types
    args = [f"%a{i}: {t}" for i, t in enumerate(types)]
    names = ", ".join(f"%a{i}" for i in range(len(ins)))
    return f"""
    func.func @main({", ".join(args)}) {{
      linalg.elementwise kind=#linalg.elementwise_kind<{kind}> {maps} ins({names} : {", ".join(ins)}) outs(%a{len(ins)} : {out})
      func.return
    }}
    """


@pytest.mark.parametrize("kind", sorted(UNARY))
def test_elementwise_unary_kind_matches_numpy(run: Run, kind: str):
    a = RNG.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
    c = np.zeros_like(a)
    run(_elementwise(kind, ["memref<3x4xf32>"] * 2), a, c)
    np.testing.assert_allclose(c, UNARY[kind](a), rtol=2e-6)


def test_elementwise_acosh_and_erf_run(run: Run):
    a = RNG.uniform(1.5, 3.0, 6).astype(np.float32)
    c = np.zeros_like(a)
    run(_elementwise("acosh", ["memref<6xf32>"] * 2), a, c)
    np.testing.assert_allclose(c, np.arccosh(a), rtol=2e-6)
    x = RNG.uniform(-2.0, 2.0, 6).astype(np.float32)
    run(_elementwise("erf", ["memref<6xf32>"] * 2), x, c)
    np.testing.assert_allclose(c, [math.erf(v) for v in x], rtol=2e-6)


BINARY_F32 = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "max_signed": np.maximum,
    "min_signed": np.minimum,
    "powf": np.power,
}


@pytest.mark.parametrize("kind", sorted(BINARY_F32))
def test_elementwise_binary_kind_matches_numpy_on_f32(run: Run, kind: str):
    a, b = RNG.uniform(0.5, 2.0, (2, 8)).astype(np.float32)
    c = np.zeros_like(a)
    run(_elementwise(kind, ["memref<8xf32>"] * 3), a, b, c)
    np.testing.assert_allclose(c, BINARY_F32[kind](a, b), rtol=2e-6)


BINARY_I32 = {
    "div": lambda a, b: np.trunc(a / b).astype(np.int32),
    "div_unsigned": lambda a, b: (a.view(np.uint32) // b.view(np.uint32)).view(
        np.int32
    ),
    "max_signed": np.maximum,
    "min_signed": np.minimum,
    "max_unsigned": lambda a, b: np.maximum(a.view(np.uint32), b.view(np.uint32)).view(
        np.int32
    ),
    "min_unsigned": lambda a, b: np.minimum(a.view(np.uint32), b.view(np.uint32)).view(
        np.int32
    ),
}


@pytest.mark.parametrize("kind", sorted(BINARY_I32))
def test_elementwise_integer_kind_is_signed_or_unsigned_as_named(run: Run, kind: str):
    a = np.array([-7, 7, -(2**31), 9], dtype=np.int32)
    b = np.array([2, -2, 3, -1], dtype=np.int32)
    c = np.zeros_like(a)
    run(_elementwise(kind, ["memref<4xi32>"] * 3), a, b, c)
    np.testing.assert_array_equal(c, BINARY_I32[kind](a, b))


def test_elementwise_select_and_broadcast_maps(run: Run):
    m = np.array([[True, False, True], [False, True, False]])
    a, b = RNG.standard_normal((2, 2, 3), dtype=np.float32)
    c = np.zeros_like(a)
    run(
        _elementwise("select", ["memref<2x3xi1>"] + ["memref<2x3xf32>"] * 3),
        m,
        a,
        b,
        c,
    )
    np.testing.assert_array_equal(c, np.where(m, a, b))
    row = RNG.standard_normal(2, dtype=np.float32)
    t = RNG.standard_normal((3, 2), dtype=np.float32)
    maps = (
        "indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, "
        "affine_map<(i, j) -> (i, j)>]"
    )
    run(
        _elementwise(
            "sub", ["memref<3x2xf32>", "memref<2xf32>", "memref<2x3xf32>"], maps
        ),
        t,
        row,
        c,
    )
    np.testing.assert_array_equal(c, t.T - row[:, None])


MAPS_MKN = (
    "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
    "affine_map<(m, n, k) -> (n, m)>"
)


def test_contract_with_transposed_output_accumulates(run: Run):
    program = f"""
    func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<4x2xf32>) {{
      linalg.contract indexing_maps = [{MAPS_MKN}] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<4x2xf32>)
      func.return
    }}
    """
    a = RNG.standard_normal((2, 3), dtype=np.float32)
    b = RNG.standard_normal((3, 4), dtype=np.float32)
    c = RNG.standard_normal((4, 2), dtype=np.float32)
    expected = c + (a @ b).T
    run(program, a, b, c)
    np.testing.assert_allclose(c, expected, rtol=1e-5)


@pytest.mark.parametrize("cast", ["cast_signed", "cast_unsigned"])
@pytest.mark.parametrize("op", ["matmul", "contract"])
def test_cast_attribute_picks_signed_or_unsigned_extension(
    run: Run, op: str, cast: str
):
    maps = (
        "indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
        "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] "
        if op == "contract"
        else ""
    )
    program = f"""
    func.func @main(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xi32>, %f: memref<2x4xf32>) {{
      linalg.{op} {maps}{{cast = #linalg.type_fn<{cast}>}} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%c : memref<2x4xi32>)
      linalg.{op} {maps}{{cast = #linalg.type_fn<{cast}>}} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%f : memref<2x4xf32>)
      func.return
    }}
    """
    a = RNG.integers(-128, 128, (2, 3), dtype=np.int8)
    b = RNG.integers(-128, 128, (3, 4), dtype=np.int8)
    c = np.zeros((2, 4), np.int32)
    f = np.zeros((2, 4), np.float32)
    run(program, a, b, c, f)
    view = np.uint8 if cast == "cast_unsigned" else np.int8
    expected = a.view(view).astype(np.int64) @ b.view(view).astype(np.int64)
    np.testing.assert_array_equal(c, expected)
    np.testing.assert_array_equal(f, expected.astype(np.float32))


def test_batch_reduce_matmul_sums_over_the_batch(run: Run):
    program = """
    func.func @main(%a: memref<5x2x3xf32>, %b: memref<5x3x4xf32>, %c: memref<2x4xf32>, %bt: memref<5x4x3xf32>, %d: memref<2x4xf32>) {
      linalg.batch_reduce_matmul ins(%a, %b : memref<5x2x3xf32>, memref<5x3x4xf32>) outs(%c : memref<2x4xf32>)
      linalg.batch_reduce_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (m, n)>] ins(%a, %bt : memref<5x2x3xf32>, memref<5x4x3xf32>) outs(%d : memref<2x4xf32>)
      func.return
    }
    """
    a = RNG.standard_normal((5, 2, 3), dtype=np.float32)
    b = RNG.standard_normal((5, 3, 4), dtype=np.float32)
    c = np.ones((2, 4), np.float32)
    d = np.zeros((2, 4), np.float32)
    run(program, a, b, c, np.ascontiguousarray(b.transpose(0, 2, 1)), d)
    np.testing.assert_allclose(c, 1 + np.einsum("bmk,bkn->mn", a, b), rtol=1e-5)
    np.testing.assert_allclose(d, np.einsum("bmk,bkn->mn", a, b), rtol=1e-5)


def test_cost_model_charges_macs_for_contractions_not_elementwise(run: Run):
    """batch_reduce_matmul and contract pay B*M*N*K and M*N*K MACs, as
    batch_matmul and matmul do; elementwise (no reduction loop) pays none."""
    program = """
    func.func @main(%a: memref<4x8x16xf32>, %b: memref<4x16x2xf32>, %c: memref<8x2xf32>, %d: memref<2x2xf32>) {
      linalg.batch_reduce_matmul ins(%a, %b : memref<4x8x16xf32>, memref<4x16x2xf32>) outs(%c : memref<8x2xf32>)
      linalg.contract indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%c, %c : memref<8x2xf32>, memref<8x2xf32>) outs(%d : memref<2x2xf32>)
      linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%c : memref<8x2xf32>) outs(%c : memref<8x2xf32>)
      func.return
    }
    """
    target = get_target()
    a, b = np.zeros((4, 8, 16), np.float32), np.zeros((4, 16, 2), np.float32)
    c, d = np.zeros((8, 2), np.float32), np.zeros((2, 2), np.float32)
    scope = target.scope(GLOBAL_SCOPE)

    def op_cycles(*operands: np.ndarray) -> float:
        vector = target.vector_bytes
        moved = sum(-(-o.nbytes // vector) * vector for o in operands)
        touched = moved / scope.bytes_per_cycle
        return target.op_overhead_cycles + touched + scope.latency_cycles

    expected = (
        op_cycles(a, b, c)
        + 4 * 8 * 2 * 16 / target.macs_per_cycle
        + op_cycles(c, c, d)
        + 2 * 2 * 8 / target.macs_per_cycle
        + op_cycles(c, c)
        + target.op_overhead_cycles
    )
    assert run(program, a, b, c, d).stats.modeled_cycles == round(expected)

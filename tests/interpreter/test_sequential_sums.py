"""`sequential_sums=True` (`memplan-run --sequential-sums`) folds float sums
in MLIR's loop order: each output element starts from its value and adds
the reduction points in lexicographic order, rounding after every step, so
a matmul, a convolution, a generic reduction and `linalg.reduce` give the
bits of their `convert-linalg-to-loops` form.  By default the sums
reassociate (BLAS, numpy's pairwise reduce)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interpreter_helpers import parse
from stable_strategies import one_of_values
from xdsl.transforms.convert_linalg_to_loops import ConvertLinalgToLoopsPass

from memplan.context import memplan_context
from memplan.interpreter import run_function, sequential_sums
from memplan.interpreter.element_types import BF16

CRAFTED = np.array([1e8] + [1.0] * 30 + [-1e8], np.float32)
"""Summed in order: each 1 is lost against 1e8, the total is 0; any other
order keeps some of the 1s."""


FOLDS = {
    "accumulate": (1 << 30, 1 << 30),
    "ufunc steps": (0, 1 << 30),
    "body steps": (0, 0),
}
"""`ACCUMULATE_BELOW` and `STEP_BODIES_ABOVE` values that make these small
tests take each way of folding in order."""


@pytest.fixture(params=sorted(FOLDS), autouse=True)
def each_fold(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Every test runs with each way of folding in order."""
    below, above = FOLDS[request.param]
    monkeypatch.setattr(sequential_sums, "ACCUMULATE_BELOW", below)
    monkeypatch.setattr(sequential_sums, "STEP_BODIES_ABOVE", above)


def _in_order(start: np.float32, terms: Iterable[np.float32]) -> np.float32:
    """A plain loop in float32, one rounding per step."""
    total = start
    for term in terms:
        total = np.float32(total + term)
    return total


def _run(text: str, args: list[np.ndarray], sequential: bool) -> np.ndarray:
    """The last argument (the output) after a run on copies of `args`."""
    copies = [a.copy() for a in args]
    run_function(parse(text), "main", copies, sequential_sums=sequential)
    return copies[-1]


def _check(
    text: str, args: list[np.ndarray], expected: np.ndarray, reassociated: bool
) -> None:
    """Sequential mode gives `expected`'s bits; with `reassociated` the
    default mode (numpy's own reduce: deterministic) is checked to differ."""
    assert _run(text, args, True).tobytes() == expected.tobytes()
    if reassociated:
        assert _run(text, args, False).tobytes() != expected.tobytes()


MATMUL = """
func.func @main(%a: memref<2x32xf32>, %b: memref<32x3xf32>, %c: memref<2x3xf32>) {
  linalg.matmul ins(%a, %b : memref<2x32xf32>, memref<32x3xf32>) outs(%c : memref<2x3xf32>)
  func.return
}
"""


def test_a_matmul_sums_its_products_in_loop_order():
    a = np.stack([CRAFTED, CRAFTED[::-1]])
    b = np.ones((32, 3), np.float32)
    c = np.full((2, 3), 0.5, np.float32)
    expected = np.array(
        [[_in_order(c[i, j], a[i] * b[:, j]) for j in range(3)] for i in range(2)],
        np.float32,
    )
    assert expected[0, 0] == 0
    _check(MATMUL, [a, b, c], expected, reassociated=False)


CONV = """
func.func @main(%x: memref<1x1x3x16xf32>, %w: memref<1x2x16x2xf32>, %y: memref<1x1x2x2xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x1x3x16xf32>, memref<1x2x16x2xf32>) outs(%y : memref<1x1x2x2xf32>)
  func.return
}
"""


def test_a_convolution_sums_its_window_in_loop_order():
    """The loops are n, oh, ow, f, kh, kw, c: for each output the window's
    points in (kh, kw, c) order."""
    x = np.ones((1, 1, 3, 16), np.float32)
    x[0, 0, :2] = CRAFTED.reshape(2, 16)
    w = np.ones((1, 2, 16, 2), np.float32)
    y = np.zeros((1, 1, 2, 2), np.float32)
    expected = np.zeros_like(y)
    for ow in range(2):
        for f in range(2):
            terms = (
                x[0, kh, ow + kw, c] * w[kh, kw, c, f]
                for kh in range(1)
                for kw in range(2)
                for c in range(16)
            )
            expected[0, 0, ow, f] = _in_order(y[0, 0, ow, f], terms)
    assert expected[0, 0, 0, 0] == 0
    _check(CONV, [x, w, y], expected, reassociated=False)


ROW_SUMS = """
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: memref<2x32xf32>, %s: memref<2xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<2x32xf32>) outs(%s : memref<2xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %h = arith.negf %v : f32
    %t = arith.addf %acc, %h : f32
    linalg.yield %t : f32
  }
  func.return
}
"""

REDUCE = """
func.func @main(%x: memref<2x32xf32>, %s: memref<2xf32>) {
  linalg.reduce ins(%x : memref<2x32xf32>) outs(%s : memref<2xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %t = arith.addf %v, %acc : f32
      linalg.yield %t : f32
    }
  func.return
}
"""


def test_a_generic_reduction_folds_in_loop_order():
    """A body that is no sum of products: evaluated once, then folded."""
    x = np.stack([CRAFTED, np.ones(32, np.float32)])
    s = np.array([0.0, 2.0], np.float32)
    expected = np.array([_in_order(s[i], -x[i]) for i in range(2)], np.float32)
    _check(ROW_SUMS, [x, s], expected, reassociated=True)


def test_a_one_input_reduce_folds_in_loop_order():
    x = np.stack([CRAFTED, np.ones(32, np.float32)])
    s = np.array([0.0, 2.0], np.float32)
    expected = np.array([_in_order(s[i], x[i]) for i in range(2)], np.float32)
    _check(REDUCE, [x, s], expected, reassociated=True)


def test_integer_sums_and_float_maxima_keep_their_fast_folds():
    """Exact in any order: the same bits in both modes."""
    text = REDUCE.replace("addf", "maximumf")
    x = np.random.default_rng(0).standard_normal((2, 32)).astype(np.float32)
    s = np.full(2, -np.inf, np.float32)
    assert _run(text, [x, s], True).tobytes() == _run(text, [x, s], False).tobytes()
    text = REDUCE.replace("addf", "addi").replace("f32", "i32")
    n = np.arange(64, dtype=np.int32).reshape(2, 32)
    sums = np.zeros(2, np.int32)
    assert _run(text, [n, sums], True).tolist() == [496, 1520]


@dataclass(frozen=True)
class Case:
    text: str
    args: tuple[np.ndarray, ...]


TYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": BF16}


def _values(
    rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype, span: int
) -> np.ndarray:
    """Mixed signs and magnitudes 2**-span .. 2**span."""
    magnitude = (1 + rng.random(shape)) * np.exp2(rng.integers(-span, span, shape))
    return (magnitude * rng.choice([-1.0, 1.0], shape)).astype(dtype)


def _matmul(draw: Callable, element: str, rng: np.random.Generator) -> Case:
    m, n, k = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 40))
    dtype, span = TYPES[element], 4 if element == "f16" else 20
    text = f"""
func.func @main(%a: memref<{m}x{k}x{element}>, %b: memref<{k}x{n}x{element}>, %c: memref<{m}x{n}x{element}>) {{
  linalg.matmul ins(%a, %b : memref<{m}x{k}x{element}>, memref<{k}x{n}x{element}>) outs(%c : memref<{m}x{n}x{element}>)
  func.return
}}
"""
    shapes = ((m, k), (k, n), (m, n))
    return Case(text, tuple(_values(rng, s, dtype, span) for s in shapes))


def _conv(draw: Callable, element: str, rng: np.random.Generator) -> Case:
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    c, f = draw(st.integers(1, 4)), draw(st.integers(1, 2))
    h, w = kh + draw(st.integers(0, 2)), kw + draw(st.integers(0, 2))
    x, k, y = (1, h, w, c), (kh, kw, c, f), (1, h - kh + 1, w - kw + 1, f)
    types = [f"memref<{'x'.join(map(str, s))}x{element}>" for s in (x, k, y)]
    text = f"""
func.func @main(%x: {types[0]}, %w: {types[1]}, %y: {types[2]}) {{
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : {types[0]}, {types[1]}) outs(%y : {types[2]})
  func.return
}}
"""
    dtype, span = TYPES[element], 4 if element == "f16" else 20
    return Case(text, tuple(_values(rng, s, dtype, span) for s in (x, k, y)))


def _generic(draw: Callable, element: str, rng: np.random.Generator) -> Case:
    """out[p] (+ or *)= x[p, r, s] - y[r, s] over two reduction loops."""
    p, r, s = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 3))
    combiner = draw(one_of_values(["addf", "mulf"]))
    text = f"""
#x = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#y = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @main(%x: memref<{p}x{r}x{s}x{element}>, %y: memref<{r}x{s}x{element}>, %o: memref<{p}x{element}>) {{
  linalg.generic {{indexing_maps = [#x, #y, #out], iterator_types = ["parallel", "reduction", "reduction"]}} ins(%x, %y : memref<{p}x{r}x{s}x{element}>, memref<{r}x{s}x{element}>) outs(%o : memref<{p}x{element}>) {{
  ^bb0(%a: {element}, %b: {element}, %acc: {element}):
    %d = arith.subf %a, %b : {element}
    %t = arith.{combiner} %d, %acc : {element}
    linalg.yield %t : {element}
  }}
  func.return
}}
"""
    dtype = TYPES[element]
    if combiner == "mulf":  # factors near 1: no overflow in 12 steps
        x = (1.5 + rng.random((p, r, s))).astype(dtype)
        y = (rng.random((r, s)) / 4).astype(dtype)
        return Case(text, (x, y, _values(rng, (p,), dtype, 2)))
    span = 4 if element == "f16" else 20
    shapes = ((p, r, s), (r, s), (p,))
    return Case(text, tuple(_values(rng, sh, dtype, span) for sh in shapes))


@st.composite
def cases(draw: Callable) -> Case:
    build = draw(one_of_values([_matmul, _conv, _generic]))
    element = draw(one_of_values(list(TYPES)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return build(draw, element, rng)


def _as_loops(text: str):
    """The module after xDSL's convert-linalg-to-loops, parsed again into
    memplan's dialects."""
    module = parse(text)
    ConvertLinalgToLoopsPass().apply(memplan_context(), module)
    return parse(str(module))


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(cases())
def test_sequential_sums_give_the_bits_of_the_ops_loop_form(case: Case):
    """Random matmuls, convolutions and generic sums and products on f32,
    f16 and bf16: in sequential mode, the bits of the loops
    convert-linalg-to-loops makes of the op (scalar code, which memplan runs
    in the loops' order)."""
    linalg_args = [a.copy() for a in case.args]
    run_function(parse(case.text), "main", linalg_args, sequential_sums=True)
    loop_args = [a.copy() for a in case.args]
    run_function(_as_loops(case.text), "main", loop_args)
    assert linalg_args[-1].tobytes() == loop_args[-1].tobytes()

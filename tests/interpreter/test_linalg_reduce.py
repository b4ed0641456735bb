"""`linalg.reduce` with several inputs and inits folds them together in
MLIR's order (the reduced loops in index order, the last one innermost); a
one-op body that is not a plain fold runs as written."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run, parse

from memplan.interpreter import run_function

RNG = np.random.default_rng(3)

MAX_WITH_INDEX = """
func.func @main(%v: memref<{shape}xf32>, %i: memref<{shape}xi32>, %m: memref<{kept}xf32>, %a: memref<{kept}xi32>) {{
  linalg.reduce ins(%v, %i : memref<{shape}xf32>, memref<{shape}xi32>) outs(%m, %a : memref<{kept}xf32>, memref<{kept}xi32>) dimensions = {dimensions} (%in: f32, %idx: i32, %max: f32, %arg: i32) {{
    %better = arith.cmpf {predicate}, %in, %max : f32
    %new = arith.select %better, %in, %max : f32
    %at = arith.select %better, %idx, %arg : i32
    linalg.yield %new, %at : f32, i32
  }}
  func.return
}}
"""


def _max_with_index(
    values: np.ndarray,
    indices: np.ndarray,
    start: float,
    axes: tuple[int, ...],
    last: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """The loop MLIR runs: the kept loops outside, the reduced ones inside in
    index order; `last` keeps the last of equal maxima (`oge`)."""
    kept = [d for d in range(values.ndim) if d not in axes]
    out_shape = tuple(values.shape[d] for d in kept)
    best = np.full(out_shape, start, np.float32)
    where = np.full(out_shape, -1, np.int32)
    for point in np.ndindex(*values.shape):
        out = tuple(point[d] for d in kept)
        value = values[point]
        if value > best[out] or (last and value == best[out]):
            best[out], where[out] = value, indices[point]
    return best, where


def _run_max_with_index(
    run: Run, values: np.ndarray, axes: tuple[int, ...], predicate: str
) -> tuple[np.ndarray, np.ndarray]:
    kept = [n for d, n in enumerate(values.shape) if d not in axes]
    program = MAX_WITH_INDEX.format(
        shape="x".join(map(str, values.shape)),
        kept="x".join(map(str, kept)),
        dimensions=list(axes),
        predicate=predicate,
    )
    indices = np.arange(values.size, dtype=np.int32).reshape(values.shape)
    best = np.full(kept, -np.inf, np.float32)
    where = np.full(kept, -1, np.int32)
    run(program, values, indices, best, where)
    return best, where


def test_max_with_index_keeps_the_first_maximum_with_ogt(run: Run):
    values = RNG.integers(0, 3, (3, 7)).astype(np.float32)
    best, where = _run_max_with_index(run, values, (1,), "ogt")
    indices = np.arange(values.size, dtype=np.int32).reshape(values.shape)
    expected = _max_with_index(values, indices, -np.inf, (1,), last=False)
    np.testing.assert_array_equal(best, expected[0])
    np.testing.assert_array_equal(where, expected[1])
    np.testing.assert_array_equal(where, values.argmax(axis=1) + 7 * np.arange(3))


def test_max_with_index_keeps_the_last_maximum_with_oge(run: Run):
    values = RNG.integers(0, 3, (3, 7)).astype(np.float32)
    best, where = _run_max_with_index(run, values, (1,), "oge")
    flipped = 6 - np.flip(values, axis=1).argmax(axis=1)
    np.testing.assert_array_equal(best, values.max(axis=1))
    np.testing.assert_array_equal(where, flipped + 7 * np.arange(3))


def test_max_with_index_over_two_dimensions_folds_in_index_order(run: Run):
    """Reducing dimensions 0 and 2 of a 3x2x4 input: ties go to the first
    (d0, d2) in lexicographic order, d2 innermost."""
    values = RNG.integers(0, 2, (3, 2, 4)).astype(np.float32)
    best, where = _run_max_with_index(run, values, (0, 2), "ogt")
    indices = np.arange(values.size, dtype=np.int32).reshape(values.shape)
    expected = _max_with_index(values, indices, -np.inf, (0, 2), last=False)
    np.testing.assert_array_equal(best, expected[0])
    np.testing.assert_array_equal(where, expected[1])


def test_maximumf_with_its_index_folds_into_the_inits(run: Run):
    """A `maximumf` value and a select of its index: the inits take part."""
    program = """
    func.func @main(%v: memref<4x5xf32>, %i: memref<4x5xi64>, %m: memref<4xf32>, %a: memref<4xi64>) {
      linalg.reduce ins(%v, %i : memref<4x5xf32>, memref<4x5xi64>) outs(%m, %a : memref<4xf32>, memref<4xi64>) dimensions = [1] (%in: f32, %idx: i64, %max: f32, %arg: i64) {
        %new = arith.maximumf %in, %max : f32
        %better = arith.cmpf ogt, %in, %max : f32
        %at = arith.select %better, %idx, %arg : i64
        linalg.yield %new, %at : f32, i64
      }
      func.return
    }
    """
    values = RNG.standard_normal((4, 5)).astype(np.float32)
    indices = np.tile(np.arange(5, dtype=np.int64), (4, 1))
    start = np.array([-np.inf, 10.0, -np.inf, -np.inf], np.float32)
    best = start.copy()
    where = np.full(4, -1, np.int64)
    run(program, values, indices, best, where)
    expected_index = values.argmax(axis=1)
    expected_index[1] = -1
    np.testing.assert_array_equal(best, np.maximum(values.max(axis=1), start))
    np.testing.assert_array_equal(where, expected_index)


def test_sum_and_count_reduce_each_init(run: Run):
    program = """
    func.func @main(%v: memref<2x3x4xf32>, %n: memref<2x3x4xi32>, %s: memref<3xf32>, %c: memref<3xi32>) {
      linalg.reduce ins(%v, %n : memref<2x3x4xf32>, memref<2x3x4xi32>) outs(%s, %c : memref<3xf32>, memref<3xi32>) dimensions = [0, 2] (%in: f32, %k: i32, %sum: f32, %count: i32) {
        %0 = arith.addf %sum, %in : f32
        %1 = arith.addi %count, %k : i32
        linalg.yield %0, %1 : f32, i32
      }
      func.return
    }
    """
    values = RNG.integers(-8, 8, (2, 3, 4)).astype(np.float32)
    counts = RNG.integers(0, 5, (2, 3, 4)).astype(np.int32)
    sums = np.array([1.0, 2.0, 3.0], np.float32)
    totals = np.array([10, 20, 30], np.int32)
    expected_sums = sums + values.sum(axis=(0, 2))
    expected_totals = totals + counts.sum(axis=(0, 2))
    run(program, values, counts, sums, totals)
    np.testing.assert_array_equal(sums, expected_sums)
    np.testing.assert_array_equal(totals, expected_totals)


def test_one_op_body_that_ignores_the_init_keeps_the_last_step(run: Run):
    """`addf %in, %in` yielded: each step overwrites the init, so the result is
    twice the last element, not a sum."""
    program = """
    func.func @main(%a: memref<3x4xf32>, %c: memref<3xf32>) {
      linalg.reduce ins(%a : memref<3x4xf32>) outs(%c : memref<3xf32>) dimensions = [1] (%in: f32, %init: f32) {
        %0 = arith.addf %in, %in : f32
        linalg.yield %0 : f32
      }
      func.return
    }
    """
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    c = np.array([100.0, 200.0, 300.0], np.float32)
    run(program, a, c)
    np.testing.assert_array_equal(c, 2 * a[:, 3])


def test_one_op_body_yielding_the_init_leaves_it(run: Run):
    program = """
    func.func @main(%a: memref<3x4xi32>, %c: memref<3xi32>) {
      linalg.reduce ins(%a : memref<3x4xi32>) outs(%c : memref<3xi32>) dimensions = [1] (%in: i32, %init: i32) {
        %0 = arith.addi %init, %in : i32
        linalg.yield %init : i32
      }
      func.return
    }
    """
    a = RNG.integers(-5, 5, (3, 4), dtype=np.int32)
    c = np.array([7, 8, 9], np.int32)
    run(program, a, c)
    np.testing.assert_array_equal(c, [7, 8, 9])


def test_linalg_index_in_a_reduce_body_gives_the_reduced_position(run: Run):
    """MLIR allows `linalg.index` in any structured op's body (xDSL 0.74 only
    in a generic): the index of the maximum, from the loop index."""
    program = """
    func.func @main(%v: memref<3x5xf32>, %m: memref<3xf32>, %a: memref<3xi64>) {
      linalg.reduce ins(%v, %v : memref<3x5xf32>, memref<3x5xf32>) outs(%m, %a : memref<3xf32>, memref<3xi64>) dimensions = [1] (%in: f32, %unused: f32, %max: f32, %arg: i64) {
        %k = linalg.index 1 : index
        %ki = arith.index_cast %k : index to i64
        %better = arith.cmpf ogt, %in, %max : f32
        %new = arith.select %better, %in, %max : f32
        %at = arith.select %better, %ki, %arg : i64
        linalg.yield %new, %at : f32, i64
      }
      func.return
    }
    """
    values = RNG.standard_normal((3, 5)).astype(np.float32)
    best = np.full(3, -np.inf, np.float32)
    where = np.full(3, -1, np.int64)
    run(program, values, best, where)
    np.testing.assert_array_equal(best, values.max(axis=1))
    np.testing.assert_array_equal(where, values.argmax(axis=1))


MAXNUM_REDUCE = """
func.func @main(%v: memref<2x3xf32>, %m: memref<2xf32>) {
  linalg.reduce ins(%v : memref<2x3xf32>) outs(%m : memref<2xf32>) dimensions = [1] (%in: f32, %acc: f32) {
    %r = arith.{op} %in, %acc : f32
    linalg.yield %r : f32
  }
  func.return
}
"""


def test_maxnumf_and_minnumf_reductions_skip_a_signaling_nan(run: Run):
    """A signaling NaN gives the other operand at its step, as in MLIR's
    loops; `np.fmax.reduce` turned it into a NaN that the next value
    replaced, folding +inf, sNaN, -inf to -inf."""
    inf, signaling = 0x7F800000, 0x7FA00001
    bits = [[inf, signaling, inf | 1 << 31], [inf | 1 << 31, signaling, inf]]
    values = np.array(bits, np.uint32).view(np.float32)
    for op, expected in (
        ("maxnumf", [np.inf, np.inf]),
        ("minnumf", [-np.inf, -np.inf]),
    ):
        out = np.full(2, np.nan, np.float32)
        run(MAXNUM_REDUCE.replace("{op}", op), values, out)
        np.testing.assert_array_equal(out, np.array(expected, np.float32))


EMPTY_REDUCE = """
func.func @main(%x: memref<3x0xf32>, %e: memref<0x3xf32>, %m: memref<3xf32>, %s: memref<3xf32>, %k: memref<0xf32>) {
  linalg.reduce { arith.maximumf } ins(%x : memref<3x0xf32>) outs(%m : memref<3xf32>) dimensions = [1]
  linalg.reduce { arith.addf } ins(%x : memref<3x0xf32>) outs(%s : memref<3xf32>) dimensions = [1]
  linalg.reduce { arith.minimumf } ins(%e : memref<0x3xf32>) outs(%k : memref<0xf32>) dimensions = [1]
  func.return
}
"""


@pytest.mark.parametrize("sequential_sums", [False, True])
def test_reduce_over_an_empty_dimension_leaves_the_init(sequential_sums: bool):
    """No terms: MLIR's loops leave every output element as it was, and an
    output of no elements has nothing to compute (numpy's maximum of no
    values, which has no identity, was an error; the sum in loop order
    failed to reshape the empty input)."""
    x, e = np.zeros((3, 0), np.float32), np.zeros((0, 3), np.float32)
    m = np.array([1.0, -np.inf, 3.0], np.float32)
    s = np.array([4.0, 5.0, -0.0], np.float32)
    k = np.zeros(0, np.float32)
    run_function(
        parse(EMPTY_REDUCE), "main", (x, e, m, s, k), sequential_sums=sequential_sums
    )
    np.testing.assert_array_equal(m, [1.0, -np.inf, 3.0])
    np.testing.assert_array_equal(s, [4.0, 5.0, -0.0])
    assert np.signbit(s[2])

"""Convolutions, poolings and the generic forms torch-mlir emits give numpy's
results, computed on whole arrays, never element by element.

Each named convolution and pooling is checked with strides and dilations
against a reference that sums one filter tap at a time (independent of the
interpreter's matmul formulation); outputs start non-zero, so accumulation is
checked too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError, contraction, linalg_impl

RNG = np.random.default_rng(2)


@pytest.fixture(autouse=True)
def no_scalar_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test whose op falls back to the element-by-element loop."""

    def refuse(*args: object) -> None:
        raise AssertionError("ran element by element")

    monkeypatch.setattr(linalg_impl.LinalgFunctions, "_run_elementwise", refuse)


def _out_size(size: int, kernel: int, stride: int, dilation: int) -> int:
    return (size - dilation * (kernel - 1) - 1) // stride + 1


def _taps(
    x: np.ndarray,
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
):
    """(tap index, x's window at that tap) over the trailing len(kernel) axes."""
    spatial = x.shape[-len(kernel) :]
    outs = [
        _out_size(n, k, s, d)
        for n, k, s, d in zip(spatial, kernel, strides, dilations, strict=True)
    ]
    for tap in np.ndindex(*kernel):
        index = tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, s, d, o in zip(tap, strides, dilations, outs, strict=True)
        )
        yield tap, x[(..., *index)]


def conv_nchw(x, w, strides, dilations):
    """out[n, f, oh, ...] = sum_c,taps x[n, c, oh*s + k*d, ...] * w[f, c, k, ...]."""
    result = 0
    for tap, window in _taps(x, w.shape[2:], strides, dilations):
        result = result + np.einsum(
            "nc...,fc->nf...", window, w[(slice(None), slice(None), *tap)]
        )
    return result


def depthwise_nchw(x, w, strides, dilations):
    """out[n, c, oh, ...] = sum_taps x[n, c, oh*s + k*d, ...] * w[c, k, ...]."""
    result = 0
    for tap, window in _taps(x, w.shape[1:], strides, dilations):
        weights = w[(slice(None), *tap)]
        result = result + window * weights.reshape(weights.shape + (1,) * len(tap))
    return result


def pool_nchw(x, kernel, strides, dilations, ufunc: np.ufunc):
    windows = [window for _, window in _taps(x, kernel, strides, dilations)]
    return ufunc.reduce(np.stack(windows), axis=0)


def _nhwc(reference: Callable) -> Callable:
    """A channels-last version of an NCHW reference (transposing in and out)."""

    def run(x, *rest):
        first = np.moveaxis(x, -1, 1)
        return np.moveaxis(reference(first, *rest), 1, -1)

    return run


def _type(array: np.ndarray) -> str:
    element = {"float32": "f32", "float64": "f64", "int32": "i32", "int8": "i8"}
    return f"memref<{'x'.join(map(str, array.shape))}x{element[str(array.dtype)]}>"


def _named_program(
    op: str,
    inputs: list[np.ndarray],
    out: np.ndarray,
    window_rank: int,
    strides,
    dilations,
) -> str:
    attrs = (
        f"strides = dense<{list(strides)}> : vector<{window_rank}xi64>, "
        f"dilations = dense<{list(dilations)}> : vector<{window_rank}xi64>"
    )
    names = [f"%in{i}" for i in range(len(inputs))]
    args = ", ".join(f"{n}: {_type(a)}" for n, a in zip(names, inputs, strict=True))
    return f"""
    func.func @main({args}, %out: {_type(out)}) {{
      linalg.{op} {{{attrs}}} ins({", ".join(names)} : {", ".join(_type(a) for a in inputs)}) outs(%out : {_type(out)})
      func.return
    }}
    """


def _randn(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


CONV_CASES = {
    # op: (input, filter, reference from (input, filter) in the op's layouts)
    "conv_2d_nchw_fchw": (
        (2, 3, 11, 10),
        (4, 3, 3, 2),
        conv_nchw,
    ),
    "conv_2d_nhwc_hwcf": (
        (2, 11, 10, 3),
        (3, 2, 3, 4),
        lambda x, w, s, d: _nhwc(conv_nchw)(x, w.transpose(3, 2, 0, 1), s, d),
    ),
    "conv_2d_nhwc_fhwc": (
        (1, 11, 10, 3),
        (4, 3, 2, 3),
        lambda x, w, s, d: _nhwc(conv_nchw)(x, w.transpose(0, 3, 1, 2), s, d),
    ),
    "depthwise_conv_2d_nchw_chw": (
        (2, 5, 11, 10),
        (5, 3, 2),
        depthwise_nchw,
    ),
    "depthwise_conv_2d_nhwc_hwc": (
        (2, 11, 10, 5),
        (3, 2, 5),
        lambda x, w, s, d: _nhwc(depthwise_nchw)(x, np.moveaxis(w, -1, 0), s, d),
    ),
    "conv_2d_ngchw_gfchw": (
        (2, 3, 2, 11, 10),
        (3, 4, 2, 3, 2),
        lambda x, w, s, d: np.stack(
            [conv_nchw(x[:, g], w[g], s, d) for g in range(x.shape[1])], axis=1
        ),
    ),
}

WINDOWS = [((1, 1), (1, 1)), ((2, 1), (1, 2)), ((3, 2), (2, 1))]
"""(strides, dilations) for each case."""


@pytest.mark.parametrize(("strides", "dilations"), WINDOWS)
@pytest.mark.parametrize("op", sorted(CONV_CASES))
def test_conv_accumulates_the_reference_convolution(
    run: Run, op: str, strides, dilations
):
    input_shape, filter_shape, reference = CONV_CASES[op]
    x, w = _randn(*input_shape), _randn(*filter_shape)
    expected_shape = np.shape(reference(x, w, strides, dilations))
    out = _randn(*expected_shape)
    expected = out + reference(x, w, strides, dilations)
    run(_named_program(op, [x, w], out, 2, strides, dilations), x, w, out)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_conv_1d_ncw_fcw_matches_numpy(run: Run):
    x, w = _randn(2, 3, 17), _randn(4, 3, 3)
    out = np.zeros((2, 4, 7), np.float32)
    run(_named_program("conv_1d_ncw_fcw", [x, w], out, 1, (2,), (2,)), x, w, out)
    np.testing.assert_allclose(out, conv_nchw(x, w, (2,), (2,)), rtol=1e-5, atol=1e-5)


POOL_CASES = {
    "pooling_nchw_max": (False, np.maximum),
    "pooling_nchw_sum": (False, np.add),
    "pooling_nhwc_max": (True, np.maximum),
    "pooling_nhwc_min": (True, np.minimum),
    "pooling_nhwc_sum": (True, np.add),
}


@pytest.mark.parametrize(("strides", "dilations"), WINDOWS)
@pytest.mark.parametrize("op", sorted(POOL_CASES))
def test_pooling_folds_the_window_into_the_output(
    run: Run, op: str, strides, dilations
):
    channels_last, ufunc = POOL_CASES[op]
    x = _randn(2, 11, 10, 3) if channels_last else _randn(2, 3, 11, 10)
    window = np.zeros((3, 2), np.float32)
    reference = _nhwc(pool_nchw) if channels_last else pool_nchw
    pooled = reference(x, (3, 2), strides, dilations, ufunc)
    out = _randn(*pooled.shape)
    expected = ufunc(out, pooled)
    run(_named_program(op, [x, window], out, 2, strides, dilations), x, window, out)
    np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)


def test_unsigned_max_pooling_reads_bytes_as_unsigned(run: Run):
    x = RNG.integers(-128, 128, (1, 6, 6, 2), dtype=np.int8)
    window = np.zeros((2, 2), np.int8)
    out = np.zeros((1, 3, 3, 2), np.int32)
    program = _named_program(
        "pooling_nhwc_max_unsigned", [x, window], out, 2, (2, 2), (1, 1)
    )
    run(program, x, window, out)
    expected = _nhwc(pool_nchw)(
        x.view(np.uint8).astype(np.int32), (2, 2), (2, 2), (1, 1), np.maximum
    )
    np.testing.assert_array_equal(out, expected)


def test_large_conv_is_contracted_in_chunks(run: Run, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(contraction, "MAX_MATRIX_ELEMENTS", 50)
    x, w = _randn(1, 2, 9, 9), _randn(3, 2, 3, 3)
    out = np.zeros((1, 3, 7, 7), np.float32)
    run(_named_program("conv_2d_nchw_fchw", [x, w], out, 2, (1, 1), (1, 1)), x, w, out)
    np.testing.assert_allclose(
        out, conv_nchw(x, w, (1, 1), (1, 1)), rtol=1e-5, atol=1e-5
    )


def test_int8_convolution_generic_accumulates_exactly_in_i32(run: Run):
    program = """
    #in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>
    #w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
    #out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
    func.func @main(%x: memref<1x3x9x9xi8>, %w: memref<2x3x3x3xi8>, %o: memref<1x2x4x4xi32>) {
      linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : memref<1x3x9x9xi8>, memref<2x3x3x3xi8>) outs(%o : memref<1x2x4x4xi32>) {
      ^bb0(%a: i8, %b: i8, %acc: i32):
        %a32 = arith.extsi %a : i8 to i32
        %b32 = arith.extsi %b : i8 to i32
        %p = arith.muli %a32, %b32 : i32
        %s = arith.addi %acc, %p : i32
        linalg.yield %s : i32
      }
      func.return
    }
    """
    x = RNG.integers(-128, 128, (1, 3, 9, 9), dtype=np.int8)
    w = RNG.integers(-128, 128, (2, 3, 3, 3), dtype=np.int8)
    out = np.zeros((1, 2, 4, 4), np.int32)
    run(program, x, w, out)
    expected = conv_nchw(x.astype(np.int64), w.astype(np.int64), (2, 2), (1, 1))
    np.testing.assert_array_equal(out, expected)


def test_im2col_generic_with_floordiv_and_mod_maps_matches_numpy(run: Run):
    # columns[m, k] = x[c, oh + kh, ow + kw] with m = oh * 4 + ow, k = c * 9 + kh * 3 + kw
    program = """
    #in = affine_map<(m, k) -> (k floordiv 9, m floordiv 4 + (k mod 9) floordiv 3, m mod 4 + k mod 3)>
    #out = affine_map<(m, k) -> (m, k)>
    func.func @main(%x: memref<2x6x6xf32>, %cols: memref<16x18xf32>) {
      linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%x : memref<2x6x6xf32>) outs(%cols : memref<16x18xf32>) {
      ^bb0(%a: f32, %unused: f32):
        linalg.yield %a : f32
      }
      func.return
    }
    """
    x = _randn(2, 6, 6)
    cols = np.zeros((16, 18), np.float32)
    run(program, x, cols)
    windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))
    np.testing.assert_array_equal(
        cols, windows.transpose(1, 2, 0, 3, 4).reshape(16, 18)
    )


def test_batch_matmul_with_a_transposed_operand_map(run: Run):
    program = """
    func.func @main(%a: memref<3x4x5xf32>, %b: memref<3x2x5xf32>, %c: memref<3x4x2xf32>) {
      linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, j, k)>, affine_map<(b, i, j, k) -> (b, i, j)>] ins(%a, %b : memref<3x4x5xf32>, memref<3x2x5xf32>) outs(%c : memref<3x4x2xf32>)
      func.return
    }
    """
    a, b = _randn(3, 4, 5), _randn(3, 2, 5)
    c = _randn(3, 4, 2)
    expected = c + a @ b.transpose(0, 2, 1)
    run(program, a, b, c)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-6)


def test_window_reaching_past_a_dynamic_input_is_an_error(run: Run):
    program = """
    #in = affine_map<(o, k) -> (o * 2 + k)>
    #w = affine_map<(o, k) -> (k)>
    #out = affine_map<(o, k) -> (o)>
    func.func @main(%x: memref<?xf32>, %w: memref<3xf32>, %o: memref<4xf32>) {
      linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<?xf32>, memref<3xf32>) outs(%o : memref<4xf32>) {
      ^bb0(%a: f32, %b: f32, %acc: f32):
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      }
      func.return
    }
    """
    out = np.zeros(4, np.float32)
    run(program, _randn(9), _randn(3), out)
    with pytest.raises(
        InterpretationError,
        match=r"linalg\.generic.*operand 0 reaches indices 0\.\.8 of dimension 0, "
        r"which has size 8",
    ):
        run(program, _randn(8), _randn(3), out)


EMBEDDING = """
#ids = affine_map<(i, j) -> (i)>
#out = affine_map<(i, j) -> (i, j)>
func.func @main(%table: memref<10x4xf32>, %ids: memref<6xi64>, %out: memref<6x4xf32>) {
  %rows = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]} ins(%ids : memref<6xi64>) outs(%out : memref<6x4xf32>) {
  ^bb0(%id: i64, %unused: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %below = arith.cmpi slt, %row, %rows : index
    cf.assert %below, "index must be smaller than dim size"
    %above = arith.cmpi sge, %id, %zero : i64
    cf.assert %above, "index must be larger or equal to 0"
    %v = memref.load %table[%row, %col] : memref<10x4xf32>
    linalg.yield %v : f32
  }
  func.return
}
"""


def test_embedding_gather_in_a_body_matches_numpy_take(run: Run):
    table = _randn(10, 4)
    ids = np.array([3, 0, 9, 3, 7, 1], np.int64)
    out = np.zeros((6, 4), np.float32)
    run(EMBEDDING, table, ids, out)
    np.testing.assert_array_equal(out, table[ids])


def test_embedding_index_out_of_range_fails_its_assertion(run: Run):
    ids = np.array([3, 0, 10, 3, 7, 1], np.int64)
    with pytest.raises(
        InterpretationError,
        match="assertion failed: index must be smaller than dim size",
    ):
        run(EMBEDDING, _randn(10, 4), ids, np.zeros((6, 4), np.float32))


def test_linalg_map_fills_and_maps_its_inputs(run: Run):
    program = """
    func.func @main(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %pad: memref<5x6xf32>) {
      %v = arith.constant 1.5 : f32
      linalg.map outs(%pad : memref<5x6xf32>) (%unused: f32) {
        linalg.yield %v : f32
      }
      linalg.map ins(%a : memref<3x4xf32>) outs(%b : memref<3x4xf32>) (%x: f32, %init: f32) {
        %r = math.exp %x : f32
        linalg.yield %r : f32
      }
      func.return
    }
    """
    a, b = _randn(3, 4), np.zeros((3, 4), np.float32)
    pad = np.zeros((5, 6), np.float32)
    run(program, a, b, pad)
    np.testing.assert_array_equal(pad, np.full((5, 6), 1.5, np.float32))
    np.testing.assert_array_equal(b, np.exp(a.astype(np.float64)).astype(np.float32))


def test_argmax_reduction_keeps_the_first_maximum_in_loop_order(run: Run):
    # torch-mlir's max-with-index: the index moves only on a strictly greater value
    program = """
    #in = affine_map<(i, j) -> (i, j)>
    #out = affine_map<(i, j) -> (i)>
    func.func @main(%x: memref<4x6xf32>, %best: memref<4xf32>, %at: memref<4xi64>) {
      linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%best, %at : memref<4xf32>, memref<4xi64>) {
      ^bb0(%v: f32, %m: f32, %k: i64):
        %j = linalg.index 1 : index
        %jj = arith.index_cast %j : index to i64
        %new = arith.maximumf %v, %m : f32
        %greater = arith.cmpf ogt, %v, %m : f32
        %idx = arith.select %greater, %jj, %k : i64
        linalg.yield %new, %idx : f32, i64
      }
      func.return
    }
    """
    x = np.array(
        [
            [1, 5, 2, 5, 0, 3],
            [-1, -2, -3, -4, -5, -6],
            [0, 0, 7, 7, 7, 1],
            [-9, -9, -9, -9, -9, -9],
        ],
        np.float32,
    )
    best = np.array([-np.inf, -np.inf, -np.inf, -8], np.float32)
    at = np.full(4, -1, np.int64)
    run(program, x, best, at)
    np.testing.assert_array_equal(best, [5, -1, 7, -8])
    np.testing.assert_array_equal(at, [1, 0, 2, -1])


def _sequential_arg_reduction(x, value, index, combine, better):
    """Reference: the body run in loop order, one row at a time."""
    value, index = value.copy(), index.copy()
    for row in range(x.shape[0]):
        for step, v in enumerate(x[row]):
            if better(v, value[row]):
                index[row] = step
            value[row] = combine(v, value[row])
    return value, index


ARG_REDUCTION = """
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
func.func @main(%x: memref<5x7xf32>, %best: memref<5xf32>, %at: memref<5xi64>) {
  linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<5x7xf32>) outs(%best, %at : memref<5xf32>, memref<5xi64>) {
  ^bb0(%v: f32, %m: f32, %k: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %new = arith.COMBINE %v, %m : f32
    %better = arith.cmpf PREDICATE, %v, %m : f32
    %idx = arith.select %better, %jj, %k : i64
    linalg.yield %new, %idx : f32, i64
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("combine", "predicate", "ufunc", "better"),
    [
        ("maximumf", "ogt", np.maximum, lambda v, m: v > m),
        ("minimumf", "olt", np.minimum, lambda v, m: v < m),
        ("maximumf", "oge", np.maximum, lambda v, m: v >= m),
    ],
)
def test_arg_reduction_with_ties_and_nans_matches_the_sequential_loop(
    run: Run, combine: str, predicate: str, ufunc: np.ufunc, better
):
    x = RNG.integers(-3, 4, (5, 7)).astype(np.float32)
    x[1, 4] = np.nan
    x[3, 0] = np.nan
    value = np.array([-np.inf, 0, 1, np.inf, -1], np.float32)
    index = np.arange(5, dtype=np.int64) * 10
    expected = _sequential_arg_reduction(x, value, index, ufunc, better)
    program = ARG_REDUCTION.replace("COMBINE", combine).replace("PREDICATE", predicate)
    run(program, x, value, index)
    np.testing.assert_array_equal(value, expected[0])
    np.testing.assert_array_equal(index, expected[1])


def test_arg_reduction_over_two_loops_runs_in_loop_order(run: Run):
    # the index of the maximum over (j, k) as j * 3 + k, reduced step by step
    program = """
    #in = affine_map<(i, j, k) -> (i, j, k)>
    #out = affine_map<(i, j, k) -> (i)>
    func.func @main(%x: memref<4x2x3xf32>, %best: memref<4xf32>, %at: memref<4xi64>) {
      linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : memref<4x2x3xf32>) outs(%best, %at : memref<4xf32>, memref<4xi64>) {
      ^bb0(%v: f32, %m: f32, %k: i64):
        %j = linalg.index 1 : index
        %l = linalg.index 2 : index
        %c3 = arith.constant 3 : index
        %row = arith.muli %j, %c3 : index
        %flat = arith.addi %row, %l : index
        %ff = arith.index_cast %flat : index to i64
        %new = arith.maximumf %v, %m : f32
        %better = arith.cmpf ogt, %v, %m : f32
        %idx = arith.select %better, %ff, %k : i64
        linalg.yield %new, %idx : f32, i64
      }
      func.return
    }
    """
    x = RNG.integers(-3, 4, (4, 2, 3)).astype(np.float32)
    value = np.full(4, -np.inf, np.float32)
    index = np.full(4, -1, np.int64)
    expected = _sequential_arg_reduction(
        x.reshape(4, 6), value, index, np.maximum, lambda v, m: v > m
    )
    run(program, x, value, index)
    np.testing.assert_array_equal(value, expected[0])
    np.testing.assert_array_equal(index, expected[1])


def test_full_reductions_into_0d_outputs(run: Run):
    program = """
    func.func @main(%a: memref<4x5xf32>, %v: memref<7xf32>, %s: memref<f32>, %m: memref<f32>, %i: memref<i64>) {
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : memref<4x5xf32>) outs(%s : memref<f32>) {
      ^bb0(%x: f32, %acc: f32):
        %r = arith.addf %x, %acc : f32
        linalg.yield %r : f32
      }
      linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%v : memref<7xf32>) outs(%m, %i : memref<f32>, memref<i64>) {
      ^bb0(%x: f32, %best: f32, %k: i64):
        %j = linalg.index 0 : index
        %jj = arith.index_cast %j : index to i64
        %new = arith.maximumf %x, %best : f32
        %better = arith.cmpf ogt, %x, %best : f32
        %idx = arith.select %better, %jj, %k : i64
        linalg.yield %new, %idx : f32, i64
      }
      func.return
    }
    """
    a = _randn(4, 5)
    v = np.array([1, 5, 2, 5, -1, 0, 3], np.float32)
    total, best = np.zeros((), np.float32), np.full((), -np.inf, np.float32)
    at = np.zeros((), np.int64)
    run(program, a, v, total, best, at)
    np.testing.assert_allclose(total, a.sum(), rtol=1e-6)
    assert (best, at) == (5, 1)

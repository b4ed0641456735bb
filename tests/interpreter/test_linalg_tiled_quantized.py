"""mmt4d, the quantized ops with zero points, softmax and reduce's short form
give what numpy gives."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter.errors import InterpretationError

RNG = np.random.default_rng(0)


def test_mmt4d_accumulates_tiles_with_widened_i8(run: Run):
    program = """
    func.func @main(%a: memref<2x3x4x5xi8>, %b: memref<6x3x7x5xi8>, %c: memref<2x6x4x7xi32>) {
      linalg.mmt4d ins(%a, %b : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%c : memref<2x6x4x7xi32>)
      func.return
    }
    """
    a = RNG.integers(-128, 128, (2, 3, 4, 5), dtype=np.int8)
    b = RNG.integers(-128, 128, (6, 3, 7, 5), dtype=np.int8)
    c = RNG.integers(-1000, 1000, (2, 6, 4, 7), dtype=np.int32)
    expected = c + np.einsum("mkxz,nkyz->mnxy", a.astype(np.int32), b.astype(np.int32))
    run(program, a, b, c)
    np.testing.assert_array_equal(c, expected)


def test_batch_mmt4d_matches_numpy(run: Run):
    program = """
    func.func @main(%a: memref<3x2x3x4x5xf32>, %b: memref<3x6x3x7x5xf32>, %c: memref<3x2x6x4x7xf32>) {
      linalg.batch_mmt4d ins(%a, %b : memref<3x2x3x4x5xf32>, memref<3x6x3x7x5xf32>) outs(%c : memref<3x2x6x4x7xf32>)
      func.return
    }
    """
    a = RNG.standard_normal((3, 2, 3, 4, 5), dtype=np.float32)
    b = RNG.standard_normal((3, 6, 3, 7, 5), dtype=np.float32)
    c = np.zeros((3, 2, 6, 4, 7), np.float32)
    run(program, a, b, c)
    np.testing.assert_allclose(
        c, np.einsum("bmkxz,bnkyz->bmnxy", a, b), rtol=1e-5, atol=1e-5
    )


def test_quantized_batch_matmul_subtracts_zero_points(run: Run):
    program = """
    func.func @main(%a: memref<4x2x3xi8>, %b: memref<4x3x5xi8>, %az: i8, %bz: i8, %c: memref<4x2x5xi32>) {
      linalg.quantized_batch_matmul ins(%a, %b, %az, %bz : memref<4x2x3xi8>, memref<4x3x5xi8>, i8, i8) outs(%c : memref<4x2x5xi32>)
      func.return
    }
    """
    a = RNG.integers(-128, 128, (4, 2, 3), dtype=np.int8)
    b = RNG.integers(-128, 128, (4, 3, 5), dtype=np.int8)
    c = np.ones((4, 2, 5), np.int32)
    run(program, a, b, -7, 12, c)
    expected = 1 + (a.astype(np.int32) + 7) @ (b.astype(np.int32) - 12)
    np.testing.assert_array_equal(c, expected)


def test_quantized_conv_with_strides_subtracts_zero_points(run: Run):
    program = """
    func.func @main(%i: memref<1x7x6x2xi8>, %k: memref<2x3x2x3xi8>, %iz: i32, %kz: i32, %o: memref<1x3x4x3xi32>) {
      linalg.conv_2d_nhwc_hwcf_q {strides = dense<[2, 1]> : vector<2xi64>} ins(%i, %k, %iz, %kz : memref<1x7x6x2xi8>, memref<2x3x2x3xi8>, i32, i32) outs(%o : memref<1x3x4x3xi32>)
      func.return
    }
    """
    image = RNG.integers(-128, 128, (1, 7, 6, 2), dtype=np.int8)
    kernel = RNG.integers(-128, 128, (2, 3, 2, 3), dtype=np.int8)
    out = np.zeros((1, 3, 4, 3), np.int32)
    run(program, image, kernel, 5, -3, out)
    x, w = image.astype(np.int32) - 5, kernel.astype(np.int32) + 3
    expected = np.zeros_like(out)
    for oh in range(3):
        for ow in range(4):
            window = x[0, 2 * oh : 2 * oh + 2, ow : ow + 3, :]
            expected[0, oh, ow] = np.einsum("hwc,hwcf->f", window, w)
    np.testing.assert_array_equal(out, expected)


def _softmax_program(shape: str, dimension: int) -> str:
    return f"""
    func.func @main(%x: memref<{shape}xf32>, %y: memref<{shape}xf32>) {{
      linalg.softmax dimension({dimension}) ins(%x : memref<{shape}xf32>) outs(%y : memref<{shape}xf32>)
      func.return
    }}
    """


@pytest.mark.parametrize("dimension", [0, 1, 2])
def test_softmax_matches_numpy_along_its_dimension(run: Run, dimension: int):
    x = RNG.standard_normal((3, 4, 5), dtype=np.float32) * 10
    y = np.zeros_like(x)
    run(_softmax_program("3x4x5", dimension), x, y)
    exps = np.exp(x - x.max(axis=dimension, keepdims=True))
    np.testing.assert_allclose(
        y, exps / exps.sum(axis=dimension, keepdims=True), rtol=1e-6
    )


def test_softmax_skips_nan_in_the_maximum_as_maxnumf(run: Run):
    """The maximum is a maxnumf from NaN: a row of -inf gives NaN (-inf - -inf),
    a NaN element makes its whole row NaN through the sum."""
    x = np.array([[1.0, -np.inf, 3.0], [-np.inf] * 3, [0.0, np.nan, 1.0]], np.float32)
    y = np.zeros_like(x)
    run(_softmax_program("3x3", 1), x, y)
    exps = np.exp(np.array([1.0, -np.inf, 3.0], np.float32) - np.float32(3.0))
    np.testing.assert_array_equal(y[0], exps / exps.sum())
    assert np.isnan(y[1:]).all()


def test_softmax_on_integers_is_refused(run: Run):
    program = """
    func.func @main(%x: memref<2x3xi32>, %y: memref<2x3xi32>) {
      linalg.softmax dimension(1) ins(%x : memref<2x3xi32>) outs(%y : memref<2x3xi32>)
      func.return
    }
    """
    with pytest.raises(InterpretationError, match=r"linalg\.softmax on int32 elements"):
        run(program, np.zeros((2, 3), np.int32), np.zeros((2, 3), np.int32))


def test_reduce_short_form_folds_into_the_init(run: Run):
    program = """
    func.func @main(%a: memref<4x6xi32>, %c: memref<4xi32>) {
      linalg.reduce { arith.maxsi } ins(%a : memref<4x6xi32>) outs(%c : memref<4xi32>) dimensions = [1]
      func.return
    }
    """
    a = RNG.integers(-100, 100, (4, 6), dtype=np.int32)
    c = np.array([0, 1000, -1000, 50], np.int32)
    expected = np.maximum(c, a.max(axis=1))
    run(program, a, c)
    np.testing.assert_array_equal(c, expected)


def test_reduce_short_form_subf_subtracts_from_the_init_in_order(run: Run):
    """MLIR's short form builds subf(init, in): a fold no ufunc does, run one
    step per reduced index."""
    program = """
    func.func @main(%a: memref<3x4xf32>, %c: memref<3xf32>) {
      linalg.reduce { arith.subf } ins(%a : memref<3x4xf32>) outs(%c : memref<3xf32>) dimensions = [1]
      func.return
    }
    """
    a = RNG.standard_normal((3, 4), dtype=np.float32)
    c = np.array([1.0, -2.0, 0.5], np.float32)
    expected = c.copy()
    for k in range(4):
        expected = expected - a[:, k]
    run(program, a, c)
    np.testing.assert_array_equal(c, expected)

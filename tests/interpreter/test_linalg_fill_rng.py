"""`linalg.fill_rng_2d` computes MLIR's LCG bit for bit: i32 arithmetic that
wraps, then f64 scaling into [min, max) and a cast to the output type."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

PROGRAM = """
func.func @main(%min: f64, %max: f64, %seed: i32, %o: memref<{shape}x{element}>) {{
  linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%o : memref<{shape}x{element}>)
  func.return
}}
"""


def _wrap_i32(values: np.ndarray) -> np.ndarray:
    return (values + 2**31) % 2**32 - 2**31


def _fill_rng_2d(
    rows: int, columns: int, low: float, high: float, seed: int
) -> np.ndarray:
    """MLIR's OpDSL definition, written with numpy in f64 and exact i64."""
    m = np.arange(rows, dtype=np.int64)[:, None]
    n = np.arange(columns, dtype=np.int64)[None, :]
    first = _wrap_i32((m + seed) * 1103515245 + 12345)
    second = _wrap_i32((n + first) * 1103515245 + 12345)
    scaling = (high - low) * 2.3283064e-10
    return (2147483647.0 + second.astype(np.float64)) * scaling + low


@pytest.mark.parametrize("seed", [0, 42, -7, 2**31 - 1])
def test_fill_rng_2d_matches_the_lcg_in_f32(run: Run, seed: int):
    out = np.zeros((5, 7), np.float32)
    run(PROGRAM.format(shape="5x7", element="f32"), -1.0, 3.0, seed, out)
    expected = _fill_rng_2d(5, 7, -1.0, 3.0, seed).astype(np.float32)
    np.testing.assert_array_equal(out, expected)
    assert ((out >= -1.0) & (out <= 3.0)).all()


def test_fill_rng_2d_in_f64_keeps_every_bit(run: Run):
    out = np.zeros((3, 4))
    run(PROGRAM.format(shape="3x4", element="f64"), 0.0, 1.0, 123, out)
    np.testing.assert_array_equal(out, _fill_rng_2d(3, 4, 0.0, 1.0, 123))


def test_fill_rng_2d_into_integers_truncates_toward_zero(run: Run):
    out = np.zeros((4, 6), np.int32)
    run(PROGRAM.format(shape="4x6", element="i32"), -100.0, 100.0, 9, out)
    expected = _fill_rng_2d(4, 6, -100.0, 100.0, 9)
    np.testing.assert_array_equal(out, np.trunc(expected).astype(np.int32))
    assert (expected < 0).any() and (expected > 0).any()

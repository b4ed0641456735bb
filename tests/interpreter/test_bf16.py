"""bf16 runs through ml_dtypes: mapping, rounding, constants, casts, linalg, globals."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from interpreter_helpers import Run
from test_resource_globals import blob, program
from xdsl.dialects.builtin import BFloat16Type, MemRefType

from memplan.interpreter.arguments import arguments_from_npz
from memplan.interpreter.element_types import BF16, convert, numpy_dtype

BITS = np.arange(1 << 16, dtype=np.uint16).view(BF16)
"""Every bf16 value, by bit pattern."""

RNG = np.random.default_rng(0)


def nearest_even(value: float) -> float:
    """`value` rounded to bf16 by brute force over every finite bf16."""
    finite = np.unique(
        BITS[(BITS.view(np.uint16) & 0x7F80) != 0x7F80].astype(np.float64)
    )
    if abs(value) >= float(finite[-1]) + 2.0 ** (127 - 8):
        return float(np.copysign(np.inf, value))
    distance = np.abs(finite - value)
    candidates = finite[distance == distance.min()]
    even = [
        c for c in candidates if int(np.array(c).astype(BF16).view(np.uint16)) % 2 == 0
    ]
    return float(even[0] if len(candidates) > 1 else candidates[0])


def test_bf16_maps_to_ml_dtypes_bfloat16_of_two_bytes():
    dtype = numpy_dtype(BFloat16Type())
    assert dtype == np.dtype(ml_dtypes.bfloat16)
    assert dtype.itemsize == 2


@pytest.mark.parametrize(
    "value", [1 + 2**-8 + 2**-30, 1 + 2**-8, 1 + 3 * 2**-8, -3.3, 3.3895e38, 3.4e38]
)
def test_f64_to_bf16_rounds_once_to_nearest_even(value: float):
    got = convert(np.array([value]), BF16)
    assert float(got[0]) == nearest_even(value)


def test_large_i32_to_bf16_rounds_once():
    values = np.array(
        [(1 << 24) + (1 << 16) + 1, -((1 << 30) + (1 << 22) + 3)], np.int32
    )
    got = convert(values, BF16).astype(np.float64)
    assert list(got) == [nearest_even(float(v)) for v in values]


def test_bf16_constants_scalar_dense_and_hex_bits(run: Run):
    text = """
    memref.global constant @t : memref<4xbf16> = dense<[1.5, 0x3FC0, 0xFF80, -2.0]>
    func.func @main() -> (bf16, memref<4xbf16>) {
      %s = arith.constant 1.00390625000001 : bf16
      %m = memref.get_global @t : memref<4xbf16>
      func.return %s, %m : bf16, memref<4xbf16>
    }
    """
    scalar, dense = run(text).results
    assert float(np.asarray(scalar)) == nearest_even(1.00390625000001)
    assert np.asarray(dense).dtype == BF16
    np.testing.assert_array_equal(
        np.asarray(dense).view(np.uint16), [0x3FC0, 0x3FC0, 0xFF80, 0xC000]
    )


CASTS = """
func.func @main(%x: bf16, %i: i32) -> (f32, f16, bf16, bf16, i32, bf16) {
  %f = arith.extf %x : bf16 to f32
  %h = arith.truncf %f : f32 to f16
  %b = arith.extf %h : f16 to f32
  %back = arith.truncf %b : f32 to bf16
  %k = arith.fptosi %x : bf16 to i32
  %s = arith.sitofp %i : i32 to bf16
  %n = arith.truncf %f : f32 to bf16
  func.return %f, %h, %back, %s, %k, %n : f32, f16, bf16, bf16, i32, bf16
}
"""


def test_bf16_casts_to_and_from_f32_f16_and_i32(run: Run):
    x = np.array(-2.6875, BF16)[()]
    f, h, back, s, k, n = run(CASTS, x, 16777217 + (1 << 16)).results
    assert (f, h, back, k, n) == (-2.6875, -2.6875, -2.6875, -2, -2.6875)
    assert float(np.asarray(s)) == nearest_even(16777217 + (1 << 16))


def test_bf16_elementwise_add_rounds_each_element(run: Run):
    a, b = RNG.standard_normal((2, 8, 16)).astype(BF16)
    c = np.zeros_like(a)
    run(
        """
        func.func @main(%a: memref<8x16xbf16>, %b: memref<8x16xbf16>, %c: memref<8x16xbf16>) {
          linalg.add ins(%a, %b : memref<8x16xbf16>, memref<8x16xbf16>)
                     outs(%c : memref<8x16xbf16>)
          func.return
        }
        """,
        a,
        b,
        c,
    )
    expected = convert(a.astype(np.float64) + b.astype(np.float64), BF16)
    np.testing.assert_array_equal(c.view(np.uint16), expected.view(np.uint16))


def test_bf16_matmul_sums_in_f32_and_rounds_into_the_output(run: Run):
    a = RNG.standard_normal((8, 32)).astype(BF16)
    b = RNG.standard_normal((32, 4)).astype(BF16)
    c = RNG.standard_normal((8, 4)).astype(BF16)
    start = c.copy()
    run(
        """
        func.func @main(%a: memref<8x32xbf16>, %b: memref<32x4xbf16>, %c: memref<8x4xbf16>) {
          linalg.matmul ins(%a, %b : memref<8x32xbf16>, memref<32x4xbf16>)
                        outs(%c : memref<8x4xbf16>)
          func.return
        }
        """,
        a,
        b,
        c,
    )
    exact = start.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    assert c.dtype == BF16
    np.testing.assert_allclose(c.astype(np.float64), exact, rtol=2**-8, atol=1e-6)


def test_bf16_dense_resource_global_reads_its_bits(run: Run):
    values = np.array([1.0, -2.5, np.inf, 3.0e38, 2**-130], BF16)
    text = program(
        "memref.global constant @w : memref<5xbf16> = dense_resource<w>",
        """%w = memref.get_global @w : memref<5xbf16>
        func.return %w : memref<5xbf16>""",
        "memref<5xbf16>",
        {"w": blob(values)},
    )
    (result,) = run(text).results
    assert np.asarray(result).dtype == BF16
    np.testing.assert_array_equal(
        np.asarray(result).view(np.uint16), values.view(np.uint16)
    )


def test_npz_bf16_argument_round_trips_through_savez(tmp_path):
    values = np.array([[1.5, -0.0078125]], BF16)
    path = tmp_path / "args.npz"
    np.savez(path, arg0=values)
    assert np.load(path)["arg0"].dtype == np.dtype("V2")
    types = [MemRefType(BFloat16Type(), [1, 2])]
    (argument,) = arguments_from_npz(str(path), types, 64)
    assert isinstance(argument, np.ndarray) and argument.dtype == BF16
    np.testing.assert_array_equal(argument.view(np.uint16), values.view(np.uint16))


def test_copy_of_bf16_memref_counts_two_bytes_per_element(run: Run):
    text = """
    func.func @main(%a: memref<6xbf16>) -> memref<6xbf16> {
      %b = memref.alloc() : memref<6xbf16>
      memref.copy %a, %b : memref<6xbf16> to memref<6xbf16>
      func.return %b : memref<6xbf16>
    }
    """
    result = run(text, np.arange(6).astype(BF16))
    assert sum(result.stats.bytes_copied.values()) == 12

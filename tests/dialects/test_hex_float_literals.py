"""Hex elements of float dense literals mean what they mean in MLIR.

MLIR reads `dense<0xFF800000> : tensor<f32>` as the bits of an f32 (-inf);
it rejects a leading minus (`-0x...`) and a pattern wider than the element
type (checked against the MLIR that torch-mlir 20261001 bundles; the error
texts are MLIR's).  Every memplan entry point that parses text must agree.
"""

from __future__ import annotations

import io
import math
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.utils.exceptions import ParseError

from memplan.context import memplan_context, parse_module
from memplan.interpreter.source import parse_with_locations
from memplan.parser import MemplanParser
from memplan.tools import memplan_run
from memplan.tools.memplan_opt import MemplanOptMain
from memplan.tools.module_trace import read_module

WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
NEG_INF = {"f16": 0xFC00, "bf16": 0xFF80, "f32": 0xFF800000, "f64": 0xFFF << 52}


def _constant(literal: str, type_: str) -> str:
    return (
        f"func.func @main() -> {type_} {{\n"
        f"  %c = arith.constant dense<{literal}> : {type_}\n"
        f"  func.return %c : {type_}\n}}\n"
    )


def _dense(module: ModuleOp) -> DenseIntOrFPElementsAttr:
    (constant,) = [op for op in module.walk() if isinstance(op, ConstantOp)]
    value = constant.value
    assert isinstance(value, DenseIntOrFPElementsAttr)
    return value


def _parsed(literal: str, type_: str) -> DenseIntOrFPElementsAttr:
    return _dense(parse_module(_constant(literal, type_)))


def _pattern(bits: int, element: str) -> bytes:
    return bits.to_bytes(WIDTHS[element] // 8, "little")


@pytest.mark.parametrize("element", sorted(WIDTHS))
def test_hex_splat_is_the_bit_pattern_not_the_integer(element: str):
    attr = _parsed(f"{NEG_INF[element]:#x}", f"tensor<3x{element}>")
    assert attr.data.data == _pattern(NEG_INF[element], element) * 3
    assert list(attr.get_values()) == [-math.inf] * 3


@pytest.mark.parametrize("element", sorted(WIDTHS))
@given(data=st.data())
def test_every_bit_pattern_is_kept_exactly(element: str, data: st.DataObject):
    """NaN payloads and signaling NaNs included, splat and element list."""
    patterns = data.draw(
        st.lists(st.integers(0, (1 << WIDTHS[element]) - 1), min_size=1, max_size=5)
    )
    listed = _parsed(
        "[" + ", ".join(f"{p:#x}" for p in patterns) + "]",
        f"tensor<{len(patterns)}x{element}>",
    )
    assert listed.data.data == b"".join(_pattern(p, element) for p in patterns)
    splat = _parsed(f"0x{patterns[0]:X}", f"tensor<2x{element}>")
    assert splat.data.data == _pattern(patterns[0], element) * 2


def test_hex_splat_of_an_empty_tensor_stays_empty():
    assert _parsed("0xFF800000", "tensor<0xf32>").data.data == b""


def test_hex_and_decimal_elements_mix():
    attr = _parsed("[[0x7F800000, -2.5], [0x3E800000, 1.0]]", "tensor<2x2xf32>")
    got = np.frombuffer(attr.data.data, np.float32)
    np.testing.assert_array_equal(got, [np.inf, -2.5, 0.25, 1.0])


def test_hex_parts_of_complex_float_elements_are_bit_patterns():
    attr = _parsed(
        "[(0x3FC00000, 0x3F800000), (0xFF800000, 0xC0000000)]", "tensor<2xcomplex<f32>>"
    )
    got = np.frombuffer(attr.data.data, np.complex64)
    np.testing.assert_array_equal(got, [1.5 + 1j, complex(-np.inf, -2.0)])


def test_complex_integer_elements_are_unchanged():
    attr = _parsed("(0x10, 3)", "tensor<complex<i32>>")
    assert np.frombuffer(attr.data.data, np.int32).tolist() == [16, 3]


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ("(0x3C00, -0x0)", "should not have a leading minus"),
        ("(0x10000, 0x0)", "hexadecimal float constant out of range"),
    ],
)
def test_complex_hex_parts_get_mlirs_errors(literal: str, message: str):
    with pytest.raises(ParseError, match=message):
        _parsed(literal, "tensor<complex<f16>>")


def test_decimal_integer_for_a_float_keeps_xdsls_reading():
    """MLIR rejects `dense<3> : tensor<f32>`; xDSL reads 3.0, and so do we:
    the value written, never a bit pattern."""
    assert list(_parsed("[3, -1]", "tensor<2xf32>").get_values()) == [3.0, -1.0]


def test_integer_elements_are_unchanged():
    assert list(_parsed("[0xFF, -0x1]", "tensor<2xi32>").get_values()) == [255, -1]


@pytest.mark.parametrize("literal", ["-0xFF800000", "-0x0", "[1.0, -0x3F800000]"])
def test_leading_minus_on_hex_float_is_mlirs_error(literal: str):
    with pytest.raises(ParseError, match="should not have a leading minus"):
        _parsed(literal, "tensor<2xf32>")


@pytest.mark.parametrize(
    ("literal", "element"),
    [("0x10000", "f16"), ("0x1FF80", "bf16"), ("0x100000000", "f32")],
)
def test_pattern_wider_than_the_type_is_mlirs_error(literal: str, element: str):
    with pytest.raises(ParseError, match="hexadecimal float constant out of range"):
        _parsed(literal, f"tensor<{element}>")


def test_float_widths_without_whole_bytes_are_refused():
    with pytest.raises(ParseError, match="not supported"):
        _parsed("0x0", "tensor<f80>")


MASK = _constant("0xFF800000", "tensor<2xf32>")


def _entry_point_results(tmp_path: Path) -> dict[str, DenseIntOrFPElementsAttr]:
    source = tmp_path / "mask.mlir"
    source.write_text(MASK)
    printed = io.StringIO()
    with redirect_stdout(printed):
        MemplanOptMain(args=[str(source)]).run()
    return {
        "parse_module": _dense(parse_module(MASK)),
        "MemplanParser": _dense(MemplanParser(memplan_context(), MASK).parse_module()),
        "parse_with_locations": _dense(
            parse_with_locations(memplan_context(), MASK, "mask.mlir")
        ),
        "memplan-opt": _dense(parse_module(printed.getvalue())),
        "module_trace": _dense(read_module(source)),
    }


def test_every_entry_point_reads_the_mask_as_minus_infinity(tmp_path: Path):
    for name, attr in _entry_point_results(tmp_path).items():
        assert list(attr.get_values()) == [-math.inf, -math.inf], name


def test_memplan_run_args_read_hex_floats_as_bits(tmp_path: Path):
    source = tmp_path / "identity.mlir"
    source.write_text(
        "func.func @main(%x: memref<2xf32>) -> memref<2xf32> {\n"
        "  func.return %x : memref<2xf32>\n}\n"
    )
    output = tmp_path / "out.npz"
    args = "dense<[0xFF800000, 0x7FC00001]> : tensor<2xf32>"
    status = memplan_run.main(
        [str(source), "--args", args, "--output", str(output), "--no-stats"]
    )
    assert status == 0
    with np.load(output) as saved:
        assert saved["result0"].view(np.uint32).tolist() == [0xFF800000, 0x7FC00001]

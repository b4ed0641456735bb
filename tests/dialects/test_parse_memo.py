"""Reading a repeated type or property spelling once (`memplan.parse_memo`)
gives the module, and the errors, that reading every spelling gives."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import TypeVar

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from memplan.context import memplan_context
from memplan.parser import MemplanParser

_T = TypeVar("_T")
ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [
        *ROOT.glob("examples/*.mlir"),
        *ROOT.glob("tests/fixtures/**/*.mlir"),
        *ROOT.glob("tests/filecheck/passes/inputs/*.mlir"),
    ]
)

REPEATS = """\
"builtin.module"() ({
  %0 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x?xf32, "global.vtcm">
  %1 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x?xf32, "global.vtcm">
  %2 = "test.op"(%0, %1) {iterator_types = ["parallel"]} : (memref<4x?xf32, "global.vtcm">, memref<4x?xf32, "global.vtcm">) -> f32
  %3 = "test.op"(%0, %1) {iterator_types = ["parallel"]} : (memref<4x?xf32, "global.vtcm">, memref<4x?xf32, "global.vtcm">) -> f32 loc("x.mlir":3:1)
  %4 = "test.op"() : () -> memref<2xf32, strided<[2], offset: ?>> // a comment
  %5 = "test.op"() : () -> memref<2xf32, strided<[2], offset: ?>>
  %6 = "arith.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %7 = "arith.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
}) : () -> ()
"""


class _EveryTime(MemplanParser):
    """MemplanParser reading every spelling, as xDSL does."""

    def _memoized(self, cache: dict[str, _T], pattern, parse: Callable[[], _T]) -> _T:
        return parse()


def _read(parser: type[MemplanParser], text: str) -> ModuleOp:
    return parser(memplan_context(allow_unregistered=True), text).parse_module()


def _printed(module: ModuleOp, generic: bool) -> str:
    output = StringIO()
    Printer(output, print_generic_format=generic).print_op(module)
    return output.getvalue()


def _both(text: str) -> tuple[ModuleOp, ModuleOp]:
    return _read(MemplanParser, text), _read(_EveryTime, text)


def test_a_repeated_spelling_is_read_once_into_one_attribute() -> None:
    module = _read(MemplanParser, REPEATS)
    ops = list(module.body.block.ops)
    assert ops[0].results[0].type is ops[1].results[0].type
    assert ops[0].properties["alignment"] is ops[1].properties["alignment"]
    assert ops[0].properties is not ops[1].properties
    assert ops[2].attributes["iterator_types"] is ops[3].attributes["iterator_types"]
    assert ops[2].results[0].type is ops[3].results[0].type


@pytest.mark.parametrize("generic", [True, False])
def test_the_module_is_the_one_read_spelling_by_spelling(generic: bool) -> None:
    memoized, every_time = _both(REPEATS)
    assert _printed(memoized, generic) == _printed(every_time, generic)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_bundled_input_reads_as_spelling_by_spelling(path: Path) -> None:
    text = path.read_text()
    if "// -----" in text:
        pytest.skip("several inputs in one file")
    try:
        every_time = _read(_EveryTime, text)
    except ParseError:
        pytest.skip("not a module memplan reads")
    memoized = _read(MemplanParser, text)
    assert _printed(memoized, True) == _printed(every_time, True)


BAD = [
    # The same text as a spelling read before, then what makes it wrong.
    ('%a = "test.op"() : () -> f32\n%b = "test.op"() : () -> f32$x\n', "f32$x"),
    (
        '%a = "test.op"() <{n = 1 : i64}> : () -> ()\n'
        '%b = "test.op"() <{n = 1 : i64}>> : () -> ()\n',
        ">>",
    ),
    (
        '%a = "test.op"() : () -> memref<4xf32>\n'
        '%b = "test.op"() : () -> memref<4xf32>x\n',
        ">x",
    ),
]


@pytest.mark.parametrize(("text", "what"), BAD, ids=[what for _, what in BAD])
def test_an_error_after_a_known_spelling_is_the_same_error(text: str, what: str):
    errors: list[str] = []
    for parser in (MemplanParser, _EveryTime):
        with pytest.raises(ParseError) as raised:
            _read(parser, text)
        errors.append(str(raised.value))
    assert errors[0] == errors[1]


def test_a_dense_resource_is_read_every_time() -> None:
    text = (
        '"memref.global"() <{sym_name = "a", type = memref<2xf32>, '
        "initial_value = dense_resource<blob> : tensor<2xf32>}> : () -> ()\n"
    )
    module = _read(MemplanParser, text + text.replace('"a"', '"b"'))
    first, second = module.body.block.ops
    assert first.properties["initial_value"] is not second.properties["initial_value"]

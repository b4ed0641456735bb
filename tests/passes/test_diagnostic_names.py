"""Diagnostics name values as xDSL's printer prints them (`describe`)."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.ir import SSAValue
from xdsl.printer import Printer

from memplan.context import parse_module
from memplan.dialects.memory import AllocStorageOp
from memplan.passes.diagnostics import describe, named_op

PROGRAM = """
func.func @first(%arg0: memref<4xf32>, %1: index) {
  %0 = memory.alloc_storage [64] : !memory.storage<"global">
  %t = memory.alloc_tensor %0[0] : !memory.storage<"global"> to memref<4xf32>
  %t_1 = memory.alloc_tensor %0[16] : !memory.storage<"global"> to memref<4xf32>
  %c = arith.constant 0 : index
  scf.for %i = %c to %1 step %1 {
    %2 = memory.alloc_storage [16] : !memory.storage<"global">
    %t_2 = memory.alloc_tensor %2[0] : !memory.storage<"global"> to memref<4xf32>
  }
  %3 = memory.alloc_storage [8] : !memory.storage<"global">
  func.return
}
func.func @second() {
  %0 = memory.alloc_storage [8] : !memory.storage<"global">
  %t = memory.alloc_tensor %0[0] : !memory.storage<"global"> to memref<2xf32>
  func.return
}
"""


def _printed_names(text: str) -> tuple[list[SSAValue], dict[SSAValue, str]]:
    module = parse_module(text)
    printer = Printer(stream=StringIO())
    printer.print_op(module)
    values: list[SSAValue] = [
        value
        for op in module.walk()
        for value in (
            *op.results,
            *(arg for region in op.regions for b in region.blocks for arg in b.args),
        )
    ]
    return values, {value: f"%{printer._ssa_values[value]}" for value in values}  # pyright: ignore[reportPrivateUsage]


def test_every_value_is_described_by_its_printed_name():
    values, printed = _printed_names(PROGRAM)
    assert len(values) == 12
    assert [describe(value) for value in values] == [printed[v] for v in values]


def test_unnamed_values_are_numbered_per_function():
    values, _ = _printed_names(PROGRAM)
    storages = [v for v in values if isinstance(v.owner, AllocStorageOp)]
    assert [describe(v) for v in storages] == ["%1", "%2", "%3", "%0"]


def test_named_op_puts_the_op_before_a_printed_name():
    module = parse_module(PROGRAM)
    storage = next(op for op in module.walk() if isinstance(op, AllocStorageOp))
    assert named_op(storage) == "memory.alloc_storage %1"


def test_a_value_outside_any_module_is_described_in_words():
    storage = AllocStorageOp(8, "global")
    assert describe(storage.result) == "an unnamed memory.alloc_storage"
    assert named_op(storage) == "an unnamed memory.alloc_storage"


@pytest.mark.parametrize("hint", ["arena", "t"])
def test_values_with_a_hint_get_the_printers_suffix(hint: str):
    values, printed = _printed_names(PROGRAM.replace("%t", f"%{hint}"))
    hinted = [v for v in values if v.name_hint == hint]
    assert [describe(v) for v in hinted] == [printed[v] for v in hinted]

"""Pieces of MLIR's custom syntax that several of memplan's ops share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

_OpT = TypeVar("_OpT", bound=Operation)


def parse_optional_arrow_types(parser: Parser) -> Sequence[Attribute]:
    """MLIR's `parseOptionalArrowTypeList`: nothing, `-> type` or `-> (type, ...)`."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_type
    )
    return [parser.parse_type()] if types is None else types


def print_optional_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printOptionalArrowTypeList`: nothing, ` -> type` or
    ` -> (type, ...)`."""
    if len(types) == 1:
        printer.print_string(" -> ")
        printer.print_attribute(types[0])
    elif types:
        printer.print_string(" -> (")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


def print_values_with_types(printer: Printer, values: Sequence[SSAValue]) -> None:
    """`%a, %b : f32, i32`, as in `ins(...)` or `scf.reduce(...)`."""
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([value.type for value in values], printer.print_attribute)


def print_ins_outs(
    printer: Printer, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> None:
    """` ins(%a : t) outs(%b : t)` of a linalg op (no `ins` without inputs)."""
    if inputs:
        printer.print_string(" ins(")
        print_values_with_types(printer, inputs)
        printer.print_string(")")
    printer.print_string(" outs(")
    print_values_with_types(printer, outputs)
    printer.print_string(")")


def print_results_and_body(
    printer: Printer,
    result_types: Sequence[Attribute],
    body: Region,
    attributes: dict[str, Attribute],
) -> None:
    """` -> types { body } {attributes}` of a region op whose entry block
    arguments the op's header names (or that has none)."""
    print_optional_arrow_types(printer, result_types)
    printer.print_string(" ")
    printer.print_region(body, print_entry_block_args=False)
    printer.print_op_attributes(attributes)


def rebuilt_as(op: Operation, cls: type[_OpT]) -> _OpT:
    """An op of class `cls` with `op`'s operands, result types, properties,
    attributes and successors, and its regions, moved out of `op` (for an
    op of the same name that another class built)."""
    return cls.create(
        operands=op.operands,
        result_types=op.result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        successors=op.successors,
        regions=[op.detach_region(region) for region in tuple(op.regions)],
    )

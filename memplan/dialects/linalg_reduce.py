"""`linalg.reduce` as MLIR writes it: xDSL 0.74's op with MLIR's short form
and MLIR's checks.

`linalg.reduce { arith.addf } ins(%x : T) outs(%acc : U) dimensions = [1]`
parses to a body that applies the op to the accumulator FIRST, then the
input (`addf(%init, %in)`), as MLIR builds it; a body of that shape (one op
on (init, in) whose result is yielded) prints in the short form, as MLIR
prints it, any other body in the long form.  The verifier adds MLIR's rules:
dimensions increasing and in range, one body argument per operand of its
element type, a yield of the init's element type.  One input and one init,
as xDSL's op (MLIR allows several).  Its maps and iterator types let a
combiner no ufunc folds (say `subf`) run as a generic does, in MLIR's order.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    i64,
)
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import (
    body_arg_types,
    parse_operands_with_types,
    parse_short_form_payload,
    shape_of,
    verify_yield_types,
)
from memplan.dialects.syntax import print_ins_outs

__all__ = ["ReduceOp"]

_NO_FASTMATH = arith.FastMathFlagsAttr("none")
"""A payload's `fastmath` flags, left out of the short form when none."""


class ReduceOp(xdsl_linalg.ReduceOp):
    """init = reduce(input) over `dimensions`, folding with the body."""

    @property
    def inputs(self) -> tuple[SSAValue]:
        return (self.input,)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.init,)

    @property
    def body(self) -> Region:
        return self.region

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """The input's loops in order; the init keeps the unreduced ones."""
        rank = len(shape_of(self.input.type))
        dimensions = self.dimensions.get_values()
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in dimensions)
        return ArrayAttr(
            [
                AffineMapAttr(AffineMap.identity(rank)),
                AffineMapAttr(AffineMap(rank, 0, kept)),
            ]
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        dimensions = self.dimensions.get_values()
        return ArrayAttr(
            IteratorTypeAttr.reduction()
            if d in dimensions
            else IteratorTypeAttr.parallel()
            for d in range(len(shape_of(self.input.type)))
        )

    def verify_(self) -> None:
        dimensions = self.dimensions.get_values()
        input_shape = shape_of(self.input.type)
        rank = len(input_shape)
        if list(dimensions) != sorted(set(dimensions)):
            raise VerifyException(
                f"linalg.reduce dimensions must be in increasing order, got "
                f"{list(dimensions)}"
            )
        if any(not 0 <= d < rank for d in dimensions):
            raise VerifyException(
                "linalg.reduce dimensions for reduction should be in the range "
                f"[0, {rank - 1}], got {list(dimensions)}"
            )
        kept = [n for d, n in enumerate(input_shape) if d not in dimensions]
        if list(shape_of(self.init.type)) != kept:
            raise VerifyException(
                f"linalg.reduce init dimensions {list(shape_of(self.init.type))} "
                f"don't match the input dimensions after reduction {kept}"
            )
        expected = body_arg_types((self.input, self.init))
        got = [arg.type for arg in self.region.block.args]
        if got != expected:
            raise VerifyException(
                "linalg.reduce body must take the input's then the init's element "
                f"type ({', '.join(map(str, expected))}), got "
                f"({', '.join(map(str, got))})"
            )
        verify_yield_types(self, self.region, (self.init,))

    def short_form_payload(self) -> Operation | None:
        """The one op of a body MLIR prints in the short form, else None."""
        block = self.region.block
        payload = block.first_op
        if payload is None or payload.next_op is not block.last_op:
            return None
        input_, init = block.args
        yielded = block.last_op
        assert isinstance(yielded, YieldOp)
        if tuple(payload.operands) != (init, input_) or tuple(
            yielded.operands
        ) != tuple(payload.results):
            return None
        return payload

    def print(self, printer: Printer) -> None:
        payload = self.short_form_payload()
        if payload is not None:
            printer.print_string(f" {{ {payload.name}")
            shown = {
                **payload.properties,
                **payload.attributes,
            }
            if shown.get("fastmath") == _NO_FASTMATH:
                del shown["fastmath"]
            if shown:
                printer.print_string(" ")
                printer.print_attr_dict(shown)
            printer.print_string(" }")
        print_ins_outs(printer, [self.input], [self.init])
        printer.print_string(" dimensions = [")
        printer.print_list(self.dimensions.get_values(), printer.print_int)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        if payload is None:
            printer.print_string(" (")
            printer.print_list(self.region.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.region, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short_form = parse_short_form_payload(parser)
        operands = []
        for keyword in ("ins", "outs"):
            parser.parse_keyword(keyword, " in linalg.reduce")
            at = parser.pos
            values = parse_operands_with_types(parser)
            if len(values) != 1:
                parser.raise_error(
                    f"linalg.reduce takes one {keyword} operand (memplan)",
                    at,
                    parser.pos,
                )
            operands.append(values[0])
        parser.parse_keyword("dimensions", " in linalg.reduce")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        attributes = parser.parse_optional_attr_dict()
        input_, init = operands
        if short_form is None:
            args = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_argument
            )
            body = parser.parse_region(args)
        else:
            body = short_form(body_arg_types(operands), 1, init_first=True)
        op = cls(input_, init, DenseArrayBase.from_list(i64, dimensions), body)
        op.attributes.update(attributes)
        return op

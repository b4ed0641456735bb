"""`linalg.reduce` as MLIR defines it: several inputs and as many inits,
MLIR's short form and MLIR's checks.

`linalg.reduce { arith.addf } ins(%x : T) outs(%acc : U) dimensions = [1]`
parses to a body that applies the op to the accumulator FIRST, then the
input (`addf(%init, %in)`), as MLIR builds it; a body of that shape (one op
on (init, in) whose result is yielded) prints in the short form, as MLIR
prints it, any other body in the long form.  With several operands the
short form builds what MLIR builds (the last init, then the other
arguments, as the payload's operands), which no one-result op takes.

The body takes one argument per input, then one per init, and yields one
value per init: `linalg.reduce ins(%v, %i : ...) outs(%max, %arg : ...)`
folds a maximum and its index together.  The verifier has MLIR's rules: at
least one input, as many inits, all on tensors or all on memrefs, inputs of
one shape, inits of one shape, dimensions strictly increasing and in range,
the inits' shape that of the inputs without them, body arguments of the
operands' element types, a yield of the inits' element types, one result
per tensor init, of its type.  Its maps and iterator types let any body run
as a generic does, in MLIR's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    base,
    irdl_op_definition,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import (
    body_arg_types,
    parse_operands_with_types,
    parse_short_form_payload,
    shape_of,
    tensor_results,
    verify_yield,
)
from memplan.dialects.syntax import print_ins_outs

__all__ = ["ReduceOp"]

_NO_FASTMATH = arith.FastMathFlagsAttr("none")
"""A payload's `fastmath` flags, left out of the short form when none."""


def _show(shape: Sequence[int]) -> str:
    return "[" + ", ".join("?" if n < 0 else str(n) for n in shape) + "]"


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """inits = reduce(inputs) over `dimensions`, folding with the body."""

    name = "linalg.reduce"

    inputs = var_operand_def(base(MemRefType) | base(TensorType))
    inits = var_operand_def(base(MemRefType) | base(TensorType))
    res = var_result_def(TensorType)
    region = region_def("single_block")
    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        dimensions: Sequence[int],
        region: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[inputs, inits],
            result_types=[tensor_results(inits)],
            properties={"dimensions": DenseArrayBase.from_list(i64, dimensions)},
            regions=[region],
            attributes=attributes,
        )

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The inits, as the outputs of a structured op."""
        return tuple(self.inits)

    @property
    def body(self) -> Region:
        return self.region

    def _rank(self) -> int:
        return len(shape_of(self.inputs[0].type))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """The inputs' loops in order; the inits keep the unreduced ones."""
        rank = self._rank()
        dimensions = self.dimensions.get_values()
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in dimensions)
        return ArrayAttr(
            [AffineMapAttr(AffineMap.identity(rank))] * len(self.inputs)
            + [AffineMapAttr(AffineMap(rank, 0, kept))] * len(self.inits)
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        dimensions = self.dimensions.get_values()
        return ArrayAttr(
            IteratorTypeAttr.reduction()
            if d in dimensions
            else IteratorTypeAttr.parallel()
            for d in range(self._rank())
        )

    def verify_(self) -> None:
        self._verify_operands()
        dimensions = self.dimensions.get_values()
        input_shape = shape_of(self.inputs[0].type)
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
        init_shape = shape_of(self.inits[0].type)
        if list(init_shape) != kept:
            raise VerifyException(
                f"linalg.reduce init dimensions {_show(init_shape)} don't match "
                f"the input dimensions after reduction {_show(kept)}"
            )
        expected = body_arg_types((*self.inputs, *self.inits))
        got = [arg.type for arg in self.region.block.args]
        if got != expected:
            raise VerifyException(
                "linalg.reduce body must take the inputs' then the inits' element "
                f"types ({', '.join(map(str, expected))}), got "
                f"({', '.join(map(str, got))})"
            )
        verify_yield(self, self.region.block, self.inits)

    def _verify_operands(self) -> None:
        """Counts, kinds and shapes of the operands, and the results."""
        if not self.inputs:
            raise VerifyException("linalg.reduce needs at least one input")
        operands = (*self.inputs, *self.inits)
        if len({isinstance(value.type, TensorType) for value in operands}) != 1:
            raise VerifyException(
                "linalg.reduce operands must be all tensors or all memrefs"
            )
        for role, values in (("input", self.inputs), ("init", self.inits)):
            shapes = [shape_of(value.type) for value in values]
            for index, shape in enumerate(shapes[1:], 1):
                if shape != shapes[0]:
                    raise VerifyException(
                        f"linalg.reduce {role}s must have one shape: {role} "
                        f"{index} is {_show(shape)}, {role} 0 {_show(shapes[0])}"
                    )
        if list(self.result_types) != tensor_results(self.inits):
            raise VerifyException(
                "linalg.reduce must have one result per tensor init, of its type "
                f"({', '.join(map(str, tensor_results(self.inits)))}), got "
                f"({', '.join(map(str, self.result_types))})"
            )

    def short_form_payload(self) -> Operation | None:
        """The one op of a body the short form builds, else None."""
        block = self.region.block
        payload = block.first_op
        if payload is None or payload.next_op is not block.last_op:
            return None
        args = block.args
        yielded = block.last_op
        assert isinstance(yielded, YieldOp)
        if tuple(payload.operands) != (args[-1], *args[:-1]) or tuple(
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
        print_ins_outs(printer, self.inputs, self.inits)
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
        parser.parse_keyword("ins", " in linalg.reduce")
        inputs = parse_operands_with_types(parser)
        parser.parse_keyword("outs", " in linalg.reduce")
        outs_at = parser.pos
        inits = parse_operands_with_types(parser)
        if len(inits) != len(inputs):
            parser.raise_error(
                f"linalg.reduce takes one init per input, got {len(inputs)} "
                f"input(s) and {len(inits)} init(s)",
                outs_at,
                parser.pos,
            )
        parser.parse_keyword("dimensions", " in linalg.reduce")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        attributes = parser.parse_optional_attr_dict()
        operands = (*inputs, *inits)
        if short_form is None:
            args = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_argument
            )
            body = parser.parse_region(args)
        else:
            body = short_form(body_arg_types(operands), len(inputs), init_first=True)
        return cls(inputs, inits, dimensions, body, attributes)

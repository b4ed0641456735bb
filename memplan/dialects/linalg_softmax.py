"""`linalg.softmax`: MLIR's softmax along one dimension, an op without a body.

MLIR defines its result by its decomposition (`decompose_interface`), which
memplan-run computes step by step (memplan/interpreter/linalg_impl.py):

1. max = maxnumf over the dimension, from NaN (maxnumf's identity),
2. out = exp(in - max),
3. sum = addf over the dimension, from 0.0, in index order,
4. out = out / sum.

Custom syntax as MLIR's: `linalg.softmax {attrs} dimension(1) ins(%x : T)
outs(%y : T) (-> T)?`, the result only on tensors.  It reads its input and
writes its whole output.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import parse_one_in_one_out, tensor_results
from memplan.dialects.syntax import print_ins_outs

__all__ = ["SoftmaxOp"]


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """output = softmax(input) along `dimension`."""

    name = "linalg.softmax"

    input = operand_def(base(MemRefType) | base(TensorType))
    output = operand_def(base(MemRefType) | base(TensorType))
    result = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        dimension: int,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input, output],
            result_types=[tensor_results((output,))],
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attributes,
        )

    @property
    def inputs(self) -> tuple[SSAValue]:
        return (self.input,)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.output,)

    def verify_(self) -> None:
        input_type, output_type = self.input.type, self.output.type
        assert isinstance(input_type, MemRefType | TensorType)
        assert isinstance(output_type, MemRefType | TensorType)
        elements = input_type.get_element_type(), output_type.get_element_type()
        if elements[0] != elements[1]:
            raise VerifyException(
                "linalg.softmax input and output must have the same element type, "
                f"got {elements[0]} and {elements[1]}"
            )
        shapes = zip(input_type.get_shape(), output_type.get_shape(), strict=False)
        if len(input_type.get_shape()) != len(output_type.get_shape()) or any(
            a != b and a != -1 and b != -1 for a, b in shapes
        ):
            raise VerifyException(
                f"linalg.softmax output shape {list(output_type.get_shape())} is "
                f"not compatible with the input shape {list(input_type.get_shape())}"
            )
        rank = len(input_type.get_shape())
        if not 0 <= self.dimension.value.data < rank:
            raise VerifyException(
                f"linalg.softmax dimension {self.dimension.value.data} is not a "
                f"dimension of the input (rank {rank})"
            )
        results = [r.type for r in self.results]
        if results != tensor_results((self.output,)):
            raise VerifyException(
                "linalg.softmax must have one tensor result, of the output's type, "
                "when its output is a tensor, and none on memrefs"
            )

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(f" dimension({self.dimension.value.data})")
        print_ins_outs(printer, [self.input], [self.output])
        if self.results:
            printer.print_string(" -> ")
            printer.print_attribute(self.results[0].type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        parser.parse_keyword("dimension", " in linalg.softmax")
        parser.parse_punctuation("(")
        dimension = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(")")
        operands = parse_one_in_one_out(parser, "linalg.softmax")
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types.append(parser.parse_type())
        op = cls.create(
            operands=operands,
            result_types=result_types,
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attributes,
        )
        return op

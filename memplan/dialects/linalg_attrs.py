"""linalg's enum attributes that select a named op's body: `#linalg.type_fn`
(the casts of matmul-like ops) and `#linalg.elementwise_kind` (the payload of
`linalg.elementwise`), with MLIR's spellings."""

from __future__ import annotations

from enum import auto

from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class TypeFn(StrEnum):
    """How a body casts its operands to the output element type."""

    CAST_SIGNED = auto()
    CAST_UNSIGNED = auto()


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_signed>` or `#linalg.type_fn<cast_unsigned>`."""

    name = "linalg.type_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


class ElementwiseKind(StrEnum):
    """The payloads of `linalg.elementwise`, in MLIR's order: 25 unary, 10
    binary, one ternary (`select`)."""

    EXP = auto()
    LOG = auto()
    ABS = auto()
    CEIL = auto()
    FLOOR = auto()
    NEGF = auto()
    RECIPROCAL = auto()
    ROUND = auto()
    SQRT = auto()
    RSQRT = auto()
    SQUARE = auto()
    TANH = auto()
    ERF = auto()
    SIN = auto()
    COS = auto()
    TAN = auto()
    ACOS = auto()
    ACOSH = auto()
    ASIN = auto()
    ASINH = auto()
    ATAN = auto()
    ATANH = auto()
    LOG10 = auto()
    LOG1P = auto()
    LOG2 = auto()
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    DIV_UNSIGNED = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()
    MAX_UNSIGNED = auto()
    MIN_UNSIGNED = auto()
    POWF = auto()
    SELECT = auto()


@irdl_attr_definition
class ElementwiseKindAttr(EnumAttribute[ElementwiseKind]):
    """`#linalg.elementwise_kind<add>`."""

    name = "linalg.elementwise_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ElementwiseKind:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)

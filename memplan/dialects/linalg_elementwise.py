"""linalg's named elementwise ops, one op per function: the binary ones
(`add`, `max`, `div_unsigned`, ...), `select`, `powf` and the unary ones
(`exp`, `abs`, `reciprocal`, ...), each with the body MLIR defines.
`linalg.elementwise`, which takes the function as a `kind`, is in
linalg_contract.py.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AnyFloat, FloatAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import (
    HiddenBodyOperation,
    PointwiseOperation,
    binary_scalar,
    body_arg_types,
)

__all__ = [
    "AbsOp",
    "AddOp",
    "BinaryElementwiseOperation",
    "CeilOp",
    "DivOp",
    "DivUnsignedOp",
    "ErfOp",
    "ExpOp",
    "FloorOp",
    "LogOp",
    "MaxOp",
    "MinOp",
    "MulOp",
    "NegFOp",
    "PowFOp",
    "ReciprocalOp",
    "RoundOp",
    "RsqrtOp",
    "SelectOp",
    "SqrtOp",
    "SquareOp",
    "SubOp",
    "TanhOp",
    "UnaryElementwiseOperation",
]


class BinaryElementwiseOperation(HiddenBodyOperation, PointwiseOperation, ABC):
    """out = KIND(in0, in1), MLIR's BinaryFn on the input elements (no casts:
    inputs and output share one element type)."""

    KIND: ClassVar[str]

    @classmethod
    def input_count(cls) -> int | None:
        return 2

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(binary_scalar(cls.KIND, args[0], args[1]))

        return body


@irdl_op_definition
class AddOp(BinaryElementwiseOperation):
    name = "linalg.add"
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class SubOp(BinaryElementwiseOperation):
    name = "linalg.sub"
    KIND: ClassVar[str] = "sub"


@irdl_op_definition
class MulOp(BinaryElementwiseOperation):
    name = "linalg.mul"
    KIND: ClassVar[str] = "mul"


@irdl_op_definition
class MaxOp(BinaryElementwiseOperation):
    """Signed on integers."""

    name = "linalg.max"
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class MinOp(BinaryElementwiseOperation):
    """Signed on integers."""

    name = "linalg.min"
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class DivOp(BinaryElementwiseOperation):
    """arith.divf, or arith.divsi on integers."""

    name = "linalg.div"
    KIND: ClassVar[str] = "div"


@irdl_op_definition
class DivUnsignedOp(BinaryElementwiseOperation):
    """arith.divui: integers only."""

    name = "linalg.div_unsigned"
    KIND: ClassVar[str] = "div_unsigned"


@irdl_op_definition
class SelectOp(HiddenBodyOperation, PointwiseOperation):
    """out = in0 ? in1 : in2."""

    name = "linalg.select"

    @classmethod
    def input_count(cls) -> int | None:
        return 3

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(arith.SelectOp(args[0], args[1], args[2]).result)

        return body


@irdl_op_definition
class PowFOp(HiddenBodyOperation, PointwiseOperation):
    """out = in0 ** in1 (math.powf)."""

    name = "linalg.powf"

    @classmethod
    def input_count(cls) -> int | None:
        return 2

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(math.PowFOp(args[0], args[1]).result)

        return body


class UnaryElementwiseOperation(HiddenBodyOperation, PointwiseOperation, ABC):
    """out = payload(in): one op on the input element."""

    @classmethod
    @abstractmethod
    def payload(cls, value: SSAValue) -> SSAValue: ...

    @classmethod
    def input_count(cls) -> int | None:
        return 1

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(cls.payload(args[0]))

        return body


@irdl_op_definition
class ExpOp(UnaryElementwiseOperation):
    name = "linalg.exp"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.ExpOp(value).result


@irdl_op_definition
class LogOp(UnaryElementwiseOperation):
    name = "linalg.log"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.LogOp(value).result


@irdl_op_definition
class SqrtOp(UnaryElementwiseOperation):
    name = "linalg.sqrt"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.SqrtOp(value).result


@irdl_op_definition
class AbsOp(UnaryElementwiseOperation):
    name = "linalg.abs"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.AbsFOp(value).result


@irdl_op_definition
class CeilOp(UnaryElementwiseOperation):
    name = "linalg.ceil"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.CeilOp(value).result


@irdl_op_definition
class FloorOp(UnaryElementwiseOperation):
    name = "linalg.floor"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.FloorOp(value).result


@irdl_op_definition
class RoundOp(UnaryElementwiseOperation):
    name = "linalg.round"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.RoundOp(value).result


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOperation):
    name = "linalg.rsqrt"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.RsqrtOp(value).result


@irdl_op_definition
class TanhOp(UnaryElementwiseOperation):
    name = "linalg.tanh"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.TanhOp(value).result


@irdl_op_definition
class ErfOp(UnaryElementwiseOperation):
    name = "linalg.erf"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.ErfOp(value).result


@irdl_op_definition
class NegFOp(UnaryElementwiseOperation):
    name = "linalg.negf"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return arith.NegfOp(value).result


@irdl_op_definition
class SquareOp(UnaryElementwiseOperation):
    """out = in * in, on floats only, as MLIR's UnaryFn.square (its parser
    rejects an integer square: "unsupported non numeric type")."""

    name = "linalg.square"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        if not isinstance(value.type, AnyFloat):
            raise VerifyException(
                f"linalg.square is only defined on floats, not on {value.type}"
            )
        return binary_scalar("mul", value, value)


@irdl_op_definition
class ReciprocalOp(UnaryElementwiseOperation):
    """out = 1.0 / in."""

    name = "linalg.reciprocal"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        if not isinstance(value.type, AnyFloat):
            raise VerifyException(
                f"linalg.reciprocal is only defined on floats, not on {value.type}"
            )
        one = arith.ConstantOp(FloatAttr(1.0, value.type)).result
        return arith.DivfOp(one, value).result

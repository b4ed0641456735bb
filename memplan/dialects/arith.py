"""arith for memplan: xDSL 0.74's dialect plus `arith.remf`, which xDSL does
not define and torch-mlir emits for `torch.remainder` on floats, and MLIR's
`arith.trunci`, which carries `overflowFlags` (xDSL's has no properties, so a
generic-form `trunci` from MLIR, as torch-mlir's integer narrowing casts
print, does not verify)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.arith import (
    Arith,
    ArithConstantMaterializationInterface,
    FloatingPointLikeBinaryOperation,
    IntegerOverflowAttr,
)
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """MLIR's `arith.remf`: the remainder of `lhs / rhs` truncated toward zero,
    with the sign of `lhs` (C's `fmod`)."""

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class TruncIOp(IRDLOperation):
    """MLIR's `arith.trunci`: xDSL's, with MLIR's `overflowFlags` property
    (`nsw`, `nuw`; default `none`), printed in custom form as
    `arith.trunci %x overflow<nsw> : i64 to i8`.  The flags promise that no
    bits are lost; a truncation that loses some is poison in MLIR, and
    `memplan-run` wraps as it does without flags."""

    name = "arith.trunci"

    input = operand_def(IntegerType)
    result = result_def(IntegerType)
    overflow_flags = prop_def(
        IntegerOverflowAttr,
        default_value=IntegerOverflowAttr("none"),
        prop_name="overflowFlags",
    )

    assembly_format = (
        "$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) "
        "`to` type($result)"
    )

    traits = traits_def(Pure())

    def __init__(
        self,
        op: SSAValue | Operation,
        target_type: IntegerType,
        overflow: IntegerOverflowAttr | None = None,
    ):
        super().__init__(
            operands=[op],
            result_types=[target_type],
            properties={"overflowFlags": overflow or IntegerOverflowAttr("none")},
        )

    def verify_(self) -> None:
        assert isinstance(self.input.type, IntegerType)
        assert isinstance(self.result.type, IntegerType)
        if not self.result.type.width.data < self.input.type.width.data:
            raise VerifyException(
                "Destination bit-width must be smaller than the input bit-width"
            )


ARITH = Dialect(
    "arith",
    [*(TruncIOp if op is arith.TruncIOp else op for op in Arith.operations), RemFOp],
    list(Arith.attributes),
    [ArithConstantMaterializationInterface()],
)

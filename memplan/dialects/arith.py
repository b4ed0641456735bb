"""arith for memplan: xDSL 0.74's dialect plus `arith.remf`, which xDSL does
not define and torch-mlir emits for `torch.remainder` on floats, MLIR's
`arith.trunci`, which carries `overflowFlags` (xDSL's has no properties, so a
generic-form `trunci` from MLIR, as torch-mlir's integer narrowing casts
print, does not verify), and `arith.cmpi` / `arith.cmpf` that check their
predicate is one MLIR defines, an `i64` (xDSL's take any integer of any
type, and then fail to print it)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.arith import (
    CMPF_COMPARISON_OPERATIONS,
    CMPI_COMPARISON_OPERATIONS,
    Arith,
    ArithConstantMaterializationInterface,
    CmpiHasCanonicalizationPatterns,
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
    IntegerOverflowAttr,
    floatingPointLike,
    signlessIntegerLike,
)
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i64
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

ATOMIC_RMW_KINDS = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
"""MLIR's `arith::AtomicRMWKind` cases, each at its number (as the
bundled MLIR of torch-mlir 20261001 numbers them): the `kind` property of
`memref.atomic_rmw`'s generic form, and what `affine.parallel`'s
`reductions` hold (`reduce ("addf")` is `reductions = [0]`)."""


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


def _check_predicate(op: arith.CmpiOp | arith.CmpfOp, names: list[str]) -> None:
    """MLIR's predicate: an `i64` naming one of `names` (xDSL's takes an
    integer of any type, `2 : i8`, and reads it as the same predicate)."""
    value = op.predicate.value.data
    if op.predicate.type != i64 or not 0 <= value < len(names):
        listed = ", ".join(f"{number} ({name})" for number, name in enumerate(names))
        raise VerifyException(
            f"{op.name} predicate {op.predicate} is not one of MLIR's: expected a "
            f"64-bit signless integer, {listed}"
        )


@irdl_op_definition
class CmpiOp(arith.CmpiOp):
    """xDSL's `arith.cmpi`, whose predicate must be one of MLIR's ten."""

    name = "arith.cmpi"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(signlessIntegerLike)
    rhs = operand_def(signlessIntegerLike)
    result = result_def(IntegerType(1))

    traits = traits_def(CmpiHasCanonicalizationPatterns(), Pure())

    def verify_(self) -> None:
        super().verify_()
        _check_predicate(self, CMPI_COMPARISON_OPERATIONS)


@irdl_op_definition
class CmpfOp(arith.CmpfOp):
    """xDSL's `arith.cmpf`, whose predicate must be one of MLIR's sixteen."""

    name = "arith.cmpf"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(floatingPointLike)
    rhs = operand_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    result = result_def(IntegerType(1))

    traits = traits_def(Pure())

    def verify_(self) -> None:
        super().verify_()
        _check_predicate(self, CMPF_COMPARISON_OPERATIONS)


_OURS: dict[type[Operation], type[Operation]] = {
    arith.TruncIOp: TruncIOp,
    arith.CmpiOp: CmpiOp,
    arith.CmpfOp: CmpfOp,
}
"""xDSL's ops that memplan's replace in the dialect."""

ARITH = Dialect(
    "arith",
    [*(_OURS.get(op, op) for op in Arith.operations), RemFOp],
    list(Arith.attributes),
    [ArithConstantMaterializationInterface()],
)

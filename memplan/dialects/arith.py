"""arith for memplan: xDSL 0.74's dialect plus `arith.remf`, which xDSL does
not define and torch-mlir emits for `torch.remainder` on floats."""

from __future__ import annotations

from xdsl.dialects.arith import (
    Arith,
    ArithConstantMaterializationInterface,
    FloatingPointLikeBinaryOperation,
)
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """MLIR's `arith.remf`: the remainder of `lhs / rhs` truncated toward zero,
    with the sign of `lhs` (C's `fmod`)."""

    name = "arith.remf"

    traits = traits_def(Pure())


ARITH = Dialect(
    "arith",
    [*Arith.operations, RemFOp],
    list(Arith.attributes),
    [ArithConstantMaterializationInterface()],
)

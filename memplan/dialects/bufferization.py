"""bufferization for memplan: xDSL 0.74's dialect with MLIR's
`bufferization.clone`.

xDSL's clone requires the result type to be the operand's.  MLIR's verifies
only that both are memrefs (ranked or unranked): its deallocation pipeline
clones a view into a buffer of another layout
(`memref<6xf32, strided<[1]>> to memref<6xf32>`).  What a clone means, an
allocation of the result type and a copy into it, is in `clone_allocation`,
which everything that runs or rewrites a clone uses.
"""

from __future__ import annotations

from xdsl.dialects.bufferization import Bufferization
from xdsl.dialects.bufferization import CloneOp as XdslCloneOp
from xdsl.dialects.builtin import (
    MemRefType,
    NoneAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects import memref


@irdl_op_definition
class CloneOp(IRDLOperation):
    """MLIR's `bufferization.clone`: a new buffer of the result type holding
    a copy of the operand.  As in MLIR, the verifier asks only for memrefs;
    `clone_allocation` says which clones have a meaning."""

    name = "bufferization.clone"

    input = operand_def(base(MemRefType) | base(UnrankedMemRefType))
    output = result_def(base(MemRefType) | base(UnrankedMemRefType))

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def __init__(
        self, input: SSAValue | Operation, result_type: Attribute | None = None
    ):
        source_type = SSAValue.get(input).type
        super().__init__(operands=[input], result_types=[result_type or source_type])


def clone_allocation(source: Attribute, result: Attribute) -> MemRefType:
    """The buffer a clone of `source` to `result` allocates: the result's shape,
    element type and memory space with the identity layout, as MLIR's
    `convert-bufferization-to-memref` lowers it (an alloc, a `memref.copy` of
    the operand into it, a `memref.cast` to the result type).  Raises
    `VerifyException` (its message starts `of <source> to <result>: `) for a
    clone that lowering cannot express (a layout the identity layout does not
    cast to, an operand the copy cannot read: another element type or rank, a
    different static size) or that memplan does not run (an unranked operand
    or result, which MLIR lowers through a `memref.reshape`: memplan runs
    ranked memrefs only)."""
    what = f"of {source} to {result}"
    if not isinstance(result, MemRefType):
        raise VerifyException(f"{what}: expected a ranked memref result")
    allocation = MemRefType(
        result.element_type, result.shape, NoneAttr(), result.memory_space
    )
    if not memref.CastOp.compatible(allocation, result):
        raise VerifyException(
            f"{what}: expected a result layout the identity layout casts to, "
            f"as a new buffer has it ({allocation})"
        )
    if not isinstance(source, MemRefType):
        raise VerifyException(f"{what}: expected a ranked memref operand")
    if source.element_type != result.element_type:
        raise VerifyException(f"{what}: expected the same element type")
    if not memref.shapes_compatible(source, result):
        raise VerifyException(
            f"{what}: expected the same shape (static sizes equal where both "
            "are static)"
        )
    return allocation


BUFFERIZATION = Dialect(
    "bufferization",
    [CloneOp if op is XdslCloneOp else op for op in Bufferization.operations],
    list(Bufferization.attributes),
)
"""bufferization for memplan: xDSL's ops with `clone` replaced."""

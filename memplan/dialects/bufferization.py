"""bufferization for memplan: xDSL 0.74's dialect with MLIR's
`bufferization.clone`, `to_buffer` and `to_tensor`.

xDSL's clone requires the result type to be the operand's.  MLIR's verifies
only that both are memrefs (ranked or unranked): its deallocation pipeline
clones a view into a buffer of another layout
(`memref<6xf32, strided<[1]>> to memref<6xf32>`).  What a clone means, an
allocation of the result type and a copy into it, is in `clone_allocation`,
which everything that runs or rewrites a clone uses.

xDSL's `to_buffer` and `to_tensor` require the memref to have the identity
layout and no memory space.  MLIR asks only for the same shape and element
type: `one-shot-bufferize` without function-boundary bufferization turns a
tensor argument into `to_buffer %arg : tensor<16xf32> to memref<16xf32,
strided<[?], offset: ?>>`, and `memory-place` may move the memref of a
`to_tensor` to VTCM.
"""

from __future__ import annotations

from xdsl.dialects.bufferization import Bufferization
from xdsl.dialects.bufferization import CloneOp as XdslCloneOp
from xdsl.dialects.bufferization import ToBufferOp as XdslToBufferOp
from xdsl.dialects.bufferization import ToTensorOp as XdslToTensorOp
from xdsl.dialects.builtin import (
    MemRefType,
    NoneAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
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


ANY_TENSOR = base(TensorType) | base(UnrankedTensorType)
ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)


def verify_same_shape_and_element_type(tensor: Attribute, buffer: Attribute) -> None:
    """MLIR's rule between the tensor and the memref of `to_buffer` and
    `to_tensor`: both ranked with equal shapes (a dynamic size only against a
    dynamic size) or both unranked, and one element type; the memref's
    layout and memory space are free."""
    assert isinstance(tensor, TensorType | UnrankedTensorType)
    assert isinstance(buffer, MemRefType | UnrankedMemRefType)
    tensor_shape = tensor.get_shape() if isinstance(tensor, TensorType) else None
    buffer_shape = buffer.get_shape() if isinstance(buffer, MemRefType) else None
    if tensor_shape != buffer_shape:
        raise VerifyException(
            f"shapes do not match: {tensor} and {buffer}; expected the same "
            "shape (both unranked, or the same sizes, dynamic where dynamic)"
        )
    if tensor.get_element_type() != buffer.get_element_type():
        raise VerifyException(
            f"element types do not match: {tensor} and {buffer}; expected the "
            "same element type"
        )


@irdl_op_definition
class ToTensorOp(IRDLOperation):
    """MLIR's `bufferization.to_tensor`: the tensor a memref holds, of the
    same shape and element type, whatever the memref's layout and space."""

    name = "bufferization.to_tensor"

    memref = operand_def(ANY_MEMREF)
    tensor = result_def(ANY_TENSOR)
    writable = opt_prop_def(UnitAttr)
    restrict = opt_prop_def(UnitAttr)

    assembly_format = (
        "$memref (`restrict` $restrict^)? (`writable` $writable^)? attr-dict "
        "`:` type($memref) `to` type($tensor)"
    )

    def verify_(self) -> None:
        verify_same_shape_and_element_type(self.tensor.type, self.memref.type)


@irdl_op_definition
class ToBufferOp(IRDLOperation):
    """MLIR's `bufferization.to_buffer`: a memref holding a tensor, of the
    same shape and element type, in any layout and memory space."""

    name = "bufferization.to_buffer"

    tensor = operand_def(ANY_TENSOR)
    memref = result_def(ANY_MEMREF)
    read_only = opt_prop_def(UnitAttr)

    assembly_format = (
        "$tensor (`read_only` $read_only^)? attr-dict `:` type($tensor) `to` "
        "type($memref)"
    )

    def verify_(self) -> None:
        verify_same_shape_and_element_type(self.tensor.type, self.memref.type)


_REPLACED: dict[type[Operation], type[Operation]] = {
    XdslCloneOp: CloneOp,
    XdslToBufferOp: ToBufferOp,
    XdslToTensorOp: ToTensorOp,
}

BUFFERIZATION = Dialect(
    "bufferization",
    [_REPLACED.get(op, op) for op in Bufferization.operations],
    list(Bufferization.attributes),
)
"""bufferization for memplan: xDSL's ops with `clone`, `to_buffer` and
`to_tensor` replaced."""

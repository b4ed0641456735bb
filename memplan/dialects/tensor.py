"""tensor for memplan: xDSL 0.74's dialect with `tensor.parallel_insert_slice`,
which it lacks.

Tiling with `scf.forall` on tensors (MLIR's `tile_using_forall`) ends each
iteration with an `scf.forall.in_parallel` whose
`tensor.parallel_insert_slice` ops insert the iteration's tile into the
shared outputs; without the op, no tiled program parsed.  memplan reads,
prints and verifies it (bufferization turns it into a copy into a subview:
`memplan-run` runs the bufferized form only).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList, verify_dynamic_index_list
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

__all__ = ["TENSOR", "ParallelInsertSliceOp"]


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    """Inserts `source` into the slice of the shared output `dest` given by
    offsets, sizes and strides (each a constant or an operand), when the
    `scf.forall` iteration it ends completes:
    `tensor.parallel_insert_slice %t into %o[%i, 0] [4, 2] [1, 1] :
    tensor<4x2xf32> into tensor<8x4xf32>`."""

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )

    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or parent.name != "scf.forall.in_parallel":
            raise VerifyException(
                "expected InParallelOpInterface parent, got: "
                f"{'no op' if parent is None else parent.name}"
            )
        for static, values, which in (
            (self.static_offsets, self.offsets, "offset"),
            (self.static_sizes, self.sizes, "size"),
            (self.static_strides, self.strides, "stride"),
        ):
            verify_dynamic_index_list(
                static.get_values(),
                values,
                DYNAMIC_INDEX,
                f" in the {which} arguments",
            )


TENSOR = Dialect(
    "tensor",
    [*tensor.Tensor.operations, ParallelInsertSliceOp],
    list(tensor.Tensor.attributes),
)
"""tensor for memplan: xDSL's ops and `tensor.parallel_insert_slice`."""

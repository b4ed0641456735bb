"""The `memory` dialect on the memory model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from memplan.dialects import memory
from memplan.interpreter.element_types import numpy_dtype
from memplan.interpreter.errors import ModelError
from memplan.interpreter.model import (
    DiscontiguousTensor,
    MemoryModel,
    Storage,
    Tensor,
)
from memplan.interpreter.source import describe


def runtime_shape(type_: MemRefType, dynamic_sizes: Sequence[Any]) -> tuple[int, ...]:
    """The shape of `type_` with its dynamic dimensions filled in, in order."""
    sizes = iter(int(size) for size in dynamic_sizes)
    shape = tuple(next(sizes) if d == DYNAMIC_INDEX else d for d in type_.get_shape())
    if any(dim < 0 for dim in shape):
        raise ModelError(f"negative dimension in shape {list(shape)}")
    return shape


def merge_static(static: tuple[int, ...], dynamic: Sequence[Any]) -> list[int]:
    """Static values with each DYNAMIC_INDEX replaced by the next runtime value."""
    values = iter(int(v) for v in dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static]


def read_tensor(value: Tensor) -> np.ndarray:
    """The values of a tensor (a contiguous copy when it is discontiguous)."""
    return value.gather() if isinstance(value, DiscontiguousTensor) else value


def write_tensor(target: Tensor, values: np.ndarray) -> None:
    """Store `values` (cast to the tensor's element type) into a tensor."""
    if isinstance(target, DiscontiguousTensor):
        target.scatter(values)
    else:
        np.copyto(target, values, casting="unsafe")


def copy_tensor(
    model: MemoryModel,
    source_type: MemRefType,
    target_type: MemRefType,
    source: Tensor,
    target: Tensor,
) -> None:
    """Copy whole tensors of equal shape and count the bytes per scope pair."""
    if tuple(source.shape) != tuple(target.shape):
        raise ModelError(
            f"copies a tensor of shape {list(source.shape)} into one of "
            f"shape {list(target.shape)}"
        )
    write_tensor(target, read_tensor(source))
    count_copy(model, source_type, target_type, source)


def count_copy(
    model: MemoryModel, source_type: MemRefType, target_type: MemRefType, source: Tensor
) -> None:
    """Count a copy of all of `source` from its scope to the target's."""
    model.stats.record_copy(
        memory.scope_of(source_type), memory.scope_of(target_type), int(source.nbytes)
    )


@register_impls
class MemoryFunctions(InterpreterFunctions):
    """memory.alloc_storage / alloc_tensor / alloc_discontiguous_tensor / kill / copy."""

    def __init__(self, model: MemoryModel):
        self.model = model

    @impl(memory.AllocStorageOp)
    def run_alloc_storage(
        self, interpreter: Interpreter, op: memory.AllocStorageOp, args: PythonValues
    ) -> PythonValues:
        (size,) = merge_static(op.static_size.get_values(), args)
        alignment = op.alignment.value.data
        device = op.device.value.data
        return (self.model.allocate_storage(op, op.scope, size, alignment, device),)

    @impl(memory.AllocTensorOp)
    def run_alloc_tensor(
        self, interpreter: Interpreter, op: memory.AllocTensorOp, args: PythonValues
    ) -> PythonValues:
        storage = args[0]
        assert isinstance(storage, Storage)
        offset_count = len(op.dynamic_offset)
        (offset,) = merge_static(
            op.static_offset.get_values(), args[1 : 1 + offset_count]
        )
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shape = runtime_shape(result_type, args[1 + offset_count :])
        dtype = numpy_dtype(result_type.element_type, interpreter.index_bitwidth)
        return (
            self.model.place_tensor(
                op, storage, offset, shape, dtype, op.requested_alignment()
            ),
        )

    @impl(memory.AllocDiscontiguousTensorOp)
    def run_alloc_discontiguous_tensor(
        self,
        interpreter: Interpreter,
        op: memory.AllocDiscontiguousTensorOp,
        args: PythonValues,
    ) -> PythonValues:
        table_dynamic = len(op.dynamic_table_offset)
        table, *rest = args
        (table_offset,) = merge_static(
            op.static_table_offset.get_values(), rest[:table_dynamic]
        )
        data, *block_args = rest[table_dynamic:]
        assert isinstance(table, Storage) and isinstance(data, Storage)
        blocks = merge_static(op.static_block_offsets.get_values(), block_args)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shape = tuple(result_type.get_shape())
        dtype = numpy_dtype(result_type.element_type, interpreter.index_bitwidth)
        block_elements, _ = op.layout().block_shape(shape)
        return (
            self.model.place_discontiguous(
                op,
                table,
                table_offset,
                data,
                blocks,
                shape,
                dtype,
                op.pointer_width.value.data,
                block_elements,
            ),
        )

    @impl(memory.KillOp)
    def run_kill(
        self, interpreter: Interpreter, op: memory.KillOp, args: PythonValues
    ) -> PythonValues:
        self.model.kill(args[0], describe(op))
        return ()

    @impl(memory.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: memory.CopyOp, args: PythonValues
    ) -> PythonValues:
        source_type, target_type = op.source.type, op.target.type
        assert isinstance(source_type, MemRefType) and isinstance(
            target_type, MemRefType
        )
        copy_tensor(self.model, source_type, target_type, args[0], args[1])
        return ()

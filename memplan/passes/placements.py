"""The byte ranges a tensor allocation takes in its storage, as
`memory-verify` checks them (in a function, and across calls)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.ir import Operation, SSAValue

from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocTensorOp,
    element_bytes,
    static_byte_size,
)
from memplan.passes.diagnostics import describe, named_op
from memplan.passes.rounding import tensor_footprint


@dataclass(frozen=True)
class Placement:
    """Bytes [start, end) of `storage` that a tensor (or one part of it) uses."""

    tensor: Operation
    part: str
    storage: SSAValue
    start: int
    end: int
    alignment: int
    """Alignment the address of these bytes needs."""

    def tensor_name(self) -> str:
        """The op and SSA name of the tensor, as diagnostics start."""
        return named_op(self.tensor)

    def describe(self) -> str:
        return (
            f"{self.part}bytes [{self.start}, {self.end}) of {describe(self.storage)}"
        )


def tensor_placements(tensor: Operation, required: int) -> list[Placement]:
    """The static byte ranges a tensor allocation occupies."""
    if isinstance(tensor, AllocTensorOp):
        return _contiguous_placement(tensor, required)
    if isinstance(tensor, AllocDiscontiguousTensorOp):
        return _discontiguous_placements(tensor, required)
    return []


def _contiguous_placement(tensor: AllocTensorOp, required: int) -> list[Placement]:
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    offset = tensor.static_offset_bytes()
    size = static_byte_size(type_)
    if offset is None or size is None:
        return []
    alignment = tensor_footprint(tensor, required).alignment
    return [Placement(tensor, "", tensor.storage, offset, offset + size, alignment)]


def _discontiguous_placements(
    tensor: AllocDiscontiguousTensorOp, required: int
) -> list[Placement]:
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    width = tensor.pointer_width.value.data
    placements: list[Placement] = []
    table = tensor.static_table_offset_bytes()
    sizes = tensor.block_sizes()
    if table is not None:
        end = table + len(sizes) * width
        placements.append(
            Placement(
                tensor, "pointer table, ", tensor.table_storage, table, end, width
            )
        )
    alignment = max(required, element_bytes(type_.element_type))
    offsets = tensor.static_block_offsets.get_values()
    for index, (offset, size) in enumerate(zip(offsets, sizes, strict=True)):
        if offset != DYNAMIC_INDEX:
            placements.append(
                Placement(
                    tensor,
                    f"block {index}, ",
                    tensor.data_storage,
                    offset,
                    offset + size,
                    alignment,
                )
            )
    return placements


def address_alignment(storage_alignment: int, offset: int) -> int:
    """The largest power of two that divides the address of storage + offset."""
    if offset == 0:
        return storage_alignment
    return min(storage_alignment, offset & -offset)

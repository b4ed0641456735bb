"""Byte arithmetic for packing: storages one after another, and the room a
tensor takes in an arena (one rule for the passes that pack, predict or
check arenas)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.dialects.builtin import MemRefType

from memplan.dialects.memory import (
    AllocTensorOp,
    element_bytes,
    static_byte_size,
    static_part_bytes,
)
from memplan.planning.buffers import align_up


def pack_in_order(
    sizes: Sequence[int], alignments: Sequence[int]
) -> tuple[list[int], int]:
    """Offsets of blocks laid out in order, each at the running end rounded up to
    its alignment, and the end of the last block (the total size)."""
    offsets: list[int] = []
    end = 0
    for size, alignment in zip(sizes, alignments, strict=True):
        offset = align_up(end, alignment)
        offsets.append(offset)
        end = offset + size
    return offsets, end


class Footprint(NamedTuple):
    """Bytes a tensor takes in an arena and the alignment of its offset."""

    size: int
    alignment: int


def arena_footprint(
    type_: MemRefType, tensor_alignment: int | None, requested: int | None = None
) -> Footprint:
    """The footprint of a static tensor of `type_` in an arena packed with
    `tensor-alignment` (None: the option's default).  Its offset is a
    multiple of the element size, of `tensor_alignment` and of the tensor's
    own `requested` alignment (`align`); its size rounds up to the first two
    only.  `memory-plan` packs by this rule, `memory-place` predicts those
    arenas with it and `memory-verify{alignment}` checks offsets by it."""
    size = static_byte_size(type_)
    assert size is not None, "only static tensors are packed into arenas"
    return _footprint(type_, size, tensor_alignment, requested)


def _footprint(
    type_: MemRefType, size: int, tensor_alignment: int | None, requested: int | None
) -> Footprint:
    unit = max(element_bytes(type_.element_type), tensor_alignment or 1)
    return Footprint(align_up(size, unit), max(unit, requested or 1))


def tensor_footprint(tensor: AllocTensorOp, tensor_alignment: int | None) -> Footprint:
    """`arena_footprint` of a static `memory.alloc_tensor`, with its `align`."""
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    return arena_footprint(type_, tensor_alignment, tensor.requested_alignment())


def unit_footprint(tensor: AllocTensorOp, tensor_alignment: int | None) -> Footprint:
    """The footprint in units of a tensor of dynamic shape in an arena of its
    unit (`memplan.passes.dynamic_arenas`): `arena_footprint`'s rule on its
    bytes per unit.  A size and an offset that are multiples of an alignment
    in units are so in bytes for every unit."""
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    return _footprint(
        type_, static_part_bytes(type_), tensor_alignment, tensor.requested_alignment()
    )

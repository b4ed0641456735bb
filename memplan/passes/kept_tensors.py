"""A storage `memory-plan` plans only in part: what stays, and where.

A static storage may hold tensors the plan moves into an arena beside ones
that need storage of their own (returned, loop-carried...): a storage that
`memory-coalesce` merged, or one written so by hand.  The movable tensors
go to the arena; the others stay, and the storage shrinks to them.

Kept tensors whose bytes overlap keep their layout among themselves (a run);
runs are laid out in offset order, each at the first offset past the
previous one that is congruent to its old offset modulo the storage's
alignment, so every kept tensor's address is as aligned as before.  In a
storage `memory-coalesce` laid out at the VTCM alignment, a kept tensor
moves down to the next free 2048-byte boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, MemRefType, i64

from memplan.dialects.memory import AllocStorageOp, AllocTensorOp, static_byte_size


@dataclass(frozen=True)
class KeptLayout:
    """New offsets of the kept tensors and the storage's new size."""

    offsets: dict[AllocTensorOp, int]
    size: int


def kept_layout(storage: AllocStorageOp, kept: Sequence[AllocTensorOp]) -> KeptLayout:
    """Where the `kept` tensors (static offsets and sizes) of `storage` go
    once its other tensors have left it (module docstring)."""
    alignment = storage.alignment.value.data
    runs: list[tuple[int, int, list[tuple[AllocTensorOp, int]]]] = []
    for tensor, offset, size in sorted(
        ((t, _offset(t), _size(t)) for t in kept), key=lambda item: item[1]
    ):
        if runs and offset < runs[-1][1]:
            start, end, members = runs[-1]
            runs[-1] = (start, max(end, offset + size), members)
        else:
            members = []
            runs.append((offset, offset + size, members))
        members.append((tensor, offset))
    offsets: dict[AllocTensorOp, int] = {}
    end = 0
    for start, run_end, members in runs:
        new_start = end + (start - end) % alignment
        offsets.update((t, new_start + offset - start) for t, offset in members)
        end = new_start + run_end - start
    return KeptLayout(offsets, end)


def shrink(storage: AllocStorageOp, layout: KeptLayout) -> None:
    """Give the kept tensors their new offsets and `storage` its new size."""
    storage.properties["static_size"] = DenseArrayBase.from_list(i64, [layout.size])
    for tensor, offset in layout.offsets.items():
        tensor.properties["static_offset"] = DenseArrayBase.from_list(i64, [offset])


def _offset(tensor: AllocTensorOp) -> int:
    offset = tensor.static_offset_bytes()
    assert offset is not None, "only tensors at static offsets are planned"
    return offset


def _size(tensor: AllocTensorOp) -> int:
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    size = static_byte_size(type_)
    assert size is not None, "only tensors of static size are planned"
    return size

"""Byte arithmetic for packing storages one after another."""

from __future__ import annotations

from collections.abc import Sequence


def align_up(offset: int, alignment: int) -> int:
    """The smallest multiple of `alignment` that is >= `offset`."""
    return -(-offset // alignment) * alignment


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

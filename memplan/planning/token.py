"""Whole-storage reuse, as TVM Relay's graph memory planner does it.

Each buffer borrows a whole storage from a free list (sizes within a 16x match
range), and the storages are then laid out back to back.  It never packs two
buffers side by side inside one storage, which is why offset packing beats it.
"""

from __future__ import annotations

import time
from bisect import bisect_left, insort
from collections.abc import Sequence

from memplan.planning.budget import SearchObserver
from memplan.planning.buffers import Buffer, BufferId, Plan, align_up, make_plan

MATCH_RANGE = 16


def _take_storage(free: list[tuple[int, int]], size: int) -> int | None:
    """Pop the storage to reuse for `size` bytes from the size-sorted free list.

    The smallest storage >= size within the match range wins; else the largest
    smaller one that is still within range (the caller grows it).
    """
    middle = bisect_left(free, (size, -1))
    end = bisect_left(free, (size * MATCH_RANGE + 1, -1))
    if middle < end:
        return free.pop(middle)[1]
    if middle > 0 and free[middle - 1][0] >= size // MATCH_RANGE:
        return free.pop(middle - 1)[1]
    return None


def token_plan(
    buffers: Sequence[Buffer],
    capacity: int | None = None,
    time_limit: float | None = None,
    budget: int | None = None,
    observer: SearchObserver | None = None,
) -> Plan:
    """Plan by storage reuse; capacity, budget and time limit do not change the result."""
    started = time.perf_counter()
    events: list[tuple[int, int, int]] = []
    for index, buffer in enumerate(buffers):
        if buffer.size:
            events.append((buffer.lower, 1, index))
            events.append((buffer.upper, 0, index))
    events.sort()  # frees before allocations at the same time: half-open lifetimes
    storage_sizes: list[int] = []
    storage_alignments: list[int] = []
    storage_of: dict[int, int] = {}
    free: list[tuple[int, int]] = []
    for _, is_start, index in events:
        buffer = buffers[index]
        if not is_start:
            storage = storage_of[index]
            insort(free, (storage_sizes[storage], storage))
            continue
        storage = _take_storage(free, buffer.size)
        if storage is None:
            storage = len(storage_sizes)
            storage_sizes.append(buffer.size)
            storage_alignments.append(buffer.alignment)
        else:
            storage_sizes[storage] = max(storage_sizes[storage], buffer.size)
            storage_alignments[storage] = max(
                storage_alignments[storage], buffer.alignment
            )
        storage_of[index] = storage
    storage_offsets: list[int] = []
    top = 0
    for size, alignment in zip(storage_sizes, storage_alignments, strict=True):
        offset = align_up(top, alignment)
        storage_offsets.append(offset)
        top = offset + size
    offsets: dict[BufferId, int] = {
        buffer.id: storage_offsets[storage_of[index]] if buffer.size else 0
        for index, buffer in enumerate(buffers)
    }
    return make_plan(buffers, offsets, "token", capacity, started)

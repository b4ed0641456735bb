"""Independent check of a plan, so every algorithm (and every caller) can be audited."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence

from memplan.planning.buffers import Buffer, BufferId, plan_height


def _describe(buffer: Buffer, offset: int) -> str:
    return (
        f"{buffer.id!r} (live [{buffer.lower}, {buffer.upper}), "
        f"bytes [{offset}, {offset + buffer.size}))"
    )


def _placement_problem(buffer: Buffer, offsets: Mapping[BufferId, int]) -> str | None:
    if buffer.id not in offsets:
        return f"buffer {buffer.id!r} has no offset"
    offset = offsets[buffer.id]
    if offset < 0:
        return f"buffer {buffer.id!r} has negative offset {offset}"
    if offset % buffer.alignment:
        return f"buffer {buffer.id!r} offset {offset} is not a multiple of its alignment {buffer.alignment}"
    return None


def _first_overlap(
    buffers: Sequence[Buffer], offsets: Mapping[BufferId, int]
) -> str | None:
    """Sweep time; live buffers are kept sorted by address, so only neighbours can clash."""
    events: list[tuple[int, int, int]] = []
    for index, buffer in enumerate(buffers):
        if buffer.size:
            events.append((buffer.lower, 1, index))
            events.append((buffer.upper, 0, index))
    events.sort()
    live: list[tuple[int, int]] = []  # (offset, index), disjoint in address so far
    for _, is_start, index in events:
        buffer = buffers[index]
        key = (offsets[buffer.id], index)
        if not is_start:
            del live[bisect_left(live, key)]
            continue
        position = bisect_left(live, key)
        for neighbour in live[max(position - 1, 0) : position + 1]:
            other = buffers[neighbour[1]]
            start, end = key[0], key[0] + buffer.size
            if neighbour[0] < end and start < neighbour[0] + other.size:
                return (
                    f"buffers {_describe(other, neighbour[0])} and "
                    f"{_describe(buffer, start)} overlap"
                )
        insort(live, key)
    return None


def validate(
    buffers: Sequence[Buffer],
    offsets: Mapping[BufferId, int],
    capacity: int | None = None,
) -> str | None:
    """None when the plan is valid, else a message naming the first violation."""
    for buffer in buffers:
        problem = _placement_problem(buffer, offsets)
        if problem is not None:
            return problem
    overlap = _first_overlap(buffers, offsets)
    if overlap is not None:
        return overlap
    height = plan_height(buffers, offsets)
    if capacity is not None and height > capacity:
        return f"plan height {height} exceeds capacity {capacity}"
    return None

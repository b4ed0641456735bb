"""Independent check of a plan, so every algorithm (and every caller) can be audited."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Mapping, Sequence

from memplan.planning.buffers import Buffer, BufferId, plan_height


def _placement_problem(buffer: Buffer, offsets: Mapping[BufferId, int]) -> str | None:
    if buffer.id not in offsets:
        return f"buffer {buffer.id!r} has no offset"
    offset = offsets[buffer.id]
    if offset < 0:
        return f"buffer {buffer.id!r} has negative offset {offset}"
    if offset % buffer.alignment:
        return f"buffer {buffer.id!r} offset {offset} is not a multiple of its alignment {buffer.alignment}"
    return None


Piece = tuple[int, int, int, int]  # (lower, upper, start byte, end byte)


def first_overlap(pieces: Sequence[Piece], name: Callable[[int], str]) -> str | None:
    """The first two pieces alive together that share a byte, described with
    `name(index)`, or None.  Sweep time; live pieces are kept sorted by address,
    so only neighbours can clash.  Empty pieces (start == end) never clash."""
    events: list[tuple[int, int, int]] = []
    for index, (lower, upper, start, end) in enumerate(pieces):
        if start < end:
            events.append((lower, 1, index))
            events.append((upper, 0, index))
    events.sort()
    live: list[tuple[int, int]] = []  # (start, index), disjoint in address so far
    for _, is_start, index in events:
        lower, upper, start, end = pieces[index]
        key = (start, index)
        if not is_start:
            del live[bisect_left(live, key)]
            continue
        position = bisect_left(live, key)
        for neighbour in live[max(position - 1, 0) : position + 1]:
            other = pieces[neighbour[1]]
            if other[2] < end and start < other[3]:
                return (
                    f"{_describe(name(neighbour[1]), other)} and "
                    f"{_describe(name(index), pieces[index])} overlap"
                )
        insort(live, key)
    return None


def _describe(name: str, piece: Piece) -> str:
    lower, upper, start, end = piece
    return f"{name} (live [{lower}, {upper}), bytes [{start}, {end}))"


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
    pieces = [
        (b.lower, b.upper, offsets[b.id], offsets[b.id] + b.size) for b in buffers
    ]
    overlap = first_overlap(pieces, lambda i: f"{buffers[i].id!r}")
    if overlap is not None:
        return "buffers " + overlap
    height = plan_height(buffers, offsets)
    if capacity is not None and height > capacity:
        return f"plan height {height} exceeds capacity {capacity}"
    return None

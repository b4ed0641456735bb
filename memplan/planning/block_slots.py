"""Block slots for discontiguous buffers around fixed contiguous ones.

Slot k holds bytes [k * block_size, (k + 1) * block_size).  Buffers take
slots in order of start time.  A buffer takes the lowest run of consecutive
free slots that holds all its blocks (so it may later be kept contiguous),
if that run ends no higher than the highest slot used so far or than the
lowest free slots taken one by one would; otherwise those lowest free slots.  Either way the highest slot in
use grows only when no free slot is left, so without contiguous buffers it
is the most blocks alive at once: this is interval coloring by start time,
optimal for equal-size pieces.

Contiguous buffers cut the slots into bands: the slots between two of their
slot edges are touched by the same contiguous buffers, and are unusable by a
block whose lifetime meets any of theirs.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence

from memplan.planning.buffers import Buffer, BufferId

Run = tuple[int, int]  # slots [first, end)


def block_count(size: int, block_size: int) -> int:
    """Blocks holding `size` bytes (the last may be partial); 0 for 0 bytes."""
    return -(-size // block_size)


class _Band:
    """Slots [first, end) (end None: unbounded) touched by the same contiguous
    buffers, unusable during `busy` (their lifetimes)."""

    def __init__(self, first: int, end: int | None, busy: list[tuple[int, int]]):
        self.end = end
        self.busy = busy
        self.top = first  # slots from here up were never used
        self.free: list[Run] = []  # released runs below top, sorted and disjoint
        self.count = 0  # slots in `free`
        self.held: list[tuple[int, int, int]] = []  # (free from time, first, end)

    def blocked(self, lower: int, upper: int) -> bool:
        return any(lo < upper and lower < hi for lo, hi in self.busy)

    def release_until(self, time: int) -> None:
        while self.held and self.held[0][0] <= time:
            _, first, end = heapq.heappop(self.held)
            self._release(first, end)

    def _release(self, first: int, end: int) -> None:
        free = self.free
        self.count += end - first
        k = bisect_left(free, (first, end))
        if k and free[k - 1][1] == first:
            k -= 1
            first = free.pop(k)[0]
        if k < len(free) and free[k][0] == end:
            end = free.pop(k)[1]
        free.insert(k, (first, end))

    def fresh_room(self) -> int | None:
        return None if self.end is None else self.end - self.top

    def lowest(self, wanted: int) -> list[int]:
        """Up to `wanted` of the lowest free slots (nothing is taken)."""
        slots: list[int] = []
        for first, end in self.free:
            slots.extend(range(first, min(end, first + wanted - len(slots))))
            if len(slots) == wanted:
                return slots
        room = self.fresh_room()
        more = wanted - len(slots) if room is None else min(room, wanted - len(slots))
        slots.extend(range(self.top, self.top + more))
        return slots

    def find_run(self, wanted: int, limit: int) -> int | None:
        """The lowest first slot of `wanted` consecutive free slots ending at or
        below `limit`, or None."""
        room = self.fresh_room()
        fresh_end = limit if room is None else min(limit, self.top + room)
        for first, end in self.free:
            if end == self.top:
                end = fresh_end
            if first + wanted > limit:
                return None
            if end - first >= wanted:
                return first
        return self.top if self.top + wanted <= fresh_end else None

    def take_run(self, first: int, wanted: int, upper: int) -> None:
        """Hold slots [first, first + wanted) until `upper`."""
        end = first + wanted
        free = self.free
        k = bisect_right(free, first, key=lambda run: run[0]) - 1
        if k >= 0 and free[k][0] <= first < free[k][1]:
            start, stop = free.pop(k)
            self.count -= min(end, stop) - first
            if start < first:
                free.insert(k, (start, first))
                k += 1
            if end < stop:
                free.insert(k, (end, stop))
        self.top = max(self.top, end)
        heapq.heappush(self.held, (upper, first, end))

    def take_lowest(self, wanted: int, upper: int) -> list[int]:
        """Up to `wanted` of the lowest free slots, held until `upper`."""
        slots: list[int] = []
        while len(slots) < wanted and self.free:
            first, end = self.free[0]
            used = min(end - first, wanted - len(slots))
            slots.extend(range(first, first + used))
            self.take_run(first, used, upper)
        room = self.fresh_room()
        used = wanted - len(slots) if room is None else min(room, wanted - len(slots))
        if used:
            slots.extend(range(self.top, self.top + used))
            self.take_run(self.top, used, upper)
        return slots


def _bands(
    whole: Sequence[Buffer], offsets: Mapping[BufferId, int], block_size: int
) -> list[_Band]:
    """The slots cut into bands at the slot edges of the contiguous buffers."""
    spans = [
        (
            offsets[b.id] // block_size,
            block_count(offsets[b.id] + b.size, block_size),
            b,
        )
        for b in whole
        if b.size
    ]
    edges = sorted({0} | {s for span in spans for s in span[:2]})
    busy: list[list[tuple[int, int]]] = [[] for _ in edges]
    for first, end, buffer in spans:
        for k in range(bisect_right(edges, first) - 1, bisect_right(edges, end - 1)):
            busy[k].append((buffer.lower, buffer.upper))
    ends: list[int | None] = [*edges[1:], None]
    return [
        _Band(first, end, b) for first, end, b in zip(edges, ends, busy, strict=True)
    ]


def assign_blocks(
    whole: Sequence[Buffer],
    offsets: Mapping[BufferId, int],
    parts: Sequence[Buffer],
    block_size: int,
) -> dict[BufferId, tuple[int, ...]]:
    """Block offsets of each buffer of `parts` (module docstring), given the
    contiguous buffers `whole` at `offsets`."""
    bands = _bands(whole, offsets, block_size)
    blocks: dict[BufferId, tuple[int, ...]] = {}
    for index in sorted(range(len(parts)), key=lambda i: (parts[i].lower, i)):
        buffer = parts[index]
        wanted = block_count(buffer.size, block_size)
        usable = [b for b in bands if not b.blocked(buffer.lower, buffer.upper)]
        for band in usable:
            band.release_until(buffer.lower)
        slots: list[int] = []
        for band in usable:
            slots += band.lowest(wanted - len(slots))
        # The highest slot ever used (the unbounded band's top) may stay.
        limit = max(slots[-1] + 1 if slots else 0, bands[-1].top)
        for band in usable:
            first = band.find_run(wanted, limit)
            if first is not None:
                band.take_run(first, wanted, buffer.upper)
                slots = list(range(first, first + wanted))
                break
        else:
            slots = []
            for band in usable:
                if len(slots) == wanted:
                    break
                slots += band.take_lowest(wanted - len(slots), buffer.upper)
        blocks[buffer.id] = tuple(s * block_size for s in slots)
    return blocks

"""Best-fit by decreasing size, the heuristic TFLite and XLA use.

Buffers are placed biggest first; each takes the smallest address gap that
fits it among the already placed buffers alive at the same time, or the top.
Two segment trees over compressed time find those neighbours in
O(log n + k), so the whole plan costs O(n log n + sum of k log k).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from memplan.planning.budget import SearchObserver
from memplan.planning.buffers import (
    Buffer,
    BufferId,
    Plan,
    align_up,
    make_plan,
    time_points,
)

Block = tuple[int, int]  # (offset, end) of a placed buffer


class _PlacedIndex:
    """Placed blocks by lifetime; answers "which placed blocks overlap [lo, hi)"."""

    def __init__(self, slots: int) -> None:
        self.leaves = 1 << max(slots - 1, 1).bit_length()
        # covering[node]: blocks whose lifetime covers the node's whole time range.
        self.covering: list[list[Block]] = [[] for _ in range(2 * self.leaves)]
        # starting[node]: blocks whose lifetime starts inside the node's time range.
        self.starting: list[list[Block]] = [[] for _ in range(2 * self.leaves)]

    def add(self, lo: int, hi: int, block: Block) -> None:
        covering = self.covering
        left, right = lo + self.leaves, hi + self.leaves
        while left < right:
            if left & 1:
                covering[left].append(block)
                left += 1
            if right & 1:
                right -= 1
                covering[right].append(block)
            left >>= 1
            right >>= 1
        node = lo + self.leaves
        while node:
            self.starting[node].append(block)
            node >>= 1

    def overlapping(self, lo: int, hi: int) -> list[Block]:
        """Blocks alive at slot lo, plus blocks starting in slots (lo, hi)."""
        found: list[Block] = []
        node = lo + self.leaves
        while node:
            found += self.covering[node]
            node >>= 1
        starting = self.starting
        left, right = lo + 1 + self.leaves, hi + self.leaves
        while left < right:
            if left & 1:
                found += starting[left]
                left += 1
            if right & 1:
                right -= 1
                found += starting[right]
            left >>= 1
            right >>= 1
        return found


def best_fit_offset(neighbours: list[Block], size: int, alignment: int) -> int:
    """The lowest offset of the smallest gap that fits, else the top of the stack."""
    neighbours.sort()
    top = 0
    best_gap = -1
    best_offset = -1
    for offset, end in neighbours:
        if offset > top:
            start = align_up(top, alignment) if alignment > 1 else top
            gap = offset - top
            if start + size <= offset and (best_gap < 0 or gap < best_gap):
                best_gap, best_offset = gap, start
        if end > top:
            top = end
    if best_offset >= 0:
        return best_offset
    return align_up(top, alignment) if alignment > 1 else top


def placement_order(buffers: Sequence[Buffer]) -> list[int]:
    """Size first, then longer lifetimes, then earlier starts: big, hard blocks first."""
    return sorted(
        range(len(buffers)),
        key=lambda i: (
            -buffers[i].size,
            buffers[i].lower - buffers[i].upper,
            buffers[i].lower,
        ),
    )


def greedy_offsets(
    buffers: Sequence[Buffer], fixed: Sequence[tuple[Buffer, int]] = ()
) -> dict[BufferId, int]:
    """Best-fit offsets for every buffer (zero-size buffers sit at 0), around the
    `fixed` (buffer, offset) pairs, which keep their offsets and are not returned."""
    points = time_points([*buffers, *(b for b, _ in fixed)])
    # Compress lifetimes to slot indices (plain Python: no numpy to load for it).
    slot = {point: k for k, point in enumerate(points)}
    firsts = [slot[b.lower] for b in buffers]
    lasts = [slot[b.upper] for b in buffers]
    index = _PlacedIndex(len(points))
    for buffer, offset in fixed:
        if buffer.size:
            index.add(
                slot[buffer.lower], slot[buffer.upper], (offset, offset + buffer.size)
            )
    offsets: dict[BufferId, int] = {}
    for i in placement_order(buffers):
        buffer = buffers[i]
        if not buffer.size:
            offsets[buffer.id] = 0
            continue
        lo, hi = firsts[i], lasts[i]
        offset = best_fit_offset(
            index.overlapping(lo, hi), buffer.size, buffer.alignment
        )
        offsets[buffer.id] = offset
        index.add(lo, hi, (offset, offset + buffer.size))
    return {buffer.id: offsets[buffer.id] for buffer in buffers}  # in input order


def greedy_plan(
    buffers: Sequence[Buffer],
    capacity: int | None = None,
    time_limit: float | None = None,
    budget: int | None = None,
    observer: SearchObserver | None = None,
) -> Plan:
    """Plan by best-fit; capacity, budget and time limit do not change the result."""
    started = time.perf_counter()
    return make_plan(buffers, greedy_offsets(buffers), "greedy", capacity, started)

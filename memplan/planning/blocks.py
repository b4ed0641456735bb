"""Discontiguous buffers: fixed-size blocks reached through a pointer table.

A buffer split into blocks of `block_size` bytes needs any free block slots
(block-aligned byte ranges), not one free range, so it suffers no
fragmentation beyond its last, partial block.  The price is a table lookup on
every access, so a compiler keeps buffers contiguous unless it must split.

Layout of a plan with discontiguous buffers (`_Layout.make`):

1. the contiguous buffers are packed by the contiguous packer, twice: once at
   block-aligned offsets (every slot they leave is whole) and once at their
   own alignment (denser when they are small against a block); the variant
   with the lower final height wins, block-aligned on a tie;
2. the discontiguous buffers, by start time, take block slots that no
   contiguous buffer touches during their lifetime and that no other block
   holds at their start: a run of consecutive slots when one is as low as
   the lowest free slots, else the lowest free slots (`block_slots`).
   Without contiguous buffers this is interval coloring by start time,
   optimal for equal-size blocks: the height is the most blocks alive at
   once times `block_size`;
3. with `tables_in_arena`, the pointer tables (`block_count * pointer_width`
   bytes each, alive with their buffer) are packed by the contiguous packer
   and stacked on top, so they never break up the block slots.

Everything is deterministic: ties go to input order and the packer counts
work in nodes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from memplan.planning.block_slots import assign_blocks, block_count
from memplan.planning.buffers import (
    Buffer,
    BufferId,
    align_up,
    check_buffers,
    live_peak,
)
from memplan.planning.greedy import best_fit_offset
from memplan.planning.registry import get_algorithm, plan
from memplan.planning.validate import Piece, first_overlap

__all__ = [
    "BlockPlan",
    "block_count",
    "blocks_lower_bound",
    "plan_with_blocks",
    "table_buffers",
    "validate_block_plan",
]

Mode = Literal["auto", "always"]
MODES = ("auto", "always")

MAX_BLOCKS = 2**24
"""The most blocks a plan may cut its buffers into: every block is a Python
object, so far more exhaust memory (or take hours) instead of planning."""


class TooManyBlocks(ValueError):
    """The block size cuts the buffers into more than MAX_BLOCKS blocks."""


@dataclass(frozen=True)
class BlockPlan:
    """Where every buffer lives: contiguous at an offset, or block by block.

    `height` is the highest end of anything placed (tables included when they
    live in the arena).  `table_bytes` is the most table bytes alive at once,
    wherever the tables live; `capacity` is the one the plan was made for.
    """

    height: int
    offsets: dict[BufferId, int]
    blocks: dict[BufferId, tuple[int, ...]]
    tables: dict[BufferId, int]
    block_size: int
    fits: bool
    nodes: int = 0
    table_bytes: int = 0
    capacity: int | None = None

    @property
    def split_bytes(self) -> int:
        """Bytes of block slots the discontiguous buffers take."""
        return sum(len(b) for b in self.blocks.values()) * self.block_size


def table_buffers(
    buffers: Sequence[Buffer],
    blocks: Mapping[BufferId, tuple[int, ...]],
    pointer_width: int = 4,
) -> list[Buffer]:
    """The pointer table of each discontiguous buffer, as a buffer with the same
    id and lifetime, for planning the tables in another scope."""
    return [
        Buffer(b.id, b.lower, b.upper, len(blocks[b.id]) * pointer_width, pointer_width)
        for b in buffers
        if b.id in blocks
    ]


def blocks_lower_bound(
    buffers: Sequence[Buffer],
    block_size: int,
    pointer_width: int = 4,
    tables_in_arena: bool = False,
) -> int:
    """No plan splitting every buffer into blocks is lower: the most block
    bytes (plus table bytes, when they are in the arena) alive at once."""
    extra = pointer_width if tables_in_arena else 0
    rounded = [
        Buffer(
            b.id,
            b.lower,
            b.upper,
            block_count(b.size, block_size) * (block_size + extra),
        )
        for b in buffers
    ]
    return live_peak(rounded)


def _power_of_two(value: object) -> bool:
    return isinstance(value, int) and value > 0 and not value & (value - 1)


def _check_arguments(
    buffers: Sequence[Buffer],
    block_size: int,
    capacity: int | None,
    mode: str,
    splittable: Collection[BufferId] | None,
    split_cost: Mapping[BufferId, float] | None,
    pointer_width: int,
    algorithm: str,
    budget: int | None,
) -> None:
    if not _power_of_two(block_size):
        raise ValueError(
            f"block_size must be a positive power of two, got {block_size!r}"
        )
    if not _power_of_two(pointer_width):
        raise ValueError(
            f"pointer_width must be a positive power of two, got {pointer_width!r}"
        )
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if capacity is not None and capacity < 0:
        raise ValueError(f"capacity must be >= 0, got {capacity}")
    if budget is not None and budget < 0:
        raise ValueError(f"budget must be >= 0 search nodes, got {budget}")
    get_algorithm(algorithm)
    check_buffers(buffers)
    known = {b.id for b in buffers}
    for name, ids in (("splittable", splittable), ("split_cost", split_cost)):
        unknown = [i for i in ids or () if i not in known]
        if unknown:
            raise ValueError(f"{name} names unknown buffer {unknown[0]!r}")
    for key, cost in (split_cost or {}).items():
        if not (math.isfinite(cost) and cost >= 0):
            raise ValueError(
                f"split_cost of buffer {key!r} must be a finite number >= 0, got {cost}"
            )


def plan_with_blocks(
    buffers: Sequence[Buffer],
    *,
    block_size: int,
    capacity: int | None = None,
    mode: Mode = "auto",
    splittable: Collection[BufferId] | None = None,
    split_cost: Mapping[BufferId, float] | None = None,
    pointer_width: int = 4,
    tables_in_arena: bool = False,
    algorithm: str = "best",
    budget: int | None = None,
) -> BlockPlan:
    """Place buffers contiguously or as blocks of `block_size` bytes.

    A buffer can be split when it is in `splittable` (default: all), has
    bytes, and its alignment is at most `block_size` (blocks are only
    block-aligned); the others stay contiguous.

    - `always`: every buffer that can be split is.  Without contiguous
      buffers and tables the height is `blocks_lower_bound`, the optimum.
    - `auto`: the contiguous plan (`plan(buffers, capacity, algorithm,
      budget=budget)`) when it fits `capacity` or there is none.  Otherwise
      it aims at the fitting plan with the smallest total `split_cost`
      (default cost: a buffer's block count, so the fewest bytes behind a
      table, hence the fewest table reads), greedily:
      1. every candidate is split (`always`); if that fits, buffers go back
         to contiguous, the most costly first, wherever the plan stays valid
         and fitting: a buffer whose blocks are consecutive keeps their
         bytes, another moves to the best-fitting free range of its lifetime
         (greedy's rule), and the pass repeats while buffers move;
      2. if splitting everything does not fit (tables in the arena, blocks
         coarser than the buffers), prefixes of the candidates are tried, in
         order of the bytes splitting adds per byte (block rounding, table),
         then of likely use (the buffers the contiguous plan put above the
         capacity, then those alive with them, then the rest, cheaper first),
         by doubling then bisection, first keeping the contiguous plan's
         offsets for the rest, then repacking it (two packer runs a try);
         the shortest fitting prefix is pruned one buffer at a time, then
         step 1's return to contiguous runs on it.
      The result is no worse than the contiguous plan, but not proved the
      cheapest: a buffer stays split when the blocks of others sit where it
      could go.  When nothing fits, the lowest plan found is returned with
      `fits=False`.

    Raises ValueError (TraceError for malformed buffers, TooManyBlocks when
    the candidates make more than MAX_BLOCKS blocks) for bad arguments, never
    for a capacity that cannot be met.
    """
    _check_arguments(
        buffers,
        block_size,
        capacity,
        mode,
        splittable,
        split_cost,
        pointer_width,
        algorithm,
        budget,
    )
    allowed = None if splittable is None else set(splittable)
    candidates = [
        i
        for i, b in enumerate(buffers)
        if b.size and b.alignment <= block_size and (allowed is None or b.id in allowed)
    ]
    blocks = sum(block_count(buffers[i].size, block_size) for i in candidates)
    if blocks > MAX_BLOCKS:
        raise TooManyBlocks(
            f"blocks of {block_size} bytes cut the buffers into {blocks:,} blocks, "
            f"more than the {MAX_BLOCKS:,} a plan may hold: use larger blocks"
        )
    layout = _Layout(
        buffers, block_size, capacity, pointer_width, tables_in_arena, algorithm, budget
    )
    if mode == "always":
        return layout.make(frozenset(candidates))
    return _auto(layout, candidates, split_cost or {})


def _auto(
    layout: _Layout, candidates: list[int], split_cost: Mapping[BufferId, float]
) -> BlockPlan:
    """`auto` mode: see plan_with_blocks."""
    buffers, capacity = layout.buffers, layout.capacity
    contiguous = layout.make(frozenset())
    if contiguous.fits or not candidates:
        return layout.with_nodes(contiguous)
    assert capacity is not None

    def cost(i: int) -> float:
        buffer = buffers[i]
        return split_cost.get(buffer.id, block_count(buffer.size, layout.block_size))

    dearest = sorted(candidates, key=lambda i: (-cost(i), i))
    everything = layout.make(frozenset(candidates))
    if everything.fits:
        return layout.with_nodes(_unsplit(layout, everything, dearest))
    lowest = everything if everything.height < contiguous.height else contiguous
    above = {
        i for i, b in enumerate(buffers) if contiguous.offsets[b.id] + b.size > capacity
    }
    near = {
        i
        for i, b in enumerate(buffers)
        if any(b.lower < buffers[j].upper and buffers[j].lower < b.upper for j in above)
    }
    extra = layout.pointer_width if layout.tables_in_arena else 0

    def waste(i: int) -> Fraction:
        """Bytes that splitting adds (block rounding, table), per byte of data."""
        size = buffers[i].size
        count = block_count(size, layout.block_size)
        return Fraction(count * (layout.block_size + extra) - size, size)

    order = sorted(
        candidates,
        key=lambda i: (waste(i), i not in above, i not in near, cost(i), i),
    )
    # Buffers left contiguous keep the contiguous plan's offsets (no packer
    # run per try), or else are repacked.
    for keep in (contiguous.offsets, None):

        def make(split: frozenset[int], keep: Mapping[BufferId, int] | None = keep):
            return layout.make(split, keep)

        fitting, some = _fewest(order, cost, make)
        if fitting is not None:
            return layout.with_nodes(_unsplit(layout, fitting, dearest))
        if some.height < lowest.height:
            lowest = some
    return layout.with_nodes(lowest)


def _unsplit(layout: _Layout, fitting: BlockPlan, order: list[int]) -> BlockPlan:
    """`fitting` with buffers made contiguous again, in `order`, wherever that
    keeps the plan valid and fitting: a buffer whose blocks are consecutive
    keeps their bytes; another moves to the best-fitting free range of its
    lifetime (greedy's rule) if it ends below the capacity and below every
    table (the tables keep their place)."""
    buffers, size = layout.buffers, layout.block_size
    offsets = dict(fitting.offsets)
    blocks = dict(fitting.blocks)
    tables = dict(fitting.tables)
    assert layout.capacity is not None
    limit = min(tables.values(), default=layout.capacity)
    waiting = [i for i in order if buffers[i].id in blocks]
    while waiting:  # a buffer made contiguous may leave room for one tried before
        left = []
        for i in waiting:
            buffer = buffers[i]
            slots = blocks[buffer.id]
            first = slots[0]
            consecutive = slots == tuple(range(first, first + len(slots) * size, size))
            if not (consecutive and first % buffer.alignment == 0):
                neighbours = _pieces_alive_with(buffers, i, offsets, blocks, size)
                first = best_fit_offset(neighbours, buffer.size, buffer.alignment)
                if first + buffer.size > limit:
                    left.append(i)
                    continue
            offsets[buffer.id] = first
            del blocks[buffer.id]
            tables.pop(buffer.id, None)
        if len(left) == len(waiting):
            break
        waiting = left
    return layout.finish(offsets, blocks, tables)


def _pieces_alive_with(
    buffers: Sequence[Buffer],
    index: int,
    offsets: Mapping[BufferId, int],
    blocks: Mapping[BufferId, tuple[int, ...]],
    block_size: int,
) -> list[tuple[int, int]]:
    """(start, end) byte ranges of the other buffers alive with buffers[index]:
    contiguous ones whole, runs of consecutive blocks merged."""
    me = buffers[index]
    pieces: list[tuple[int, int]] = []
    for j, other in enumerate(buffers):
        if j == index or not (other.lower < me.upper and me.lower < other.upper):
            continue
        if other.id in offsets:
            if other.size:
                start = offsets[other.id]
                pieces.append((start, start + other.size))
            continue
        for start in blocks[other.id]:
            if pieces and pieces[-1][1] == start:
                pieces[-1] = (pieces[-1][0], start + block_size)
            else:
                pieces.append((start, start + block_size))
    return pieces


def _fewest(
    order: list[int],
    cost: Callable[[int], float],
    make: Callable[[frozenset[int]], BlockPlan],
) -> tuple[BlockPlan | None, BlockPlan]:
    """(a fitting plan or None, the lowest plan tried).  The fitting plan splits
    a short prefix of `order` (found by doubling, then bisection), then as few
    of it as still fit, most costly first."""
    failed, count = 0, 1
    lowest: BlockPlan | None = None
    while True:
        count = min(count, len(order))
        tried = make(frozenset(order[:count]))
        if lowest is None or tried.height < lowest.height:
            lowest = tried
        if tried.fits:
            break
        if count == len(order):
            return None, lowest
        failed, count = count, count * 2
    fitting = tried
    while failed + 1 < count:
        middle = (failed + count) // 2
        tried = make(frozenset(order[:middle]))
        if tried.fits:
            fitting, count = tried, middle
        else:
            failed = middle
    chosen = order[:count]
    rank = {i: k for k, i in enumerate(order)}
    for i in sorted(chosen, key=lambda i: (-cost(i), -rank[i])):
        tried = make(frozenset(chosen) - {i})
        if tried.fits:
            fitting = tried
            chosen.remove(i)
    return fitting, lowest


class _Layout:
    """Makes the plan of one choice of discontiguous buffers (module docstring),
    and counts the packer's nodes over every plan it makes."""

    def __init__(
        self,
        buffers: Sequence[Buffer],
        block_size: int,
        capacity: int | None,
        pointer_width: int,
        tables_in_arena: bool,
        algorithm: str,
        budget: int | None,
    ):
        self.buffers = buffers
        self.block_size = block_size
        self.capacity = capacity
        self.pointer_width = pointer_width
        self.tables_in_arena = tables_in_arena
        self.algorithm = algorithm
        self.budget = budget
        self.nodes = 0

    def with_nodes(self, result: BlockPlan) -> BlockPlan:
        """`result` charged with all the work spent so far."""
        return replace(result, nodes=self.nodes)

    def _pack(self, buffers: list[Buffer], capacity: int | None) -> dict[BufferId, int]:
        result = plan(buffers, capacity, self.algorithm, budget=self.budget)
        self.nodes += result.nodes
        return result.offsets

    def make(
        self, split: frozenset[int], keep: Mapping[BufferId, int] | None = None
    ) -> BlockPlan:
        """The plan splitting `split` (indices); the others keep their offsets
        in `keep` when given, else the packer places them."""
        buffers, size = self.buffers, self.block_size
        whole = [b for i, b in enumerate(buffers) if i not in split]
        parts = [b for i, b in enumerate(buffers) if i in split]
        if not parts:
            offsets = (
                dict(keep) if keep is not None else self._pack(whole, self.capacity)
            )
            return self.finish(offsets, {}, {})
        tables = table_buffers(
            parts,
            {b.id: (0,) * block_count(b.size, size) for b in parts},
            self.pointer_width,
        )
        table_height = live_peak(tables) if self.tables_in_arena else 0
        # Contiguous buffers at or below `target` leave room on top for every
        # block (and table): the packer may stop there.
        target = None
        if self.capacity is not None:
            room = self.capacity - table_height - blocks_lower_bound(parts, size)
            target = max(room // size * size, 0)
        best: (
            tuple[int, dict[BufferId, int], dict[BufferId, tuple[int, ...]]] | None
        ) = None
        aligned = [
            Buffer(b.id, b.lower, b.upper, b.size, max(b.alignment, size))
            for b in whole
        ]
        variants = [aligned] if aligned == whole else [aligned, list(whole)]
        for packed in variants if keep is None else [whole]:
            offsets = (
                {b.id: keep[b.id] for b in whole}
                if keep is not None
                else self._pack(packed, target)
            )
            blocks = assign_blocks(whole, offsets, parts, size)
            height = _height(whole, offsets, blocks, size)
            if best is None or height < best[0]:
                best = (height, offsets, blocks)
        assert best is not None
        height, offsets, blocks = best
        placed_tables: dict[BufferId, int] = {}
        if self.tables_in_arena:
            base = align_up(height, self.pointer_width)
            table_offsets = self._pack(tables, None)
            placed_tables = {t.id: base + table_offsets[t.id] for t in tables}
        return self.finish(offsets, blocks, placed_tables)

    def finish(
        self,
        offsets: dict[BufferId, int],
        blocks: dict[BufferId, tuple[int, ...]],
        tables: dict[BufferId, int],
    ) -> BlockPlan:
        """The plan of these placements, with its height and table bytes."""
        buffers = self.buffers
        table_bytes = live_peak(table_buffers(buffers, blocks, self.pointer_width))
        whole = [b for b in buffers if b.id in offsets]
        height = _height(whole, offsets, blocks, self.block_size)
        for key, offset in tables.items():
            height = max(height, offset + len(blocks[key]) * self.pointer_width)
        fits = self.capacity is None or height <= self.capacity
        return BlockPlan(
            height,
            {b.id: offsets[b.id] for b in buffers if b.id in offsets},
            {b.id: blocks[b.id] for b in buffers if b.id in blocks},
            tables,
            self.block_size,
            fits,
            self.nodes,
            table_bytes,
            self.capacity,
        )


def _height(
    whole: Sequence[Buffer],
    offsets: Mapping[BufferId, int],
    blocks: Mapping[BufferId, tuple[int, ...]],
    block_size: int,
) -> int:
    top = max((offsets[b.id] + b.size for b in whole if b.size), default=0)
    for slots in blocks.values():
        if slots:
            top = max(top, max(slots) + block_size)
    return top


def validate_block_plan(
    buffers: Sequence[Buffer], plan: BlockPlan, pointer_width: int = 4
) -> list[str]:
    """Every problem of `plan` (empty when valid): a buffer placed twice or not
    at all, misaligned or negative offsets, wrong block or table counts, two
    live pieces sharing a byte (the first found), a wrong height or `fits`."""
    size = plan.block_size
    problems: list[str] = []
    pieces: list[Piece] = []
    names: list[str] = []
    for buffer in buffers:
        key = buffer.id
        if (key in plan.offsets) == (key in plan.blocks):
            where = (
                "both contiguous and in blocks" if key in plan.offsets else "nowhere"
            )
            problems.append(f"buffer {key!r} is placed {where}")
            continue
        if key in plan.offsets:
            offset = plan.offsets[key]
            if offset < 0 or offset % buffer.alignment:
                problems.append(
                    f"buffer {key!r}: offset {offset} is negative or not a multiple "
                    f"of its alignment {buffer.alignment}"
                )
            pieces.append((buffer.lower, buffer.upper, offset, offset + buffer.size))
            names.append(f"buffer {key!r}")
            continue
        slots = plan.blocks[key]
        if len(slots) != block_count(buffer.size, size):
            problems.append(
                f"buffer {key!r} has {len(slots)} blocks, expected "
                f"{block_count(buffer.size, size)} of {size} bytes"
            )
        for number, offset in enumerate(slots):
            if offset < 0 or offset % size:
                problems.append(
                    f"buffer {key!r}: block {number} at {offset} is negative or "
                    f"not a multiple of the block size {size}"
                )
            pieces.append((buffer.lower, buffer.upper, offset, offset + size))
            names.append(f"buffer {key!r} block {number}")
        if plan.tables:
            if key not in plan.tables:
                problems.append(f"buffer {key!r} has no pointer table")
                continue
            offset = plan.tables[key]
            if offset < 0 or offset % pointer_width:
                problems.append(
                    f"buffer {key!r}: table at {offset} is negative or not a "
                    f"multiple of the pointer width {pointer_width}"
                )
            end = offset + len(slots) * pointer_width
            pieces.append((buffer.lower, buffer.upper, offset, end))
            names.append(f"table of {key!r}")
    stray = set(plan.offsets) | set(plan.blocks) | set(plan.tables)
    stray -= {b.id for b in buffers}
    stray |= set(plan.tables) - set(plan.blocks)
    problems += [
        f"{key!r} is placed but is not a discontiguous buffer of the trace"
        for key in sorted(stray, key=repr)
    ]
    if problems:
        return problems
    overlap = first_overlap(pieces, names.__getitem__)
    if overlap is not None:
        problems.append(overlap)
    height = max((end for _, _, start, end in pieces if start < end), default=0)
    if height != plan.height:
        problems.append(f"plan height {plan.height}, but its pieces end at {height}")
    fits = plan.capacity is None or plan.height <= plan.capacity
    if fits != plan.fits:
        problems.append(
            f"fits is {plan.fits}, capacity {plan.capacity}, height {plan.height}"
        )
    return problems

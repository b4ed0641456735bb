"""Plain data of the packing problem: buffers with lifetimes and sizes, and plans."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

BufferId = str | int
# The search keeps offsets, sizes and times in int64 arrays.
INT64_MAX = 2**63 - 1


class TraceError(ValueError):
    """A buffer list that no plan can be made for (bad lifetime, size, id...)."""


@dataclass(frozen=True)
class Buffer:
    """A buffer alive during the half-open time range [lower, upper)."""

    id: BufferId
    lower: int
    upper: int
    size: int
    alignment: int = 1


@dataclass(frozen=True)
class Plan:
    """Offsets for every buffer; `optimal` means proved optimal, or fits the capacity.

    `lower_bound` is a proved lower bound on the height of any plan: the
    function `lower_bound` (live bytes plus the gaps alignment forces), or
    more when the `best` search proved more.
    `nodes` counts the search nodes `best` spent (the work its budget limits),
    and `time_limited` says the opt-in wall-clock cap cut the search short,
    which makes the plan depend on the machine's load.  `unsearched` says why
    `best` kept greedy's plan, or some windows' first layout, without searching
    (empty when it searched wherever it had to).
    """

    offsets: dict[BufferId, int]
    height: int
    algorithm: str
    optimal: bool
    seconds: float = field(default=0.0, compare=False)
    lower_bound: int = 0
    nodes: int = 0
    time_limited: bool = False
    unsearched: str = ""

    @property
    def proved_optimal(self) -> bool:
        """No plan of these buffers is lower than this one."""
        return self.height <= self.lower_bound


def align_up(value: int, alignment: int) -> int:
    """The smallest multiple of `alignment` that is >= value."""
    return -(-value // alignment) * alignment


def alignment_problem(alignment: int) -> str | None:
    """Why `alignment` is not a positive power of two within 64 bits, or None."""
    if alignment <= 0 or alignment & (alignment - 1):
        return f"{alignment} is not a positive power of two"
    if alignment > INT64_MAX:
        return (
            f"{alignment} does not fit in 64 bits (the largest power of two "
            f"that does is {(INT64_MAX + 1) // 2})"
        )
    return None


def buffer_problem(buffer: Buffer) -> str | None:
    """Why `buffer` is malformed, or None; shared by check_buffers and the CSV reader."""
    for name in ("lower", "upper", "size", "alignment"):
        value = getattr(buffer, name)
        if not -INT64_MAX - 1 <= value <= INT64_MAX:
            return f"buffer {buffer.id!r}: {name} {value} does not fit in 64 bits"
    if buffer.lower >= buffer.upper:
        return f"buffer {buffer.id!r}: lower {buffer.lower} must be below upper {buffer.upper}"
    if buffer.size < 0:
        return f"buffer {buffer.id!r}: negative size {buffer.size}"
    problem = alignment_problem(buffer.alignment)
    return None if problem is None else f"buffer {buffer.id!r}: alignment {problem}"


def check_buffers(buffers: Iterable[Buffer]) -> None:
    """Raise TraceError naming the first malformed buffer or duplicate id."""
    seen: set[BufferId] = set()
    for buffer in buffers:
        problem = buffer_problem(buffer)
        if problem is not None:
            raise TraceError(problem)
        if buffer.id in seen:
            raise TraceError(f"duplicate buffer id {buffer.id!r}")
        seen.add(buffer.id)


def live_peak(buffers: Iterable[Buffer]) -> int:
    """The most bytes alive at one moment."""
    events: list[tuple[int, int]] = []
    for buffer in buffers:
        if buffer.size:
            events.append((buffer.lower, buffer.size))
            events.append((buffer.upper, -buffer.size))
    # At equal times the frees (negative) sort first: lifetimes are half-open.
    events.sort()
    live = best = 0
    for _, delta in events:
        live += delta
        best = max(best, live)
    return best


def lower_bound(buffers: Sequence[Buffer]) -> int:
    """No plan can be lower than this: the most bytes alive at one moment, or
    more when alignment forces gaps between the buffers alive then.

    Why it is sound: buffers alive at one moment never share a byte.  Take
    those of them aligned to at least A (a power of two, so every one starts at
    a multiple of A) and sort them by offset: each starts at or above the
    previous one's end rounded up to A, so the highest, t, starts at or above
    the sum of the others' sizes rounded up to A, rounded up to t's alignment.
    The height is at least that plus t's size, whichever buffer t is: the
    minimum over t.  Evaluated just before each time buffers are freed (every
    set alive at once is part of one of those) and for each alignment A there.
    """
    sized = [b for b in buffers if b.size]
    best = live_peak(sized)
    # Sizes that are multiples of their alignment round up to nothing: with
    # the least aligned buffer of a group on top, the sum is the live bytes.
    if all(b.size % b.alignment == 0 for b in sized):
        return best
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for index, buffer in enumerate(sized):
        starts.setdefault(buffer.lower, []).append(index)
        ends.setdefault(buffer.upper, []).append(index)
    live = _AlignedLive(sorted({b.alignment for b in sized}))
    grown = False
    for moment in sorted(starts.keys() | ends.keys()):
        if moment in ends:
            if grown and live.ceiling() > best:
                best = max(best, live.bound())
            grown = False
            for index in ends[moment]:
                live.change(index, sized[index], -1)
        for index in starts.get(moment, ()):
            live.change(index, sized[index], 1)
            grown = True
    return best


class _AlignedLive:
    """The buffers alive at one moment, with the sum of their sizes rounded up
    to each alignment level A (of those aligned to at least A): a ceiling on
    their bound that costs one step per level, so few moments need `bound`."""

    def __init__(self, levels: list[int]):
        self.levels = levels  # every alignment of the trace, ascending
        self.padded = dict.fromkeys(levels, 0)
        self.count = dict.fromkeys(levels, 0)
        self.buffers: dict[int, Buffer] = {}

    def change(self, index: int, buffer: Buffer, sign: int) -> None:
        """Add (sign 1) or remove (-1) the buffer numbered `index`."""
        if sign > 0:
            self.buffers[index] = buffer
        else:
            del self.buffers[index]
        self.count[buffer.alignment] += sign
        for level in self.levels:
            if level > buffer.alignment:
                break
            self.padded[level] += sign * align_up(buffer.size, level)

    def ceiling(self) -> int:
        """At least `bound()`: the highest t takes at most its alignment minus A
        of rounding on top of the padded sum of level A."""
        top = max(level for level in self.levels if self.count[level])
        return max(self.padded[level] - level for level in self.levels) + top

    def bound(self) -> int:
        """The bound of lower_bound for the buffers alive now."""
        together = list(self.buffers.values())
        best = 0
        for level in self.levels:
            group = [b for b in together if b.alignment >= level]
            if not group:
                break
            total = sum(align_up(b.size, level) for b in group)
            best = max(
                best,
                min(
                    align_up(total - align_up(b.size, level), b.alignment) + b.size
                    for b in group
                ),
            )
        return best


def plan_height(buffers: Iterable[Buffer], offsets: Mapping[BufferId, int]) -> int:
    """The arena size a plan needs: the highest end address of any buffer."""
    return max((offsets[b.id] + b.size for b in buffers if b.size), default=0)


def time_points(buffers: Sequence[Buffer]) -> list[int]:
    """Sorted distinct lifetime endpoints, used to compress time to small indices."""
    return sorted({b.lower for b in buffers} | {b.upper for b in buffers})


def make_plan(
    buffers: Sequence[Buffer],
    offsets: dict[BufferId, int],
    algorithm: str,
    capacity: int | None,
    started: float,
    bound: int | None = None,
    nodes: int = 0,
    time_limited: bool = False,
    unsearched: str = "",
) -> Plan:
    """Wrap offsets into a Plan; `started` is a time.perf_counter() reading and
    `bound` a proved lower bound (default: `lower_bound(buffers)`)."""
    height = plan_height(buffers, offsets)
    if bound is None:
        bound = lower_bound(buffers)
    optimal = height <= (bound if capacity is None else capacity)
    return Plan(
        offsets,
        height,
        algorithm,
        optimal,
        time.perf_counter() - started,
        bound,
        nodes,
        time_limited,
        unsearched,
    )

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

    `lower_bound` is a proved lower bound on the height of any plan: the most
    bytes alive at once, or more when the `best` search proved more.
    `nodes` counts the search nodes `best` spent (the work its budget limits),
    and `time_limited` says the opt-in wall-clock cap cut the search short,
    which makes the plan depend on the machine's load.
    """

    offsets: dict[BufferId, int]
    height: int
    algorithm: str
    optimal: bool
    seconds: float = field(default=0.0, compare=False)
    lower_bound: int = 0
    nodes: int = 0
    time_limited: bool = False

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


def lower_bound(buffers: Iterable[Buffer]) -> int:
    """The most bytes alive at one moment: no plan can be lower than this."""
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
) -> Plan:
    """Wrap offsets into a Plan; `started` is a time.perf_counter() reading and
    `bound` a proved lower bound (default: the most bytes alive at once)."""
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
    )

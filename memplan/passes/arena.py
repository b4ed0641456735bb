"""Plain arithmetic of `memory-plan`: buffers for tensors, one packed arena per scope.

No IR here: the pass turns tensors into `Buffer`s, this module packs them
with `memplan.planning` and says why an arena cannot fit.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from memplan.planning import Buffer, Plan, lower_bound, plan

DEFAULT_BUDGET = 20_000
"""Search nodes the `best` search may spend on one arena; it starts from the
greedy plan, so running out never makes a plan worse than greedy.  Counted in
work, not seconds, so the plan never depends on the machine's load."""


class ArenaTooLarge(ValueError):
    """No plan of the arena fits the capacity of its scope."""


@dataclass(frozen=True)
class ArenaTensor:
    """One tensor to place: its key, live points [start, upper), bytes (as
    rounded by the caller), and the alignment of its offset."""

    key: Hashable
    start: int
    upper: int
    size: int
    alignment: int

    def buffer(self, index: int) -> Buffer:
        return Buffer(index, self.start, self.upper, self.size, self.alignment)


@dataclass(frozen=True)
class Arena:
    """A packed arena: its size in bytes and each tensor's byte offset."""

    size: int
    offsets: dict[Hashable, int]


def pack_arena(
    scope: str,
    tensors: Sequence[ArenaTensor],
    capacity: int | None,
    algorithm: str,
    budget: int | None,
    time_limit: float | None = None,
) -> Arena:
    """Offsets for `tensors` in one arena, lowest first; fail past `capacity`.

    `budget` (search nodes, default DEFAULT_BUDGET) bounds the `best` search;
    `time_limit` is an opt-in wall-clock cap on top of it."""
    buffers = [tensor.buffer(index) for index, tensor in enumerate(tensors)]
    nodes = DEFAULT_BUDGET if budget is None else budget
    packed = plan(buffers, None, algorithm, time_limit, nodes)
    if capacity is not None and packed.height > capacity and algorithm == "best":
        packed = plan(buffers, capacity, algorithm, time_limit, nodes)
    if capacity is not None and packed.height > capacity:
        raise ArenaTooLarge(_over_capacity_message(scope, buffers, packed, capacity))
    offsets = {
        tensor.key: packed.offsets[index] for index, tensor in enumerate(tensors)
    }
    return Arena(packed.height, offsets)


def _over_capacity_message(
    scope: str, buffers: Sequence[Buffer], packed: Plan, capacity: int
) -> str:
    return (
        f'the "{scope}" arena needs {packed.height} bytes with the {packed.algorithm} '
        f"plan of {len(buffers)} tensors (at least {lower_bound(buffers)} bytes are "
        f"live at once), over the scope capacity of {capacity} bytes"
    )


def arena_alignment(storage_alignments: Sequence[int], requested: int) -> int:
    """The arena is aligned at least as well as every storage it replaces."""
    return max([requested, *storage_alignments])

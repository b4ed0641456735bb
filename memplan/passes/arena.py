"""Plain arithmetic of `memory-plan`: buffers for tensors, one packed arena per scope.

No IR here: the pass turns tensors into `Buffer`s, this module packs them
with `memplan.planning` (contiguously, or with some tensors cut into blocks
by `memplan.planning.blocks`) and says why an arena cannot fit.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from memplan.planning import Buffer, Plan, live_peak, plan
from memplan.planning.blocks import BlockPlan, TooManyBlocks, plan_with_blocks
from memplan.planning.buffers import BufferId

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
class BlockOptions:
    """How an arena may cut tensors into blocks (`discontiguous=auto|always`)."""

    mode: Literal["auto", "always"]
    block_size: int
    pointer_width: int
    tables_in_arena: bool
    """The pointer tables live in the arena (table scope = arena scope)."""
    split_cost: Mapping[Hashable, float]
    """The tensors that may take blocks, each with the cost of its table reads."""


@dataclass(frozen=True)
class Arena:
    """A packed arena: its size in bytes, each contiguous tensor's byte offset,
    each tensor cut into blocks with its block offsets, and the offsets of
    pointer tables kept in the arena."""

    size: int
    offsets: dict[Hashable, int]
    blocks: dict[Hashable, tuple[int, ...]] = field(
        default_factory=dict[Hashable, tuple[int, ...]]
    )
    tables: dict[Hashable, int] = field(default_factory=dict[Hashable, int])


@dataclass(frozen=True)
class Room:
    """The bytes of a scope an arena may take: the scope's `capacity` (None:
    unbounded) less `held` bytes there while the arena is live (memory
    `HeldVtcm.of` finds all through the function, enclosing arenas, storages
    left unplanned), which `holders` lists for messages."""

    capacity: int | None
    held: int = 0
    holders: str = ""

    @property
    def free(self) -> int | None:
        if self.capacity is None:
            return None
        return max(0, self.capacity - self.held)

    def holding(self, size: int, holder: str) -> Room:
        """This room less `size` bytes that `holder` holds."""
        holders = f"{self.holders}; {holder}" if self.holders else holder
        return Room(self.capacity, self.held + size, holders)

    def describe(self) -> str:
        """How an over-capacity message ends."""
        text = f"the scope capacity of {self.capacity} bytes"
        if not self.held:
            return text
        return f"{text}, of which {self.held} are held while the arena is live: {self.holders}"


def pack_arena(
    scope: str,
    tensors: Sequence[ArenaTensor],
    room: Room,
    algorithm: str,
    budget: int | None,
    time_limit: float | None = None,
    blocks: BlockOptions | None = None,
    device: int = 0,
) -> Arena:
    """Offsets for `tensors` in one arena of `scope` on `device`, lowest
    first; fail past `room`.

    `budget` (search nodes, default DEFAULT_BUDGET) bounds the `best` search;
    `time_limit` is an opt-in wall-clock cap on top of it (the block planner
    takes the budget only).  With `blocks`, tensors may be cut into blocks."""
    name = f'the "{scope}" arena' + (f" of device {device}" if device else "")
    buffers = [tensor.buffer(index) for index, tensor in enumerate(tensors)]
    nodes = DEFAULT_BUDGET if budget is None else budget
    capacity = room.free
    if blocks is not None and blocks.mode == "always":
        return _pack_with_blocks(name, tensors, buffers, room, algorithm, nodes, blocks)
    packed = plan(buffers, None, algorithm, time_limit, nodes)
    if capacity is not None and packed.height > capacity and algorithm == "best":
        packed = plan(buffers, capacity, algorithm, time_limit, nodes)
    if capacity is not None and packed.height > capacity:
        if blocks is not None:
            # `auto`: blocks only when no contiguous plan was found to fit.
            return _pack_with_blocks(
                name, tensors, buffers, room, algorithm, nodes, blocks
            )
        raise ArenaTooLarge(_over_capacity_message(name, buffers, packed, room))
    offsets = {
        tensor.key: packed.offsets[index] for index, tensor in enumerate(tensors)
    }
    return Arena(packed.height, offsets)


def _pack_with_blocks(
    name: str,
    tensors: Sequence[ArenaTensor],
    buffers: Sequence[Buffer],
    room: Room,
    algorithm: str,
    budget: int,
    options: BlockOptions,
) -> Arena:
    splittable: dict[BufferId, float] = {
        index: options.split_cost[tensor.key]
        for index, tensor in enumerate(tensors)
        if tensor.key in options.split_cost
    }
    try:
        packed = plan_with_blocks(
            buffers,
            block_size=options.block_size,
            capacity=room.free,
            mode=options.mode,
            splittable=splittable.keys(),
            split_cost=splittable,
            pointer_width=options.pointer_width,
            tables_in_arena=options.tables_in_arena,
            algorithm=algorithm,
            budget=budget,
        )
    except TooManyBlocks as error:
        raise ArenaTooLarge(
            f"{name} cannot take blocks: {error} (option block-size)"
        ) from None
    if not packed.fits:
        raise ArenaTooLarge(_blocks_over_capacity_message(name, buffers, packed, room))
    keys: dict[BufferId, Hashable] = {
        index: tensor.key for index, tensor in enumerate(tensors)
    }
    # A tensor of one block is a contiguous tensor at a block offset: it
    # needs no pointer table.
    offsets = {keys[index]: offset for index, offset in packed.offsets.items()}
    offsets.update(
        (keys[index], blocks[0])
        for index, blocks in packed.blocks.items()
        if len(blocks) == 1
    )
    return Arena(
        packed.height,
        offsets,
        {keys[i]: blocks for i, blocks in packed.blocks.items() if len(blocks) > 1},
        {keys[i]: offset for i, offset in packed.tables.items()},
    )


def _blocks_over_capacity_message(
    name: str, buffers: Sequence[Buffer], packed: BlockPlan, room: Room
) -> str:
    split = len(packed.blocks)
    return (
        f"{name} needs {packed.height} bytes with {split} of its "
        f"{len(buffers)} tensors in blocks of {packed.block_size} bytes (at least "
        f"{live_peak(buffers)} bytes are live at once), over {room.describe()}"
    )


def _over_capacity_message(
    name: str, buffers: Sequence[Buffer], packed: Plan, room: Room
) -> str:
    return (
        f"{name} needs {packed.height} bytes with the {packed.algorithm} "
        f"plan of {len(buffers)} tensors (at least {live_peak(buffers)} bytes are "
        f"live at once), over {room.describe()}"
    )


def arena_alignment(storage_alignments: Sequence[int], requested: int) -> int:
    """The arena is aligned at least as well as every storage it replaces."""
    return max([requested, *storage_alignments])

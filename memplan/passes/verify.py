"""`memory-verify`: check a planned module statically, without running it.

Per function, using the live ranges of `memplan.passes.liveness`:

* two tensors whose bytes overlap in one storage while both are live;
* a tensor live during a call that passes its storage on, on bytes the
  callee places a tensor at (`memplan.passes.passed_storage`);
* a tensor at a static offset, allocated in a loop whose iterations may run
  at once (`scf.parallel`, `scf.forall`, ...) from a storage allocated outside
  that loop: the iterations running together would share its bytes;
* a tensor at a static offset, allocated in a sequential loop from a
  storage allocated outside it and carried to the next iteration, which
  places its own on the same bytes while the carried one is still used;
* a tensor (or a block or pointer table of a discontiguous tensor) past the
  end of its static-size storage, or at an address less aligned than its
  elements (or than the `alignment` option);
* a value (or an alias of it: a loop or branch result it may be) used, or
  killed again, after its `memory.kill` in the same block;
* a scope whose static storages and memref allocations (`memref.alloc`,
  `memref.alloca`, `bufferization.clone`, the new buffer of
  `memref.realloc`), each held from its
  allocation to the op of its block that frees it (or the end of the
  function; an alloca to the end of its automatic allocation scope:
  `ownership.freed_at`, a copy per iteration of the loops inside that scope,
  a storage or an alloc a copy per iteration of the loops that do not
  free it:
  `ownership.held_copies`), do not fit its address window (each device's
  apart, as in `memplan-run`) at some point, with their alignment padding (and, in straight-line code,
  the fragmentation the run's first fit leaves), a call holding its
  callee's storages (`memplan.passes.scope_usage`); dynamic sizes count as
  zero bytes;
* a storage of a bounded scope held across a recursive call;
* a `memref.alloca` of a bounded scope in a loop whose trip count is not
  known inside its automatic allocation scope, or a storage or heap
  buffer in such a loop that does not free it: its copies cannot be
  counted.

Only static offsets are checked.  A clean module is left unchanged; otherwise
the pass fails with one line per problem, naming the ops.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from memplan.dialects import memref
from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
    StorageType,
)
from memplan.ir_walk import walk
from memplan.passes.call_aliases import CallAliases
from memplan.passes.capacity_check import capacity_problems
from memplan.passes.diagnostics import describe, named_op
from memplan.passes.held_vtcm import module_callers, remark_dynamic_held
from memplan.passes.liveness import (
    REALLOCS,
    FunctionLiveness,
    LiveRange,
    concurrent_loop_between,
    viewed_value,
)
from memplan.passes.options import MemplanPass, check_power_of_two, resolve_target
from memplan.passes.passed_storage import call_overlap_problems, callee_footprints
from memplan.passes.placements import Placement, address_alignment, tensor_placements
from memplan.targets import DEFAULT_TARGET, VTCM_SCOPE


def _placement_problems(placement: Placement) -> Iterator[str]:
    owner = placement.storage.owner
    if not isinstance(owner, AllocStorageOp):
        return
    # The tensor's name only when there is a problem: naming an unnamed
    # value counts the values printed before it, a walk of the module.
    size = owner.static_size_bytes()
    if placement.start < 0 or (size is not None and placement.end > size):
        yield (
            f"{placement.tensor_name()} ({placement.describe()}) is out of bounds: "
            f"expected bytes within [0, {size})"
        )
    aligned = address_alignment(owner.alignment.value.data, placement.start)
    if aligned % placement.alignment:
        yield (
            f"{placement.tensor_name()} ({placement.describe()}, storage aligned to "
            f"{owner.alignment.value.data}) is only {aligned}-byte aligned: expected "
            f"a multiple of {placement.alignment} bytes"
        )


def _shared_by_iterations(placement: Placement) -> Iterator[str]:
    loop = concurrent_loop_between(placement.tensor, placement.storage)
    if loop is None:
        return
    name = placement.tensor_name()
    yield (
        f"{name} ({placement.describe()}) is allocated in each iteration of an "
        f"{loop.name}, whose iterations may run at once, from a storage allocated "
        f"outside it: the iterations would share these bytes; expected a storage "
        f"allocated inside the {loop.name}"
    )


def _carried_problems(
    liveness: FunctionLiveness, placements: list[tuple[Placement, LiveRange]]
) -> Iterator[str]:
    """Tensors carried to the next iteration of a sequential loop that
    allocates them again, at the same bytes of a storage allocated outside
    it, while the carried one is still live."""
    for placement, live in placements:
        if not live.carried:
            continue
        loop = liveness.reallocated_while_carried(placement.tensor, placement.storage)
        if loop is None:
            continue
        yield (
            f"{placement.tensor_name()} ({placement.describe()}) is carried to the "
            f"next iteration of an {loop.name}, which allocates it again on the same "
            "bytes of a storage allocated outside the loop while the carried one is "
            f"still used: expected a storage allocated inside the {loop.name}, or no "
            "use of the carried tensor from the allocation on"
        )


def _overlap_problems(
    placements: list[tuple[Placement, LiveRange]],
) -> Iterator[str]:
    """Pairs of live-together tensors sharing bytes, by a sweep over time."""
    ordered = sorted(placements, key=lambda item: item[1].start)
    active: list[tuple[int, int, Placement]] = []
    for number, (placement, live) in enumerate(ordered):
        while active and active[0][0] < live.start:
            heapq.heappop(active)
        for _, _, other in active:
            if placement.start < other.end and other.start < placement.end:
                yield _overlap(placement, other)
        heapq.heappush(active, (live.end, number, placement))


def _overlap(placement: Placement, other: Placement) -> str:
    name = placement.tensor_name()
    if other.tensor is placement.tensor:
        return (
            f"{name} ({placement.describe()}) overlaps its own "
            f"{other.part.removesuffix(', ')} (bytes [{other.start}, {other.end}) of "
            f"{describe(other.storage)}): expected its pointer table and blocks on "
            "disjoint bytes"
        )
    return (
        f"{name} ({placement.describe()}) overlaps "
        f"{describe(other.tensor.results[0])} ({other.describe()}) while "
        "both are live: expected disjoint bytes or disjoint live ranges"
    )


def _use_after_kill_problems(liveness: FunctionLiveness) -> Iterator[str]:
    """Uses of a value after its kill (or its storage's kill) in the same
    block, in one walk per block from its first kill on (a walk per block
    from its start would take time cubic in the nesting depth).  Every alias
    of the value (a view, or a loop, branch or call result it may be:
    `FunctionLiveness.aliases`) stands for it in a use, and a kill of a view ends
    what it views.  A `memref.dealloc` or `memref.realloc` ends what it frees
    as a kill does; one of a value that only may be a killed one (not a view
    of it) is not a second kill: a call or a loop may return another
    buffer."""
    for region_op in walk(liveness.function):
        for region in region_op.regions:
            for block in region.blocks:
                killed: dict[SSAValue, tuple[Operation, SSAValue]] = {}
                for op in block.ops:
                    for inner in walk(op) if killed else ():
                        for operand in inner.operands:
                            if operand not in killed:
                                continue
                            killer, ended = killed[operand]
                            if _ends_life(inner) and viewed_value(operand) is not ended:
                                continue
                            if not _frees_killed(inner, killer):
                                yield _use_after_kill(inner, operand, ended, killer)
                    killed.update(_aliases_ended_by(liveness, op))


def _aliases_ended_by(
    liveness: FunctionLiveness, op: Operation
) -> dict[SSAValue, tuple[Operation, SSAValue]]:
    """Every alias of what `op` ends, with `op` and the ended value it
    aliases (a tensor rather than its storage, when both)."""
    ended: dict[SSAValue, tuple[Operation, SSAValue]] = {}
    for value in reversed(_values_ended_by(op)):
        for alias in liveness.aliases(value):
            ended.setdefault(alias, (op, value))
    return ended


def _frees_killed(user: Operation, killer: Operation) -> bool:
    """A `memref.dealloc` after a `memory.kill` of the tensor (not of its
    storage) frees the bytes the kill left: the kill ended the tensor's
    life, the dealloc gives back its allocation, as in `memplan-run`."""
    return (
        isinstance(user, memref.DeallocOp)
        and isinstance(killer, KillOp)
        and not isinstance(killer.operands[0].type, StorageType)
    )


def _use_after_kill(
    user: Operation, operand: SSAValue, ended: SSAValue, killer: Operation
) -> str:
    what = "killed again" if _ends_life(user) else f"used by {user.name}"
    name = describe(operand)
    if viewed_value(operand) is ended and ended is not operand:
        name += f" (a view of {describe(ended)})"
    elif ended is not operand:
        name += f" (which may be {describe(ended)})"
    return (
        f"{name} is {what} after the {killer.name} that ended its life: expected "
        "no use after a kill"
    )


def _ends_life(op: Operation) -> bool:
    """A kill, dealloc or realloc: it ends its first operand's life."""
    return isinstance(op, KillOp | memref.DeallocOp) or op.name in REALLOCS


def _values_ended_by(op: Operation) -> list[SSAValue]:
    """What `op` ends: the value a kill, dealloc or realloc takes (what it
    views) and, for a storage, every tensor placed in it.  A dealloc of a
    tensor placed in a storage frees the storage (the dealloc of the
    `memref.view` the tensor lowers to frees its base buffer)."""
    if not _ends_life(op):
        return []
    ended = viewed_value(op.operands[0])
    if isinstance(op, memref.DeallocOp) and isinstance(ended.owner, AllocTensorOp):
        ended = ended.owner.storage
    if not isinstance(ended.type, StorageType):
        return [ended]
    return [
        ended,
        *(
            use.operation.results[0]
            for use in ended.uses
            if isinstance(use.operation, AllocTensorOp | AllocDiscontiguousTensorOp)
        ),
    ]


def _realloc_problems(function: func.FuncOp) -> Iterator[str]:
    """A `memref.realloc` may only move a buffer of its own (a `memref.alloc`
    result): moving a tensor placed in a storage would free the storage."""
    for op in walk(function):
        if op.name not in REALLOCS:
            continue
        source = viewed_value(op.operands[0])
        owner = source.owner
        storage = (
            owner.storage
            if isinstance(owner, AllocTensorOp)
            else owner.data_storage
            if isinstance(owner, AllocDiscontiguousTensorOp)
            else None
        )
        if storage is not None:
            yield (
                f"{named_op(op)} reallocates "
                f"{describe(source)}, a tensor placed in "
                f"{describe(storage)}: expected a memref.alloc result "
                "(a realloc frees the buffer it moves)"
            )


@dataclass(frozen=True)
class MemoryVerifyPass(MemplanPass):
    """Fail on overlapping live tensors, bad offsets and scopes over capacity."""

    name = "memory-verify"

    target: str = DEFAULT_TARGET
    """Target that gives scope capacities."""

    capacity: int | None = None
    """VTCM ("global.vtcm") capacity in bytes, overriding the target's."""

    alignment: int | None = None
    """Alignment every tensor address needs; default: its element size."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_power_of_two(self.name, "alignment", self.alignment)
        target = resolve_target(self.name, self.target, self.capacity)
        calls = CallAliases(op)
        functions = [
            FunctionLiveness(function, calls.forward)
            for function in walk(op)
            if isinstance(function, func.FuncOp) and function.body.blocks
        ]
        capacity = capacity_problems(op, functions, target)
        callers = module_callers(op)
        placements = {f.function.sym_name.data: self._placements(f) for f in functions}
        footprints = callee_footprints(
            {f.function.sym_name.data: f for f in functions},
            {name: [p for p, _ in found] for name, found in placements.items()},
        )
        problems: list[str] = []
        for liveness in functions:
            name = liveness.function.sym_name.data
            if target.capacity(VTCM_SCOPE) is not None:
                remark_dynamic_held(self.name, liveness.function, callers[name])
            problems.extend(
                f"memory-verify: in @{name}, {problem}"
                for problem in chain(
                    _function_problems(placements[name]),
                    _carried_problems(liveness, placements[name]),
                    call_overlap_problems(liveness, placements[name], footprints),
                    capacity[name],
                    _use_after_kill_problems(liveness),
                    _realloc_problems(liveness.function),
                )
            )
        if problems:
            raise PassFailedException("\n".join(problems))

    def _placements(
        self, liveness: FunctionLiveness
    ) -> list[tuple[Placement, LiveRange]]:
        return [
            (placement, liveness.range_of(tensor))
            for tensor in liveness.tensors()
            for placement in tensor_placements(tensor, self.alignment or 1)
        ]


def _function_problems(
    placements: list[tuple[Placement, LiveRange]],
) -> Iterator[str]:
    by_storage: defaultdict[SSAValue, list[tuple[Placement, LiveRange]]] = defaultdict(
        list
    )
    for placement, live in placements:
        yield from _placement_problems(placement)
        yield from _shared_by_iterations(placement)
        by_storage[placement.storage].append((placement, live))
    for together in by_storage.values():
        yield from _overlap_problems(together)

"""`memory-plan`: reuse memory by liveness, packed arenas per planning unit.

Code that may not run plans its own memory: tensors are grouped by planning
unit (the function body, or a block of an `scf.if` / `scf.index_switch`,
see `FunctionLiveness.unit_of`; loops belong to the unit around them),
scope and device.  Within a group, the tensors whose live ranges (see
`memplan.passes.liveness`), read at the level of the unit's block, overlap
in a chain form a run; each run moves into one arena storage, allocated
before the run's first op and killed after its last, where tensors with
disjoint live ranges may share bytes.  A branch's arena nests in an
enclosing arena live across the branch when that arena does not grow.

A tensor is plannable when its storage is a static-size
`memory.alloc_storage` of the same function whose only users are
`memory.alloc_tensor`s at static offsets with static shapes, and kills; and
the tensor does not escape, is not carried from one loop iteration to the
next, and no dealloc frees it.  Its storage's other tensors stay in it, and
the storage shrinks to them (`memplan.passes.kept_tensors`: a storage
`memory-coalesce` merged often holds a returned tensor beside plannable
ones).  Everything else (dynamic sizes or offsets, discontiguous tensors,
storages passed to calls, returned or loop-carried tensors, functions of
several blocks) is left as it is, except that with `insert-kills` a storage
of dynamic size is killed after its tensor's last use
(`memplan.passes.dynamic_kills`), and with `dynamic-arenas` the tensors of
dynamic shape of one unit pack into arenas of that unit
(`memplan.passes.dynamic_arenas`).

With `discontiguous=auto|always`, an arena of a scope with a capacity may
cut some of its tensors into blocks reached through pointer tables
(`memplan.passes.plan_blocks`), so fragmentation no longer costs bytes.

Functions are planned callees first, so a caller knows what each callee
holds at its peak: where a run's arena, held across a call, would leave the
callee too little room in a scope with a capacity, the run is split so that
only its tensors live across the call are held there
(`MemoryPlanPass._split_at_calls`).

Last, the planned module goes through `memory-verify`'s capacity check
(`memplan.passes.capacity_check`), in every function: what the arena
checks do not see (what a callee holds at a call, storages held across
recursion, the holes first fit leaves, functions without an arena) fails
the pass, so a plan it accepts `memory-verify` accepts.
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, ModuleOp, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from memplan.dialects import memref
from memplan.dialects.memory import (
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
    static_byte_size,
)
from memplan.ir_walk import walk
from memplan.passes.arena import (
    Arena,
    ArenaTensor,
    ArenaTooLarge,
    BlockOptions,
    Room,
    arena_alignment,
    pack_arena,
)
from memplan.passes.call_aliases import CallAliases
from memplan.passes.capacity_check import planned_capacity_problems
from memplan.passes.diagnostics import check_storage_bytes, describe
from memplan.passes.dynamic_arenas import (
    Unit,
    erase_unused_size,
    insert_unit_arena,
    move_to_unit_arena,
    unit_storages,
    unit_values,
)
from memplan.passes.dynamic_kills import dynamic_storages, kill_after_last_use
from memplan.passes.held_vtcm import (
    Held,
    HeldVtcm,
    module_callers,
    remark_dynamic_held,
)
from memplan.passes.kept_tensors import KeptLayout, kept_layout, shrink
from memplan.passes.liveness import CONDITIONAL_REGIONS, FunctionLiveness, LiveRange
from memplan.passes.options import (
    MemplanPass,
    check_count,
    check_power_of_two,
    resolve_target,
)
from memplan.passes.ownership import Ownership
from memplan.passes.plan_blocks import (
    DISCONTIGUOUS_MODES,
    may_take_blocks,
    rewrite_blocked,
    table_offsets,
    table_read_cycles,
)
from memplan.passes.plan_calls import (
    Around,
    CallPressure,
    arena_room,
    arena_span,
    fit_together,
    free_bytes,
    plan_order,
)
from memplan.passes.rounding import tensor_footprint, unit_footprint
from memplan.passes.scope_usage import ModuleUsage, function_usage
from memplan.planning import ALGORITHMS
from memplan.planning.buffers import align_up
from memplan.targets import DEFAULT_TARGET, GLOBAL_SCOPE, VTCM_SCOPE, Target


@dataclass(frozen=True)
class PlannedStorage:
    """A storage whose tensors move into the arena, with their live ranges;
    its `kept` tensors (they need storage of their own) stay in it."""

    storage: AllocStorageOp
    tensors: list[tuple[AllocTensorOp, LiveRange]]
    kept: tuple[AllocTensorOp, ...] = ()

    @property
    def group(self) -> tuple[str, int]:
        return self.storage.scope, self.storage.device.value.data


@dataclass(eq=False)
class UnitArena:
    """One arena: tensors of one planning unit, scope and device whose live
    ranges, seen at the level of the unit's block, overlap in a chain."""

    block: Block
    """The unit's block: the function body or a block of a conditional op."""
    scope: str
    device: int
    first: Operation
    """The op of `block` before which the arena is allocated."""
    last: Operation
    """The op of `block` after which the arena is killed."""
    tensors: dict[AllocTensorOp, LiveRange] = field(
        default_factory=dict[AllocTensorOp, LiveRange]
    )
    storages: list[AllocStorageOp] = field(default_factory=list[AllocStorageOp])
    """The storages the tensors come from (for the arena's alignment)."""
    packed: Arena | None = None
    nested: list[tuple[UnitArena, int]] = field(
        default_factory=list[tuple["UnitArena", int]]
    )
    """Arenas of branches placed inside this one, each at a base offset."""
    host: UnitArena | None = None
    """The arena this one is nested in, if any: then it has no storage."""

    @property
    def size(self) -> int:
        assert self.packed is not None
        return self.packed.size

    def tensors_with_nested(self) -> dict[AllocTensorOp, LiveRange]:
        tensors = dict(self.tensors)
        for nested, _ in self.nested:
            tensors.update(nested.tensors_with_nested())
        return tensors

    def offsets(self) -> dict[AllocTensorOp, int]:
        """Offsets of this arena's contiguous tensors and of those of nested
        arenas."""
        assert self.packed is not None
        return self._shifted(self.packed.offsets, lambda arena: arena.offsets())

    def tables(self) -> dict[AllocTensorOp, int]:
        """Offsets of the pointer tables kept in this arena and nested ones."""
        assert self.packed is not None
        return self._shifted(self.packed.tables, lambda arena: arena.tables())

    def blocks(self) -> dict[AllocTensorOp, tuple[int, ...]]:
        """Block offsets of the tensors cut into blocks, nested ones included."""
        assert self.packed is not None
        blocks = {
            t: b for t, b in self.packed.blocks.items() if isinstance(t, AllocTensorOp)
        }
        for nested, base in self.nested:
            blocks.update(
                (tensor, tuple(base + offset for offset in offsets))
                for tensor, offsets in nested.blocks().items()
            )
        return blocks

    def _shifted(
        self,
        own: Mapping[Hashable, int],
        of_nested: Callable[[UnitArena], dict[AllocTensorOp, int]],
    ) -> dict[AllocTensorOp, int]:
        offsets = {t: o for t, o in own.items() if isinstance(t, AllocTensorOp)}
        for nested, base in self.nested:
            offsets.update(
                (tensor, base + offset) for tensor, offset in of_nested(nested).items()
            )
        return offsets


RunItem = tuple[AllocTensorOp, LiveRange, AllocStorageOp]
"""A tensor to place in an arena, its live range and its storage."""


Split = list[tuple[list[RunItem], Operation | None]]
"""Groups of an arena's tensors, each with the op its one arena starts at
(None: one arena per run of the group, `_runs`)."""

Tables = dict[AllocTensorOp, int]
"""Offset of each cut tensor's pointer table in its table storage."""

ARENA_MODES = ("run", "function")
"""Values of the `arenas` option."""

MAX_NESTING_TRIES = 8
"""Branches tried one by one for nesting in an arena, when not all fit."""


def _reject_unused(options: dict[str, object], setting: str, needed: str) -> None:
    """An option the user gave that `setting` switches off is an error, not ignored."""
    for option, value in options.items():
        if value is not None:
            raise PassFailedException(
                f"memory-plan: option {option} has no effect with {setting}: "
                f"it applies with {needed}"
            )


@dataclass(frozen=True)
class MemoryPlanPass(MemplanPass):
    """Pack the static tensors of each function into arenas: one per run of
    chained live ranges of a planning unit, scope and device."""

    name = "memory-plan"

    algorithm: str = "best"
    """Packing algorithm of memplan.planning: "best" (exact search within
    `budget`, never worse than greedy), "greedy" (best fit by size) or
    "token" (TVM's whole-storage reuse)."""

    alignment: int | None = None
    """Alignment of each arena storage; default: the target's alignment of the
    scope.  The arena is also at least as aligned as every storage it replaces
    and as its tensors' offsets (`tensor_alignment`, `align` requests)."""

    tensor_alignment: int | None = None
    """Alignment of tensor offsets inside the arena, and of their sizes; never
    below the element size, its default (e.g. 128 keeps every planned tensor
    HVX-aligned: the arena is aligned to it too).  `rounding.arena_footprint`
    is the rule."""

    insert_kills: bool = True
    """Kill each planned tensor after its last use, in its allocating block;
    the arena itself is always killed after the last use of its tensors.
    Also move the kills of a dynamic-size storage's tensor, and of the
    storage, to right after that tensor's last use."""

    target: str = DEFAULT_TARGET
    """Target that gives scope capacities and default alignments."""

    capacity: int | None = None
    """VTCM ("global.vtcm") capacity in bytes, overriding the target's."""

    budget: int | None = None
    """Search nodes the "best" search may spend on one arena (default 20,000):
    the plan depends only on the input and this budget, never on the load."""

    time_limit: int | float | None = None
    """Opt-in wall-clock cap in seconds on the "best" search of one arena, on
    top of `budget`; a cap that cuts makes the output depend on the load."""

    arenas: str = "run"
    """"run": one arena per run of chained live ranges of a planning unit,
    allocated before the run and killed after it (peaks stay at or below the
    unplanned program's).  "function": one arena per function, scope and
    device, allocated at function entry, as a static workspace would be;
    split only where a call it is held across would leave the callee too
    little room (`_splits`)."""

    discontiguous: str = "never"
    """"never": every tensor stays contiguous.  "auto": in a scope with a
    capacity (VTCM), when an arena's contiguous plan does not fit, cut the
    fewest and cheapest tensors (by their table reads) into blocks so it
    fits.  "always": cut every tensor that may take blocks in such scopes."""

    block_size: int | None = None
    """Bytes of one block; default: the target's alignment of the scope
    (VTCM: 2048), so every block starts where a VTCM allocation could."""

    table_scope: str | None = None
    """Scope of the pointer tables; default "global" (DDR, as TVM's Hexagon
    runtime keeps them), one table storage per arena; the arena's own scope
    puts the tables inside the arena, where they count against its capacity."""

    dynamic_arenas: bool = False
    """Also pack tensors of dynamic shape whose bytes are constant multiples
    of one run-time unit (the product of the same dynamic sizes): one arena
    of `H * unit` bytes per run of them, each at `offset * unit`
    (`memplan.passes.dynamic_arenas`).  Off by default: it saves
    allocations, but an arena holds its height through its whole run, where
    dynamic storages killed after their last use hold only live bytes."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_options()
        target = resolve_target(self.name, self.target, self.capacity)
        self._check_table_scope(target)
        functions = [f for f in walk(op) if isinstance(f, func.FuncOp)]
        callers = module_callers(op)
        if target.capacity(VTCM_SCOPE) is not None:
            for function in functions:
                if function.body.blocks:
                    remark_dynamic_held(
                        self.name, function, callers[function.sym_name.data]
                    )
        for function in functions:
            if len(function.body.blocks) != 1:
                _remark_several_blocks(function)
        # Of the functions that fail, the first in module order is reported,
        # as when the pass planned in that order.
        position = {function: index for index, function in enumerate(functions)}
        failures = sorted(
            (position[function], failure)
            for function, failure in self.plan_functions(op, target)
            if failure is not None
        )
        if failures:
            raise failures[0][1]
        _remark_unmanifested(op)
        _check_capacity(op, target)

    def plan_functions(
        self, op: ModuleOp, target: Target
    ) -> Iterator[tuple[func.FuncOp, PassFailedException | None]]:
        """Plan each function of `op` whose body is one block, in place, with
        the options checked and `target` resolved; yield every function with
        what failed in it (one whose arenas do not fit is left as it was).
        Callees come first: a caller's arenas see what each callee holds at
        its peak once planned (`_split_at_calls`).  Says nothing on stderr,
        and does not make the final capacity check."""
        functions = [f for f in walk(op) if isinstance(f, func.FuncOp)]
        held = HeldVtcm(op)
        calls = CallAliases(op)
        callers = module_callers(op)
        planned = ModuleUsage([], target)
        order, wanted = plan_order(functions, callers, target)
        for component in order:
            for function in component:
                failure = None
                if len(function.body.blocks) == 1:
                    try:
                        self._plan_function(
                            held,
                            FunctionLiveness(function, calls.forward),
                            callers[function.sym_name.data],
                            target,
                            planned,
                        )
                    except PassFailedException as error:
                        failure = error
                yield function, failure
            if any(function in wanted for function in component):
                planned.add(
                    [
                        function_usage(FunctionLiveness(function, calls.forward))
                        for function in component
                    ]
                )

    def _check_options(self) -> None:
        if self.algorithm not in ALGORITHMS:
            known = ", ".join(ALGORITHMS)
            raise PassFailedException(
                f"memory-plan: unknown algorithm '{self.algorithm}', expected one of: {known}"
            )
        check_power_of_two(self.name, "alignment", self.alignment)
        check_power_of_two(self.name, "tensor-alignment", self.tensor_alignment)
        if self.arenas not in ARENA_MODES:
            raise PassFailedException(
                f"memory-plan: unknown arenas '{self.arenas}', expected one of: "
                + ", ".join(ARENA_MODES)
            )
        check_count(self.name, "time-limit", self.time_limit, "seconds")
        if self.discontiguous not in DISCONTIGUOUS_MODES:
            raise PassFailedException(
                f"memory-plan: unknown discontiguous '{self.discontiguous}', "
                "expected one of: " + ", ".join(DISCONTIGUOUS_MODES)
            )
        check_power_of_two(self.name, "block-size", self.block_size)
        check_count(self.name, "budget", self.budget, "search nodes")
        if self.discontiguous == "never":
            _reject_unused(
                {"block-size": self.block_size, "table-scope": self.table_scope},
                "discontiguous=never",
                "discontiguous=auto or always",
            )
        if self.algorithm != "best":
            _reject_unused(
                {"budget": self.budget, "time-limit": self.time_limit},
                f"algorithm={self.algorithm}",
                "algorithm=best",
            )

    def _check_table_scope(self, target: Target) -> None:
        """A table scope the target lacks is a typo, not a new scope: it
        would be modelled as unbounded DDR and hide the tables' cost."""
        if self.table_scope is not None and self.table_scope not in target.scopes:
            known = ", ".join(f'"{scope}"' for scope in target.scopes)
            raise PassFailedException(
                f'memory-plan: unknown table-scope "{self.table_scope}", '
                f"expected a scope of target {target.name}: {known}"
            )

    def _plan_function(
        self,
        held_in_module: HeldVtcm,
        liveness: FunctionLiveness,
        callers: list[func.CallOp],
        target: Target,
        callees: ModuleUsage,
    ) -> None:
        function = liveness.function
        storages = list(_plannable_storages(liveness))
        unit_planned, unit_arenas = (
            self._dynamic_arenas(liveness, target) if self.dynamic_arenas else ([], {})
        )
        moved = {planned.storage for planned in unit_planned}
        dynamic = [
            found
            for found in (dynamic_storages(liveness) if self.insert_kills else [])
            if found.storage not in moved
        ]
        arenas = _unit_arenas(
            liveness, storages, per_function=self.arenas == "function"
        )
        held: list[Held] = []
        if target.capacity(VTCM_SCOPE) is not None and any(
            arena.scope == VTCM_SCOPE for arena in arenas
        ):
            held = held_in_module.of(function, callers, target.alignment(VTCM_SCOPE))
        # Pack every arena before rewriting (a failure leaves the IR as it
        # was), innermost units first: their heights are known when the
        # enclosing arena looks for room to nest them.
        in_branches = BranchArenas(liveness, arenas)
        for arena in sorted(arenas, key=lambda a: _depth(a.block), reverse=True):
            room = arena_room((arena.scope, arena.device), target, held)
            self._pack(function, liveness, arena, in_branches, room, target)
        # Then, outermost first, an arena takes what is left of the window
        # while it is live: split where it leaves a callee too little room
        # at a call (`_split_at_calls`), else packed again (in blocks, with
        # `discontiguous`) when that is less than it took.
        emptied = {planned.storage for planned in storages if not planned.kept}
        kept: dict[Operation | str, KeptLayout] = {
            planned.storage: kept_layout(planned.storage, planned.kept)
            for planned in storages
            if planned.kept
        }
        usage = function_usage(liveness)
        unplanned = [
            replace(holding, size=kept[holding.origin].size)
            if holding.origin in kept
            else holding
            for holding in usage.storages
            if holding.origin not in emptied
        ]
        why_held: dict[Operation | str, str] = {
            holding.origin: why
            for holding in unplanned
            if isinstance(holding.origin, AllocStorageOp)
            and (why := _why_held(holding.origin, liveness)) is not None
        }
        storage_of = {
            tensor: planned.storage
            for planned in storages
            for tensor, _ in planned.tensors
        }
        calls = CallPressure(usage.calls, callees)
        depths = {arena: _depth(arena.block) for arena in arenas}
        by_depth: dict[int, list[UnitArena]] = {}
        for arena in sorted(arenas, key=depths.__getitem__):
            by_depth.setdefault(depths[arena], []).append(arena)
        around = Around(liveness, unplanned, why_held, held, target)
        for depth, group in by_depth.items():
            shallower = [
                other for d, found in by_depth.items() if d < depth for other in found
            ]
            pending = list(reversed(group))
            group.clear()
            while pending:
                arena = pending.pop()
                if arena.host is None and target.capacity(arena.scope) is not None:
                    room = around.room(
                        arena_span(liveness, arena),
                        (arena.scope, arena.device),
                        shallower,
                    )
                    pieces = self._split_at_calls(
                        function,
                        liveness,
                        arena,
                        room,
                        shallower,
                        around,
                        calls,
                        storage_of,
                        in_branches,
                    )
                    if pieces:
                        pending += reversed(pieces)
                        continue
                    if arena.size > free_bytes(room):
                        self._repack(function, liveness, arena, room, target)
                group.append(arena)
        arenas = sorted(
            (arena for group in by_depth.values() for arena in group),
            key=lambda arena: liveness.index[arena.first],
        )
        all_planned = [*storages, *unit_planned]
        for kill in dict.fromkeys(
            k for planned in all_planned for k in _kills(planned)
        ):
            Rewriter.erase_op(kill)
        storages_of_arenas: dict[UnitArena, list[AllocStorageOp]] = {}
        blocked: list[tuple[UnitArena, AllocStorageOp, AllocStorageOp, Tables]] = []
        for arena in arenas:
            if arena.host is None:
                storage = self._arena_storage(arena, target)
                Rewriter.insert_op(storage, InsertPoint.before(arena.first))
                storages_of_arenas[arena] = [storage]
                _move_to_arena(storage, arena.offsets())
                if arena.blocks():
                    table_storage, tables = self._tables(arena, storage, target)
                    if table_storage is not storage:
                        Rewriter.insert_op(
                            table_storage, InsertPoint.before(arena.first)
                        )
                        storages_of_arenas[arena].append(table_storage)
                    blocked.append((arena, storage, table_storage, tables))
        for arena, (values, alignment) in unit_arenas.items():
            storage, unit = insert_unit_arena(
                values, arena.size, arena.scope, alignment, arena.device, arena.first
            )
            storages_of_arenas[arena] = [storage]
            move_to_unit_arena(storage, unit, arena.offsets())
        # Kills go in after their op, each before the previous one: place
        # them in reverse so they read in program order.
        in_order = sorted(
            [*arenas, *unit_arenas], key=lambda a: liveness.index[a.first]
        )
        for arena in reversed(in_order):
            for storage in reversed(storages_of_arenas.get(arena, [])):
                Rewriter.insert_op(KillOp(storage), InsertPoint.after(arena.last))
            if self.insert_kills:
                for tensor, live in reversed(arena.tensors.items()):
                    if live.last_user is not None:
                        Rewriter.insert_op(
                            KillOp(tensor), InsertPoint.after(live.last_user)
                        )
        # Cut tensors are replaced last: every use and kill follows them.
        for arena, storage, table_storage, tables in blocked:
            rewrite_blocked(
                storage,
                table_storage,
                arena.blocks(),
                tables,
                self._block_size(arena.scope, target),
                target.pointer_width,
            )
        for planned in storages:
            if planned.kept:
                shrink(planned.storage, kept[planned.storage])
            else:
                Rewriter.erase_op(planned.storage)
        for planned in unit_planned:
            erase_unused_size(planned.storage)
        kill_after_last_use(dynamic)

    def _dynamic_arenas(
        self, liveness: FunctionLiveness, target: Target
    ) -> tuple[list[PlannedStorage], dict[UnitArena, tuple[list[SSAValue], int]]]:
        """The storages of dynamic size that move into arenas of their unit,
        and those arenas, packed in units, with the values whose product is
        the unit and the arena's alignment.  A run of one tensor is left as
        it is, and so is a run whose unit is not defined before its first op."""
        by_unit: dict[Unit, list[PlannedStorage]] = {}
        for found in unit_storages(liveness):
            planned = PlannedStorage(found.storage, [(found.tensor, found.live)])
            by_unit.setdefault(found.unit, []).append(planned)
        moved: list[PlannedStorage] = []
        arenas: dict[UnitArena, tuple[list[SSAValue], int]] = {}
        for unit, group in by_unit.items():
            planned_of = {planned.storage: planned for planned in group}
            for arena in _unit_arenas(liveness, group, per_function=False):
                values = unit_values(arena.tensors, unit, arena.first)
                if len(arena.tensors) < 2 or values is None:
                    continue
                tensors = [
                    ArenaTensor(
                        tensor,
                        live.start,
                        live.upper,
                        *unit_footprint(tensor, self.tensor_alignment),
                    )
                    for tensor, live in arena.tensors.items()
                ]
                arena.packed = pack_arena(
                    arena.scope,
                    tensors,
                    Room(None),
                    self.algorithm,
                    self.budget,
                    self.time_limit,
                )
                content = max(tensor.alignment for tensor in tensors)
                arenas[arena] = (values, self._alignment(arena, target, content))
                moved += [planned_of[storage] for storage in arena.storages]
        return moved, arenas

    def _block_size(self, scope: str, target: Target) -> int:
        return target.alignment(scope) if self.block_size is None else self.block_size

    @property
    def _table_scope(self) -> str:
        return GLOBAL_SCOPE if self.table_scope is None else self.table_scope

    def _tables(
        self, arena: UnitArena, storage: AllocStorageOp, target: Target
    ) -> tuple[AllocStorageOp, Tables]:
        """Where the pointer tables of the arena's cut tensors go: inside the
        arena when `table-scope` is its scope, else side by side in a storage
        of their own, allocated and killed with the arena."""
        if self._table_scope == arena.scope:
            return storage, arena.tables()
        tables, size = table_offsets(
            arena.blocks(), self._block_size(arena.scope, target), target.pointer_width
        )
        alignment = max(target.alignment(self._table_scope), target.pointer_width)
        table_storage = AllocStorageOp(size, self._table_scope, alignment, arena.device)
        table_storage.result.name_hint = "tables"
        return table_storage, tables

    def _block_options(self, arena: UnitArena, target: Target) -> BlockOptions | None:
        """How `arena` may use blocks: only in a scope with a capacity, where
        fragmentation can make a plan fail."""
        if self.discontiguous == "never" or target.capacity(arena.scope) is None:
            return None
        block_size = self._block_size(arena.scope, target)
        return BlockOptions(
            "always" if self.discontiguous == "always" else "auto",
            block_size,
            target.pointer_width,
            self._table_scope == arena.scope,
            {
                tensor: table_read_cycles(tensor, block_size, target, self._table_scope)
                for tensor in arena.tensors
                if may_take_blocks(tensor, block_size)
            },
        )

    def _pack(
        self,
        function: func.FuncOp,
        liveness: FunctionLiveness,
        arena: UnitArena,
        in_branches: BranchArenas,
        room: Room,
        target: Target,
    ) -> None:
        """Pack `arena` in `room`, and nest in it the arenas of branches it
        spans when that keeps its height: they then cost no bytes of their own."""
        tensors = [
            self._arena_tensor(tensor, live) for tensor, live in arena.tensors.items()
        ]
        blocks = self._block_options(arena, target)
        try:
            arena.packed = pack_arena(
                arena.scope,
                tensors,
                room,
                self.algorithm,
                self.budget,
                self.time_limit,
                blocks,
                arena.device,
            )
        except ArenaTooLarge as error:
            raise PassFailedException(
                f"memory-plan: in @{function.sym_name.data}, {error}"
            ) from None
        slots = [
            _nested_slot(liveness, inner, self._content_alignment(inner))
            for inner in in_branches.spanned(arena)
        ]
        # All branch arenas at once, else one by one (the largest first, at
        # most MAX_NESTING_TRIES of them).
        trials = [slots] if slots else []
        if len(slots) > 1:
            by_size = sorted(slots, key=lambda slot: slot.size, reverse=True)
            trials += [[slot] for slot in by_size[:MAX_NESTING_TRIES]]
        accepted: list[ArenaTensor] = []
        for trial in trials:
            try:
                packed = pack_arena(
                    arena.scope,
                    [*tensors, *accepted, *trial],
                    room,
                    self.algorithm,
                    self.budget,
                    self.time_limit,
                    blocks,
                    arena.device,
                )
            except ArenaTooLarge:
                continue
            if packed.size <= arena.size:
                arena.packed = packed
                accepted += trial
                if trial is slots:
                    break
        for slot in accepted:
            inner = slot.key
            assert isinstance(inner, UnitArena)
            inner.host = arena
            arena.nested.append((inner, arena.packed.offsets[inner]))
            arena.storages.extend(inner.storages)

    def _split_at_calls(
        self,
        function: func.FuncOp,
        liveness: FunctionLiveness,
        arena: UnitArena,
        room: Room,
        shallower: list[UnitArena],
        around: Around,
        calls: CallPressure,
        storage_of: Mapping[AllocTensorOp, AllocStorageOp],
        in_branches: BranchArenas,
    ) -> list[UnitArena]:
        """The arenas `arena` splits into, packed, so that only its tensors
        live across a call where it leaves the callee too little room
        (`CallPressure.pressed`: with `room` left over its span, the arenas of
        enclosing blocks in `shallower`, what the function holds beside its
        arenas) are held there.  Of the ways to split it (`_splits`, coarsest
        first), the first whose arenas leave some such call room and fit
        together wherever they are live (`fit_together`), else the first
        that leaves some such call room.  The branch arenas nested in
        `arena` may nest in the new ones.
        Empty, and `arena` as it was, when no call is pressed, when every
        tensor is live across the same such calls, or when the new arenas
        leave the callee too little room at each such call all the same."""
        pressed = sorted(calls.pressed(liveness, arena, room, around, shallower))
        if not pressed:
            return []
        relieving: list[Split] = []
        for split in self._splits(liveness, arena, pressed, storage_of):
            pieces = self._pieces(function, liveness, arena, split, around, in_branches)
            still = calls.pressed_together(liveness, pieces, around, shallower)
            if still.issuperset(pressed):
                continue
            if fit_together(liveness, pieces, around, shallower):
                return pieces
            relieving.append(split)
        if relieving:
            return self._pieces(
                function, liveness, arena, relieving[0], around, in_branches
            )
        for inner, _ in arena.nested:
            inner.host = arena
        return []

    def _pieces(
        self,
        function: func.FuncOp,
        liveness: FunctionLiveness,
        arena: UnitArena,
        split: Split,
        around: Around,
        in_branches: BranchArenas,
    ) -> list[UnitArena]:
        """The arenas of `split`, packed in program order, where the branch
        arenas nested in `arena` may nest."""
        for inner, _ in arena.nested:
            inner.host = None
        pieces = [
            piece
            for items, first in split
            for piece in _runs(
                liveness, arena.block, arena.scope, arena.device, items, first
            )
        ]
        pieces.sort(key=lambda piece: liveness.index[piece.first])
        for piece in pieces:
            self._pack(
                function,
                liveness,
                piece,
                in_branches,
                arena_room((arena.scope, arena.device), around.target, around.held),
                around.target,
            )
        return pieces

    def _splits(
        self,
        liveness: FunctionLiveness,
        arena: UnitArena,
        pressed: list[int],
        storage_of: Mapping[AllocTensorOp, AllocStorageOp],
    ) -> Iterator[Split]:
        """The ways to split `arena` at the `pressed` points, coarsest first.

        With `arenas=run`: the tensors live across some pressed call in runs
        of their own and the others in theirs, which the calls cut; then,
        where tensors are live across different pressed calls, the tensors
        live across the same ones in runs of their own (in one arena, the
        tensors live across one call would hold their bytes at the other);
        then each tensor live across a pressed call in an arena of its own
        (in one arena, a tensor allocated late holds its bytes from the
        first one's allocation); last, every tensor in an arena of its own,
        as the input had them.  With `arenas=function`: the last three,
        the other tensors in one arena per stretch between pressed calls
        but in the last, the first from function entry, as the function's
        arena was."""
        spanned: dict[tuple[int, ...], list[RunItem]] = {}
        stretches: dict[int, list[RunItem]] = {}
        for tensor, live in arena.tensors.items():
            first = liveness.op_at(arena.block, live.start)
            last = liveness.op_at(arena.block, live.end)
            assert first is not None and last is not None
            start = bisect_left(pressed, liveness.index[first])
            stop = bisect_right(pressed, liveness.index[last])
            item = (tensor, live, storage_of[tensor])
            if start < stop:
                spanned.setdefault(tuple(pressed[start:stop]), []).append(item)
            else:
                stretches.setdefault(start, []).append(item)
        across = [item for items in spanned.values() for item in items]
        by_calls: Split = [(items, None) for items in spanned.values()]
        if self.arenas == "function":
            rest: Split = [
                (
                    items,
                    _first_op(liveness, arena.block, items) if stretch else arena.first,
                )
                for stretch, items in stretches.items()
            ]
            ways = [[*by_calls, *rest]]
        else:
            others = [item for items in stretches.values() for item in items]
            rest = [(others, None)] if others else []
            ways = [[(across, None), *rest], [*by_calls, *rest]]
        ways += [
            [*(([item], None) for item in across), *rest],
            [
                ([item], None)
                for items in [*spanned.values(), *stretches.values()]
                for item in items
            ],
        ]
        # Each way refines the one before: one with no more groups is the
        # same.  With arenas=function, a function's one arena splits even
        # into one group where no tensor is live across a pressed call: it
        # then starts at its first tensor, after those calls.
        groups = 0 if self.arenas == "function" and not spanned else 1
        for way in ways:
            if len(way) > groups:
                groups = len(way)
                yield way

    def _repack(
        self,
        function: func.FuncOp,
        liveness: FunctionLiveness,
        arena: UnitArena,
        room: Room,
        target: Target,
    ) -> None:
        """Pack `arena` again, with the branch arenas nested in it, in `room`."""
        tensors = [
            self._arena_tensor(tensor, live) for tensor, live in arena.tensors.items()
        ]
        slots = [
            _nested_slot(liveness, inner, self._content_alignment(inner))
            for inner, _ in arena.nested
        ]
        try:
            arena.packed = pack_arena(
                arena.scope,
                [*tensors, *slots],
                room,
                self.algorithm,
                self.budget,
                self.time_limit,
                self._block_options(arena, target),
                arena.device,
            )
        except ArenaTooLarge as error:
            raise PassFailedException(
                f"memory-plan: in @{function.sym_name.data}, {error}"
            ) from None
        arena.nested = [
            (inner, arena.packed.offsets[inner]) for inner, _ in arena.nested
        ]

    def _content_alignment(self, arena: UnitArena) -> int:
        """The alignment a base offset of `arena` inside another must have."""
        return max(
            self._arena_tensor(tensor, live).alignment
            for tensor, live in arena.tensors_with_nested().items()
        )

    def _alignment(self, arena: UnitArena, target: Target, content: int) -> int:
        """The alignment of `arena`'s storage, whose offsets need `content`."""
        requested = (
            target.alignment(arena.scope) if self.alignment is None else self.alignment
        )
        return arena_alignment(
            [storage.alignment.value.data for storage in arena.storages],
            max(requested, content),
        )

    def _arena_storage(self, arena: UnitArena, target: Target) -> AllocStorageOp:
        alignment = self._alignment(arena, target, self._content_alignment(arena))
        check_storage_bytes(
            self.name, arena.first, f'the "{arena.scope}" arena', arena.size
        )
        storage = AllocStorageOp(arena.size, arena.scope, alignment, arena.device)
        storage.result.name_hint = "arena"
        return storage

    def _arena_tensor(self, tensor: AllocTensorOp, live: LiveRange) -> ArenaTensor:
        size, alignment = tensor_footprint(tensor, self.tensor_alignment)
        return ArenaTensor(tensor, live.start, live.upper, size, alignment)


def _nested_slot(
    liveness: FunctionLiveness, inner: UnitArena, alignment: int
) -> ArenaTensor:
    """A branch arena as one buffer of an enclosing arena, over its own ops."""
    return ArenaTensor(
        inner,
        liveness.index[inner.first],
        liveness.end[inner.last] + 1,
        align_up(inner.size, alignment),
        alignment,
    )


def _check_capacity(module: ModuleOp, target: Target) -> None:
    """Fail where `memory-verify` finds the planned module over a capacity
    (`memplan.passes.capacity_check`), in every function, callees included:
    what the checks while planning do not see (what a callee holds at a
    call, storages held across recursion, the first fit's holes, storages
    of functions without an arena) must not make a plan the pass accepts
    one that `memory-verify` refuses."""
    problems = [
        f"memory-plan: in @{name}, after planning, {problem}"
        for name, found in planned_capacity_problems(module, target).items()
        for problem in found
    ]
    if problems:
        raise PassFailedException("\n".join(problems))


def _remark_several_blocks(function: func.FuncOp) -> None:
    """Say on stderr that a function of several blocks keeps its storages:
    the pass plans straight-line bodies (and their regions) only."""
    storages = sum(isinstance(op, AllocStorageOp) for op in walk(function))
    if storages:
        print(
            f"memory-plan: remark: in @{function.sym_name.data}, {storages} "
            "memory.alloc_storage op(s) left unplanned: the function has "
            f"{len(function.body.blocks)} blocks, and memory-plan plans only "
            "functions whose body is one block",
            file=sys.stderr,
        )


def _remark_unmanifested(module: ModuleOp) -> None:
    """Say on stderr that `memref.alloc`s `memory-manifest` would turn into
    tensors are left alone: without it before, the pass would silently do
    nothing.  Those it leaves alone (`Ownership`) are not worth a remark."""
    allocs = [op for op in walk(module) if isinstance(op, memref.AllocOp)]
    if not allocs:
        return
    ownership = Ownership(module)
    owned = sum(map(ownership.owns, allocs))
    if owned:
        print(
            f"memory-plan: remark: {owned} memref.alloc op(s) left unplanned: "
            "memory-plan places memory.alloc_tensor ops; run memory-manifest "
            "first (-p memory-manifest,memory-plan) to plan them",
            file=sys.stderr,
        )


def _unit_arenas(
    liveness: FunctionLiveness, storages: list[PlannedStorage], *, per_function: bool
) -> list[UnitArena]:
    """The arenas of a function, in program order of their first op.

    Tensors go to the arena of their planning unit (`FunctionLiveness.unit_of`),
    scope and device.  Seen at the level of the unit's block (a use nested in
    an op counts at that op), the tensors of one unit, scope and device form
    runs whose ranges overlap in a chain; each run is an arena of its own,
    allocated before its first op and killed after its last, so between runs
    (typically around an `scf.if` whose branches have their own arenas) the
    unit holds no bytes.  `per_function` makes the function body the only
    unit and one run of each scope and device, starting at function entry."""
    entry = liveness.function.body.block
    groups: dict[tuple[Block, str, int], list[RunItem]] = {}
    for planned in storages:
        for tensor, live in planned.tensors:
            unit = entry if per_function else liveness.unit_of(tensor)
            key = (unit, *planned.group)
            groups.setdefault(key, []).append((tensor, live, planned.storage))
    arenas = [
        arena
        for (block, scope, device), items in groups.items()
        for arena in _runs(
            liveness,
            block,
            scope,
            device,
            items,
            entry.first_op if per_function else None,
        )
    ]
    arenas.sort(key=lambda arena: liveness.index[arena.first])
    return arenas


def _runs(
    liveness: FunctionLiveness,
    block: Block,
    scope: str,
    device: int,
    items: list[RunItem],
    first: Operation | None,
) -> list[UnitArena]:
    """The arenas of tensors of one unit `block`, scope and device: one per
    run of chained live ranges, or, given the `first` op, one in all,
    allocated before it."""
    arenas: list[UnitArena] = []
    current: UnitArena | None = None
    for tensor, live, storage in sorted(
        items, key=lambda item: liveness.index[item[0]]
    ):
        start = liveness.op_at(block, live.start) if first is None else first
        last = liveness.op_at(block, live.end)
        assert start is not None and last is not None
        if current is None or (
            first is None and liveness.index[start] > liveness.index[current.last]
        ):
            current = UnitArena(block, scope, device, start, last)
            arenas.append(current)
        elif liveness.index[last] > liveness.index[current.last]:
            current.last = last
        current.tensors[tensor] = live
        current.storages.append(storage)
    return arenas


def _first_op(
    liveness: FunctionLiveness, block: Block, items: list[RunItem]
) -> Operation:
    """The op of `block` where the first of `items` is allocated."""
    ops = [liveness.op_at(block, live.start) for _, live, _ in items]
    return min((op for op in ops if op is not None), key=liveness.index.__getitem__)


def _depth(block: Block) -> int:
    depth = 0
    parent = block.parent_op()
    while parent is not None:
        depth += 1
        parent = parent.parent_op()
    return depth


class BranchArenas:
    """The arenas whose unit is a branch, found by the arenas they could nest
    in: of the same scope and device, not nested yet, of a branch directly
    inside that arena's unit (possibly within loops) and within its ops.
    Each is filed under that unit, scope and device, at the op of the unit
    holding its branch, so an arena finds its own by bisection: the arenas
    of one unit, scope and device span disjoint ops, and the pass stays
    linear in the arenas."""

    def __init__(self, liveness: FunctionLiveness, arenas: list[UnitArena]):
        self.liveness = liveness
        filed: dict[tuple[Block, str, int], list[tuple[int, int, UnitArena]]] = {}
        for position, inner in enumerate(arenas):
            conditional = inner.block.parent_op()
            if not isinstance(conditional, CONDITIONAL_REGIONS):
                continue
            unit = liveness.unit_of_op(conditional)
            anchor = liveness.op_at(unit, liveness.index[conditional])
            if anchor is not None:
                key = (unit, inner.scope, inner.device)
                filed.setdefault(key, []).append(
                    (liveness.index[anchor], position, inner)
                )
        self._filed = {key: sorted(found) for key, found in filed.items()}

    def spanned(self, arena: UnitArena) -> list[UnitArena]:
        """The branch arenas that could nest in `arena`, in the arenas' order."""
        found = self._filed.get((arena.block, arena.scope, arena.device), [])
        first = self.liveness.index[arena.first]
        last = self.liveness.index[arena.last]
        start = bisect_left(found, first, key=lambda entry: entry[0])
        stop = bisect_right(found, last, key=lambda entry: entry[0])
        return [
            inner
            for _, _, inner in sorted(found[start:stop], key=lambda entry: entry[1])
            if inner.host is None and inner.packed is not None
        ]


def _plannable_storages(liveness: FunctionLiveness) -> Iterator[PlannedStorage]:
    for op in liveness.index:
        if isinstance(op, AllocStorageOp) and op.static_size_bytes() is not None:
            tensors = _static_tensors(op)
            if not tensors:
                continue
            ranges = [(tensor, liveness.range_of(tensor)) for tensor in tensors]
            moved = [(t, live) for t, live in ranges if not live.needs_own_storage]
            if moved:
                kept = tuple(t for t, live in ranges if live.needs_own_storage)
                yield PlannedStorage(op, moved, kept)


def _static_tensors(storage: AllocStorageOp) -> list[AllocTensorOp] | None:
    """The storage's tensors if all are static and nothing else uses it but
    kills; a storage without tensors is not worth an arena slot and is kept."""
    tensors: list[AllocTensorOp] = []
    for use in storage.result.uses:
        user = use.operation
        if isinstance(user, KillOp):
            continue
        if not isinstance(user, AllocTensorOp) or not _is_static(user):
            return None
        tensors.append(user)
    return tensors


def _why_held(storage: AllocStorageOp, liveness: FunctionLiveness) -> str | None:
    """Why the pass leaves a static storage (or the tensors it keeps) where
    it is, for a diagnostic that counts its bytes; None when it is not the
    pass's choice (a storage of a function argument, of dynamic size)."""
    if storage.static_size_bytes() is None:
        return None
    kept: list[str] = []
    for use in storage.result.uses:
        user = use.operation
        if isinstance(user, KillOp):
            continue
        if not isinstance(user, AllocTensorOp):
            return f"{user.name} uses it"
        if not _is_static(user):
            return f"{describe(user.result)} has a dynamic offset or shape"
        live = liveness.range_of(user)
        if live.needs_own_storage:
            kept.append(f"{describe(user.result)}, which {_own_storage_reason(live)}")
    return "it holds " + "; ".join(kept) if kept else None


def _own_storage_reason(live: LiveRange) -> str:
    """Why a tensor needs storage of its own (`LiveRange.needs_own_storage`)."""
    if live.escapes:
        return "escapes (returned, or its address taken)"
    if live.carried:
        return "is loop-carried"
    if live.concurrent:
        return "is allocated in a loop whose iterations may run at once"
    return "a memref.dealloc or memref.realloc frees"


def _is_static(tensor: AllocTensorOp) -> bool:
    type_ = tensor.result.type
    return (
        tensor.static_offset_bytes() is not None
        and isinstance(type_, MemRefType)
        and static_byte_size(type_) is not None
    )


def _kills(planned: PlannedStorage) -> Iterator[Operation]:
    """The kills of a storage (unless it keeps tensors) and of its planned
    tensors, also those made through an alias (a cast, a subview): the plan
    erases them and places its own."""
    if not planned.kept:
        for use in planned.storage.result.uses:
            if isinstance(use.operation, KillOp):
                yield use.operation
    for _, live in planned.tensors:
        yield from live.ends


def _move_to_arena(arena: AllocStorageOp, offsets: Mapping[AllocTensorOp, int]) -> None:
    """Place each tensor at its offset in the arena, in place: uses stay valid.

    Only tensors with a static offset are planned, so the storage is their
    first operand and the dynamic offset is empty.  Equal offsets share one
    attribute: building them dominates the rewrite of large functions.
    """
    attributes: dict[int, DenseArrayBase] = {}
    for tensor, offset in offsets.items():
        if offset not in attributes:
            attributes[offset] = DenseArrayBase.from_list(i64, [offset])
        tensor.operands[0] = arena.result
        tensor.properties["static_offset"] = attributes[offset]

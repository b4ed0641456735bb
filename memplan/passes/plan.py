"""`memory-plan`: reuse memory by liveness, one packed arena per scope.

Per function and per (scope, device), every plannable tensor moves into one
arena storage allocated at function entry; tensors whose live ranges
(see `memplan.passes.liveness`) are disjoint may share bytes.  A tensor is
plannable when its storage is a static-size `memory.alloc_storage` of the
same function whose only users are `memory.alloc_tensor`s at static offsets
with static shapes, and kills; and no tensor of that storage escapes or is
carried from one loop iteration to the next.  Everything else (dynamic sizes
or offsets, discontiguous tensors, storages passed to calls, returned or
loop-carried tensors, functions of several blocks) is left as it is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, ModuleOp, i64
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from memplan.dialects.memory import (
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
    element_bytes,
    static_byte_size,
)
from memplan.passes.arena import ArenaTensor, ArenaTooLarge, arena_alignment, pack_arena
from memplan.passes.liveness import FunctionLiveness, LiveRange
from memplan.passes.rounding import is_power_of_two
from memplan.passes.target_option import resolve_target
from memplan.planning import ALGORITHMS
from memplan.targets import DEFAULT_TARGET, Target


@dataclass(frozen=True)
class PlannedStorage:
    """A storage whose tensors all move into the arena, with their live ranges."""

    storage: AllocStorageOp
    tensors: list[tuple[AllocTensorOp, LiveRange]]

    @property
    def group(self) -> tuple[str, int]:
        return self.storage.scope, self.storage.device.value.data


@dataclass(frozen=True)
class MemoryPlanPass(ModulePass):
    """Pack the static tensors of each function into one arena per scope."""

    name = "memory-plan"

    algorithm: str = "best"
    """Packing algorithm of memplan.planning: "best" (exact search within
    `time-limit`, never worse than greedy), "greedy" (best fit by size) or
    "token" (TVM's whole-storage reuse)."""

    alignment: int | None = None
    """Alignment of each arena storage; default: the target's alignment of the
    scope.  The arena is also at least as aligned as every storage it replaces."""

    tensor_alignment: int | None = None
    """Alignment of tensor offsets inside the arena; default: the element size
    (e.g. 128 keeps every tensor HVX-aligned)."""

    insert_kills: bool = True
    """Kill each planned tensor after its last use, in its allocating block;
    the arena itself is always killed after the last use of its tensors."""

    target: str = DEFAULT_TARGET
    """Target that gives scope capacities and default alignments."""

    capacity: int | None = None
    """VTCM ("global.vtcm") capacity in bytes, overriding the target's."""

    time_limit: int | float | None = None
    """Seconds the "best" search may spend on one arena (default 1)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_options()
        target = resolve_target(self.target)
        if self.capacity is not None:
            target = target.with_vtcm_size(self.capacity)
        functions = [f for f in op.walk() if isinstance(f, func.FuncOp)]
        for function in functions:
            if len(function.body.blocks) == 1:
                self._plan_function(function, target)

    def _check_options(self) -> None:
        if self.algorithm not in ALGORITHMS:
            known = ", ".join(ALGORITHMS)
            raise PassFailedException(
                f"memory-plan: unknown algorithm '{self.algorithm}', expected one of: {known}"
            )
        for option, value in (
            ("alignment", self.alignment),
            ("tensor-alignment", self.tensor_alignment),
        ):
            if value is not None and not is_power_of_two(value):
                raise PassFailedException(
                    f"memory-plan: {option} must be a positive power of two, got {value}"
                )
        if self.time_limit is not None and self.time_limit < 0:
            raise PassFailedException(
                f"memory-plan: time-limit must be >= 0 seconds, got {self.time_limit}"
            )

    def _plan_function(self, function: func.FuncOp, target: Target) -> None:
        liveness = FunctionLiveness(function)
        groups: defaultdict[tuple[str, int], list[PlannedStorage]] = defaultdict(list)
        for planned in _plannable_storages(liveness):
            groups[planned.group].append(planned)
        # Arenas go in at function entry, each before the last: build them in
        # reverse so they read in program order.
        for (scope, device), storages in reversed(groups.items()):
            self._build_arena(function, liveness, scope, device, storages, target)

    def _build_arena(
        self,
        function: func.FuncOp,
        liveness: FunctionLiveness,
        scope: str,
        device: int,
        storages: list[PlannedStorage],
        target: Target,
    ) -> None:
        ranges = dict(
            sorted(
                (item for planned in storages for item in planned.tensors),
                key=lambda item: liveness.index[item[0]],
            )
        )
        tensors = [self._arena_tensor(tensor, live) for tensor, live in ranges.items()]
        try:
            packed = pack_arena(
                scope, tensors, target.capacity(scope), self.algorithm, self.time_limit
            )
        except ArenaTooLarge as error:
            raise PassFailedException(
                f"memory-plan: in @{function.sym_name.data}, {error}"
            ) from None
        requested = (
            target.alignment(scope) if self.alignment is None else self.alignment
        )
        alignment = arena_alignment(
            [planned.storage.alignment.value.data for planned in storages], requested
        )
        entry = function.body.block
        arena = AllocStorageOp(packed.size, scope, alignment, device)
        arena.result.name_hint = "arena"
        arena_last_user = liveness.op_at(
            entry, max(live.end for live in ranges.values())
        )
        assert arena_last_user is not None
        Rewriter.insert_op(arena, InsertPoint.at_start(entry))
        Rewriter.insert_op(KillOp(arena), InsertPoint.after(arena_last_user))
        for planned in storages:
            _erase_kills(planned.storage)
        _move_to_arena(ranges, arena, packed.offsets)
        if self.insert_kills:
            for tensor, live in reversed(ranges.items()):
                if live.last_user is not None:
                    Rewriter.insert_op(
                        KillOp(tensor), InsertPoint.after(live.last_user)
                    )
        for planned in storages:
            Rewriter.erase_op(planned.storage)

    def _arena_tensor(self, tensor: AllocTensorOp, live: LiveRange) -> ArenaTensor:
        type_ = tensor.result.type
        assert isinstance(type_, MemRefType)
        size = static_byte_size(type_)
        assert size is not None
        alignment = self.tensor_alignment or element_bytes(type_.element_type)
        return ArenaTensor(tensor, live.start, live.upper, size, alignment)


def _plannable_storages(liveness: FunctionLiveness) -> Iterator[PlannedStorage]:
    for op in liveness.index:
        if isinstance(op, AllocStorageOp) and op.static_size_bytes() is not None:
            tensors = _static_tensors(op)
            if not tensors:
                continue
            ranges = [(tensor, liveness.range_of(tensor)) for tensor in tensors]
            if not any(live.escapes or live.carried for _, live in ranges):
                yield PlannedStorage(op, ranges)


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


def _is_static(tensor: AllocTensorOp) -> bool:
    type_ = tensor.result.type
    return (
        tensor.static_offset_bytes() is not None
        and isinstance(type_, MemRefType)
        and static_byte_size(type_) is not None
    )


def _erase_kills(storage: AllocStorageOp) -> None:
    """Erase the kills of a storage and of its tensors: the plan places new ones."""
    tensors = [
        use.operation
        for use in storage.result.uses
        if isinstance(use.operation, AllocTensorOp)
    ]
    values = [storage.result, *(tensor.result for tensor in tensors)]
    kills = [
        use.operation
        for value in values
        for use in value.uses
        if isinstance(use.operation, KillOp)
    ]
    for kill in kills:
        Rewriter.erase_op(kill)


def _move_to_arena(
    tensors: Iterable[AllocTensorOp],
    arena: AllocStorageOp,
    offsets: Mapping[Hashable, int],
) -> None:
    """Place each tensor at its offset in the arena, in place: uses stay valid.

    Only tensors with a static offset are planned, so the storage is their
    first operand and the dynamic offset is empty.  Equal offsets share one
    attribute: building them dominates the rewrite of large functions.
    """
    attributes: dict[int, DenseArrayBase] = {}
    for tensor in tensors:
        offset = offsets[tensor]
        if offset not in attributes:
            attributes[offset] = DenseArrayBase.from_list(i64, [offset])
        tensor.operands[0] = arena.result
        tensor.static_offset = attributes[offset]

"""What `memory-place` sees in a function, as a `PlacementProblem`.

Per function (one block, numbered by `FunctionLiveness`), the scope groups
(`retype.ScopeGroups`) touching it become:

* a **tensor entity** for a movable group that is one storage holding one
  static tensor plus views of it, planned by `memory-plan`: it may be
  promoted, demoted, or split between uses;
* a **group entity** for any other movable group whose storages `memory-plan`
  plans: it moves as a whole, for the lives of all its tensors;
* a **prefetch entity** for each value of a group that stays in DDR (an
  argument, a global, a returned tensor) with data uses: its data can be
  copied into a VTCM tensor over a stretch of uses (with no copy in before
  the first use of a tensor nothing wrote yet);
* **pinned** VTCM memory (groups that cannot move) counted in every placement;
* **demoted** groups: movable VTCM memory `memory-plan` does not plan (dynamic
  sizes, kept storages) goes to DDR, where no capacity can be exceeded.

Each op touching an entity becomes a `CostedOp` whose cycle table comes from
the interpreter's cost model, so the pass minimizes the cycles `memplan-run`
reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import MemRefType, i8
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation, SSAValue

from memplan.dialects.memory import (
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
    element_bytes,
    scope_of,
    static_byte_size,
)
from memplan.interpreter.cost import COPY_OPS, CostModel, OpProfile, profile
from memplan.interpreter.uninitialized import linalg_access
from memplan.ir_walk import walk
from memplan.passes.liveness import (
    NOT_USES,
    VIEW_OPS,
    Forward,
    FunctionLiveness,
    LiveRange,
    in_branching_region,
    is_unit_block,
)
from memplan.passes.loops import trip_count
from memplan.passes.ownership import freed_at, held_copies
from memplan.passes.retype import (
    ALLOCATING_OPS,
    ScopeGroup,
    ScopeGroups,
    forwards_memory,
    global_name,
)
from memplan.passes.rounding import arena_footprint, tensor_footprint
from memplan.planning.buffers import align_up
from memplan.planning.placement import (
    CostedOp,
    Entity,
    Occupant,
    PlacementProblem,
    Reserved,
    Slot,
    Unit,
)
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, Target

DATA_KINDS = frozenset({"copy", "access", "compute"})
"""Kinds of ops whose cost depends on the scopes of their memref operands."""
READS = frozenset({"memref.load", "affine.load"})
WRITES = frozenset({"memref.store", "affine.store"})


def is_data_op(op: Operation) -> bool:
    """The op touches the data of its memref operands (as the cost model sees it)."""
    return profile(op).kind in DATA_KINDS


class PinnedDynamic(ValueError):
    """VTCM memory that cannot move and whose size is not known statically."""


@dataclass(frozen=True)
class Access:
    """How one op uses an operand: may it read the old data, does it write."""

    reads: bool
    writes: bool


def access(op: Operation, index: int) -> Access:
    """What `op` does with the data of operand `index`."""
    if op.name in COPY_OPS:
        return Access(index == 0, index != 0)
    if op.name in READS:
        return Access(True, False)
    if op.name in WRITES:
        return Access(True, True)
    if isinstance(op, LinalgStructuredOperation):
        inputs = len(op.inputs)
        if index < inputs:
            return Access(True, False)
        return Access(not _overwrites(op, index), True)
    if op.name.startswith("linalg."):
        # `linalg.broadcast`, `map` and `reduce` write their `init` whole.
        read, written = linalg_access(op, len(op.operands))
        return Access(index in read, index in written)
    if op.name in VIEW_OPS:
        return Access(True, False)
    return Access(True, True)


def _overwrites(op: LinalgStructuredOperation, index: int) -> bool:
    """The output operand `index` is written whole and its old data unused."""
    block = op.body.block
    if len(block.args) != len(op.operands) or block.args[index].uses:
        return False
    maps = op.get_indexing_maps().data
    return index < len(maps) and maps[index].data.is_projected_permutation()


def anchor_in(op: Operation, block: Block) -> Operation | None:
    """The op of `block` that is `op` or holds it; None when outside `block`."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


@dataclass(frozen=True)
class Frequency:
    """How often an op runs per run of its function, and whether surely."""

    count: float
    certain: bool


def frequency(op: Operation) -> Frequency:
    """Product of the trip counts of the `scf.for` and `affine.for` loops
    around `op` (1 for loops whose bounds are not constants); not certain
    inside branches, `scf.while` and loops that may run zero times."""
    count, certain = 1.0, True
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.ForOp | affine.ForOp):
            trips = trip_count(parent)
            if trips is None:
                certain = False
            else:
                count *= trips
                certain &= trips > 0
        else:
            certain = False
        parent = parent.parent_op()
    return Frequency(count, certain)


@dataclass(frozen=True)
class _Nbytes:
    """What the cost model reads of a runtime tensor: its bytes and element size."""

    nbytes: int
    dtype: _ItemSize
    shape: tuple[int, ...] = ()


@dataclass(frozen=True)
class _ItemSize:
    itemsize: int


def _stand_in(type_: MemRefType) -> _Nbytes:
    size = static_byte_size(type_)
    return _Nbytes(size or 0, _ItemSize(element_bytes(type_.element_type)))


def op_cycle_table(
    cost: CostModel, op: Operation, moving: list[list[int]]
) -> tuple[float, ...]:
    """Cycles of `op` for each combination of scopes of the operand sets in
    `moving` (bit i set: operands `moving[i]` in VTCM, else in DDR); the other
    operands keep the scope of their type."""
    kind = profile(op).kind
    args: list[object] = [None] * len(op.operands)
    scopes: list[str | None] = [None] * len(op.operands)
    for index, operand in enumerate(op.operands):
        if isinstance(operand.type, MemRefType):
            args[index] = _stand_in(operand.type)
            scopes[index] = scope_of(operand.type)
    table: list[float] = []
    for mask in range(1 << len(moving)):
        current = list(scopes)
        for bit, indices in enumerate(moving):
            for index in indices:
                current[index] = VTCM_SCOPE if mask >> bit & 1 else GLOBAL_SCOPE
        info = OpProfile(
            kind, tuple((i, s) for i, s in enumerate(current) if s is not None)
        )
        table.append(cost.cycles(op, info, tuple(args)))
    return tuple(table)


def copy_cycles(cost: CostModel, type_: MemRefType, near: Operation) -> float:
    """Cycles of one `memory.copy` of a tensor of `type_` between DDR and VTCM
    (`near` stands for the op: only contractions look at it)."""
    stand_in = _stand_in(type_)
    info = OpProfile("copy", ((0, GLOBAL_SCOPE), (1, VTCM_SCOPE)))
    return cost.cycles(near, info, (stand_in, stand_in))


def overhead_cycles(cost: CostModel) -> tuple[float, float]:
    """Cycles of placing and killing one more tensor in an arena, and of
    allocating and freeing one arena, as the cost model prices those ops."""
    storage = AllocStorageOp(64, VTCM_SCOPE, 64)
    tensor = AllocTensorOp(storage, 0, MemRefType(i8, [64]))
    ops = [storage, tensor, KillOp(tensor), KillOp(storage)]
    cycles = [cost.cycles(op, profile(op), ()) for op in ops]
    return cycles[1] + cycles[2], cycles[0] + cycles[3]


@dataclass
class EntityIR:
    """The IR behind one entity of the problem."""

    kind: str
    """"tensor", "group" or "prefetch"."""
    group: ScopeGroup
    anchors: list[Operation]
    """The op of the home block holding each slot."""
    value: SSAValue | None = None
    """The tensor (kind "tensor") or the DDR value (kind "prefetch")."""


@dataclass
class FunctionModel:
    """A function's placement problem and the IR each entity stands for."""

    function: func.FuncOp
    liveness: FunctionLiveness
    problem: PlacementProblem
    entities: list[EntityIR]
    demoted: list[ScopeGroup]
    pinned: list[tuple[Operation, int, str]]
    """(allocation, bytes, why it cannot move) of VTCM memory that stays."""
    calls: list[tuple[func.CallOp, str]] = field(
        default_factory=list[tuple[func.CallOp, str]]
    )


def _unit_blocks(function: func.FuncOp) -> list[Block]:
    blocks = [function.body.block]
    for op in walk(function.body):
        for region in op.regions:
            blocks.extend(b for b in region.blocks if is_unit_block(b))
    return blocks


@dataclass
class _Builder:
    function: func.FuncOp
    groups: ScopeGroups
    target: Target
    cost: CostModel
    weight: float
    capacity: int | None
    callee_peaks: dict[str, int]
    written_globals: set[str]
    handled: set[int]
    """Ids of scope groups already placed (by this or an earlier function)."""
    module_order: dict[Operation, int]
    tensor_alignment: int | None
    """The `tensor-alignment` of the `memory-plan` that packs the arenas."""
    forward: Forward
    """What aliases are found with (`FunctionLiveness.forward`)."""
    liveness: FunctionLiveness = field(init=False)
    units: list[Block] = field(init=False)
    entities: list[Entity] = field(default_factory=list[Entity])
    irs: list[EntityIR] = field(default_factory=list[EntityIR])
    fixed: list[Occupant] = field(default_factory=list[Occupant])
    ddr_fixed: list[Occupant] = field(default_factory=list[Occupant])
    reserved: list[Reserved] = field(default_factory=list[Reserved])
    demoted: list[ScopeGroup] = field(default_factory=list[ScopeGroup])
    pinned: list[tuple[Operation, int, str]] = field(
        default_factory=list[tuple[Operation, int, str]]
    )

    def __post_init__(self) -> None:
        self.liveness = FunctionLiveness(self.function, self.forward)
        self.units = _unit_blocks(self.function)

    def unit_id(self, block: Block) -> int:
        return self.units.index(block)

    def build(self) -> FunctionModel:
        for op in self.liveness.index:
            if op.name in ALLOCATING_OPS:
                group = self.groups.group_of(op.results[0])
                if id(group) not in self.handled:
                    self.handled.add(id(group))
                    self._allocation_group(group)
        self._prefetch_entities()
        for op in self.liveness.index:
            if isinstance(op, func.CallOp):
                peak = self.callee_peaks.get(op.callee.string_value(), 0)
                if peak:
                    self.reserved.append(
                        Reserved(self.liveness.index[op], self.liveness.end[op], peak)
                    )
        problem = PlacementProblem(
            tuple(self.entities),
            tuple(self._costed_ops()),
            tuple(
                Unit(
                    tuple(
                        (self.liveness.index[op], self.liveness.end[op])
                        for op in block.ops
                    ),
                    self._block_weight(block),
                    self._parent_unit(block),
                )
                for block in self.units
            ),
            self.liveness.last_point + 1,
            self.capacity,
            tuple(self.fixed),
            tuple(self.ddr_fixed),
            tuple(self.reserved),
            self.target.alignment(VTCM_SCOPE),
            *overhead_cycles(self.cost),
        )
        return FunctionModel(
            self.function,
            self.liveness,
            problem,
            self.irs,
            self.demoted,
            self.pinned,
        )

    # -- groups that allocate memory in this function -------------------

    def _allocation_group(self, group: ScopeGroup) -> None:
        allocations = group.allocations()
        local = all(self._inside(op) for op in allocations)
        planned = self._planned_tensors(allocations) if local else None
        if group.fixed is not None:
            if group.scope == VTCM_SCOPE:
                self._pin(group, allocations, planned)
            elif planned is not None:
                self.ddr_fixed.extend(self._occupants(planned))
            return
        if planned is None:
            if group.scope != GLOBAL_SCOPE:
                self.demoted.append(group)
            return
        if self._is_single_tensor(group, allocations, planned):
            self._tensor_entity(group, planned[0][0], planned[0][1])
        else:
            self._group_entity(group, planned)

    def _inside(self, op: Operation) -> bool:
        return op in self.liveness.index

    def _planned_tensors(
        self, allocations: list[Operation]
    ) -> list[tuple[AllocTensorOp, LiveRange]] | None:
        """The tensors of `allocations` if `memory-plan` plans all of them."""
        found: list[tuple[AllocTensorOp, LiveRange]] = []
        for allocation in allocations:
            if not isinstance(allocation, AllocStorageOp):
                return None
            if allocation.static_size_bytes() is None:
                return None
            tensors: list[AllocTensorOp] = []
            for use in allocation.result.uses:
                user = use.operation
                if isinstance(user, KillOp):
                    continue
                if not isinstance(user, AllocTensorOp) or not _static_tensor(user):
                    return None
                tensors.append(user)
            if not tensors:
                return None
            for tensor in tensors:
                live = self.liveness.range_of(tensor)
                if live.needs_own_storage:
                    return None
                found.append((tensor, live))
        return found

    def _is_single_tensor(
        self,
        group: ScopeGroup,
        allocations: list[Operation],
        planned: list[tuple[AllocTensorOp, LiveRange]],
    ) -> bool:
        if len(allocations) != 1 or len(planned) != 1:
            return False
        tensor, live = planned[0]
        if (
            live.last_user is None
            or tensor.parent_block() is not allocations[0].parent_block()
        ):
            return False
        storage = allocations[0].results[0]
        for value in group.values:
            if value is storage or value is tensor.result:
                continue
            owner = value.owner
            if not isinstance(owner, Operation) or owner.name not in VIEW_OPS:
                return False
        return True

    def _occupants(
        self, planned: list[tuple[AllocTensorOp, LiveRange]]
    ) -> list[Occupant]:
        return [
            Occupant(
                live.start,
                live.end,
                *tensor_footprint(tensor, self.tensor_alignment),
                self.unit_id(self.liveness.unit_of(tensor)),
            )
            for tensor, live in planned
        ]

    def _pin(
        self,
        group: ScopeGroup,
        allocations: list[Operation],
        planned: list[tuple[AllocTensorOp, LiveRange]] | None,
    ) -> None:
        reason = group.fixed or ""
        if planned is not None:
            self.fixed.extend(self._occupants(planned))
            for allocation in allocations:
                assert isinstance(allocation, AllocStorageOp)
                size = allocation.static_size_bytes()
                assert size is not None
                self.pinned.append((allocation, size, reason))
            return
        for allocation in allocations:
            if not self._inside(allocation):
                continue
            size = _allocation_bytes(allocation)
            if size is None:
                raise PinnedDynamic(
                    f"{allocation.name} in @{self.function.sym_name.data} allocates "
                    f'"{VTCM_SCOPE}" memory of a dynamic size that cannot move to '
                    f"DDR ({reason}): expected a static size, so that the VTCM "
                    "capacity can be checked"
                )
            start = self.liveness.index[allocation]
            copies, _ = held_copies(allocation)
            self.reserved.append(
                Reserved(
                    start, self._held_until(allocation), _aligned(self, size) * copies
                )
            )
            self.pinned.append((allocation, size * copies, reason))

    def _held_until(self, allocation: Operation) -> int:
        """The last point memory left alone by `memory-plan` holds its bytes:
        where its own block frees them (`ownership.freed_at`), else the end
        of the function."""
        end = freed_at(self.liveness, allocation)
        return self.liveness.last_point if end is None else end

    # -- entities -------------------------------------------------------

    def _tensor_entity(
        self, group: ScopeGroup, tensor: AllocTensorOp, live: LiveRange
    ) -> None:
        block = tensor.parent_block()
        assert block is not None
        uses: dict[Operation, list[tuple[Operation, int]]] = {}
        defined_at: dict[SSAValue, Operation] = {}
        for value in group.values:
            if value is tensor.result or not isinstance(value.owner, Operation):
                continue
            if value.owner is not tensor and not isinstance(
                value.owner, AllocStorageOp
            ):
                anchor = anchor_in(value.owner, block)
                assert anchor is not None
                defined_at[value] = anchor
        for value in group.values:
            if isinstance(value.owner, AllocStorageOp):
                continue
            for use in value.uses:
                if isinstance(use.operation, NOT_USES):
                    continue
                anchor = anchor_in(use.operation, block)
                assert anchor is not None
                uses.setdefault(anchor, []).append((use.operation, use.index))
        anchors = sorted(uses, key=lambda op: self.liveness.index[op])
        if not anchors:
            if group.scope != GLOBAL_SCOPE:
                self.demoted.append(group)
            return
        position = {anchor: i for i, anchor in enumerate(anchors)}
        crossing = [False] * len(anchors)
        for value, definition in defined_at.items():
            first = position.get(definition)
            last = max(
                (
                    position[anchor_in(use.operation, block)]  # type: ignore[index]
                    for use in value.uses
                    if not isinstance(use.operation, NOT_USES)
                ),
                default=first,
            )
            if first is None or last is None:
                continue
            for gap in range(first, last):
                crossing[gap] = True
        type_ = tensor.result.type
        assert isinstance(type_, MemRefType)
        slots = tuple(self._slot(anchor, uses[anchor]) for anchor in anchors)
        size, alignment = tensor_footprint(tensor, self.tensor_alignment)
        self._add(
            Entity(
                key=len(self.entities),
                size=size,
                alignment=alignment,
                unit=self.unit_id(self.liveness.unit_of(tensor)),
                slots=slots,
                start=live.start,
                splittable=tuple(not c for c in crossing[: len(anchors) - 1]),
                copy_cycles=copy_cycles(self.cost, type_, tensor),
                weight=self._block_weight(block),
            ),
            EntityIR("tensor", group, anchors, tensor.result),
        )

    def _group_entity(
        self, group: ScopeGroup, planned: list[tuple[AllocTensorOp, LiveRange]]
    ) -> None:
        whole = tuple(self._occupants(planned))
        lo = min(o.start for o in whole)
        hi = max(o.end for o in whole)
        self._add(
            Entity(
                key=len(self.entities),
                size=0,
                alignment=1,
                unit=whole[0].unit,
                slots=(Slot(lo, hi),),
                start=lo,
                whole=whole,
            ),
            EntityIR("group", group, []),
        )

    def _prefetch_entities(self) -> None:
        """DDR values that cannot move, whose data a VTCM copy may stand in for."""
        candidates: list[SSAValue] = [*self.function.args]
        for op in self.liveness.index:
            name = global_name(op)
            if name is not None and name not in self.written_globals:
                candidates.append(op.results[0])
            elif isinstance(op, AllocTensorOp):
                candidates.append(op.result)
        for value in candidates:
            type_ = value.type
            if not isinstance(type_, MemRefType) or static_byte_size(type_) is None:
                continue
            group = self.groups.group_of(value)
            if group.fixed is None or group.scope != GLOBAL_SCOPE:
                continue
            self._prefetch_entity(value, group)

    def _prefetch_entity(self, value: SSAValue, group: ScopeGroup) -> None:
        owner = value.owner
        block = owner if isinstance(owner, Block) else owner.parent_block()
        assert block is not None
        if in_branching_region(block):
            # A VTCM copy made there would keep a storage of its own, which
            # memory-plan does not pack into the arenas counted here.
            return
        read_only = _read_only(group)
        slots: dict[Operation, list[tuple[Operation, int]]] = {}
        barriers: set[Operation] = set()
        # Values outside the group may reach the memory too (a tensor of
        # `bufferization.to_tensor`, a memref made back from it): each use
        # of one may read or write it, in DDR.
        members = set(group.values)
        outside = [
            alias for alias in self.liveness.aliases(value) if alias not in members
        ]
        for other in [*group.values, *outside]:
            for use in other.uses:
                anchor = anchor_in(use.operation, block)
                if anchor is None or isinstance(use.operation, KillOp):
                    continue
                if other is value and is_data_op(use.operation):
                    slots.setdefault(anchor, []).append((use.operation, use.index))
                elif other is value or not read_only or other not in members:
                    barriers.add(anchor)
        if not slots:
            return
        anchors = sorted({*slots, *barriers}, key=lambda op: self.liveness.index[op])
        built: list[Slot] = []
        for anchor in anchors:
            if anchor in barriers:
                lo, hi = self.liveness.index[anchor], self.liveness.end[anchor]
                built.append(Slot(lo, hi, True, True, ddr_only=True))
            else:
                built.append(self._slot(anchor, slots[anchor]))
        if isinstance(owner, AllocTensorOp):
            self._mark_fresh(owner, anchors, barriers, built)
        type_ = value.type
        assert isinstance(type_, MemRefType)
        # The VTCM copy is a new tensor with no `align` of its own.
        size, alignment = arena_footprint(type_, self.tensor_alignment)
        self._add(
            Entity(
                key=len(self.entities),
                size=size,
                alignment=alignment,
                unit=self.unit_id(self.liveness.unit_of_op(anchors[0])),
                slots=tuple(built),
                observable=True,
                splittable=(True,) * (len(anchors) - 1),
                copy_cycles=copy_cycles(self.cost, type_, anchors[0]),
                weight=self._block_weight(block),
            ),
            EntityIR("prefetch", group, anchors, value),
        )

    def _mark_fresh(
        self,
        tensor: AllocTensorOp,
        anchors: list[Operation],
        barriers: set[Operation],
        built: list[Slot],
    ) -> None:
        """A fresh tensor holds undefined bytes: its first data use, when no
        other use of its group comes between the allocation and it, needs no
        copy into VTCM (one would read bytes never written)."""
        allocated = self.liveness.index[tensor]
        for position, anchor in enumerate(anchors):
            if self.liveness.index[anchor] > allocated:
                if anchor not in barriers:
                    built[position] = replace(built[position], fresh=True)
                return

    def _slot(self, anchor: Operation, uses: list[tuple[Operation, int]]) -> Slot:
        accesses = [access(op, index) for op, index in uses]
        nested = any(op is not anchor for op, _ in uses)
        reads = nested or any(a.reads for a in accesses)
        writes = any(a.writes for a in accesses)
        return Slot(
            self.liveness.index[anchor], self.liveness.end[anchor], reads, writes
        )

    def _parent_unit(self, block: Block) -> int | None:
        holder = block.parent_op()
        if holder is None or isinstance(holder, func.FuncOp):
            return None
        return self.unit_id(self.liveness.unit_of_op(holder))

    def _block_weight(self, block: Block) -> float:
        holder = block.parent_op()
        if holder is None or isinstance(holder, func.FuncOp):
            return self.weight
        inner = next(iter(block.ops), None)
        return self.weight * (frequency(inner).count if inner is not None else 1.0)

    def _add(self, entity: Entity, ir: EntityIR) -> None:
        self.entities.append(entity)
        self.irs.append(ir)

    # -- costs ------------------------------------------------------------

    def _costed_ops(self) -> list[CostedOp]:
        """Every data op touching an entity, with its cycle table."""
        refs_of: dict[Operation, dict[int, tuple[int, list[int]]]] = {}
        for index, ir in enumerate(self.irs):
            self._collect_refs(index, ir, refs_of)
        costed: list[CostedOp] = []
        for op in sorted(refs_of, key=self._op_order):
            refs = refs_of[op]
            order = sorted(refs)
            moving = [refs[e][1] for e in order]
            table = op_cycle_table(self.cost, op, moving)
            if all(c == table[0] for c in table):
                continue
            runs = frequency(op)
            weight, certain = self.weight * runs.count, runs.certain
            if op not in self.liveness.index:
                calls, certain = self._callee_runs(op)
                weight = calls * runs.count
                certain &= runs.certain
            costed.append(
                CostedOp(tuple((e, refs[e][0]) for e in order), table, weight, certain)
            )
        return costed

    def _op_order(self, op: Operation) -> tuple[int, int]:
        if op in self.liveness.index:
            return (0, self.liveness.index[op])
        return (1, self.module_order[op])

    def _collect_refs(
        self,
        index: int,
        ir: EntityIR,
        refs_of: dict[Operation, dict[int, tuple[int, list[int]]]],
    ) -> None:
        if ir.kind == "group":
            values = ir.group.values
            slot_of = None
        else:
            assert ir.value is not None
            values = [ir.value] if ir.kind == "prefetch" else ir.group.values
            slot_of = {anchor: i for i, anchor in enumerate(ir.anchors)}
        for value in values:
            for use in value.uses:
                op = use.operation
                if not is_data_op(op):
                    continue
                slot = 0
                if slot_of is not None:
                    home = ir.anchors[0].parent_block()
                    anchor = anchor_in(op, home) if home is not None else None
                    if anchor is None or anchor not in slot_of:
                        continue
                    slot = slot_of[anchor]
                entry = refs_of.setdefault(op, {}).setdefault(index, (slot, []))
                entry[1].append(use.index)

    def _callee_runs(self, op: Operation) -> tuple[float, bool]:
        """Runs of an op of another function per run of this one (through
        calls from this function), and whether one of them surely runs."""
        callee = op.parent_op()
        while callee is not None and not isinstance(callee, func.FuncOp):
            callee = callee.parent_op()
        if callee is None:
            return 0.0, False
        calls = [
            call
            for call in self.groups.callers.get(callee.sym_name.data, [])
            if call in self.liveness.index
        ]
        runs = [frequency(call) for call in calls]
        return (
            sum(self.weight * r.count for r in runs),
            any(r.certain for r in runs),
        )


def _read_only(group: ScopeGroup) -> bool:
    """No op may change the group's data (data ops only read; views, kills
    and returns do not write)."""
    for value in group.values:
        for use in value.uses:
            op = use.operation
            if is_data_op(op):
                if access(op, use.index).writes:
                    return False
            elif not (
                op.name in VIEW_OPS
                or forwards_memory(op)
                or isinstance(op, (*NOT_USES, func.ReturnOp))
            ):
                return False
    return True


def _static_tensor(tensor: AllocTensorOp) -> bool:
    type_ = tensor.result.type
    return (
        tensor.static_offset_bytes() is not None
        and isinstance(type_, MemRefType)
        and static_byte_size(type_) is not None
    )


def _allocation_bytes(allocation: Operation) -> int | None:
    if isinstance(allocation, AllocStorageOp):
        return allocation.static_size_bytes()
    type_ = allocation.results[0].type
    assert isinstance(type_, MemRefType)
    return static_byte_size(type_)


def _aligned(builder: _Builder, size: int) -> int:
    alignment = builder.target.alignment(VTCM_SCOPE)
    return align_up(size, alignment)


def written_globals(groups: ScopeGroups, get_globals: list[Operation]) -> set[str]:
    """Globals whose data some op may change."""
    return {
        str(global_name(op))
        for op in get_globals
        if not _read_only(groups.group_of(op.results[0]))
    }


def build_model(
    function: func.FuncOp,
    groups: ScopeGroups,
    target: Target,
    weight: float,
    capacity: int | None,
    callee_peaks: dict[str, int],
    globals_written: set[str],
    handled: set[int],
    module_order: dict[Operation, int],
    tensor_alignment: int | None,
    forward: Forward,
) -> FunctionModel:
    """The placement problem of `function` (one block), run `weight` times,
    for arenas packed with `tensor_alignment`, its aliases found with
    `forward`.  Groups whose id is in `handled` were placed already; those
    this function places are added to it."""
    return _Builder(
        function,
        groups,
        target,
        CostModel(target),
        weight,
        capacity,
        callee_peaks,
        globals_written,
        handled,
        module_order,
        tensor_alignment,
        forward,
    ).build()

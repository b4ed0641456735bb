"""Carry out a placement: retype groups, add tensors, copies and kills.

The moves follow `placement._step` position by position, so the copies in
the IR are the ones the cost was counted for: a new VTCM tensor and a copy
in before a slot that enters VTCM, a copy back to DDR where the data leaves
VTCM written, and kills right after the last use of every tensor made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, NoneAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.dialects.memory import (
    AllocStorageOp,
    AllocTensorOp,
    CopyOp,
    KillOp,
    scope_of,
    static_byte_size,
)
from memplan.passes.place_model import EntityIR, FunctionModel, anchor_in
from memplan.passes.retype import (
    ScopeGroup,
    ScopeGroups,
    forward_closure,
    with_scope,
)
from memplan.planning.placement import (
    DDR,
    IN_VTCM,
    VTCM,
    Entity,
    PlacementProblem,
    _final,
    _initial,
    _step,
)
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, Target


def move_group(
    groups: ScopeGroups, group: ScopeGroup, scope: str, target: Target
) -> None:
    """Retype a whole group; storages moved to VTCM get its alignment, and
    storages moved out of it drop the alignment VTCM alone asked for."""
    if group.scope == scope:
        return
    old_scope = group.scope
    storages = [v.owner for v in group.values if isinstance(v.owner, AllocStorageOp)]
    groups.retype(group.values, scope)
    _align_storages(storages, scope, target, old_scope)


def _align_storages(
    storages: Sequence[Operation], scope: str, target: Target, old_scope: str
) -> None:
    """Each storage gets `scope`'s alignment at least.  One that had exactly
    `old_scope`'s (what `memory-manifest` gives a storage there) gets
    `scope`'s: a DDR storage kept at VTCM's 2048 would keep `memory-plan`
    from nesting its arena into an enclosing one."""
    wanted = target.alignment(scope)
    for storage in storages:
        assert isinstance(storage, AllocStorageOp)
        current = storage.alignment.value.data
        if current < wanted or current == target.alignment(old_scope):
            storage.alignment = IntegerAttr(wanted, IndexType())


@dataclass
class _Mover:
    """Inserts the tensors and copies of one entity in its home block."""

    entity: Entity
    ir: EntityIR
    target: Target
    block: Block
    base: str
    made: list[SSAValue] = field(default_factory=list[SSAValue])
    copies: int = 0

    def new_tensor(self, scope: str, where: InsertPoint) -> SSAValue:
        value = self.ir.value
        assert value is not None and isinstance(value.type, MemRefType)
        type_ = value.type
        size = static_byte_size(type_)
        assert size is not None
        scoped = with_scope(type_, scope)
        assert isinstance(scoped, MemRefType)
        tensor_type = MemRefType(
            type_.element_type, type_.shape, NoneAttr(), scoped.memory_space
        )
        storage = AllocStorageOp(size, scope, self.target.alignment(scope))
        tensor = AllocTensorOp(storage, 0, tensor_type)
        suffix = "vtcm" if scope == VTCM_SCOPE else "ddr"
        storage.result.name_hint = f"{self.base}_{suffix}_storage"
        tensor.result.name_hint = f"{self.base}_{suffix}"
        Rewriter.insert_op([storage, tensor], where)
        self.made.append(tensor.result)
        return tensor.result

    def copy(self, source: SSAValue, target: SSAValue, where: InsertPoint) -> None:
        Rewriter.insert_op(CopyOp(source, target), where)
        self.copies += 1


def _after(op: Operation) -> InsertPoint:
    return InsertPoint.after(op)


def move_entity(
    problem: PlacementProblem,
    model: FunctionModel,
    index: int,
    locations: Sequence[int],
    groups: ScopeGroups,
    target: Target,
) -> int:
    """Carry out the locations of entity `index`; returns the copies added."""
    entity = problem.entities[index]
    ir = model.entities[index]
    if ir.kind == "group":
        move_group(
            groups,
            ir.group,
            VTCM_SCOPE if locations[0] == VTCM else GLOBAL_SCOPE,
            target,
        )
        return 0
    value = ir.value
    assert value is not None
    first = ir.anchors[0]
    block = first.parent_block()
    assert block is not None
    if ir.kind == "tensor" and len(set(locations)) == 1:
        move_group(
            groups,
            ir.group,
            VTCM_SCOPE if locations[0] == VTCM else GLOBAL_SCOPE,
            target,
        )
        return 0
    if ir.kind == "prefetch" and VTCM not in locations:
        return 0
    mover = _Mover(entity, ir, target, block, value.name_hint or "t")
    _walk(problem, mover, locations)
    _kill_made(mover)
    if ir.kind == "tensor":
        tensor = value.owner
        assert isinstance(tensor, AllocTensorOp)
        _move_kills(value, tensor.storage, block)
        scope = VTCM_SCOPE if locations[0] == VTCM else GLOBAL_SCOPE
        storage = tensor.storage.owner
        old_scope = scope_of(tensor.storage.type)
        groups.retype([tensor.storage, *forward_closure(value)], scope)
        assert isinstance(storage, Operation)
        _align_storages([storage], scope, target, old_scope)
    for made in mover.made:
        groups.retype(forward_closure(made)[1:], scope_of(made.type))
    return mover.copies


def _walk(problem: PlacementProblem, mover: _Mover, locations: Sequence[int]) -> None:
    entity, ir = mover.entity, mover.ir
    value = ir.value
    assert value is not None
    retyped_start = ir.kind == "tensor"
    ddr: SSAValue | None = value if ir.kind == "prefetch" else None
    vtcm: SSAValue | None = None
    state = _initial(entity)
    for position, where in enumerate(locations):
        step = _step(problem, entity, state, position, where)
        assert step is not None
        anchor = ir.anchors[position // 2]
        if position % 2:
            if where == DDR and state in IN_VTCM:
                assert vtcm is not None
                if step.copies:
                    cursor = anchor
                    if ddr is None:
                        ddr = mover.new_tensor(GLOBAL_SCOPE, _after(anchor))
                        cursor = ddr.owner
                        assert isinstance(cursor, Operation)
                    mover.copy(vtcm, ddr, _after(cursor))
                vtcm = None
            state = step.state
            continue
        before = InsertPoint.before(anchor)
        if position == 0 and retyped_start:
            if where == VTCM:
                vtcm = value
            else:
                ddr = value
        elif where == VTCM and state not in IN_VTCM:
            vtcm = mover.new_tensor(VTCM_SCOPE, before)
            if step.copies:
                assert ddr is not None
                mover.copy(ddr, vtcm, before)
        elif where == DDR and state in IN_VTCM:
            assert vtcm is not None
            if ddr is None:
                ddr = mover.new_tensor(GLOBAL_SCOPE, before)
            if step.copies:
                mover.copy(vtcm, ddr, before)
            vtcm = None
        elif where == DDR and ddr is None:
            ddr = mover.new_tensor(GLOBAL_SCOPE, before)
        current = vtcm if where == VTCM else ddr
        assert current is not None
        if current is not value:
            value.replace_uses_with_if(
                current, lambda use, a=anchor: _in_anchor(use.operation, a, mover.block)
            )
        state = step.state
    end = _final(entity, state)
    if end.copies:
        assert vtcm is not None and ddr is not None
        last = ir.anchors[-1]
        mover.copy(vtcm, ddr, _after(last))


def _in_anchor(op: Operation, anchor: Operation, block: Block) -> bool:
    return anchor_in(op, block) is anchor


def _kill_made(mover: _Mover) -> None:
    """Kill each tensor made here, and its storage, after its last use (or
    that of a view or value forwarded from it); a kill of the program's
    through such an alias (the uses moved to the made tensor took it along)
    gives way to these."""
    block = mover.block
    order = {op: i for i, op in enumerate(block.ops)}
    for tensor in mover.made:
        for kill in _kills_in(forward_closure(tensor), block):
            Rewriter.erase_op(kill)
        owner = tensor.owner
        assert isinstance(owner, AllocTensorOp)
        last = _last_use(tensor, block, order)
        kills = [KillOp(tensor), KillOp(owner.storage)]
        Rewriter.insert_op(kills, _after(last if last is not None else owner))


def _move_kills(tensor: SSAValue, storage: SSAValue, block: Block) -> None:
    """Put the kills of a split tensor (or of an alias of it) and of its
    storage that are in `block` right after the tensor's new last use there
    (or that of a view or value forwarded from it)."""
    kills = _kills_in([*forward_closure(tensor), storage], block)
    if not kills:
        return
    order = {op: i for i, op in enumerate(block.ops)}
    last = _last_use(tensor, block, order)
    if last is None:
        return
    kills.sort(key=lambda kill: order[kill])
    for kill in kills:
        kill.detach()
    Rewriter.insert_op(kills, _after(last))


def _kills_in(values: Sequence[SSAValue], block: Block) -> list[Operation]:
    """The kills of `values` that are ops of `block`."""
    return list(
        dict.fromkeys(
            use.operation
            for value in values
            for use in value.uses
            if isinstance(use.operation, KillOp)
            and use.operation.parent_block() is block
        )
    )


def _last_use(
    tensor: SSAValue, block: Block, order: dict[Operation, int]
) -> Operation | None:
    """The op of `block` holding the last use of `tensor` or of a view or
    value forwarded from it (a kill is not a use); `order` numbers the ops
    of `block`."""
    last: Operation | None = None
    for value in forward_closure(tensor):
        for use in value.uses:
            if isinstance(use.operation, KillOp):
                continue
            anchor = anchor_in(use.operation, block)
            if anchor is not None and (last is None or order[anchor] > order[last]):
                last = anchor
    return last

"""`memory-coalesce`: one storage per block, scope and device (seed 003, done right).

TVM's StorageCoalesce (apache/incubator-tvm#5144) gives each basic-block
region a single storage and places the old storages in it one after another.
Here a region is a block: a function body, each `scf.if` branch, each loop
body.  Within one block, the constant-size storages of one scope and device
become one storage:

- each old storage sits at the running end rounded up to its alignment (and to
  the `alignment` option, or the target's alignment for the scope), so every
  tensor keeps an address as aligned as before; the merged storage's
  alignment is the largest of these;
- the merged storage is created where the first old storage was: its size is
  a constant, so it needs no operand and dominates every later tensor;
- every tensor's offset grows by its old storage's offset;
- when every old storage is killed in the block, one kill of the merged
  storage follows the last of those kills; otherwise the merged storage is
  never killed, since a kill would free bytes a tensor still uses.

There is no reuse across time: the merged storage holds every old storage's
bytes at once, which is the safe baseline `memory-plan` improves on, run
instead of this pass or after it (a merged storage that holds a returned
tensor keeps only that tensor: `memplan.passes.kept_tensors`).

A storage stays alone when its size is dynamic (a dynamic size is its own
region), when its value escapes (any use other than placing tensors in it or
killing it in its own block), or when no other storage in the block shares its
scope and device.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
)
from memplan.ir_walk import LinearWalker
from memplan.passes.diagnostics import check_storage_bytes
from memplan.passes.options import MemplanPass, check_power_of_two, resolve_target
from memplan.passes.rounding import pack_in_order
from memplan.targets import DEFAULT_TARGET, Target


def _is_placement_or_local_kill(storage: AllocStorageOp, user: Operation) -> bool:
    if isinstance(user, AllocTensorOp | AllocDiscontiguousTensorOp):
        return True
    return isinstance(user, KillOp) and user.parent_block() is storage.parent_block()


def is_mergeable(storage: AllocStorageOp) -> bool:
    """A constant-size storage only used to place tensors and killed in its block."""
    return storage.static_size_bytes() is not None and all(
        _is_placement_or_local_kill(storage, use.operation)
        for use in storage.result.uses
    )


def _static_size(storage: AllocStorageOp) -> int:
    size = storage.static_size_bytes()
    assert size is not None, "only constant-size storages are merged"
    return size


def _merge_key(storage: AllocStorageOp) -> tuple[str, int]:
    return storage.scope, storage.device.value.data


def merge_group(storage: AllocStorageOp) -> list[AllocStorageOp]:
    """The mergeable storages of `storage`'s block with its scope and device."""
    block = storage.parent_block()
    assert block is not None
    key = _merge_key(storage)
    return [
        op
        for op in block.ops
        if isinstance(op, AllocStorageOp) and _merge_key(op) == key and is_mergeable(op)
    ]


def _kills(storage: AllocStorageOp) -> list[KillOp]:
    return [
        use.operation
        for use in storage.result.uses
        if isinstance(use.operation, KillOp)
    ]


def _last_in_block(block: Block, ops: Sequence[Operation]) -> Operation:
    """The op of `ops` that comes last in `block`, found in one scan of it."""
    wanted = set(ops)
    return [op for op in block.ops if op in wanted][-1]


def _offsets(
    static: Sequence[int], dynamic: Sequence[SSAValue]
) -> list[int | SSAValue]:
    """Mixed static/dynamic offsets as one list (DYNAMIC_INDEX takes the next value)."""
    values = iter(dynamic)
    return [next(values) if offset == DYNAMIC_INDEX else offset for offset in static]


def _shifted(
    offset: int | SSAValue, base: int
) -> tuple[int | SSAValue, list[Operation]]:
    """`offset` moved `base` bytes further, and the ops computing it when dynamic."""
    if isinstance(offset, int):
        return offset + base, []
    constant = arith.ConstantOp(IntegerAttr(base, IndexType()))
    shifted = arith.AddiOp(offset, constant)
    return shifted.result, [constant, shifted]


def _move_tensor(
    tensor: AllocTensorOp, merged: SSAValue, base: int, rewriter: PatternRewriter
) -> None:
    (old_offset,) = _offsets(tensor.static_offset.get_values(), tensor.dynamic_offset)
    offset, offset_ops = _shifted(old_offset, base)
    moved = AllocTensorOp(
        merged,
        offset,
        tensor.result.type,
        tensor.dynamic_sizes,
        tensor.requested_alignment(),
    )
    rewriter.replace(tensor, [*offset_ops, moved], [moved.result])


def _move_discontiguous(
    tensor: AllocDiscontiguousTensorOp,
    old: SSAValue,
    merged: SSAValue,
    base: int,
    rewriter: PatternRewriter,
) -> None:
    """Re-place a discontiguous tensor whose table and/or blocks were in `old`."""
    new_ops: list[Operation] = []
    (table_offset,) = _offsets(
        tensor.static_table_offset.get_values(), tensor.dynamic_table_offset
    )
    table = tensor.table_storage
    if table is old:
        table = merged
        table_offset, ops = _shifted(table_offset, base)
        new_ops += ops
    block_offsets = _offsets(
        tensor.static_block_offsets.get_values(), tensor.dynamic_block_offsets
    )
    data = tensor.data_storage
    if data is old:
        data = merged
        shifted = [_shifted(offset, base) for offset in block_offsets]
        block_offsets = [offset for offset, _ in shifted]
        new_ops += [op for _, ops in shifted for op in ops]
    moved = AllocDiscontiguousTensorOp(
        table,
        table_offset,
        data,
        block_offsets,
        tensor.result.type,
        tensor.pointer_width.value.data,
    )
    rewriter.replace(tensor, [*new_ops, moved], [moved.result])


@dataclass
class CoalesceStorages(RewritePattern):
    """Merge a storage with the other mergeable storages of its block, scope and device."""

    target: Target
    alignment: int | None

    def _placement_alignment(self, storage: AllocStorageOp) -> int:
        unit = self.alignment
        if unit is None:
            unit = self.target.alignment(storage.scope)
        return max(unit, storage.alignment.value.data)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocStorageOp, rewriter: PatternRewriter) -> None:
        if not is_mergeable(op):
            return
        group = merge_group(op)
        if len(group) < 2:
            return
        alignments = [self._placement_alignment(storage) for storage in group]
        sizes = [_static_size(storage) for storage in group]
        offsets, total = pack_in_order(sizes, alignments)
        first = group[0]
        check_storage_bytes(
            "memory-coalesce", first, f'the merged "{first.scope}" storage', total
        )
        merged = AllocStorageOp(
            total, first.scope, max(alignments), first.device.value.data
        )
        rewriter.insert(merged, InsertPoint.before(first))
        self._merge_kills(group, merged, rewriter)
        for storage, base in zip(group, offsets, strict=True):
            self._move_users(storage, merged.result, base, rewriter)
            rewriter.erase(storage)

    def _merge_kills(
        self,
        group: list[AllocStorageOp],
        merged: AllocStorageOp,
        rewriter: PatternRewriter,
    ) -> None:
        kills = [kill for storage in group for kill in _kills(storage)]
        killed = {kill.value for kill in kills}
        if len(killed) == len(group):
            block = merged.parent_block()
            assert block is not None
            last = _last_in_block(block, kills)
            rewriter.insert(KillOp(merged), InsertPoint.after(last))
        for kill in kills:
            rewriter.erase(kill)

    def _move_users(
        self,
        storage: AllocStorageOp,
        merged: SSAValue,
        base: int,
        rewriter: PatternRewriter,
    ) -> None:
        for user in dict.fromkeys(use.operation for use in storage.result.uses):
            if isinstance(user, AllocTensorOp):
                _move_tensor(user, merged, base, rewriter)
            elif isinstance(user, AllocDiscontiguousTensorOp):
                _move_discontiguous(user, storage.result, merged, base, rewriter)


@dataclass(frozen=True)
class MemoryCoalescePass(MemplanPass):
    """Merge the constant-size storages of each block, scope and device into one."""

    name = "memory-coalesce"

    alignment: int | None = None
    """Bytes each merged storage's offset is rounded up to (a power of two); by
    default the target's alignment for the scope.  A storage's own alignment,
    when larger, always wins."""

    target: str = DEFAULT_TARGET
    """Target whose scope alignments apply when `alignment` is not given."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_power_of_two(self.name, "alignment", self.alignment)
        pattern = CoalesceStorages(
            resolve_target(self.name, self.target), self.alignment
        )
        LinearWalker(pattern).rewrite_module(op)

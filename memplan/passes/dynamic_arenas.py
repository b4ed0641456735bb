"""Arenas of dynamic size for `memory-plan{dynamic-arenas=true}`: storages
whose tensors all take a constant multiple of one run-time unit share memory.

A tensor of dynamic shape (`memory.alloc_tensor %s[0][%n]` of
`memref<?x4x8xf32>`) takes `k * u` bytes, where `k` is a constant (the
element size times the static dimensions) and the unit `u` is the product of
its dynamic sizes.  Two units are the same when their factors are, counted
with their multiplicity, where a factor is an SSA value, or a `memref.dim`
of one memref at one constant index (two `memref.dim %x, %c0` are one
factor); no other arithmetic is compared.  Tensors of one unit pack in
units: coefficients `k_i` at offsets `o_i`, a height of `H` units, so the
arena holds `H * u` bytes and tensor `i` sits at `o_i * u`.  Since every byte
range scales by the same `u`, two tensors overlap in bytes exactly when they
overlap in units, for every run-time `u` (0 included: an empty arena).  An
offset that is a multiple of the tensor's alignment in units is one in
bytes for every `u`.

The arena is allocated before its run's first op, so the unit's factors
must be defined there already; one defined later (in a loop, after the
run's first tensor) leaves the run as it was.  This module finds the
tensors and builds the IR; `memory-plan` groups them into runs and packs
them as it does static tensors.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.dialects import memref
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp, KillOp
from memplan.dominance import dominates
from memplan.passes.liveness import FunctionLiveness, LiveRange
from memplan.passes.loops import constant_int

Factor = tuple[SSAValue, int | None]
"""A factor of a unit: a value, or the memref and constant index of a
`memref.dim` (then `memref.dim`s of the same memref and index are one)."""

Unit = frozenset[tuple[Factor, int]]
"""A unit: its factors, each with how many times it multiplies."""


@dataclass(frozen=True)
class UnitStorage:
    """A dynamic-size storage holding one tensor, which may move into an
    arena of its unit, with its live range."""

    storage: AllocStorageOp
    tensor: AllocTensorOp
    live: LiveRange
    unit: Unit


def _factor(value: SSAValue) -> Factor:
    owner = value.owner
    if isinstance(owner, memref.DimOp):
        index = constant_int(owner.index)
        if index is not None:
            return owner.source, index
    return value, None


def symbolic_unit(tensor: AllocTensorOp) -> Unit | None:
    """The unit of a tensor of dynamic shape (the product of its dynamic
    sizes), or None for a static shape."""
    if not tensor.dynamic_sizes:
        return None
    return frozenset(Counter(map(_factor, tensor.dynamic_sizes)).items())


def unit_storages(liveness: FunctionLiveness) -> Iterator[UnitStorage]:
    """The function's dynamic-size storages whose only users are kills and
    one tensor of dynamic shape at a static offset (what `memory-manifest`
    makes of `memref.alloc(%n)`) that does not escape, is not loop-carried
    nor concurrent, and is not freed by a dealloc or realloc."""
    for op in liveness.index:
        if not isinstance(op, AllocStorageOp) or op.static_size_bytes() is not None:
            continue
        tensors: list[AllocTensorOp] = []
        for use in op.result.uses:
            user = use.operation
            if isinstance(user, KillOp):
                continue
            if (
                not isinstance(user, AllocTensorOp)
                or user.static_offset_bytes() is None
            ):
                break
            tensors.append(user)
        else:
            if len(tensors) != 1 or (unit := symbolic_unit(tensors[0])) is None:
                continue
            live = liveness.range_of(tensors[0])
            if not live.needs_own_storage:
                yield UnitStorage(op, tensors[0], live, unit)


def unit_values(
    tensors: Iterable[AllocTensorOp], unit: Unit, at: Operation
) -> list[SSAValue] | None:
    """Values whose product is `unit`, each factor taken from the first of
    the tensors' sizes that is defined before `at`; None when a factor has
    no such value."""
    chosen: dict[Factor, SSAValue] = {}
    for tensor in tensors:
        for value in tensor.dynamic_sizes:
            factor = _factor(value)
            if factor not in chosen and dominates(value, at):
                chosen[factor] = value
    counts = dict(unit)
    if chosen.keys() != counts.keys():
        return None
    return [value for factor, value in chosen.items() for _ in range(counts[factor])]


def insert_unit_arena(
    values: list[SSAValue],
    height: int,
    scope: str,
    alignment: int,
    device: int,
    before: Operation,
) -> tuple[AllocStorageOp, SSAValue]:
    """Insert before `before` the unit (the product of `values`) and an arena
    storage of `height` units; return the storage and the unit."""
    ops: list[Operation] = []
    unit = values[0]
    for value in values[1:]:
        product = arith.MuliOp(unit, value)
        ops.append(product)
        unit = product.result
    units = arith.ConstantOp(IntegerAttr(height, IndexType()))
    size = arith.MuliOp(units, unit)
    size.result.name_hint = "arena_bytes"
    storage = AllocStorageOp(size, scope, alignment, device)
    storage.result.name_hint = "arena"
    Rewriter.insert_op([*ops, units, size, storage], InsertPoint.before(before))
    return storage, unit


def move_to_unit_arena(
    arena: AllocStorageOp, unit: SSAValue, offsets: Mapping[AllocTensorOp, int]
) -> None:
    """Place each tensor at its offset in units (times `unit` bytes) in the
    arena, in place: uses stay valid.  Offset 0 stays static; another is
    computed right before the tensor."""
    for tensor, offset in offsets.items():
        dynamic: list[SSAValue] = []
        if offset:
            units = arith.ConstantOp(IntegerAttr(offset, IndexType()))
            product = arith.MuliOp(units, unit)
            Rewriter.insert_op([units, product], InsertPoint.before(tensor))
            dynamic.append(product.result)
        sizes = list(tensor.dynamic_sizes)
        tensor.operands = [arena.result, *dynamic, *sizes]
        tensor.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [1, len(dynamic), len(sizes)]
        )
        tensor.properties["static_offset"] = DenseArrayBase.from_list(
            i64, [DYNAMIC_INDEX if offset else 0]
        )


def erase_unused_size(storage: AllocStorageOp) -> None:
    """Erase `storage`, and the `arith.muli`s and `arith.constant`s computing
    its size that nothing else uses (what `memory-manifest` inserted)."""
    pending = list(storage.dynamic_size)
    Rewriter.erase_op(storage)
    while pending:
        owner = pending.pop().owner
        if (
            isinstance(owner, arith.MuliOp | arith.ConstantOp)
            and not owner.results[0].uses
        ):
            pending.extend(owner.operands)
            Rewriter.erase_op(owner)

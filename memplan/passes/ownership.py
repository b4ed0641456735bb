"""Which `memref.alloc`s a function owns, uses of a buffer after its free, and
where the bytes of an allocation are freed.

`memory-manifest` turns an alloc into a storage and its `memref.dealloc`s
into kills, and `memory-plan` may then move the tensor into an arena shared
with others.  That is right only when every free of the buffer is a
`memref.dealloc` of the alloc's own result in its function: a kill says
exactly when the tensor dies.  MLIR's buffer-deallocation-pipeline also frees
buffers through aliases (the base buffer from `memref.extract_strided_metadata`
of a value yielded out of an `scf.if`, a loop's iter_arg, a call's result),
under run-time conditions, and lets callers free returned buffers.  Freeing
such an alias after planning would free the arena, so those allocs are not
owned: they stay `memref.alloc`s, with their deallocs.

An alloc is owned unless an alias of it (`liveness.aliases`) is freed by an
op other than a `memref.dealloc` of the alloc itself, passed to a function
of the module that frees the argument, or returned to callers in the module
that free the result (directly or through their own calls and returns).  A
call's result aliases an argument only when the callee may return it as
that result (`call_aliases`); a call to a declaration may return any
argument but is assumed not to free one, as MLIR's ownership-based deallocation assumes.  A result of a
function no one in the module calls is not freed there: the buffer stays
owned, and planning leaves it in its own storage (it escapes).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from math import prod
from typing import TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnregisteredOp
from xdsl.ir import BlockArgument, Operation, SSAValue, Use
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects

from memplan.allocation_scopes import allocation_scope
from memplan.dialects import memref
from memplan.dialects.memory import AllocStorageOp, KillOp, StorageType
from memplan.ir_walk import walk
from memplan.passes.call_aliases import CallAliases, callee_body
from memplan.passes.liveness import (
    REALLOCS,
    VIEW_OPS,
    FunctionLiveness,
    aliases,
    stores_value,
)
from memplan.passes.loops import LOOPS, trip_count


def _frees(op: Operation) -> bool:
    """`op` may free memory it is given: a `memref.dealloc`, a `memory.kill`
    of a storage, an op without regions that declares a free effect, or one
    memplan does not know."""
    if op.name in REALLOCS or isinstance(op, UnregisteredOp):
        return True
    if isinstance(op, KillOp):
        return isinstance(op.value.type, StorageType)
    if op.regions:
        # A region op's effects are those of its body, not of its operands.
        return False
    effects = get_effects(op)
    return effects is not None and any(
        effect.kind == MemoryEffectKind.FREE for effect in effects
    )


Result = tuple[str, int]
"""A result of a function of the module: the function's name and the position."""


class Ownership:
    """The allocs of a module that are freed only by `memref.dealloc`s of
    their own result, in their own function."""

    def __init__(self, module: ModuleOp):
        self._calls = CallAliases(module)
        self._freed_arguments: set[BlockArgument] = set()
        self._freed_results: set[Result] = set()
        self._call_results: dict[Result, list[SSAValue]] = defaultdict(list)
        arguments: list[BlockArgument] = []
        calls: list[func.CallOp] = []
        for op in walk(module):
            if isinstance(op, func.FuncOp) and op.body.blocks:
                arguments += [a for a in op.args if isinstance(a.type, MemRefType)]
            elif isinstance(op, func.CallOp):
                calls.append(op)
        for op in calls:
            if callee_body(op) is not None:
                for index, result in enumerate(op.res):
                    if isinstance(result.type, MemRefType):
                        key = (op.callee.string_value(), index)
                        self._call_results[key].append(result)
        # The sets grow from nothing until no call adds to them: a function
        # frees an argument it frees itself or through a call that frees it;
        # the callers of a function free its result when one of them frees
        # what its call returns.
        while any(
            [
                _add_where(
                    self._freed_arguments,
                    arguments,
                    lambda argument: self._freed_elsewhere(argument, owner=None),
                ),
                _add_where(
                    self._freed_results, list(self._call_results), self._freed_by_caller
                ),
            ]
        ):
            pass

    def owns(self, alloc: memref.AllocOp) -> bool:
        """Every free of the alloc's buffer, in its function or by the callers
        it is returned to, is a `memref.dealloc` of its result."""
        return not self._freed_elsewhere(alloc.memref, owner=alloc.memref)

    def _aliases(self, value: SSAValue) -> set[SSAValue]:
        return aliases(value, self._calls.forward)

    def _freed_by_caller(self, result: Result) -> bool:
        return any(
            self._freed_elsewhere(value, owner=None)
            for value in self._call_results[result]
        )

    def _freed_elsewhere(self, value: SSAValue, owner: SSAValue | None) -> bool:
        """Something frees `value`'s memory other than a `memref.dealloc` of
        `owner`: an op freeing an alias, a call to a function that frees it,
        a caller of the function that returns it, or (as far as memplan can
        tell) whoever loads an alias a store wrote to memory."""
        for alias in self._aliases(value):
            for use in alias.uses:
                user = use.operation
                if stores_value(user, use.index):
                    return True
                if _frees(user) and not (
                    alias is owner and isinstance(user, memref.DeallocOp)
                ):
                    return True
                if self._passes_to_a_free(user, use.index):
                    return True
        return False

    def _passes_to_a_free(self, user: Operation, index: int) -> bool:
        """`user` passes its operand `index` to a function that frees that
        argument, or returns it to callers that free that result."""
        callee = callee_body(user)
        if callee is not None:
            return _argument(callee, index) in self._freed_arguments
        function = user.parent_op()
        return (
            isinstance(user, func.ReturnOp)
            and isinstance(function, func.FuncOp)
            and (function.sym_name.data, index) in self._freed_results
        )


def _argument(function: func.FuncOp, index: int) -> BlockArgument | None:
    arguments = function.args
    return arguments[index] if index < len(arguments) else None


T = TypeVar("T")


def _add_where(found: set[T], keys: list[T], holds: Callable[[T], bool]) -> bool:
    """Add to `found` the keys not in it for which `holds`; whether any was."""
    added = [key for key in keys if key not in found and holds(key)]
    found.update(added)
    return bool(added)


def frees_operand(op: Operation) -> bool:
    """`op` frees its first operand: a `memref.dealloc` or `memref.realloc`."""
    return isinstance(op, memref.DeallocOp) or op.name in REALLOCS


def frees_of(allocation: Operation) -> list[Operation]:
    """The ops that free the bytes `allocation` holds: the `memory.kill`s of a
    storage; the `memref.dealloc`s and `memref.realloc`s of the result of a
    `memref.alloc`, `memref.realloc` or `bufferization.clone` or of a view of
    it.  A kill of such a result ends its tensor, not its allocation
    (docs/dialect.md): it frees nothing."""
    if isinstance(allocation, AllocStorageOp):
        return [
            use.operation
            for use in allocation.result.uses
            if isinstance(use.operation, KillOp)
        ]
    return [
        use.operation
        for value in _views(allocation.results[0])
        for use in value.uses
        if use.index == 0 and frees_operand(use.operation)
    ]


HEAP_ALLOCATIONS = frozenset({"memref.alloc", "bufferization.clone", *REALLOCS})
"""Ops that allocate a memref buffer only a free (`frees_of`) frees."""


def freed_at(liveness: FunctionLiveness, allocation: Operation) -> int | None:
    """The point of the first op of `allocation`'s block, in program order,
    that frees its bytes (`frees_of`): they are held up to there on every
    path.  None when no op of that block frees them (a free in a branch or a
    loop may not run): they are held to the end of the function.  A
    `memref.alloca` is freed where its automatic allocation scope
    (`allocation_scopes`) ends: at the terminator of the scope's block (for
    a loop, where each iteration ends), or at the function's last point."""
    if allocation.name == "memref.alloca":
        scope = allocation_scope(allocation)
        if scope is None or isinstance(scope, func.FuncOp):
            return liveness.last_point
        body = scope.regions[0].blocks.last
        assert body is not None and body.last_op is not None
        return liveness.index[body.last_op]
    block = allocation.parent_block()
    return min(
        (
            liveness.index[free]
            for free in frees_of(allocation)
            if free.parent_block() is block
        ),
        default=None,
    )


def loops_holding(allocation: Operation) -> list[Operation]:
    """The loops (`loops.LOOPS`), innermost first, whose every iteration
    allocates a new buffer of `allocation` that none of them frees, so a run
    holds one per iteration of each, all at once: for a `memref.alloca`,
    the loops inside its automatic allocation scope (`scf.while`s: an
    `scf.for` or `affine.for` is a scope, freeing it per iteration); for a
    `memory.alloc_storage`, `memref.alloc`, `memref.realloc` or
    `bufferization.clone` that no op of its own block frees (`freed_at`:
    held to the end of the function), the loops around it up to the first
    that may free it or an alias of it (a `memory.kill` of a storage), or
    yields one to its next iteration (`_may_free_in`; counting fewer copies
    where a free may run).  `memplan-run` allocates a buffer in every iteration of those
    loops, and a free after them frees only the last: all are held.
    Empty for any other allocation."""
    if allocation.name == "memref.alloca":
        scope = allocation_scope(allocation)
    elif (
        isinstance(allocation, AllocStorageOp) or allocation.name in HEAP_ALLOCATIONS
    ) and not any(
        free.parent_block() is allocation.parent_block()
        for free in frees_of(allocation)
    ):
        scope = None
    else:
        return []
    loops: list[Operation] = []
    parent = allocation.parent_op()
    while parent is not None and parent is not scope:
        if parent.name in LOOPS:
            if scope is None and _may_free_in(parent, allocation.results[0]):
                break
            loops.append(parent)
        parent = parent.parent_op()
    return loops


def _may_free_in(loop: Operation, value: SSAValue) -> bool:
    """An op inside `loop` may free `value` or an alias of it (`_frees`),
    pass one to a function (which may free it), or yield one to the loop's
    next iteration (which may free it: a `memref.realloc` of an iter_arg)."""
    return any(
        loop.is_ancestor(user)
        and (
            _frees(user)
            or isinstance(user, func.CallOp)
            or (user.parent_op() is loop and user.has_trait(IsTerminator))
        )
        for alias in aliases(value)
        for user in (use.operation for use in alias.uses)
    )


def held_copies(allocation: Operation) -> tuple[int, Operation | None]:
    """How many buffers of `allocation` a run holds at once: the product of
    the constant trip counts of `loops_holding` it (0 when one runs zero
    times), and the first of those loops whose trip count is not known
    (counted as one iteration), or None."""
    loops = loops_holding(allocation)
    trips = [trip_count(loop) for loop in loops]
    if 0 in trips:
        return 0, None
    unknown = next(
        (loop for loop, t in zip(loops, trips, strict=True) if t is None), None
    )
    return prod(t for t in trips if t is not None), unknown


def use_after_free(liveness: FunctionLiveness, free: Operation) -> Use | None:
    """The first use of the buffer `free` frees (its first operand or a view
    of it) by an op after `free` in its block, or nested in an op after it:
    one that surely runs after the free whenever it runs."""
    block = free.parent_block()
    assert block is not None and block.last_op is not None
    after = range(liveness.index[free] + 1, liveness.end[block.last_op] + 1)
    uses = [
        use
        for value in _views(free.operands[0])
        for use in value.uses
        if liveness.index[use.operation] in after
    ]
    return min(uses, key=lambda use: liveness.index[use.operation], default=None)


def _views(value: SSAValue) -> list[SSAValue]:
    """`value` and every view of it, through chains of view ops."""
    found = [value]
    for current in found:
        found.extend(
            use.operation.results[0]
            for use in current.uses
            if use.operation.name in VIEW_OPS and use.index == 0
        )
    return found

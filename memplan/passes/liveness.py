"""Live ranges of tensors in one function, as plain integer intervals.

Ops are numbered by one pre-order walk of the function body, so an op with
regions owns the contiguous points [index(op), end(op)] of everything nested
in it.  A tensor lives from its allocation to its last real use, where:

* a use is any use of the tensor or of an alias of it; `memory.kill` and
  `memref.dealloc` are not uses (naive code frees everything at the end);
  `memref.realloc` is the last use: it reads the tensor and frees it;
* aliases are the results of any op that takes the tensor whose type is
  not data (`may_reach_memory`: views, subviews, casts, reshapes, calls, whose
  memref results may be their arguments, a `bufferization.to_tensor`; not a
  `memref.realloc`'s, which is new memory; with `call_aliases.CallAliases`,
  only the results of a call its callee may return the tensor as), such
  block arguments of regions
  of an op that takes it and of the blocks a branch (`cf.br`) that takes it
  jumps to, and what `scf.yield` /
  `affine.yield` / `scf.condition` / `memref.alloca_scope.return` forward
  (`scf.for`, `affine.for` and `scf.while` iter_args and results, `scf.if`,
  `affine.if`, `affine.parallel` and `memref.alloca_scope` results).  Any
  other terminator that leaves a region (not `func.return`) may forward to
  every result of its parent op and block argument of its parent's regions
  whose type is not data.  What a callee does with a tensor after it returns (capturing it
  in memory) is not modelled;
* a use nested in an op with regions counts at that op's end, taken in the
  innermost block that holds both the allocation and the use: a tensor used
  inside a loop or a branch lives to the end of that loop or branch;
* a tensor allocated in a loop lives within one iteration, unless an alias
  leaves the iteration (a loop result or a block argument of the loop): then
  it is `carried` and lives over the whole loop.  Within one iteration is
  enough for a function-level arena: the next iteration allocates it again
  at the same offset, after every tensor that shared the slot in this
  iteration died.  A carried tensor has no single slot: the next iteration
  allocates a new one while the old one may still be live
  (`FunctionLiveness.reallocated_while_carried` tells when it is), so
  planners must leave it alone;
* a tensor returned by `func.return` (directly or through an alias) escapes,
  and so does one whose address `memref.extract_aligned_pointer_as_index`
  turns into an integer (what the integer reaches is not followed) or that a
  store writes to memory (a `memref<1xmemref<16xf32>>`: a load may read it
  back);
* a tensor allocated in a loop whose iterations may run at once (any loop but
  `scf.for`, `scf.while` and `affine.for`: `scf.parallel`, `scf.forall`,
  `affine.parallel` or a region op memplan does not know) is `concurrent`:
  every running iteration needs its own bytes, so no single slot serves it.

Planning units (`FunctionLiveness.unit_of`): code that may not run plans its
own memory.  A unit is the function body or one block of a conditional op
(`scf.if` and `affine.if` then/else, `scf.index_switch` cases and default).  A tensor belongs
to the innermost unit whose block holds its allocation and every use of its
aliases, other than the block's terminator: a tensor yielded out of a branch
belongs to an enclosing unit.  Loops are not units: what they allocate
belongs to the unit around them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    IndexType,
    IntegerType,
    NoneType,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from memplan.dialects import memref
from memplan.dialects.memory import AllocDiscontiguousTensorOp, AllocTensorOp, KillOp
from memplan.passes.loops import trip_count

TENSOR_ALLOCATIONS = (AllocTensorOp, AllocDiscontiguousTensorOp, memref.AllocOp)
"""Ops whose result is a tensor with a live range of its own."""

NOT_USES = (KillOp, memref.DeallocOp)
"""Ops that end a life rather than use the value."""

REALLOCS = frozenset({"memref.realloc"})
"""Ops that read their first operand, free it and return new memory holding
its data (without declaring a free effect): the operand's life ends there,
and the result does not alias it."""

RUN_REGIONS_AT_MOST_ONCE = frozenset(
    {
        "scf.if",
        "scf.index_switch",
        "scf.execute_region",
        "memref.alloca_scope",
        "affine.if",
        "scf.forall.in_parallel",
    }
)
"""Region ops that are not loops (the region of `scf.forall.in_parallel`
runs once each time the iteration it ends does); every other region op is treated as one.
Ops are told apart by name here and below, so that a dialect redefining one
(as memplan's memref and scf do) still counts."""

ESCAPES = frozenset({"func.return", "memref.extract_aligned_pointer_as_index"})
"""Uses after which the memory is out of sight: returned from the function,
or its address turned into an integer that may reach it later."""

STORES = frozenset({"memref.store", "affine.store", "llvm.store"})
"""Ops that write their operand 0 to memory: a memref (or pointer) written
there can be loaded back later, out of sight."""


def stores_value(user: Operation, index: int) -> bool:
    """Operand `index` of `user` is the value a store writes to memory."""
    return user.name in STORES and index == 0


def escapes_at(user: Operation, index: int) -> bool:
    """Operand `index` of `user` leaves what memplan follows: `ESCAPES`, or
    the value a store writes to memory."""
    return user.name in ESCAPES or stores_value(user, index)


YIELDS = frozenset({"scf.yield", "affine.yield", "memref.alloca_scope.return"})
"""Terminators whose operand i becomes their parent's result i (and, in an
`scf.for` or `affine.for`, the next iteration's block argument i + 1; in an
`scf.while`, the `before` block's argument i)."""

SEQUENTIAL_LOOPS = (scf.ForOp, scf.WhileOp, affine.ForOp)
"""Loops whose iterations run one after another; every other loop may run
its iterations at once."""

CONDITIONAL_REGIONS = (scf.IfOp, scf.IndexSwitchOp, affine.IfOp)
"""Region ops whose blocks may not run at all: each block is a planning unit."""


@dataclass(frozen=True)
class LiveRange:
    """Program points [start, end] (inclusive) during which a tensor is live."""

    start: int
    end: int
    escapes: bool
    """Returned from the function, or its address taken as an integer: live
    until the function ends and beyond."""
    carried: bool
    """Allocated in a loop and still live in a later iteration."""
    last_user: Operation | None = field(repr=False)
    """The op of the allocating block after which the tensor is dead, or None
    when the range reaches outside that block (loop-carried, escaping, passed
    to a terminator, or used through a result of an enclosing op)."""
    ends: tuple[Operation, ...] = field(default=(), repr=False, compare=False)
    """The kills, deallocs and reallocs of the tensor and of every alias of
    it (a kill of a cast or subview ends the tensor it views)."""
    concurrent: bool = False
    """Allocated in a loop whose iterations may run at once."""

    @property
    def needs_own_storage(self) -> bool:
        """The tensor cannot move into an arena shared with others: it escapes,
        is loop-carried or concurrent, or a `memref.dealloc` or
        `memref.realloc` frees it (which frees its storage: after planning,
        the arena)."""
        return (
            self.escapes
            or self.carried
            or self.concurrent
            or any(
                isinstance(end, memref.DeallocOp) or end.name in REALLOCS
                for end in self.ends
            )
        )

    @property
    def upper(self) -> int:
        """The exclusive end, for half-open [start, upper) buffers."""
        return self.end + 1


VIEW_OPS = frozenset(
    {
        "memref.cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.memory_space_cast",
        "memref.reinterpret_cast",
        "memref.reshape",
        "memref.subview",
        "memref.transpose",
        "memref.view",
    }
)
"""Ops whose result views the memory of their first operand (by name, so that
a dialect redefining one of them still counts)."""


DATA_TYPES = IntegerType | IndexType | AnyFloat | ComplexType | VectorType | NoneType
"""Types whose values are data, never a way to reach memory."""


def may_reach_memory(type_: Attribute) -> bool:
    """Whether a value of `type_` made from a memref may still refer to its
    memory: a memref, but also a `bufferization.to_tensor` result (a tensor
    reading the memref's bytes), a pointer from a
    `builtin.unrealized_conversion_cast`, or any type not known to be data."""
    return not isinstance(type_, DATA_TYPES)


def viewed_value(value: SSAValue) -> SSAValue:
    """What `value` is a view of, through any chain of view ops; `value`
    itself when no view op made it.  A kill of a view ends what it views."""
    owner = value.owner
    while isinstance(owner, Operation) and owner.name in VIEW_OPS and owner.operands:
        value = owner.operands[0]
        owner = value.owner
    return value


def forwarded_values(user: Operation, index: int) -> list[SSAValue]:
    """Values that alias operand `index` of `user` (what it forwards or views)."""
    if user.name in REALLOCS:
        return []
    if user.name in VIEW_OPS and index:
        # The shape operand of a `memref.reshape`: read for its sizes, not
        # viewed.
        return []
    if isinstance(user, scf.ConditionOp):
        loop = user.parent_op()
        assert isinstance(loop, scf.WhileOp)
        position = index - 1
        return [loop.after_region.block.args[position], loop.res[position]]
    if exits_region(user):
        return _yielded_values(user, index)
    iteration = _iteration(user)
    if iteration is not None:
        inits, args, results = iteration
        position = index - len(user.operands) + len(inits)
        if trip_count(user) in (None, 0):
            # A loop that may run no trip hands its init on as its result.
            return [args[position], results[position]]
        return [args[position]]
    if isinstance(user, scf.WhileOp):
        return [user.before_region.block.args[index]]
    return _outputs(user)


def exits_region(op: Operation) -> bool:
    """`op` ends a block of a region of an op other than a function and hands
    its operands to that op: a terminator without successors (`func.return`
    hands them to the caller).  An unregistered op ending a block may be one."""
    block = op.parent_block()
    return (
        block is not None
        and op is block.last_op
        and op.has_trait(IsTerminator)
        and not op.successors
        and not isinstance(block.parent_op(), func.FuncOp)
    )


def _yielded_values(terminator: Operation, index: int) -> list[SSAValue]:
    parent = terminator.parent_op()
    if parent is None:
        return []
    if terminator.name not in YIELDS:
        # A terminator memplan does not know (`scf.reduce.return`, a custom
        # dialect's) may hand its operand to any result of its parent and to
        # any block argument of its parent's regions or its own.
        return [*_outputs(terminator), *_outputs(parent)]
    iteration = _iteration(parent)
    if iteration is not None:
        _, args, results = iteration
        return [args[index], results[index]]
    if isinstance(parent, scf.WhileOp):
        return [parent.before_region.block.args[index]]
    if index < len(parent.results):
        return [parent.results[index]]
    return []


def _iteration(
    loop: Operation,
) -> tuple[Sequence[SSAValue], Sequence[SSAValue], Sequence[SSAValue]] | None:
    """The iter_args of an `scf.for` or `affine.for`: their init operands, the
    body's block arguments (after the induction variable) that they and the
    yield of each iteration pass to the next one, and the loop's results;
    None for another op."""
    if isinstance(loop, scf.ForOp):
        inits = loop.iter_args
    elif isinstance(loop, affine.ForOp):
        inits = loop.inits
    else:
        return None
    return inits, loop.body.block.args[1:], loop.res


def _outputs(op: Operation) -> list[SSAValue]:
    """The results of `op` and block arguments of its regions and of the
    blocks it branches to that may reach memory: where it may forward an
    operand."""
    blocks = [block for region in op.regions for block in region.blocks]
    values: list[SSAValue] = [*op.results]
    for block in [*blocks, *op.successors]:
        values.extend(block.args)
    return [value for value in values if may_reach_memory(value.type)]


Forward = Callable[[Operation, int], list[SSAValue]]
"""What gives the values that alias operand `index` of `user`:
`forwarded_values`, or `call_aliases.CallAliases.forward`, which knows what
the module's functions return."""


def aliases(value: SSAValue, forward: Forward = forwarded_values) -> set[SSAValue]:
    """`value` and every value that may refer to the same memory, where
    `forward(user, index)` gives the values that alias operand `index` of
    `user`."""
    found = {value}
    pending = [value]
    while pending:
        current = pending.pop()
        for use in current.uses:
            if isinstance(use.operation, NOT_USES):
                continue
            for alias in forward(use.operation, use.index):
                if alias not in found:
                    found.add(alias)
                    pending.append(alias)
    return found


def is_loop(op: Operation) -> bool:
    return bool(op.regions) and op.name not in RUN_REGIONS_AT_MOST_ONCE


def may_run_at_once(op: Operation) -> bool:
    """A loop whose iterations may run concurrently (not known sequential)."""
    return is_loop(op) and not isinstance(op, SEQUENTIAL_LOOPS)


def concurrent_loop_between(op: Operation, value: SSAValue) -> Operation | None:
    """The innermost loop around `op` that may run its iterations at once and
    does not hold the definition of `value`: every iteration's `op` then
    shares `value` with the others running with it."""
    definition = _defining_op(value)
    loop = op.parent_op()
    while loop is not None and not isinstance(loop, func.FuncOp):
        if may_run_at_once(loop) and not (
            definition is not None and loop.is_ancestor(definition)
        ):
            return loop
        loop = loop.parent_op()
    return None


class FunctionLiveness:
    """Program points of one function and the live ranges of its tensors."""

    def __init__(self, function: func.FuncOp, forward: Forward = forwarded_values):
        self.function = function
        self.forward = forward
        """What the tensors' aliases are found with (`aliases`)."""
        self.index: dict[Operation, int] = {}
        self.end: dict[Operation, int] = {}
        self._block_points: dict[Block, tuple[list[Operation], list[int]]] = {}
        for block in function.body.blocks:
            self._number(block)
        self.last_point = len(self.index) - 1

    def _number(self, block: Block) -> None:
        for op in block.ops:
            self.index[op] = len(self.index)
            for region in op.regions:
                for inner in region.blocks:
                    self._number(inner)
            self.end[op] = len(self.index) - 1

    def aliases(self, value: SSAValue) -> set[SSAValue]:
        """`value` and every value that may refer to the same memory."""
        return aliases(value, self.forward)

    def tensors(self) -> Iterator[Operation]:
        """Tensor allocations of the function, in program order."""
        return (op for op in self.index if isinstance(op, TENSOR_ALLOCATIONS))

    def range_of(self, allocation: Operation) -> LiveRange:
        """The live range of the tensor that `allocation` defines."""
        (tensor,) = allocation.results
        values = self.aliases(tensor)
        enclosing = _enclosing_ops(allocation)
        start = self.index[allocation]
        end = start
        escapes = False
        local = True
        ends: list[Operation] = []
        for value in values:
            for use in value.uses:
                user = use.operation
                if isinstance(user, NOT_USES):
                    ends.append(user)
                    continue
                if user.name in REALLOCS:
                    ends.append(user)
                escapes |= escapes_at(user, use.index)
                anchor = _anchor(user, enclosing)
                local &= anchor.parent_block() is allocation.parent_block() and not (
                    anchor.has_trait(IsTerminator)
                )
                end = max(end, self.end[anchor])
        carried = False
        for loop in _loops_left_by(values, enclosing):
            start = min(start, self.index[loop])
            end = max(end, self.end[loop])
            carried = True
            local = False
        for region in _branching_regions_around(allocation):
            first, last = self._points_of(region)
            start, end = min(start, first), max(end, last)
            carried = True
            local = False
        if escapes:
            end = self.last_point
            local = False
        last_user = self.op_at(allocation.parent_block(), end) if local else None
        concurrent = any(map(may_run_at_once, enclosing.values()))
        return LiveRange(
            start, end, escapes, carried, last_user, tuple(ends), concurrent
        )

    def reallocated_while_carried(
        self, allocation: Operation, value: SSAValue
    ) -> Operation | None:
        """The innermost sequential loop around `allocation`, not holding the
        definition of `value`, that carries the tensor to its next iteration
        (a block argument of the loop aliases it) where the carried tensor is
        still live when the tensor is allocated again: an alias of the
        argument is used at or after the allocation in the iteration (or
        anywhere in a loop inside it around both).  A tensor at a fixed place
        in `value` would then be placed over the carried one."""
        (tensor,) = allocation.results
        values = self.aliases(tensor)
        enclosing = _enclosing_ops(allocation)
        definition = _defining_op(value)

        def entering(user: Operation, index: int) -> list[SSAValue]:
            # A loop around the allocation returns its init only when it
            # allocated nothing (ran no iteration) or passed the init through
            # its block arguments, whose uses count.
            forwarded = self.forward(user, index)
            if isinstance(user, SEQUENTIAL_LOOPS) and user.is_ancestor(allocation):
                return [alias for alias in forwarded if alias.owner is not user]
            return forwarded

        for loop in _loops_left_by(values, enclosing):
            if not isinstance(loop, SEQUENTIAL_LOOPS) or (
                definition is not None and loop.is_ancestor(definition)
            ):
                continue
            arguments = [
                alias
                for alias in values
                if isinstance(alias, BlockArgument) and alias.owner.parent_op() is loop
            ]
            carried = set[SSAValue]().union(
                *(aliases(argument, entering) for argument in arguments)
            )
            if any(
                self._runs_after(use.operation, alias, allocation, enclosing, loop)
                for alias in carried
                for use in alias.uses
                if not isinstance(use.operation, NOT_USES)
                and use.operation is not loop
                and loop.is_ancestor(use.operation)
            ):
                return loop
        return None

    def _runs_after(
        self,
        user: Operation,
        value: SSAValue,
        allocation: Operation,
        enclosing: dict[Block, Operation],
        loop: Operation,
    ) -> bool:
        """Whether `user` of `value`, inside `loop`, may come at or after `allocation` in
        one iteration of `loop`: after it in the innermost block that holds
        both, or in a loop around both (inside `loop`) whose every iteration
        sees the same value.  A sequential loop around the allocation that
        takes the value as an init hands it to its block arguments (whose uses
        count) before it runs."""
        if isinstance(user, SEQUENTIAL_LOOPS) and user.is_ancestor(allocation):
            return False
        anchor = _anchor(user, enclosing)
        if anchor is loop:
            # In another region of the loop (`scf.while`): regions run in
            # order, as they are numbered.
            return self.index[user] > self.index[allocation]
        definition = _defining_op(value)
        around = anchor.parent_op()
        while around is not None and around is not loop:
            if is_loop(around) and not (
                definition is not None and around.is_ancestor(definition)
            ):
                return True
            around = around.parent_op()
        return self.end[anchor] >= self.index[allocation]

    def _points_of(self, region: Region) -> tuple[int, int]:
        """The first and last program points of the ops of `region`."""
        parent = region.parent_op()
        if parent is None or parent is self.function:
            return 0, self.last_point
        return self.index[parent] + 1, self.end[parent]

    def unit_of(self, allocation: Operation) -> Block:
        """The planning unit of the tensor that `allocation` defines: the
        innermost function body or block of an `scf.if` / `scf.index_switch`
        that holds the allocation and every use of the tensor's aliases other
        than the block's terminator."""
        (tensor,) = allocation.results
        users = [
            use.operation
            for value in self.aliases(tensor)
            for use in value.uses
            if not isinstance(use.operation, NOT_USES)
        ]
        entry = self.function.body.blocks.first
        assert entry is not None
        for block in _unit_blocks_around(allocation):
            if all(_strictly_inside(user, block) for user in users):
                return block
        return entry

    def unit_of_op(self, op: Operation) -> Block:
        """The innermost planning unit block around `op`."""
        entry = self.function.body.blocks.first
        assert entry is not None
        return next(_unit_blocks_around(op), entry)

    def op_at(self, block: Block | None, point: int) -> Operation | None:
        """The op of `block` whose points contain `point`, if any."""
        if block is None:
            return None
        if block not in self._block_points:
            ops = list(block.ops)
            self._block_points[block] = (ops, [self.index[op] for op in ops])
        ops, starts = self._block_points[block]
        position = bisect_right(starts, point) - 1
        if position >= 0 and self.end[ops[position]] >= point:
            return ops[position]
        return None


def is_unit_block(block: Block) -> bool:
    """A block of a conditional op: a planning unit of its own."""
    return isinstance(block.parent_op(), CONDITIONAL_REGIONS)


def _unit_blocks_around(op: Operation) -> Iterator[Block]:
    """Blocks of conditional ops around `op`, innermost first."""
    block = op.parent_block()
    while block is not None and not isinstance(block.parent_op(), func.FuncOp):
        if is_unit_block(block):
            yield block
        parent = block.parent_op()
        block = parent.parent_block() if parent is not None else None


def _strictly_inside(user: Operation, block: Block) -> bool:
    """`user` is in `block` or nested in it, and is not its terminator."""
    current: Operation | None = user
    while current is not None:
        if current.parent_block() is block:
            return not (current is user and user.has_trait(IsTerminator))
        current = current.parent_op()
    return False


def _enclosing_ops(op: Operation) -> dict[Block, Operation]:
    """For each block around `op`, the op of that block that holds `op`."""
    found: dict[Block, Operation] = {}
    current: Operation | None = op
    while current is not None and not isinstance(current, func.FuncOp):
        block = current.parent_block()
        if block is None:
            break
        found[block] = current
        current = block.parent_op()
    return found


def _branching_regions_around(op: Operation) -> Iterator[Region]:
    """Regions of several blocks around `op`.  Branches between their blocks
    may loop back, so a tensor allocated there may be allocated again while
    an earlier one is live, and any of its uses may come after any other:
    the tensor is live, as if loop-carried, over the whole region."""
    block = op.parent_block()
    while block is not None:
        region = block.parent
        if region is None:
            return
        if len(region.blocks) > 1:
            yield region
        parent = region.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return
        block = parent.parent_block()


def in_branching_region(block: Block) -> bool:
    """`block` is in a region of several blocks, or nested in one within its
    function: what is allocated there lives over all of that region, so it
    keeps a storage of its own (`_branching_regions_around`)."""
    region = block.parent
    while region is not None:
        if len(region.blocks) > 1:
            return True
        parent = region.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return False
        region = parent.parent_region()
    return False


def _anchor(user: Operation, enclosing: dict[Block, Operation]) -> Operation:
    """The ancestor of `user` in the innermost block around the allocation.

    In a region of several blocks (`cf` branches) a use in another block has
    no ancestor there: it counts at its own op, numbered in block order; the
    range then covers the whole region anyway (`_branching_regions_around`),
    since branches may loop back.
    """
    current = user
    while current.parent_block() not in enclosing:
        parent = current.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return current
        current = parent
    return current


def _loops_left_by(
    values: Iterable[SSAValue], enclosing: dict[Block, Operation]
) -> list[Operation]:
    """Loops around the allocation that an alias leaves (results or block args)."""
    loops = [op for op in enclosing.values() if is_loop(op)]
    owners = {_defining_op(value) for value in values}
    return [loop for loop in loops if loop in owners]


def _defining_op(value: SSAValue) -> Operation | None:
    """The op that defines `value`, or owns the region of a block argument."""
    owner = value.owner
    if isinstance(owner, Block):
        return owner.parent_op()
    return owner

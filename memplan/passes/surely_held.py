"""Pinned VTCM a function certainly holds at once, for functions memory-place
does not place (several blocks, call cycles): no reuse is planned there, and
a sum over all their allocations would refuse programs that fit, since a
branch may never run or a block may free what another allocated.

What certainly runs, in order, each time the function runs is the top level
of its entry block (no branch leads back to it).  An allocation there holds
its bytes from its op until an op that may free it: a `memory.kill`, a
`memref.dealloc` or `memref.realloc` of any alias of it (a kill of one of
its tensors counts too; a realloc frees it only after allocating its new
buffer), or a call that takes an alias (the callee may free it), also when
nested in a region of a top-level op.  The most such
allocations hold together is a lower bound of what the run needs; memory
allocated elsewhere (other blocks, regions, callees) is not counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue

from memplan.ir_walk import walk
from memplan.passes.liveness import Forward, aliases

MAY_FREE = frozenset(
    {
        "memory.kill",
        "memref.dealloc",
        "memref.realloc",
        "func.call",
        "func.call_indirect",
    }
)
"""Ops that may free memory an operand of theirs refers to (by name)."""


@dataclass
class SurelyHeld:
    """The most bytes certainly held at once, where, and by what."""

    peak: int = 0
    at: Operation | None = None
    holders: list[tuple[Operation, int]] = field(
        default_factory=list[tuple[Operation, int]]
    )


def surely_held(
    function: func.FuncOp,
    bytes_of: Callable[[Operation], int | None],
    forward: Forward,
) -> SurelyHeld:
    """The allocations of `function`'s entry block that are certainly held
    together at the point where they hold the most, where `bytes_of(op)` is
    an allocation's aligned size (None: not counted) and `forward` finds
    the aliases an op may free them through (`liveness.aliases`)."""
    held: dict[Operation, tuple[int, set[SSAValue]]] = {}
    best = SurelyHeld()
    for op in function.body.blocks[0].ops:
        # An op that allocates and frees (a realloc) holds both at once.
        size = bytes_of(op)
        if size is not None:
            held[op] = (size, aliases(op.results[0], forward))
            total = sum(size for size, _ in held.values())
            if total > best.peak:
                best = SurelyHeld(
                    total,
                    op,
                    [(allocation, size) for allocation, (size, _) in held.items()],
                )
        for allocation, (_, names) in list(held.items()):
            if _may_free(op, names):
                del held[allocation]
    return best


def _may_free(op: Operation, values: set[SSAValue]) -> bool:
    """`op`, or an op nested in it, may free memory one of `values` refers to."""
    return any(
        inner.name in MAY_FREE and any(operand in values for operand in inner.operands)
        for inner in walk(op)
    )

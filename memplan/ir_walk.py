"""`walk`: the ops nested in an op or a region, in the order of xDSL's
`Operation.walk()`, in time linear in the number of ops.

xDSL walks through one generator per region, block and op level
(`yield from`), so each op nested d levels deep costs d generator steps and
a walk of deeply nested code takes time quadratic in the depth.  Here one
explicit stack holds an iterator per level: each op costs one step.  As in
xDSL, an op's regions are entered only after the caller resumes, and each
level reads the next op when it needs it (so the caller may erase or move
the op it was given, as xDSL's walk allows).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriteWalker

__all__ = ["LinearWalker", "walk"]


def _nested(op: Operation) -> Iterator[Operation]:
    """The ops directly in `op`'s regions, region by region, block by block."""
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


def _top(root: Operation | Region | Block) -> Iterator[Operation]:
    """The ops a walk of `root` starts from: itself, or those its blocks hold."""
    if isinstance(root, Operation):
        return iter((root,))
    if isinstance(root, Block):
        return iter(root.ops)
    return (op for block in root.blocks for op in block.ops)


def walk(root: Operation | Region | Block) -> Iterator[Operation]:
    """`root` (if an op) and every op nested in it, pre-order."""
    levels = [_top(root)]
    while levels:
        op = next(levels[-1], None)
        if op is None:
            levels.pop()
            continue
        yield op
        if op.regions:
            levels.append(_nested(op))


class LinearWalker(PatternRewriteWalker):
    """xDSL's `PatternRewriteWalker`, filling its worklist with `walk` in
    time linear in the ops (xDSL's fill walks nested regions through a
    generator per level).  The worklist is a stack popped from the end, so
    xDSL pushes the ops in reverse, each op after its regions' ops: the
    reverse of `walk`'s order, which is what this pushes."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        if self.walk_reverse or self.walk_regions_first:
            # Other orders than memplan's walkers use: xDSL's fill.
            super()._populate_worklist(op)
            return
        for sub_op in reversed(list(walk(op))):
            self._worklist.push(sub_op)

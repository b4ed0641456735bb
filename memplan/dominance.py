"""Uses of values their definition does not dominate, which MLIR's verifier
rejects ("operand #0 does not dominate this use") and xDSL 0.74's accepts.

Such a module (a `memory.kill %a` above `%a = ...`, a value of one function
used in another) reaches every pass and the interpreter as if it were sound;
`MemplanParser` rejects it instead, naming the use.  As in MLIR, the body of a
`builtin.module` is a graph region (its ops may use each other in any order)
and uses in blocks no path from the entry reaches are not checked.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from memplan.ir_walk import walk


def undominated_use(root: Operation) -> tuple[Operation, int] | None:
    """The first op under `root` (in walk order) with an operand its
    definition does not dominate, and that operand's position; or None."""
    checker = _Dominance()
    for op in walk(root):
        for position, operand in enumerate(op.operands):
            if not checker.dominates(operand, op):
                return op, position
    return None


def dominates(value: SSAValue, user: Operation) -> bool:
    """Whether `value` is defined before `user` on every path to it."""
    return _Dominance().dominates(value, user)


class _Dominance:
    def __init__(self) -> None:
        self.positions: dict[Block, dict[Operation, int]] = {}
        self.dominators: dict[Region, dict[Block, set[Block]]] = {}
        self.ancestors: dict[tuple[Block, Region], Operation | None] = {}
        """(block, region) -> the op in `region` holding every op of the
        block, or None: a value used at every depth of deep nesting is
        looked up once per level, not once per level per use."""

    def dominates(self, value: SSAValue, user: Operation) -> bool:
        match value:
            case OpResult(op=definition):
                block = definition.parent_block()
            case BlockArgument(block=block):
                definition = None
            case _:
                return True
        if block is None or block.parent is None:
            return True
        region = block.parent
        use = self._ancestor_in(user, region)
        if use is None:
            return False
        if isinstance(region.parent, ModuleOp):
            return True
        use_block = use.parent_block()
        assert use_block is not None
        dominators = self._dominators(region).get(use_block)
        if dominators is None:
            return True
        if use_block is not block or definition is None:
            return block in dominators
        positions = self._positions(block)
        return positions[definition] < positions[use]

    def _ancestor_in(self, op: Operation, region: Region) -> Operation | None:
        """`op`, or the op holding it, whose block is in `region`; None when
        `region` does not enclose `op`."""
        passed: list[Block] = []
        current: Operation | None = op
        found: Operation | None = None
        while current is not None:
            block = current.parent_block()
            if block is None:
                break
            if block.parent is region:
                found = current
                break
            if (block, region) in self.ancestors:
                found = self.ancestors[block, region]
                break
            passed.append(block)
            current = current.parent_op()
        for block in passed:
            self.ancestors[block, region] = found
        return found

    def _positions(self, block: Block) -> dict[Operation, int]:
        if block not in self.positions:
            self.positions[block] = {op: i for i, op in enumerate(block.ops)}
        return self.positions[block]

    def _dominators(self, region: Region) -> dict[Block, set[Block]]:
        """The blocks dominating each block reachable from the entry."""
        if region not in self.dominators:
            self.dominators[region] = _dominator_sets(region)
        return self.dominators[region]


def _dominator_sets(region: Region) -> dict[Block, set[Block]]:
    entry = region.blocks.first
    assert entry is not None
    reachable: list[Block] = [entry]
    seen = {entry}
    for block in reachable:
        last = block.last_op
        for successor in () if last is None else last.successors:
            if successor not in seen:
                seen.add(successor)
                reachable.append(successor)
    predecessors: dict[Block, list[Block]] = {block: [] for block in reachable}
    for block in reachable:
        last = block.last_op
        for successor in () if last is None else last.successors:
            predecessors[successor].append(block)
    dominators = {block: set(reachable) for block in reachable}
    dominators[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for block in reachable[1:]:
            new = set.intersection(*(dominators[p] for p in predecessors[block]))
            new.add(block)
            if new != dominators[block]:
                dominators[block] = new
                changed = True
    return dominators

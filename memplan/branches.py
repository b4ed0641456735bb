"""What a branch hands each successor block, checked as MLIR checks it.

MLIR verifies that a `cf.br`, `cf.cond_br` or `cf.switch` passes each
successor as many values as the block has arguments, of the arguments'
types (`BranchOpInterface`).  xDSL 0.74 checks neither, so `cf.br
^bb1(%a : memref<4xf32>)` into `^bb1(%b: memref<1xf32>)` parsed, and the
block then ran on a memref of another shape than its argument says.
`MemplanParser` rejects such a branch where it is written.

MLIR also requires every block of a region of several blocks to end in a
terminator ("empty block: expect at least a terminator"); xDSL checks a
block's last op only, so an empty block, where a branch could jump and find
nothing to run, verified.  `MemplanParser` rejects it too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects import cf
from xdsl.ir import Block, Operation, SSAValue

from memplan.ir_walk import walk


def successor_operands(op: Operation) -> Sequence[tuple[Block, Sequence[SSAValue]]]:
    """Each successor of a `cf` branch and the values it passes there; empty
    for other ops."""
    if isinstance(op, cf.BranchOp):
        return [(op.successor, op.arguments)]
    if isinstance(op, cf.ConditionalBranchOp):
        return [
            (op.then_block, op.then_arguments),
            (op.else_block, op.else_arguments),
        ]
    if isinstance(op, cf.SwitchOp):
        cases: list[tuple[Block, Sequence[SSAValue]]] = [
            (op.default_block, op.default_operands)
        ]
        start = 0
        for block, count in zip(
            op.case_blocks, op.case_operand_segments.get_values(), strict=False
        ):
            cases.append((block, op.case_operands[start : start + count]))
            start += count
        return cases
    return []


def _problems(op: Operation) -> Iterator[str]:
    for number, (block, values) in enumerate(successor_operands(op)):
        if len(values) != len(block.args):
            yield (
                f"branch has {len(values)} operand(s) for successor #{number}, "
                f"but target block has {len(block.args)}"
            )
            continue
        for position, (value, argument) in enumerate(
            zip(values, block.args, strict=True)
        ):
            if value.type != argument.type:
                yield (
                    f"type mismatch for bb argument #{position} of successor "
                    f"#{number}: the branch passes {value.type}, the block "
                    f"argument is {argument.type}"
                )


def mismatched_branch(root: Operation) -> tuple[Operation, str] | None:
    """The first branch under `root` (in walk order) that passes a successor
    other values than its block arguments, and what is wrong; or None."""
    for op in walk(root):
        for problem in _problems(op):
            return op, problem
    return None


def empty_block(root: Operation) -> tuple[Operation, int, int] | None:
    """The first op under `root` (in walk order) with a region of several
    blocks one of which is empty, the region's number and the block's; or
    None."""
    for op in walk(root):
        for region_number, region in enumerate(op.regions):
            if len(region.blocks) < 2:
                continue
            for block_number, block in enumerate(region.blocks):
                if block.first_op is None:
                    return op, region_number, block_number
    return None

"""Reductions that keep a running value and where it was reached (max with argmax).

torch-mlir computes every softmax's and argmax's maximum this way: one output
accumulates `value = max(x, value)`, the other `index = select(x > value, i,
index)`.  The index output depends on the value before each step, so no ufunc
folds it; but the value before step p is a prefix reduction (`ufunc.accumulate`)
of the values before it.  With it, the body runs once over the whole space,
and each index output takes the chosen value of the last step whose condition
held (or keeps its initial value if none did): exactly the sequential result.
One reduction loop only; others run step by step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from memplan.dialects import linalg
from memplan.interpreter.vector_body import (
    REDUCTION_UFUNCS,
    Fold,
    boxes,
    evaluate_body,
)


@dataclass(frozen=True)
class ArgReduction:
    """Output `value` folds with `ufunc`; output `index` is `select` of the
    value-dependent condition, a new index, and itself."""

    value: int
    index: int
    ufunc: Fold
    partial: SSAValue
    """What the value output folds in at each step."""
    select: arith.SelectOp
    dependent: frozenset[Operation]
    """Body ops that read an accumulator, directly or not."""


def _dependent_ops(block: Block, sources: set[SSAValue]) -> frozenset[Operation]:
    tainted = set(sources)
    dependent: set[Operation] = set()
    for op in block.ops:
        if any(operand in tainted for operand in op.operands):
            dependent.add(op)
            tainted.update(op.results)
    return frozenset(dependent)


def match_arg_reduction(block: Block, num_inputs: int) -> ArgReduction | None:
    """The roles of a two-output value-and-index body, or None."""
    accumulators = block.args[num_inputs:]
    yielded = block.last_op
    if len(accumulators) != 2 or not isinstance(yielded, linalg.YieldOp):
        return None
    for value, index in ((0, 1), (1, 0)):
        value_acc, index_acc = accumulators[value], accumulators[index]
        combiner = yielded.operands[value].owner
        select = yielded.operands[index].owner
        if not isinstance(combiner, Operation):
            continue
        ufunc = REDUCTION_UFUNCS.get(type(combiner))
        if (
            ufunc is None
            or not isinstance(select, arith.SelectOp)
            or select.rhs is not index_acc
            or not index_acc.has_one_use()
            or value_acc not in combiner.operands
        ):
            continue
        lhs, rhs = combiner.operands
        partial = rhs if lhs is value_acc else lhs
        dependent = _dependent_ops(block, {value_acc, index_acc})
        if isinstance(partial, BlockArgument) and partial in accumulators:
            continue
        if not isinstance(partial, BlockArgument) and partial.owner in dependent:
            continue
        return ArgReduction(value, index, ufunc, partial, select, dependent)
    return None


def run_arg_reduction(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    ranges: tuple[int, ...],
    axis: int,
    found: ArgReduction,
) -> bool:
    """Run the body over loop-space views reducing along loop `axis`; False
    (nothing written) if an output spans that loop."""
    num_inputs = len(arguments) - 2
    if any(out.shape[axis] != 1 for out in arguments[num_inputs:]):
        return False
    steps = ranges[axis]
    parallel = [d for d in range(len(ranges)) if d != axis]
    for box in boxes(ranges, parallel):
        part = [box.restrict(a) for a in arguments]
        value_out = part[num_inputs + found.value]
        index_out = part[num_inputs + found.index]
        (partial,) = evaluate_body(
            interpreter, block, part, box, set(found.dependent), [found.partial]
        )
        folded = np.broadcast_to(partial, box.shape).astype(value_out.dtype)
        start_shape = list(folded.shape)
        start_shape[axis] = 1
        start = np.broadcast_to(value_out, start_shape)
        running = found.ufunc.accumulate(np.concatenate([start, folded], axis), axis)
        before = np.take(running, np.arange(steps), axis)
        part[num_inputs + found.value] = before
        condition, chosen = (
            np.broadcast_to(result, box.shape)
            for result in evaluate_body(
                interpreter,
                block,
                part,
                box,
                set(),
                [found.select.cond, found.select.lhs],
            )
        )
        updated = condition.any(axis=axis, keepdims=True)
        last = steps - 1 - np.argmax(np.flip(condition, axis), axis=axis, keepdims=True)
        picked = np.take_along_axis(chosen, last, axis)
        np.copyto(index_out, np.where(updated, picked, index_out), casting="unsafe")
        np.copyto(value_out, np.take(running, [steps], axis), casting="unsafe")
    return True

"""Sum-of-products bodies (`out += f(a) * g(b)`) as one batched matmul.

Convolutions (every `linalg.conv_*` and `depthwise_conv_*`), matmuls with
any maps and their generic forms all have this body.  Over the loop-space
views of the two factors (sliding windows for a convolution) each loop is a
batch loop (in both factors and the output), a row loop (first factor and
output), a column loop (second factor and output) or a reduction loop (in
both factors only); loops in one factor only are summed out first.  Each
factor is copied once into a (batch, rows-or-columns, reduction) matrix -
im2col for a convolution - in the order that reads its memory most
sequentially, and numpy's matmul (BLAS for floats) does the rest, oriented so
that the product comes out in the output's memory order (filters by pixels
for NCHW).  Float sums are reassociated, as any vectorized kernel does (and
as BLAS builds differ, their last bits may differ between machines); in
sequential mode (`Runner(sequential_sums=True)`, `sequential_sums.py`) a
float contraction does not come here but folds in MLIR's loop order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from memplan.interpreter.arith_impl import KERNELS, evaluate
from memplan.interpreter.sequential_sums import folds_in_order

_ADD = (arith.AddfOp, arith.AddiOp)
_MUL = (arith.MulfOp, arith.MuliOp)

MAX_MATRIX_ELEMENTS = 1 << 23
"""Largest factor matrix built at once (8 Mi elements); bigger ones go in chunks."""


@dataclass(frozen=True)
class Factor:
    """A multiplied value: `chain` (single-operand ops) applied to input `input`."""

    input: int
    chain: tuple[Operation, ...]

    def apply(self, value: np.ndarray, index_bitwidth: int) -> np.ndarray:
        for op in self.chain:
            value = evaluate(op, [value], index_bitwidth)
        return value


@dataclass(frozen=True)
class Contraction:
    """The body yields `out + lhs * rhs` (either operand order)."""

    lhs: Factor
    rhs: Factor
    in_order: bool
    """The sum is a float `addf`: `--sequential-sums` folds it in loop order."""


def _factor(value: SSAValue, block: Block, num_inputs: int) -> Factor | None:
    chain: list[Operation] = []
    while not isinstance(value, BlockArgument):
        op = value.owner
        if (
            not isinstance(op, Operation)
            or op.parent_block() is not block
            or len(op.operands) != 1
            or type(op) not in KERNELS
            or not value.has_one_use()
        ):
            return None
        chain.append(op)
        value = op.operands[0]
    if value.block is not block or value.index >= num_inputs:
        return None
    return Factor(value.index, tuple(reversed(chain)))


def match_contraction(block: Block, num_inputs: int) -> Contraction | None:
    """The two factors of a one-output sum-of-products body, or None."""
    if len(block.args) != num_inputs + 1:
        return None
    accumulator = block.args[num_inputs]
    yielded = block.last_op
    if yielded is None or len(yielded.operands) != 1:
        return None
    add = yielded.operands[0].owner
    if not isinstance(add, _ADD) or not add.result.has_one_use():
        return None
    if add.lhs is accumulator:
        product_value = add.rhs
    elif add.rhs is accumulator:
        product_value = add.lhs
    else:
        return None
    multiply = product_value.owner
    if (
        not isinstance(multiply, _MUL)
        or not product_value.has_one_use()
        or not accumulator.has_one_use()
    ):
        return None
    lhs = _factor(multiply.lhs, block, num_inputs)
    rhs = _factor(multiply.rhs, block, num_inputs)
    if lhs is None or rhs is None:
        return None
    counted = {add, multiply, yielded, *lhs.chain, *rhs.chain}
    if len(counted) != len(block.ops):
        return None
    return Contraction(lhs, rhs, folds_in_order(add))


def _order(axes: Sequence[int], view: np.ndarray) -> list[int]:
    """`axes` from the largest stride to the smallest (most sequential copy)."""
    return sorted(axes, key=lambda a: -abs(view.strides[a]))


def _matrix(
    view: np.ndarray, batch: list[int], other: list[int], reduction: list[int]
) -> np.ndarray:
    """`view` as a (batch, other, reduction) array, copied in the order of its
    strides: the group holding the innermost axis is copied innermost."""
    unit = [a for a in range(view.ndim) if a not in (*batch, *other, *reduction)]
    innermost = min(
        (*other, *reduction), key=lambda a: abs(view.strides[a]), default=None
    )
    sizes = [prod(view.shape[a] for a in group) for group in (batch, other, reduction)]
    if innermost in other:
        copy = view.transpose(*unit, *batch, *reduction, *other)
        return copy.reshape(sizes[0], sizes[2], sizes[1]).transpose(0, 2, 1)
    return view.transpose(*unit, *batch, *other, *reduction).reshape(sizes)


def contract(
    lhs: np.ndarray, rhs: np.ndarray, out: np.ndarray, ranges: Sequence[int]
) -> None:
    """out += the sum, over the loops `out` does not span, of lhs * rhs.

    The three are loop-space views of one rank; `ranges` counts the loops
    that none of them uses (each multiplies the sum by its extent).
    """
    rank = out.ndim
    in_lhs = {d for d in range(rank) if lhs.shape[d] != 1}
    in_rhs = {d for d in range(rank) if rhs.shape[d] != 1}
    in_out = {d for d in range(rank) if out.shape[d] != 1}
    lhs_only = tuple(sorted(in_lhs - in_rhs - in_out))
    rhs_only = tuple(sorted(in_rhs - in_lhs - in_out))
    if lhs_only:
        lhs = lhs.sum(axis=lhs_only, keepdims=True, dtype=out.dtype)
    if rhs_only:
        rhs = rhs.sum(axis=rhs_only, keepdims=True, dtype=out.dtype)
    larger = lhs if lhs.size >= rhs.size else rhs
    batch = _order(sorted(in_lhs & in_rhs & in_out), larger)
    rows = _order(sorted((in_lhs & in_out) - in_rhs), lhs)
    columns = _order(sorted((in_rhs & in_out) - in_lhs), rhs)
    reduction = _order(sorted((in_lhs & in_rhs) - in_out), larger)
    left = _matrix(lhs.astype(out.dtype, copy=False), batch, rows, reduction)
    right = _matrix(rhs.astype(out.dtype, copy=False), batch, columns, reduction)
    innermost = min(in_out, key=lambda d: abs(out.strides[d]), default=None)
    if innermost in rows:
        # (batch, columns, rows): the output's innermost loop stays innermost
        result = np.matmul(right, left.transpose(0, 2, 1))
        placed = (*batch, *columns, *rows)
    else:
        result = np.matmul(left, right.transpose(0, 2, 1))
        placed = (*batch, *rows, *columns)
    unused = prod(r for d, r in enumerate(ranges) if d not in in_lhs | in_rhs | in_out)
    if unused != 1:
        result = result * np.asarray(unused, out.dtype)
    result = result.reshape([max(lhs.shape[a], rhs.shape[a]) for a in placed])
    result = result.transpose(sorted(range(len(placed)), key=placed.__getitem__))
    result = result.reshape([out.shape[d] if d in placed else 1 for d in range(rank)])
    np.add(out, result, out=out, casting="unsafe")


def contract_in_chunks(
    lhs: np.ndarray, rhs: np.ndarray, out: np.ndarray, ranges: Sequence[int]
) -> None:
    """`contract`, cut along the output's longest loop while a factor would
    exceed `MAX_MATRIX_ELEMENTS`."""
    largest = max(lhs.size, rhs.size)
    spanned = [d for d in range(out.ndim) if out.shape[d] != 1]
    if largest <= MAX_MATRIX_ELEMENTS or not spanned:
        contract(lhs, rhs, out, ranges)
        return
    axis = max(spanned, key=lambda d: out.shape[d])
    step = max(1, out.shape[axis] * MAX_MATRIX_ELEMENTS // largest)
    for start in range(0, out.shape[axis], step):
        stop = min(start + step, out.shape[axis])
        contract(
            _cut(lhs, axis, start, stop),
            _cut(rhs, axis, start, stop),
            _cut(out, axis, start, stop),
            [stop - start if d == axis else r for d, r in enumerate(ranges)],
        )


def _cut(view: np.ndarray, axis: int, start: int, stop: int) -> np.ndarray:
    if view.shape[axis] == 1:
        return view
    index = [slice(None)] * view.ndim
    index[axis] = slice(start, stop)
    return view[tuple(index)]

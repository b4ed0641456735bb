"""Run a `linalg.generic` body once on whole numpy arrays.

Each operand becomes a view over the iteration space (`affine_views`: strided
for linear maps such as convolution windows, gathered for floordiv/mod maps),
`linalg.index` becomes a broadcast `arange`, `memref.load` a gather, and each
body op is evaluated with its numpy kernel.  Sum-of-products bodies with a
reduction (convolutions, matmuls) go to `contraction` as one batched matmul.
Other reductions are recognised when an output's block argument feeds exactly
one combining op (addf, maxsi, ...) whose result is yielded: the rest of the
body is evaluated on the full space and folded with the combiner's ufunc
(pooling folds its strided windows this way).  A maximum with its argmax goes
to `arg_reduction`; any other reduction runs one step per point of its
reduction loops, each step vectorized over the parallel loops.  With
`sequential_sums` a float sum or product (a contraction's too) folds in
MLIR's loop order instead (`sequential_sums.py`): by those steps in a
large space with many parallel points, else evaluated once and folded in
order.  Bodies with
regions or ops without a numpy kernel return False and the caller falls back
to a scalar loop.  Large iteration spaces are evaluated in slices along one
parallel loop, so temporaries stay bounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import prod

import numpy as np
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from memplan.dialects import linalg, memref
from memplan.interpreter.affine_views import (
    gathered_view,
    is_projected_permutation,
    strided_view,
)
from memplan.interpreter.arg_reduction import match_arg_reduction, run_arg_reduction
from memplan.interpreter.contraction import (
    Contraction,
    contract_in_chunks,
    match_contraction,
)
from memplan.interpreter.sequential_sums import (
    fold_in_order,
    folds_in_order,
    steps_bodies,
)
from memplan.interpreter.vector_body import (
    REDUCTION_UFUNCS,
    UNSIGNED_REDUCTIONS,
    Box,
    Fold,
    boxes,
    evaluate_body,
    vectorizable,
)

StructuredOp = LinalgStructuredOperation | linalg.MapOp | linalg.ReduceOp
"""An op with inputs, outputs, indexing maps, iterator types and a body."""


def indexing_maps(op: StructuredOp) -> tuple[AffineMap, ...]:
    return tuple(m.data for m in op.get_indexing_maps())


@lru_cache(maxsize=4096)
def _loop_sources(maps: tuple[AffineMap, ...]) -> tuple[tuple[int, int], ...] | None:
    """For each loop, the first (operand, axis) indexed by exactly that loop."""
    sources: dict[int, tuple[int, int]] = {}
    for operand, indexing_map in enumerate(maps):
        for axis, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr):
                sources.setdefault(expr.position, (operand, axis))
    loops = maps[0].num_dims if maps else 0
    if len(sources) != loops:
        return None
    return tuple(sources[d] for d in range(loops))


def loop_ranges(
    op: StructuredOp,
    shapes: Sequence[tuple[int, ...]],
    maps: tuple[AffineMap, ...] | None = None,
) -> tuple[int, ...]:
    """The iteration space of `op` given its operands' runtime shapes."""
    if isinstance(op, linalg.MapOp):
        return tuple(shapes[-1])
    sources = _loop_sources(indexing_maps(op) if maps is None else maps)
    if sources is not None:
        return tuple(shapes[operand][axis] for operand, axis in sources)
    assert isinstance(op, LinalgStructuredOperation), "a reduce's input map is full"
    flat = [dim for shape in shapes for dim in shape]
    return tuple(op.get_shapes_to_loops_map().eval(flat, []))


def body_memref_loads(block: Block) -> list[memref.LoadOp]:
    """The `memref.load`s of a body (gathers, e.g. embedding lookups)."""
    return [op for op in block.ops if isinstance(op, memref.LoadOp)]


@dataclass(frozen=True)
class _Space:
    """An op's iteration space: its loops' ranges and its operands' maps."""

    maps: tuple[AffineMap, ...]
    ranges: tuple[int, ...]
    num_inputs: int

    def view(self, value: object, position: int) -> np.ndarray | None:
        """Operand `position` over the loop space; outputs only as strided views."""
        indexing_map = self.maps[position]
        what = f"the indexing map of operand {position}"
        if position >= self.num_inputs:
            if not is_projected_permutation(indexing_map):
                return None
            return strided_view(value, indexing_map, self.ranges, what)
        view = strided_view(value, indexing_map, self.ranges, what)
        if view is None:
            view = gathered_view(value, indexing_map, self.ranges, what)
        return view


@dataclass
class _Reduction:
    combiner: Operation
    ufunc: Fold
    partial: SSAValue
    """The combiner operand that is not the accumulator."""
    unsigned: bool


def _find_reductions(block: Block, num_inputs: int) -> dict[int, _Reduction] | None:
    """Output index -> how it accumulates, or None when the body does not fit."""
    yield_op = block.last_op
    assert isinstance(yield_op, linalg.YieldOp)
    reductions: dict[int, _Reduction] = {}
    for k, acc in enumerate(block.args[num_inputs:]):
        combiner = acc.get_user_of_unique_use()
        if combiner is None or not combiner.results[0].has_one_use():
            return None
        unsigned = type(combiner) in UNSIGNED_REDUCTIONS
        ufunc = (UNSIGNED_REDUCTIONS if unsigned else REDUCTION_UFUNCS).get(
            type(combiner)
        )
        if ufunc is None or yield_op.operands[k] is not combiner.results[0]:
            return None
        lhs, rhs = combiner.operands
        partial = rhs if lhs is acc else lhs
        reductions[k] = _Reduction(combiner, ufunc, partial, unsigned)
    return reductions


def run_vectorized(
    interpreter: Interpreter,
    op: StructuredOp,
    operands: Sequence[np.ndarray],
    sequential_sums: bool = False,
) -> bool:
    """Execute `op` on whole arrays; False (nothing written) when it cannot.
    `sequential_sums` folds float sums and products in MLIR's loop order
    (`sequential_sums.py`) instead of reassociating them."""
    block = op.body.block
    if not vectorizable(block):
        return False
    num_inputs = len(op.inputs)
    maps = indexing_maps(op)
    ranges = loop_ranges(op, [np.shape(o) for o in operands], maps)
    if 0 in ranges:
        return True
    space = _Space(maps, ranges, num_inputs)
    kinds = [kind.data.value for kind in op.get_iterator_types()]
    reduction_axes = tuple(i for i, kind in enumerate(kinds) if kind == "reduction")
    parallel_axes = [i for i, kind in enumerate(kinds) if kind == "parallel"]
    contraction = match_contraction(block, num_inputs) if reduction_axes else None
    if contraction is not None and not (sequential_sums and contraction.in_order):
        return _run_contraction(interpreter, space, operands, contraction)
    views = [space.view(value, position) for position, value in enumerate(operands)]
    if any(v is None for v in views):
        return False
    arguments = [v for v in views if v is not None]
    yield_op = block.last_op
    assert isinstance(yield_op, linalg.YieldOp)
    reductions: dict[int, _Reduction] = {}
    if reduction_axes:
        found = _find_reductions(block, num_inputs)
        if found is None:
            arg = match_arg_reduction(block, num_inputs)
            if len(reduction_axes) == 1 and arg is not None:
                (axis,) = reduction_axes
                if run_arg_reduction(interpreter, block, arguments, ranges, axis, arg):
                    return True
            return _run_reduction_steps(
                interpreter, block, arguments, ranges, reduction_axes, num_inputs
            )
        if sequential_sums and _steps_in_order(found, ranges, parallel_axes):
            return _run_reduction_steps(
                interpreter, block, arguments, ranges, reduction_axes, num_inputs
            )
        reductions = found
    for box in boxes(ranges, parallel_axes):
        part = [box.restrict(a) for a in arguments]
        if reduction_axes:
            _fold(
                interpreter,
                block,
                part,
                box,
                reductions,
                reduction_axes,
                num_inputs,
                sequential_sums,
            )
        else:
            results = evaluate_body(
                interpreter, block, part, box, set(), yield_op.operands
            )
            for out, result in zip(part[num_inputs:], results, strict=True):
                np.copyto(out, result, casting="unsafe")
    return True


def _steps_in_order(
    reductions: dict[int, _Reduction], ranges: tuple[int, ...], parallel_axes: list[int]
) -> bool:
    """Whether sequential mode runs the body one reduction point at a time
    (it folds a float sum or product over a large space: `steps_bodies`);
    else `_fold` evaluates it once and `fold_in_order` folds in order."""
    return any(
        folds_in_order(r.combiner) for r in reductions.values()
    ) and steps_bodies(prod(ranges[d] for d in parallel_axes), prod(ranges))


def _run_reduction_steps(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    ranges: tuple[int, ...],
    reduction_axes: tuple[int, ...],
    num_inputs: int,
) -> bool:
    """A body that accumulates in a way no ufunc folds (say, a value and its
    index over two reduction loops), or a float sum in sequential mode: one
    step per point of the reduction loops, in MLIR's order, each vectorized
    over all parallel loops.  False if an output ignores a parallel loop
    (several iterations would write it)."""
    outputs = arguments[num_inputs:]
    parallel = [d for d in range(len(ranges)) if d not in reduction_axes]
    if any(out.shape[d] != ranges[d] for out in outputs for d in parallel):
        return False
    yield_op = block.last_op
    assert isinstance(yield_op, linalg.YieldOp)
    for point in np.ndindex(*(ranges[a] for a in reduction_axes)):
        origin, shape = [0] * len(ranges), list(ranges)
        for axis, index in zip(reduction_axes, point, strict=True):
            origin[axis], shape[axis] = index, 1
        box = Box(tuple(origin), tuple(shape))
        part = [box.restrict(a) for a in arguments]
        results = evaluate_body(interpreter, block, part, box, set(), yield_op.operands)
        for out, result in zip(part[num_inputs:], results, strict=True):
            np.copyto(out, result, casting="unsafe")
    return True


def _run_contraction(
    interpreter: Interpreter,
    space: _Space,
    operands: Sequence[np.ndarray],
    contraction: Contraction,
) -> bool:
    """out += lhs * rhs summed over the reduction loops, as one matmul."""
    bits = interpreter.index_bitwidth
    factors = []
    for factor in (contraction.lhs, contraction.rhs):
        value = factor.apply(np.asarray(operands[factor.input]), bits)
        view = space.view(value, factor.input)
        if view is None:
            return False
        factors.append(view)
    out = space.view(operands[space.num_inputs], space.num_inputs)
    if out is None:
        return False
    contract_in_chunks(factors[0], factors[1], out, space.ranges)
    return True


def _fold(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    box: Box,
    reductions: dict[int, _Reduction],
    reduction_axes: tuple[int, ...],
    num_inputs: int,
    sequential_sums: bool,
) -> None:
    """Evaluate the body without its combiners, then fold into the outputs
    (float sums and products in order with `sequential_sums`)."""
    skip = {r.combiner for r in reductions.values()}
    wanted = [r.partial for r in reductions.values()]
    partials = evaluate_body(interpreter, block, arguments, box, skip, wanted)
    for (k, reduction), values in zip(reductions.items(), partials, strict=True):
        out = arguments[num_inputs + k]
        partial = np.broadcast_to(values, box.shape).astype(out.dtype, copy=False)
        if sequential_sums and folds_in_order(reduction.combiner):
            assert isinstance(reduction.ufunc, np.ufunc)
            folded = fold_in_order(reduction.ufunc, out, partial, reduction_axes)
            np.copyto(out, folded, casting="unsafe")
            continue
        target = out
        if reduction.unsigned:
            unsigned = np.dtype(f"u{out.dtype.itemsize}")
            partial, target = partial.view(unsigned), out.view(unsigned)
        folded = reduction.ufunc.reduce(partial, axis=reduction_axes, keepdims=True)
        np.copyto(target, reduction.ufunc(target, folded), casting="unsafe")

"""Run a `linalg.generic` body once on whole numpy arrays.

Each operand becomes a view over the iteration space (transposed and with
size-1 axes where its indexing map ignores a loop), `linalg.index` becomes a
broadcast `arange`, and each body op is evaluated with its numpy kernel.
Reductions are recognised when an output's block argument feeds exactly one
combining op (addf, mulf, maxsi, ...) whose result is yielded: the rest of the
body is evaluated on the full space and folded with the combiner's ufunc.
Anything else returns None and the caller falls back to a scalar loop.
Large iteration spaces (a matmul written as a generic) are evaluated in
slices along one parallel loop, so temporaries stay bounded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from memplan.interpreter.arith_impl import KERNELS, evaluate

REDUCTION_UFUNCS: dict[type[Operation], np.ufunc] = {
    arith.AddfOp: np.add,
    arith.AddiOp: np.add,
    arith.MulfOp: np.multiply,
    arith.MuliOp: np.multiply,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
}
"""Combiners that are associative and commutative, so folding order is free."""

MAX_SLICE_ELEMENTS = 1 << 22
"""Largest part of an iteration space evaluated at once (4 Mi elements)."""


def loop_ranges(
    op: LinalgStructuredOperation, shapes: Sequence[tuple[int, ...]]
) -> tuple[int, ...]:
    """The iteration space of `op` given its operands' runtime shapes."""
    flat = [dim for shape in shapes for dim in shape]
    return tuple(op.get_shapes_to_loops_map().eval(flat, []))


def loop_space_view(
    value: object, indexing_map: AffineMap, rank: int
) -> np.ndarray | None:
    """A view V of rank `rank` with V[i] == value[map(i)], or None if no view can say it."""
    array = np.asarray(value)
    if array.ndim == 0:
        return array
    index: list[int | slice] = []
    dims: list[int] = []
    for expr in indexing_map.results:
        if isinstance(expr, AffineDimExpr):
            dims.append(expr.position)
            index.append(slice(None))
        elif isinstance(expr, AffineConstantExpr):
            index.append(expr.value)
        else:
            return None
    if len(set(dims)) != len(dims):
        return None
    view = array[tuple(index)]
    view = view.transpose(sorted(range(len(dims)), key=dims.__getitem__))
    missing = tuple(d for d in range(rank) if d not in dims)
    return np.expand_dims(view, missing) if missing else view


@dataclass
class _Reduction:
    combiner: Operation
    ufunc: np.ufunc
    partial: SSAValue
    """The combiner operand that is not the accumulator."""


def _find_reductions(block: Block, num_inputs: int) -> dict[int, _Reduction] | None:
    """Output index -> how it accumulates, or None when the body does not fit."""
    yield_op = block.last_op
    assert isinstance(yield_op, linalg.YieldOp)
    reductions: dict[int, _Reduction] = {}
    for k, acc in enumerate(block.args[num_inputs:]):
        combiner = acc.get_user_of_unique_use()
        if combiner is None or not combiner.results[0].has_one_use():
            return None
        ufunc = REDUCTION_UFUNCS.get(type(combiner))
        if ufunc is None or yield_op.operands[k] is not combiner.results[0]:
            return None
        lhs, rhs = combiner.operands
        reductions[k] = _Reduction(combiner, ufunc, rhs if lhs is acc else lhs)
    return reductions


def _vectorizable(block: Block) -> bool:
    return all(
        isinstance(op, linalg.IndexOp | linalg.YieldOp)
        or (type(op) in KERNELS and not op.regions)
        for op in block.ops
    )


@dataclass(frozen=True)
class _Slice:
    """A box of the iteration space: loop d runs over [origin[d], origin[d] + shape[d])."""

    origin: tuple[int, ...]
    shape: tuple[int, ...]

    def restrict(self, view: np.ndarray) -> np.ndarray:
        """The part of a loop-space view inside this box (size-1 axes broadcast)."""
        if view.ndim == 0:
            return view
        index = tuple(
            slice(None) if extent == 1 else slice(start, start + size)
            for start, size, extent in zip(
                self.origin, self.shape, view.shape, strict=True
            )
        )
        return view[index]


def _slices(ranges: tuple[int, ...], parallel_axes: Sequence[int]) -> Iterator[_Slice]:
    """Cut the space along its longest parallel loop into bounded slices."""
    total = prod(ranges)
    if total <= MAX_SLICE_ELEMENTS or not parallel_axes:
        yield _Slice((0,) * len(ranges), ranges)
        return
    axis = max(parallel_axes, key=ranges.__getitem__)
    step = max(1, MAX_SLICE_ELEMENTS // (total // ranges[axis]))
    for start in range(0, ranges[axis], step):
        origin = tuple(start if d == axis else 0 for d in range(len(ranges)))
        shape = tuple(
            min(step, r - start) if d == axis else r for d, r in enumerate(ranges)
        )
        yield _Slice(origin, shape)


def _evaluate_body(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    box: _Slice,
    skip: set[Operation],
    wanted: Sequence[SSAValue],
) -> list[np.ndarray]:
    values: dict[SSAValue, np.ndarray] = dict(zip(block.args, arguments, strict=False))

    def lookup(value: SSAValue) -> np.ndarray:
        if value in values:
            return values[value]
        return np.asarray(interpreter.get_values((value,))[0])

    for op in block.ops:
        if isinstance(op, linalg.YieldOp) or op in skip:
            continue
        if isinstance(op, linalg.IndexOp):
            dim = op.dim.value.data
            shape = [1] * len(box.shape)
            shape[dim] = box.shape[dim]
            start = box.origin[dim]
            indices = np.arange(
                start, start + box.shape[dim], dtype=f"int{interpreter.index_bitwidth}"
            )
            values[op.result] = indices.reshape(shape)
        else:
            values[op.results[0]] = evaluate(
                op, [lookup(o) for o in op.operands], interpreter.index_bitwidth
            )
    return [lookup(v) for v in wanted]


def run_vectorized(
    interpreter: Interpreter,
    op: LinalgStructuredOperation,
    operands: Sequence[np.ndarray],
) -> bool:
    """Execute `op` on whole arrays; False (nothing written) when it cannot."""
    block = op.body.block
    if not _vectorizable(block):
        return False
    num_inputs = len(op.inputs)
    ranges = loop_ranges(op, [np.shape(o) for o in operands])
    maps = [m.data for m in op.get_indexing_maps()]
    views = [
        loop_space_view(value, m, len(ranges))
        for value, m in zip(operands, maps, strict=True)
    ]
    if any(v is None for v in views):
        return False
    arguments = [v for v in views if v is not None]
    kinds = [kind.data.value for kind in op.get_iterator_types()]
    reduction_axes = tuple(i for i, kind in enumerate(kinds) if kind == "reduction")
    parallel_axes = [i for i, kind in enumerate(kinds) if kind == "parallel"]
    yield_op = block.last_op
    assert isinstance(yield_op, linalg.YieldOp)
    reductions: dict[int, _Reduction] = {}
    if reduction_axes:
        found = _find_reductions(block, num_inputs)
        if found is None:
            return False
        reductions = found
    for box in _slices(ranges, parallel_axes):
        part = [box.restrict(a) for a in arguments]
        if reduction_axes:
            _fold(interpreter, block, part, box, reductions, reduction_axes, num_inputs)
        else:
            results = _evaluate_body(
                interpreter, block, part, box, set(), yield_op.operands
            )
            for out, result in zip(part[num_inputs:], results, strict=True):
                np.copyto(out, result, casting="unsafe")
    return True


def _fold(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    box: _Slice,
    reductions: dict[int, _Reduction],
    reduction_axes: tuple[int, ...],
    num_inputs: int,
) -> None:
    """Evaluate the body without its combiners, then fold into the outputs."""
    skip = {r.combiner for r in reductions.values()}
    wanted = [r.partial for r in reductions.values()]
    partials = _evaluate_body(interpreter, block, arguments, box, skip, wanted)
    for (k, reduction), values in zip(reductions.items(), partials, strict=True):
        out = arguments[num_inputs + k]
        partial = np.broadcast_to(values, box.shape).astype(out.dtype)
        folded = reduction.ufunc.reduce(partial, axis=reduction_axes, keepdims=True)
        np.copyto(out, reduction.ufunc(out, folded), casting="unsafe")

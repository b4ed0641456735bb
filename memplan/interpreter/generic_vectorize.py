"""Run a `linalg.generic` body once on whole numpy arrays.

Each operand becomes a view over the iteration space (`affine_views`: strided
for linear maps such as convolution windows, gathered for floordiv/mod maps),
`linalg.index` becomes a broadcast `arange`, `memref.load` a gather, and each
body op is evaluated with its numpy kernel.  Sum-of-products bodies with a
reduction (convolutions, matmuls) go to `contraction` as one batched matmul.
Other reductions are recognised when an output's block argument feeds exactly
one combining op (addf, maxsi, ...) whose result is yielded: the rest of the
body is evaluated on the full space and folded with the combiner's ufunc
(pooling folds its strided windows this way).  Anything else returns False and
the caller falls back to a scalar loop.  Large iteration spaces are evaluated
in slices along one parallel loop, so temporaries stay bounded.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith, memref
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue

from memplan.interpreter.affine_views import (
    gathered_view,
    is_projected_permutation,
    strided_view,
)
from memplan.interpreter.arith_impl import KERNELS, evaluate
from memplan.interpreter.contraction import (
    Contraction,
    contract_in_chunks,
    match_contraction,
)
from memplan.interpreter.errors import ModelError
from memplan.interpreter.memory_impl import read_tensor
from memplan.interpreter.model import DiscontiguousTensor, Tensor

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


def body_memref_loads(block: Block) -> list[memref.LoadOp]:
    """The `memref.load`s of a body (gathers, e.g. embedding lookups)."""
    return [op for op in block.ops if isinstance(op, memref.LoadOp)]


def _operand_view(
    value: object, position: int, op: LinalgStructuredOperation, ranges: tuple[int, ...]
) -> np.ndarray | None:
    """Operand `position` over the loop space; outputs only through strided views."""
    indexing_map = op.get_indexing_maps().data[position].data
    what = f"the indexing map of operand {position}"
    if position >= len(op.inputs):
        if not is_projected_permutation(indexing_map):
            return None
        return strided_view(value, indexing_map, ranges, what)
    view = strided_view(value, indexing_map, ranges, what)
    if view is None:
        view = gathered_view(value, indexing_map, ranges, what)
    return view


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
        isinstance(op, linalg.IndexOp | linalg.YieldOp | memref.LoadOp)
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


def _gather(source: Tensor, indices: Sequence[np.ndarray]) -> np.ndarray:
    """`memref.load` with (broadcast) index arrays, bounds checked."""
    array = read_tensor(source)
    index = tuple(np.asarray(i, dtype=np.int64) for i in indices)
    for axis, (i, size) in enumerate(zip(index, array.shape, strict=True)):
        if i.size and (i.min() < 0 or i.max() >= size):
            raise ModelError(
                f"memref.load in the body reads indices {int(i.min())}..{int(i.max())} "
                f"of dimension {axis}, which has size {size}"
            )
    return array[index]


def _evaluate_body(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    box: _Slice,
    skip: set[Operation],
    wanted: Sequence[SSAValue],
) -> list[np.ndarray]:
    values: dict[SSAValue, object] = dict(zip(block.args, arguments, strict=False))

    def lookup(value: SSAValue) -> object:
        if value in values:
            return values[value]
        return interpreter.get_values((value,))[0]

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
        elif isinstance(op, memref.LoadOp):
            source = lookup(op.memref)
            assert isinstance(source, np.ndarray | DiscontiguousTensor)
            values[op.res] = _gather(
                source, [np.asarray(lookup(i)) for i in op.indices]
            )
        else:
            result = evaluate(
                op,
                [np.asarray(lookup(o)) for o in op.operands],
                interpreter.index_bitwidth,
            )
            if op.results:
                values[op.results[0]] = result
    return [np.asarray(lookup(v)) for v in wanted]


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
    if 0 in ranges:
        return True
    kinds = [kind.data.value for kind in op.get_iterator_types()]
    reduction_axes = tuple(i for i, kind in enumerate(kinds) if kind == "reduction")
    parallel_axes = [i for i, kind in enumerate(kinds) if kind == "parallel"]
    contraction = match_contraction(block, num_inputs) if reduction_axes else None
    if contraction is not None:
        return _run_contraction(interpreter, op, operands, ranges, contraction)
    views = [
        _operand_view(value, position, op, ranges)
        for position, value in enumerate(operands)
    ]
    if any(v is None for v in views):
        return False
    arguments = [v for v in views if v is not None]
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


def _run_contraction(
    interpreter: Interpreter,
    op: LinalgStructuredOperation,
    operands: Sequence[np.ndarray],
    ranges: tuple[int, ...],
    contraction: Contraction,
) -> bool:
    """out += lhs * rhs summed over the reduction loops, as one matmul."""
    bits = interpreter.index_bitwidth
    factors = []
    for factor in (contraction.lhs, contraction.rhs):
        value = factor.apply(np.asarray(operands[factor.input]), bits)
        view = _operand_view(value, factor.input, op, ranges)
        if view is None:
            return False
        factors.append(view.reshape((1,) * len(ranges)) if view.ndim == 0 else view)
    position = len(op.inputs)
    out = _operand_view(operands[position], position, op, ranges)
    if out is None:
        return False
    contract_in_chunks(factors[0], factors[1], out, ranges)
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
        partial = np.broadcast_to(values, box.shape).astype(out.dtype, copy=False)
        folded = reduction.ufunc.reduce(partial, axis=reduction_axes, keepdims=True)
        np.copyto(out, reduction.ufunc(out, folded), casting="unsafe")

"""Evaluating a linalg body once on whole arrays over (a box of) its loop space.

Block arguments are bound to loop-space views, `linalg.index` becomes a
broadcast `arange`, `memref.load` a bounds-checked gather, and every other
op its numpy kernel; so a body's result is an array over the box.  Also here:
the combiners whose reductions fold with a ufunc, and how a large space is
cut into boxes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue

from memplan.dialects import linalg, memref
from memplan.interpreter.arith_impl import KERNELS, evaluate
from memplan.interpreter.errors import ModelError
from memplan.interpreter.float_extrema import MAXIMUMF, MINIMUMF, SignedZeroExtremum
from memplan.interpreter.memory_impl import read_tensor
from memplan.interpreter.model import DiscontiguousTensor, Tensor


@dataclass(frozen=True)
class OneBitAware:
    """A fold whose i1 form is not numpy's on bools: MLIR's i1 is a one-bit
    two's complement integer (true is -1), so `addi` is xor, `maxsi` is and
    (the maximum of true and false is false) and `minsi` is or, where
    numpy's bool add, maximum and minimum are or, or and and."""

    fold: np.ufunc | SignedZeroExtremum
    on_bools: np.ufunc

    def _for(self, values: np.ndarray) -> np.ufunc | SignedZeroExtremum:
        return self.on_bools if np.asarray(values).dtype == np.bool_ else self.fold

    def __call__(self, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        return self._for(lhs)(lhs, rhs)

    def reduce(
        self, values: np.ndarray, axis: int | tuple[int, ...], keepdims: bool = False
    ) -> np.ndarray:
        return self._for(values).reduce(values, axis=axis, keepdims=keepdims)

    def accumulate(self, values: np.ndarray, axis: int) -> np.ndarray:
        return self._for(values).accumulate(values, axis)


SIGNED_MAX = OneBitAware(MAXIMUMF, np.logical_and)
"""`maxsi`, and the `max` of linalg's named ops (`maximumf` on floats)."""
SIGNED_MIN = OneBitAware(MINIMUMF, np.logical_or)
"""`minsi`, and the `min` of linalg's named ops (`minimumf` on floats)."""

Fold = np.ufunc | SignedZeroExtremum | OneBitAware
"""A combiner as numpy folds it: call, `reduce`, `accumulate`."""

REDUCTION_UFUNCS: dict[type[Operation], Fold] = {
    arith.AddfOp: np.add,
    arith.AddiOp: OneBitAware(np.add, np.logical_xor),
    arith.MulfOp: np.multiply,
    arith.MuliOp: np.multiply,
    arith.MaximumfOp: MAXIMUMF,
    arith.MinimumfOp: MINIMUMF,
    arith.MaxSIOp: SIGNED_MAX,
    arith.MinSIOp: SIGNED_MIN,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
}
"""Combiners that are associative and commutative, so folding order is free.
Not `maxnumf`/`minnumf`: `np.fmax.reduce` turns a signaling NaN into a NaN
that the next value replaces (a row of +inf, a signaling NaN and -inf
folded to -inf), so their reductions run one reduction point at a time
with the elementwise kernel (`float_extrema.maxnumf`), as MLIR's loops do."""

UNSIGNED_REDUCTIONS: dict[type[Operation], np.ufunc] = {
    arith.MaxUIOp: np.maximum,
    arith.MinUIOp: np.minimum,
}
"""Combiners that read their (signless) integers as unsigned."""

MAX_SLICE_ELEMENTS = 1 << 22
"""Largest part of an iteration space evaluated at once (4 Mi elements)."""


def vectorizable(block: Block) -> bool:
    """Every op of the body has a whole-array evaluation."""
    return all(
        isinstance(op, linalg.IndexOp | linalg.YieldOp | memref.LoadOp)
        or (type(op) in KERNELS and not op.regions)
        for op in block.ops
    )


@dataclass(frozen=True)
class Box:
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


def boxes(ranges: tuple[int, ...], parallel_axes: Sequence[int]) -> Iterator[Box]:
    """Cut the space along its longest parallel loop into bounded slices."""
    total = prod(ranges)
    if total <= MAX_SLICE_ELEMENTS or not parallel_axes:
        yield Box((0,) * len(ranges), ranges)
        return
    axis = max(parallel_axes, key=ranges.__getitem__)
    step = max(1, MAX_SLICE_ELEMENTS // (total // ranges[axis]))
    for start in range(0, ranges[axis], step):
        origin = tuple(start if d == axis else 0 for d in range(len(ranges)))
        shape = tuple(
            min(step, r - start) if d == axis else r for d, r in enumerate(ranges)
        )
        yield Box(origin, shape)


def gather(source: Tensor, indices: Sequence[np.ndarray]) -> np.ndarray:
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


def evaluate_body(
    interpreter: Interpreter,
    block: Block,
    arguments: Sequence[np.ndarray],
    box: Box,
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
            values[op.res] = gather(source, [np.asarray(lookup(i)) for i in op.indices])
        else:
            result = evaluate(
                op,
                [np.asarray(lookup(o)) for o in op.operands],
                interpreter.index_bitwidth,
            )
            if op.results:
                values[op.results[0]] = result
    return [np.asarray(lookup(v)) for v in wanted]

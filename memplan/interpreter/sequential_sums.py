"""Float sums and products folded in the order MLIR's loops fold them.

`convert-linalg-to-loops` (and LLVM after it) computes each output element
by starting from the output's value and combining the points of the
reduction loops in lexicographic order of the loop dims, rounding to the
element type after every step (no FMA).  A float `addf` or `mulf` is not
associative, so only that order gives the same bits; `ufunc.reduce`
(pairwise) and BLAS reassociate.  `Runner(sequential_sums=True)` folds
every float addf/mulf reduction of a linalg op in that order; the others
(integer, minimum, maximum) are exact in any order and keep their fast
folds.  Softmax (`linalg_impl.softmax`) and loop nests (`loop_vectorize`)
are sequential in either mode.

Both ways of folding are strictly sequential for each output element and
vectorized over the parallel points:

* many parallel points (`ACCUMULATE_BELOW` or more): one step per
  reduction point over all of them, calling the ufunc in place
  (`fold_in_order`), or, in a large space, evaluating the whole body at
  each point (`generic_vectorize`), so that no value of the space is held;
* fewer: `ufunc.accumulate` along the reduction points stacked on a last
  axis (`fold_in_order`): no Python step per point, but slower per element.

numpy's float16 and ml_dtypes' bfloat16 ufuncs round to the element type
on every call and every accumulated element, as MLIR's loops do.  Where
two NaNs meet, which one's payload survives may differ from compiled code
(which may swap an add's operands).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import Operation

ORDER_SENSITIVE: tuple[type[Operation], ...] = (arith.AddfOp, arith.MulfOp)
"""Combiners whose result depends on the order they fold in."""

ACCUMULATE_BELOW = 128
"""Fewer parallel points than this fold with one `accumulate` call (the
two ways cost alike around 128 points of a 1024-point sum, measured)."""


def folds_in_order(combiner: Operation | None) -> bool:
    """Whether sequential mode folds reductions by `combiner` in order."""
    return isinstance(combiner, ORDER_SENSITIVE)


STEP_BODIES_ABOVE = 1 << 20
"""Iteration spaces of more points than this (with `ACCUMULATE_BELOW`
parallel points or more) evaluate their body at each reduction point rather
than once over the space: the space's values would outgrow the caches
(measured: 3x faster on a 3x3 convolution of 64 channels, slower on the
small matmuls of tiny_gpt)."""


def accumulates(parallel_points: int) -> bool:
    """Whether a fold over this many parallel points uses `accumulate`."""
    return parallel_points < ACCUMULATE_BELOW


def steps_bodies(parallel_points: int, points: int) -> bool:
    """Whether a reduction over `points` iteration points, `parallel_points`
    of its parallel loops, evaluates its body one reduction point at a time."""
    return not accumulates(parallel_points) and points > STEP_BODIES_ABOVE


def fold_in_order(
    fold: np.ufunc, start: np.ndarray, values: np.ndarray, axes: Sequence[int]
) -> np.ndarray:
    """`start` folded with `values` one point of `axes` at a time, those
    points in lexicographic order: `fold(... fold(start, v[p0]) ..., v[pn])`.

    `values` spans every axis; `start` has extent 1 on `axes` and the
    result has its shape (of `values`' dtype)."""
    rest = [d for d in range(values.ndim) if d not in axes]
    kept = tuple(values.shape[d] for d in rest)
    first = np.broadcast_to(np.squeeze(start, axis=tuple(axes)), kept)
    first = first.astype(values.dtype)
    count = len(axes)
    if accumulates(prod(kept)):
        points = np.moveaxis(values, axes, range(values.ndim - count, values.ndim))
        rows = points.reshape(*kept, -1)
        stacked = np.concatenate((first[..., None], rows), axis=-1)
        result = fold.accumulate(stacked, axis=-1)[..., -1]
    else:
        result = first
        points = np.moveaxis(values, axes, range(count))
        for point in np.ndindex(*points.shape[:count]):
            fold(result, points[point], out=result)
    return np.expand_dims(result, tuple(axes))

"""An operand of a structured op seen over the op's whole iteration space.

For an indexing map M and loop ranges R, the loop-space view V of an operand
A has V[i] == A[M(i)] for every i in the iteration space, with size-1 axes
for the loops M ignores.  When every result of M is linear in the loops
(`d0`, `d2 * 2 + d5 * 3`, constants) V is a strided view of A (sliding
windows of a convolution, a transpose, a broadcast), so writes through it
reach A; a scalar or 0-d A is a view of size 1 in every loop.  Maps with `floordiv`, `mod` or `ceildiv` (im2col, pixel shuffle)
give a gathered copy instead, so only inputs may use them.  Both check that
the map stays inside A.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from memplan.interpreter.errors import ModelError

LinearForm = tuple[int, tuple[int, ...]]
"""(constant, coefficient of each loop) of an affine expression."""


def linear_form(expr: AffineExpr, num_dims: int) -> LinearForm | None:
    """`expr` as constant + sum(coefficient * loop), or None if it is not linear."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value, (0,) * num_dims
    if isinstance(expr, AffineDimExpr):
        return 0, tuple(int(d == expr.position) for d in range(num_dims))
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs = linear_form(expr.lhs, num_dims)
    rhs = linear_form(expr.rhs, num_dims)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs[0] + rhs[0], tuple(
            a + b for a, b in zip(lhs[1], rhs[1], strict=True)
        )
    if expr.kind == AffineBinaryOpKind.Mul:
        if not any(rhs[1]):
            lhs, rhs = rhs, lhs
        if any(lhs[1]):
            return None
        return lhs[0] * rhs[0], tuple(lhs[0] * c for c in rhs[1])
    return None


@lru_cache(maxsize=4096)
def _linear_forms(indexing_map: AffineMap) -> tuple[LinearForm, ...] | None:
    """The linear form of each result, or None unless all are linear."""
    if indexing_map.num_symbols:
        return None
    forms = [linear_form(e, indexing_map.num_dims) for e in indexing_map.results]
    if any(form is None for form in forms):
        return None
    return tuple(form for form in forms if form is not None)


def _check_reach(
    low: Sequence[int], high: Sequence[int], shape: Sequence[int], what: str
) -> None:
    for axis, (lo, hi, size) in enumerate(zip(low, high, shape, strict=True)):
        if lo < 0 or hi >= size:
            raise ModelError(
                f"{what} reaches indices {lo}..{hi} of dimension {axis}, "
                f"which has size {size}"
            )


def strided_view(
    value: object, indexing_map: AffineMap, ranges: Sequence[int], what: str
) -> np.ndarray | None:
    """The loop-space view of `value` as a strided view, or None if `indexing_map`
    is not linear.  Loops the map ignores get size 1."""
    array = np.asarray(value)
    if array.ndim == 0:
        return array.reshape((1,) * len(ranges))
    linear = _linear_forms(indexing_map)
    if linear is None:
        return None
    used = [any(coefs[d] for _, coefs in linear) for d in range(len(ranges))]
    shape = tuple(r if u else 1 for r, u in zip(ranges, used, strict=True))
    last = [r - 1 if u else 0 for r, u in zip(ranges, used, strict=True)]
    low = [
        c + sum(min(0, a * n) for a, n in zip(cs, last, strict=True))
        for c, cs in linear
    ]
    high = [
        c + sum(max(0, a * n) for a, n in zip(cs, last, strict=True))
        for c, cs in linear
    ]
    _check_reach(low, high, array.shape, what)
    strides = tuple(
        sum(cs[d] * s for (_, cs), s in zip(linear, array.strides, strict=True))
        for d in range(len(ranges))
    )
    origin = array[tuple(slice(c, None) for c, _ in linear)]
    return np.lib.stride_tricks.as_strided(origin, shape, strides)


def gathered_view(
    value: object, indexing_map: AffineMap, ranges: Sequence[int], what: str
) -> np.ndarray | None:
    """The loop-space view of `value` for any map without symbols, as a copy."""
    array = np.asarray(value)
    if array.ndim == 0:
        return array.reshape((1,) * len(ranges))
    if indexing_map.num_symbols:
        return None
    rank = len(ranges)
    # AffineMap.eval only adds, multiplies and floor-divides: arrays work as ints.
    loops = [
        np.arange(r).reshape([r if d == axis else 1 for d in range(rank)])
        for axis, r in enumerate(ranges)
    ]
    indices = [np.asarray(i) for i in indexing_map.eval(cast(list[int], loops), [])]
    _check_reach(
        [int(i.min()) for i in indices],
        [int(i.max()) for i in indices],
        array.shape,
        what,
    )
    gathered = array[tuple(indices)]
    return gathered.reshape(gathered.shape if gathered.ndim else (1,) * rank)


def is_projected_permutation(indexing_map: AffineMap) -> bool:
    """Each result a distinct loop or a constant: views through it never alias."""
    dims = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return len(set(dims)) == len(dims) and all(
        isinstance(e, AffineDimExpr | AffineConstantExpr) for e in indexing_map.results
    )

"""How many times a loop runs, where its bounds are known before the run."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

LOOPS = frozenset({"scf.for", "scf.while", "affine.for"})
"""Ops whose body runs once per iteration, as many times as the loop says."""


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` defines `value` as, or None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip_count(loop: Operation) -> int | None:
    """The iterations of an `scf.for` whose bounds and step are
    `arith.constant`s, or of an `affine.for` whose bound maps take only
    constants, as `memplan-run` runs them (none for a step that is not
    positive, which the run refuses); None for another loop (`scf.while`,
    bounds known only at run time)."""
    if isinstance(loop, scf.ForOp):
        bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
        if None in bounds:
            return None
        lower, upper, step = bounds
        assert lower is not None and upper is not None and step is not None
    elif isinstance(loop, affine.ForOp):
        lower_count = len(loop.lowerBoundOperands)
        lowers = _bound(loop.lowerBoundMap, loop.operands[:lower_count])
        uppers = _bound(loop.upperBoundMap, loop.upperBoundOperands)
        if lowers is None or uppers is None:
            return None
        lower, upper, step = max(lowers), min(uppers), loop.step.value.data
    else:
        return None
    return max(0, -(-(upper - lower) // step)) if step > 0 else 0


def _bound(map_: AffineMapAttr, operands: Sequence[SSAValue]) -> list[int] | None:
    """The results of an `affine.for` bound map whose operands are constants."""
    values = [constant_int(v) for v in operands]
    if None in values:
        return None
    known = [v for v in values if v is not None]
    dims = map_.data.num_dims
    return list(map_.data.eval(known[:dims], known[dims:]))

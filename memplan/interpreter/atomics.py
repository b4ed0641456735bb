"""`memref.atomic_rmw`: each kind is the arith op MLIR combines with.

MLIR lowers an atomic kind to the arith op of the same name (`maxs` is
`arith.maxsi`, `maximumf` is `arith.maximumf`), so the interpreter uses that
op's kernel: NaN handling, unsigned views and integer wrapping agree with the
scalar and vectorized arith ops.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat
from xdsl.ir import Operation

from memplan.dialects import memref
from memplan.interpreter.arith_impl import ARITH_KERNELS
from memplan.interpreter.errors import ModelError
from memplan.interpreter.kernel_helpers import as_array, result_dtype

COMBINERS: dict[str, type[Operation]] = {
    "addf": arith.AddfOp,
    "addi": arith.AddiOp,
    "andi": arith.AndIOp,
    "maximumf": arith.MaximumfOp,
    "maxnumf": arith.MaxnumfOp,
    "maxs": arith.MaxSIOp,
    "maxu": arith.MaxUIOp,
    "minimumf": arith.MinimumfOp,
    "minnumf": arith.MinnumfOp,
    "mins": arith.MinSIOp,
    "minu": arith.MinUIOp,
    "mulf": arith.MulfOp,
    "muli": arith.MuliOp,
    "ori": arith.OrIOp,
    "xori": arith.XOrIOp,
}
"""Every kind but `assign` (which stores the value), by its arith op."""

FLOAT_ONLY = frozenset({"maxnumf", "minnumf"})
"""Kinds MLIR's verifier does not check against the value type, whose arith
op takes floats only."""


def atomic_update(
    op: memref.AtomicRMWOp, old: object, value: object, index_bitwidth: int
) -> np.ndarray:
    """What `op` stores: `value` for `assign`, else `old` combined with it."""
    kind = op.kind_name()
    dtype = result_dtype(op, index_bitwidth)
    if kind == "assign":
        return as_array(value, dtype)
    if kind in FLOAT_ONLY and not isinstance(op.value.type, AnyFloat):
        raise ModelError(
            f"kind '{kind}' combines floats (arith.{kind}): expected a "
            f"floating-point value, got {op.value.type}"
        )
    kernel = ARITH_KERNELS[COMBINERS[kind]]
    return kernel(op, [np.asarray(old), np.asarray(value)], index_bitwidth)

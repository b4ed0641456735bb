"""`cf.assert` (torch-mlir puts it in gather bodies for embedding bounds).

The branches themselves are xDSL's (`xdsl.interpreters.cf`); what they need
from memplan is a region runner whose cost does not grow with the number of
branches taken (`regions.py`).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.ir import Operation

from memplan.interpreter.errors import ModelError
from memplan.interpreter.kernel_helpers import Kernel


def _assert(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """Fail with the op's message unless every (broadcast) condition holds."""
    assert isinstance(op, cf.AssertOp)
    condition = np.asarray(args[0])
    if not np.all(condition):
        raise ModelError(f"assertion failed: {op.msg.data}")
    return condition


CF_KERNELS: dict[type[Operation], Kernel] = {cf.AssertOp: _assert}
"""cf ops that evaluate like arith ones (branches are not among them)."""

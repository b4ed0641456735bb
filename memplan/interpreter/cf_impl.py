"""`cf`: branches between blocks, and `cf.assert` (torch-mlir puts it in
gather bodies for embedding bounds).

The branches themselves are xDSL's (`xdsl.interpreters.cf`); what they need
from memplan is a region runner whose cost does not grow with the number of
branches taken.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import cf
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    ReturnedValues,
    Successor,
)
from xdsl.ir import Block, Operation, Region

from memplan.interpreter.errors import ModelError
from memplan.interpreter.kernel_helpers import Kernel


class BranchingInterpreter(Interpreter):
    """xDSL's interpreter with one scope of values per run of a region.

    xDSL's `run_ssacfg_region` opens a new scope for every block it enters
    and keeps the earlier ones as its parents, so a loop of branches taken n
    times makes every lookup walk n scopes (a two-block loop of 16,000 trips
    took 51 s).  One scope per run is enough for SSA: a block only uses
    values of the blocks that dominate it, whose latest run wrote them last.
    """

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        results: PythonValues = ()
        block: Block | None = region.blocks.first
        if block is None:
            return results
        self.push_scope(name)
        while block is not None:
            self.set_values(zip(block.args, args, strict=True))
            successor: Block | None = None
            for op in block.ops:
                outcome = self._run_op(op, self.get_values(op.operands))
                self.set_values(zip(op.results, outcome.values, strict=True))
                match outcome.terminator_value:
                    case ReturnedValues(values):
                        results = values
                        break
                    case Successor(successor, args):
                        break
                    case None:
                        pass
            block = successor
        self.pop_scope()
        return results


def _assert(op: Operation, args: list[np.ndarray], bits: int) -> np.ndarray:
    """Fail with the op's message unless every (broadcast) condition holds."""
    assert isinstance(op, cf.AssertOp)
    condition = np.asarray(args[0])
    if not np.all(condition):
        raise ModelError(f"assertion failed: {op.msg.data}")
    return condition


CF_KERNELS: dict[type[Operation], Kernel] = {cf.AssertOp: _assert}
"""cf ops that evaluate like arith ones (branches are not among them)."""

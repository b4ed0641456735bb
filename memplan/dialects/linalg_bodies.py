"""Bodies of linalg ops verified as MLIR's structured-op verifier does.

xDSL 0.74 checks a `linalg.generic`'s block arguments but not what its
`linalg.yield` hands back, and checks neither for `linalg.transpose` and
`linalg.broadcast`, whose bodies memplan does not run (it computes them from
the op's definition).  So a body with more or fewer arguments than the op
has operands, arguments of other types than their elements, or a yield of
another count or types than the outputs verified, and memplan planned and
ran the op.  MLIR rejects it (`verifyStructuredOpInterface`,
`linalg::YieldOp::verify`); so do these ops, with MLIR's messages.  The
yield check is `linalg_base.verify_yield`, which memplan's own linalg ops
use too.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.linalg import ops
from xdsl.ir import Block, SSAValue
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import body_arg_types, verify_yield

__all__ = ["BroadcastOp", "GenericOp", "TransposeOp"]


def check_arguments(body: Block, operands: Sequence[SSAValue]) -> None:
    """One block argument per operand, of its element type."""
    if len(body.args) != len(operands):
        raise VerifyException(
            "expected as many non-induction variable region arguments as the "
            "number of input/output operands"
        )
    expected = body_arg_types(operands)
    for number, (argument, element) in enumerate(zip(body.args, expected, strict=True)):
        if argument.type != element:
            raise VerifyException(
                f"expected type of bb argument #{number} ('{argument.type}') to "
                "match element or self type of the corresponding operand "
                f"('{element}')"
            )


class GenericOp(ops.GenericOp):
    """xDSL's `linalg.generic` with MLIR's check of its yield (xDSL checks
    its block arguments).  A subclass, so `isinstance` with xDSL's class
    holds; the interpreter registers both."""

    def verify_(self) -> None:
        super().verify_()
        verify_yield(self, self.body.block, self.outputs)


class TransposeOp(ops.TransposeOp):
    """xDSL's `linalg.transpose` with MLIR's checks of its body."""

    def verify_(self) -> None:
        super().verify_()
        check_arguments(self.body.block, [*self.inputs, *self.outputs])
        verify_yield(self, self.body.block, self.outputs)


class BroadcastOp(ops.BroadcastOp):
    """xDSL's `linalg.broadcast` with MLIR's checks of its body."""

    def verify_(self) -> None:
        super().verify_()
        check_arguments(self.hidden_region.block, [self.input, self.init])
        verify_yield(self, self.hidden_region.block, [self.init])

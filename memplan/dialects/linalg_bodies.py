"""Bodies of linalg ops verified as MLIR's structured-op verifier does.

xDSL 0.74 checks a `linalg.generic`'s block arguments but not what its
`linalg.yield` hands back, and checks neither for `linalg.transpose` and
`linalg.broadcast`, whose bodies memplan does not run (it computes them from
the op's definition).  So a body with more or fewer arguments than the op
has operands, arguments of other types than their elements, or a yield of
another count or types than the outputs verified, and memplan planned and
ran the op.  MLIR rejects it (`verifyStructuredOpInterface`,
`linalg::YieldOp::verify`); so do these ops, with MLIR's messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.linalg import ops
from xdsl.ir import Block, SSAValue
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import body_arg_types, element_type

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


def check_yield(body: Block, outputs: Sequence[SSAValue]) -> None:
    """A `linalg.yield` ending `body` with one value per output, of its
    element type."""
    terminator = body.last_op
    if not isinstance(terminator, ops.YieldOp):
        return  # xDSL refuses an empty body, or one that ends in another op
    if len(terminator.operands) != len(outputs):
        raise VerifyException(
            "expected number of yield values "
            f"({len(terminator.operands)}) to match the number of inits / outs "
            f"operands of the enclosing LinalgOp ({len(outputs)})"
        )
    for number, (value, output) in enumerate(
        zip(terminator.operands, outputs, strict=True)
    ):
        element = element_type(output.type)
        if value.type != element:
            # MLIR names linalg.generic whatever the op.
            raise VerifyException(
                f"type of yield operand {number + 1} ('{value.type}') doesn't "
                "match the element type of the enclosing linalg.generic op "
                f"('{element}')"
            )


class GenericOp(ops.GenericOp):
    """xDSL's `linalg.generic` with MLIR's check of its yield (xDSL checks
    its block arguments).  A subclass, so `isinstance` with xDSL's class
    holds; the interpreter registers both."""

    def verify_(self) -> None:
        super().verify_()
        check_yield(self.body.block, self.outputs)


class TransposeOp(ops.TransposeOp):
    """xDSL's `linalg.transpose` with MLIR's checks of its body."""

    def verify_(self) -> None:
        super().verify_()
        check_arguments(self.body.block, [*self.inputs, *self.outputs])
        check_yield(self.body.block, self.outputs)


class BroadcastOp(ops.BroadcastOp):
    """xDSL's `linalg.broadcast` with MLIR's checks of its body."""

    def verify_(self) -> None:
        super().verify_()
        check_arguments(self.hidden_region.block, [self.input, self.init])
        check_yield(self.hidden_region.block, [self.init])

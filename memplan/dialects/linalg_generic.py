"""`linalg.generic` whose `linalg.yield` is verified as MLIR verifies it.

xDSL 0.74 verifies a generic's indexing maps, loop ranges and block
arguments as MLIR's structured-op verifier does, but not what its body
yields: a `linalg.yield` of more or fewer values than the op has outputs, or
of other types than their elements, verified, and memplan planned and ran
the loop nest.  MLIR rejects it (`linalg::YieldOp::verify`); so does this
op, with MLIR's messages.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg import ops
from xdsl.utils.exceptions import VerifyException

__all__ = ["GenericOp"]


class GenericOp(ops.GenericOp):
    """xDSL's `linalg.generic` with MLIR's check of its yield: what memplan
    parses.  A subclass, so `isinstance` with xDSL's class holds; the
    interpreter registers both."""

    def verify_(self) -> None:
        super().verify_()
        terminator = self.body.block.last_op
        if not isinstance(terminator, ops.YieldOp):
            raise VerifyException("linalg.generic body must end with linalg.yield")
        if len(terminator.operands) != len(self.outputs):
            raise VerifyException(
                "expected number of yield values "
                f"({len(terminator.operands)}) to match the number of inits / outs "
                f"operands of the enclosing LinalgOp ({len(self.outputs)})"
            )
        for number, (value, output) in enumerate(
            zip(terminator.operands, self.outputs, strict=True)
        ):
            element = output.type
            if isinstance(element, MemRefType | TensorType):
                element = element.get_element_type()
            if value.type != element:
                raise VerifyException(
                    f"type of yield operand {number + 1} ('{value.type}') doesn't "
                    "match the element type of the enclosing linalg.generic op "
                    f"('{element}')"
                )

"""affine for memplan: xDSL 0.74's dialect with MLIR's check of the step of
`affine.for`.

MLIR's verifier requires a positive step ("expected step to be a positive
integer"); xDSL's verifies any.  Its custom syntax refuses a negative step but
reads `step 0`, and its generic form takes any, so a loop whose step MLIR
leaves undefined verified and reached the passes; only `memplan-run` refused
it.

`ForOp` is a subclass of xDSL's, not a new definition: xDSL's `affine.yield`
accepts any subclass as its parent and passes keep
`isinstance(op, xdsl.dialects.affine.ForOp)`, but the interpreter, which
dispatches on the exact class, registers both.  xDSL's custom-form parser
builds its own class whatever class it is called on, so `ForOp.parse`
rebuilds what it returns.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import affine
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.memory import INDEX_MAX
from memplan.dialects.syntax import rebuilt_as

__all__ = ["AFFINE", "ForOp"]


class ForOp(affine.ForOp):
    """`affine.for %i = lb to ub step s { ... }`, with `s` at least 1."""

    def verify_(self) -> None:
        super().verify_()
        step = self.step.value.data
        if not 0 < step <= INDEX_MAX:
            raise VerifyException(
                f"expected step to be a positive integer (1 to {INDEX_MAX}), got {step}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parsed = super().parse(parser)
        op = rebuilt_as(parsed, cls)
        parsed.erase()
        return op


AFFINE = Dialect(
    "affine",
    [ForOp if op is affine.ForOp else op for op in affine.Affine.operations],
    list(affine.Affine.attributes),
)
"""affine for memplan: xDSL's ops with `affine.for` replaced."""

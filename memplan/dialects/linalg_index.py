"""`linalg.index` as MLIR defines it: the index of a loop of the enclosing
structured op, inside the body of any of them.

xDSL 0.74's op may only sit in a `linalg.generic`; MLIR's may sit in any op
with loops (`map`, `reduce`, a named op such as `fill_rng_2d`, whose body MLIR
builds with it).  The verifier has MLIR's two rules: a parent with loops, and
a dimension below their number.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IndexType, IntegerAttr, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

__all__ = ["IndexOp"]


@irdl_op_definition
class IndexOp(IRDLOperation):
    """The current index of loop `dim` of the enclosing structured op."""

    name = "linalg.index"

    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)

    assembly_format = "$dim attr-dict `:` type($result)"

    def __init__(self, dim: int):
        super().__init__(
            properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()]
        )

    def verify_(self) -> None:
        parent = self.parent_op()
        loops = getattr(parent, "get_iterator_types", None)
        if parent is None or not parent.name.startswith("linalg.") or loops is None:
            raise VerifyException(
                "linalg.index must be in the body of a linalg op with loops, got "
                f"{'no parent' if parent is None else parent.name}"
            )
        count = len(loops())
        if not 0 <= self.dim.value.data < count:
            raise VerifyException(
                f"linalg.index dim {self.dim.value.data} is not a loop of the "
                f"enclosing {parent.name} ({count} loops)"
            )

"""How memplan passes word a failure: the pass, the function, then what is wrong."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation


def failure(pass_name: str, op: Operation, message: str) -> str:
    """`message` about `op`, prefixed with the pass and the enclosing function."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    where = "" if parent is None else f"in @{parent.sym_name.data}, "
    return f"{pass_name}: {where}{message}"

"""How memplan passes word a failure: the pass, the function, then what is wrong."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from memplan.planning.buffers import INT64_MAX


def failure(pass_name: str, op: Operation, message: str) -> str:
    """`message` about `op`, prefixed with the pass and the enclosing function."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    where = "" if parent is None else f"in @{parent.sym_name.data}, "
    return f"{pass_name}: {where}{message}"


def describe(value: SSAValue) -> str:
    """How diagnostics name a value: its SSA name when it has one."""
    if value.name_hint:
        return f"%{value.name_hint}"
    owner = value.owner
    what = owner.name if isinstance(owner, Operation) else "block argument"
    return f"an unnamed {what}"


def check_storage_bytes(pass_name: str, op: Operation, what: str, size: int) -> None:
    """Fail `pass_name` at `op` when `size` bytes of `what` do not fit the i64
    size property of a storage (it would wrap to a negative size)."""
    if size > INT64_MAX:
        raise PassFailedException(
            failure(
                pass_name,
                op,
                f"{what} would need {size} bytes, more than a storage size "
                f"holds (at most {INT64_MAX})",
            )
        )

"""How memplan passes word a failure: the pass, the function, then what is wrong."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsolatedFromAbove
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
    """How diagnostics name a value: as the printed module spells it, `%name`
    for a value with a name hint, `%N` for one without (IR built outside a
    module has no printed name: "an unnamed memory.alloc_tensor")."""
    top = _top(value)
    if value.name_hint:
        return f"%{printed_name(value)}"
    if top is not None:
        _, count = _printed_before(top, value, lambda other: not other.name_hint, 0)
        return f"%{count}"
    owner = value.owner
    what = owner.name if isinstance(owner, Operation) else "block argument"
    return f"an unnamed {what}"


def named_op(op: Operation) -> str:
    """An op and its first result's printed name ("memory.alloc_storage
    %arena"), or what `describe` says when it has none."""
    if not op.results:
        return op.name
    name = describe(op.results[0])
    return f"{op.name} {name}" if name.startswith("%") else name


def printed_name(value: SSAValue) -> str:
    """The name xDSL's printer gives a value with a name hint: the hint, and
    `_N` after it when N values printed before it in its scope have that
    hint too (a scope is everything around it up to the op isolated from
    above, which starts from the names printed before that op)."""
    hint = value.name_hint
    assert hint is not None
    top = _top(value)
    if top is None:
        return hint
    found, count = _printed_before(top, value, lambda other: other.name_hint == hint, 0)
    return f"{hint}_{count}" if found and count else hint


def _top(value: SSAValue) -> Operation | None:
    """The outermost op around `value`, None when no op holds it (the result
    of an op not inserted anywhere, which is never printed on its own)."""
    top = value.owner.parent_op()
    while top is not None and top.parent_op() is not None:
        top = top.parent_op()
    return top


def _printed_before(
    op: Operation, value: SSAValue, counts: Callable[[SSAValue], bool], count: int
) -> tuple[bool, int]:
    """Whether `value` is printed with `op`, and how many values the printer
    names as it does (same hint, or numbered) in its scope by then (or after
    `op`): results first, then each block's arguments and ops."""
    for result in op.results:
        if result is value:
            return True, count
        count += counts(result)
    inner = count
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                if arg is value:
                    return True, inner
                inner += counts(arg)
            for nested in block.ops:
                found, inner = _printed_before(nested, value, counts, inner)
                if found:
                    return True, inner
    return False, count if op.has_trait(IsolatedFromAbove) else inner


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

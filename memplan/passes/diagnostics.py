"""How memplan passes word a failure: the pass, the function, then what is wrong."""

from __future__ import annotations

from collections import Counter

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
    module has no printed name: "an unnamed memory.alloc_tensor").  Each call
    walks the module: to name many values, use `printed_names` once."""
    top = _top(value)
    if top is not None:
        return printed_names(top)[value]
    if value.name_hint:
        return f"%{value.name_hint}"
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


def printed_names(top: Operation) -> dict[SSAValue, str]:
    """The names xDSL's printer gives the values in and under `top`, in one
    walk: a value with a name hint is `%hint`, with `_N` after it when N
    values printed before it in its scope have that hint too; one without is
    `%N`, N counting the values without a hint printed before it in its scope.
    A scope is everything around a value up to the op isolated from above,
    which starts from the counts printed before that op; results come first,
    then each block's arguments and ops."""
    names: dict[SSAValue, str] = {}

    def name(value: SSAValue, seen: Counter[str | None]) -> None:
        hint = value.name_hint
        count = seen[hint]
        seen[hint] += 1
        if hint is None:
            names[value] = f"%{count}"
        else:
            names[value] = f"%{hint}_{count}" if count else f"%{hint}"

    def visit(op: Operation, seen: Counter[str | None]) -> None:
        for result in op.results:
            name(result, seen)
        inner = Counter(seen) if op.has_trait(IsolatedFromAbove) else seen
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    name(arg, inner)
                for nested in block.ops:
                    visit(nested, inner)

    visit(top, Counter())
    return names


def _top(value: SSAValue) -> Operation | None:
    """The outermost op around `value`, None when no op holds it (the result
    of an op not inserted anywhere, which is never printed on its own)."""
    top = value.owner.parent_op()
    while top is not None and top.parent_op() is not None:
        top = top.parent_op()
    return top


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

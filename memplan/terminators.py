"""Where a yield may stand, checked as MLIR checks it.

MLIR's `affine.yield` ends only an `affine.for`, `affine.if` or
`affine.parallel` ("only terminates affine.if/for/parallel regions"), and
`linalg.yield` only the body of a linalg op ("expected parent op with
LinalgOp interface").  xDSL 0.74 checks neither, so a `func.func` whose body
ended in `affine.yield` instead of `func.return` verified, and memplan
planned and ran it.  `MemplanParser` rejects such a yield where it is
written.
"""

from __future__ import annotations

from xdsl.ir import Operation

from memplan.ir_walk import walk

_PARENTS = {
    "affine.yield": (
        ("affine.for", "affine.if", "affine.parallel"),
        "only terminates affine.if/for/parallel regions",
    ),
    "linalg.yield": (None, "expected parent op with LinalgOp interface"),
}
"""For each yield: the ops it may end (None: any linalg op), and MLIR's
message."""


def misplaced_yield(root: Operation) -> tuple[Operation, str] | None:
    """The first yield under `root` (in walk order) whose parent op may not
    hold it, and MLIR's message; or None."""
    for op in walk(root):
        rule = _PARENTS.get(op.name)
        if rule is None:
            continue
        parents, message = rule
        parent = op.parent_op()
        name = "" if parent is None else parent.name
        allowed = name.startswith("linalg.") if parents is None else name in parents
        if not allowed:
            return op, f"{message}, got {name or 'no parent op'}"
    return None

"""Give the ops a pass built the classes of the context it runs in.

memplan's passes build memplan's own definitions of upstream ops (for
example `memref.copy`, which prints in MLIR's custom form). Stock `xdsl-opt`
parses with xDSL's classes, some of which have no custom syntax, so a module
printed with memplan's classes would not parse back in the tool that printed
it. Rebuilding every op whose class is not the one the context registers for
its name makes the output read back in the same tool: memplan's classes under
`memplan-opt`, xDSL's under stock `xdsl-opt`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from memplan.dialects.syntax import rebuilt_as
from memplan.ir_walk import walk


def _registered_classes(ctx: Context, dialect_name: str) -> dict[str, type[Operation]]:
    """The op classes `ctx` parses `dialect_name`'s ops with, by op name
    (none when the context does not know the dialect)."""
    dialect = ctx.get_optional_dialect(dialect_name)
    if dialect is None:
        return {}
    return {op.name: op for op in dialect.operations}


def use_context_classes(ctx: Context, root: Operation) -> None:
    """Rebuild each op under `root` whose class differs from the one `ctx`
    registers for its name, keeping its operands, results, properties,
    attributes, successors and regions."""
    classes: dict[str, dict[str, type[Operation]]] = {}
    for op in tuple(walk(root)):
        dialect_name = op.name.partition(".")[0]
        if dialect_name not in classes:
            classes[dialect_name] = _registered_classes(ctx, dialect_name)
        registered = classes[dialect_name].get(op.name)
        if registered is None or type(op) is registered:
            continue
        Rewriter.replace_op(op, rebuilt_as(op, registered))

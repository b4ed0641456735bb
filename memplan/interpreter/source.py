"""Where each op was written, and how error messages name an op.

xDSL's parser keeps no source location on an op unless the text spells one
out (`loc("f.mlir":3:5)`).  `parse_with_locations` gives every op without a
location a `FileLineColLoc` where its text starts (`MemplanParser.op_spans`),
so the interpreter's errors can say `memory.kill (prog.mlir:12:3, in @main)`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnregisteredOp,
)
from xdsl.ir import Operation

from memplan.dialects.memref import attach_blobs
from memplan.parser import MemplanParser


def parse_with_locations(
    ctx: Context, text: str | bytes, name: str, *, implicit_module: bool = True
) -> ModuleOp:
    """Parse `text` (called `name` in messages), locate its ops and keep its
    dense_resource blobs with it."""
    parser = MemplanParser(ctx, text, name)
    module = parser.parse_module(implicit_module)
    attach_blobs(module, ctx)
    file = StringAttr(name)
    line_ends: list[int] | None = None
    for op, span in parser.op_spans.items():
        if isinstance(op.location, FileLineColLoc):
            continue
        if line_ends is None:
            line_ends = [m.start() for m in re.finditer("\n", span.input.content)]
        line = bisect.bisect_left(line_ends, span.start)
        column = span.start - (line_ends[line - 1] + 1 if line else 0)
        op.location = FileLineColLoc(file, IntAttr(line + 1), IntAttr(column + 1))
    return module


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def location_of(op: Operation) -> SourceLocation | None:
    """Where the op was written, when known."""
    location = op.location
    if isinstance(location, FileLineColLoc):
        return SourceLocation(
            location.filename.data, location.line.data, location.column.data
        )
    return None


def enclosing_function(op: Operation) -> str | None:
    """The name of the function holding `op`, if any."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent.sym_name.data if parent is not None else None


def op_name(op: Operation) -> str:
    """The name the text gave `op`: an op of an unregistered dialect is an
    xDSL `builtin.unregistered` keeping its own name in an attribute."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def describe(op: Operation, *, line: bool = True) -> str:
    """`memory.alloc_tensor %a (line 4, in @seed)`: enough to find the op.

    The line is known when the module was parsed with `parse_with_locations`
    (as `memplan-run` does) or spells out its locations.
    """
    hints = dict.fromkeys(r.name_hint for r in op.results if r.name_hint)
    names = ", ".join(f"%{hint}" for hint in hints)
    name = op_name(op)
    text = f"{name} {names}" if names else name
    where: list[str] = []
    source = location_of(op) if line else None
    if source is not None:
        where.append(f"line {source.line}")
    function = enclosing_function(op)
    if function is not None:
        where.append(f"in @{function}")
    return f"{text} ({', '.join(where)})" if where else text


def locate(op: Operation) -> str:
    """`prog.mlir:14:3: linalg.fill (in @main)`: the op an error is about."""
    source = location_of(op)
    text = describe(op, line=False)
    return f"{source}: {text}" if source is not None else text

"""Parse a module remembering where each op was written, for error messages.

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
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
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

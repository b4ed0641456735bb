"""MiniMalloc's CSV trace format: `id,lower,upper,size[,alignment][,offset]`.

Every error names the file and line, so a tool can print it as is.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from memplan.planning.buffers import (
    INT64_MAX,
    Buffer,
    BufferId,
    TraceError,
    buffer_problem,
)
from memplan.text import NotText, decode_text

REQUIRED_COLUMNS = ("id", "lower", "upper", "size")
OFFSET_COLUMN = "offset"
# Plain decimal integers: no `1_0`, no non-ASCII digits, no `0x10`.
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)


@dataclass(frozen=True)
class Trace:
    """A parsed trace; keeps the raw rows so a planned copy can echo them."""

    path: Path
    columns: list[str]
    rows: list[list[str]]
    buffers: list[Buffer]
    # Offsets from an `offset` column (a planned trace), else None.
    offsets: dict[BufferId, int] | None


def _integer(path: Path, line: int, column: str, text: str) -> int:
    """A decimal integer that fits in 64 bits, as the search's arrays need."""
    digits = text.strip(" \t")
    if not _INTEGER.fullmatch(digits):
        raise TraceError(f"{path}:{line}: {column} {text!r} is not an integer")
    # Python converts at most 4,300 digits; a 64-bit integer has 19 at most.
    magnitude = digits.lstrip("+-").lstrip("0")
    value = int(digits) if len(magnitude) <= len(str(INT64_MAX)) else None
    if value is None or not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise TraceError(
            f"{path}:{line}: {column} {digits} does not fit in 64 bits"
            f" (at most {INT64_MAX} in magnitude)"
        )
    return value


def read_trace(path: str | os.PathLike[str], min_alignment: int = 1) -> Trace:
    """Parse and check a trace; `min_alignment` raises every buffer's alignment
    (an `alignment` column must still hold a positive power of two)."""
    path = Path(path)
    try:
        # A byte-order mark (as some spreadsheets write) is not part of `id`.
        text = decode_text(path.read_bytes()).removeprefix("\ufeff")
        stream = io.StringIO(text, newline="")
        records = [(line, row) for line, row in _numbered_rows(stream) if row]
    except OSError as error:
        raise TraceError(f"{path}: cannot read: {error.strerror}") from None
    except NotText as error:
        raise TraceError(f"{path}: cannot read: {error}") from None
    except csv.Error as error:
        raise TraceError(f"{path}: malformed CSV: {error}") from None
    if not records:
        raise TraceError(
            f"{path}:1: empty file, expected a header {','.join(REQUIRED_COLUMNS)}"
        )
    header_line, header = records[0]
    columns = [name.strip() for name in header]
    for name in REQUIRED_COLUMNS:
        if name not in columns:
            raise TraceError(f"{path}:{header_line}: missing column {name!r}")
    for k, name in enumerate(columns):
        if name in columns[:k]:
            raise TraceError(
                f"{path}:{header_line}: column {name!r} appears twice"
                f" (columns {columns.index(name) + 1} and {k + 1})"
            )
    position = {name: columns.index(name) for name in columns}
    has_offsets = OFFSET_COLUMN in position
    buffers: list[Buffer] = []
    offsets: dict[BufferId, int] = {}
    seen: set[BufferId] = set()
    for line, row in records[1:]:
        if len(row) != len(columns):
            raise TraceError(
                f"{path}:{line}: expected {len(columns)} fields, got {len(row)}"
            )

        def field(name: str, line: int = line, row: list[str] = row) -> int:
            return _integer(path, line, name, row[position[name]])

        buffer = Buffer(
            id=row[position["id"]].strip(),
            lower=field("lower"),
            upper=field("upper"),
            size=field("size"),
            alignment=field("alignment") if "alignment" in position else 1,
        )
        problem = buffer_problem(buffer)
        if problem is not None:
            raise TraceError(f"{path}:{line}: {problem}")
        if buffer.alignment < min_alignment:
            buffer = replace(buffer, alignment=min_alignment)
        if buffer.id in seen:
            raise TraceError(f"{path}:{line}: duplicate buffer id {buffer.id!r}")
        seen.add(buffer.id)
        buffers.append(buffer)
        if has_offsets:
            offsets[buffer.id] = field(OFFSET_COLUMN)
    rows = [row for _, row in records[1:]]
    return Trace(path, columns, rows, buffers, offsets if has_offsets else None)


def _numbered_rows(stream: TextIO) -> list[tuple[int, list[str]]]:
    reader = csv.reader(stream)
    return [(reader.line_num, row) for row in reader]


def write_trace(path: Path, trace: Trace, offsets: Mapping[BufferId, int]) -> None:
    """Write the input columns plus (or with a replaced) `offset` column."""
    keep = [k for k, name in enumerate(trace.columns) if name != OFFSET_COLUMN]
    with path.open("w", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow([trace.columns[k] for k in keep] + [OFFSET_COLUMN])
        for row, buffer in zip(trace.rows, trace.buffers, strict=True):
            writer.writerow([row[k] for k in keep] + [offsets[buffer.id]])

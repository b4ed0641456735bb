"""A live status line on stderr for long `best` searches, when stderr is a terminal."""

from __future__ import annotations

import sys
from typing import TextIO

_CLEAR_LINE = "\r\x1b[K"


class StatusLine:
    """Rewrites one line in place: best height so far, nodes spent, elapsed seconds."""

    def __init__(self, prefix: str, stream: TextIO):
        self.prefix = prefix
        self.stream = stream
        self.shown = False

    def loading_kernel(self, compiling: bool) -> None:
        if compiling:
            self.clear()
            print(
                f"{self.prefix}: compiling the search kernel with numba"
                " (once per machine, about 30 s)...",
                file=self.stream,
                flush=True,
            )

    def searching(self, height: int, nodes: int, seconds: float) -> None:
        self.stream.write(
            f"{_CLEAR_LINE}{self.prefix}: best height so far {height},"
            f" {nodes:,} nodes, {seconds:.1f} s"
        )
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Remove the status line, so the next output starts on a clean line."""
        if self.shown:
            self.stream.write(_CLEAR_LINE)
            self.stream.flush()
            self.shown = False


def end_status_line(stream: TextIO | None) -> None:
    """On a terminal, clear the line the cursor is on (a status line, or the
    `^C` the terminal echoed), so that a last message starts at its left."""
    if stream is not None and stream.isatty():
        stream.write(_CLEAR_LINE)
        stream.flush()


def status_line(prefix: str, stream: TextIO | None = None) -> StatusLine | None:
    """A status line on `stream` (stderr by default) if it is a terminal, else None."""
    out = sys.stderr if stream is None else stream
    if out is None or not out.isatty():
        return None
    return StatusLine(prefix, out)

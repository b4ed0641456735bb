"""Live status lines on stderr, when stderr is a terminal: the `best`
search's progress (`StatusLine`) and, for the IR tools, what a long run is
doing and for how long (`Ticker`)."""

from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

_CLEAR_LINE = "\r\x1b[K"

_terminal = threading.RLock()
"""Held while a ticker writes its line or a command writes its last one."""
_running: set[Ticker] = set()
"""The tickers whose lines may still be written (under `_terminal`)."""


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


class Ticker:
    """`prefix: <what the run is doing>, <seconds> s`, rewritten in place
    every `PERIOD` seconds once the run has taken `DELAY` (quick runs show
    nothing), and cleared at the end of the `with` block.  A thread of its
    own writes it, so the work never checks the clock; on a stream that is
    not a terminal it does nothing."""

    DELAY = 1.0
    PERIOD = 0.25

    def __init__(
        self, prefix: str, doing: Callable[[], str], stream: TextIO | None = None
    ):
        self.prefix = prefix
        self.doing = doing
        """What the line says the run is doing; called on the ticker's thread."""
        self.stream = sys.stderr if stream is None else stream
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False
        self._replaced: TextIO | None = None
        """sys.stderr before the ticker put `_AboveTheLine` in its place."""

    def __enter__(self) -> Ticker:
        if self.stream is not None and self.stream.isatty():
            self._thread = threading.Thread(
                target=self._tick, args=(time.monotonic(),), daemon=True
            )
            with _terminal:
                _running.add(self)
                if sys.stderr is self.stream:
                    # What the run itself prints there (remarks) goes on a
                    # line of its own, not after the status line.
                    self._replaced = sys.stderr
                    sys.stderr = _AboveTheLine(self)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._thread is None:
            return
        with _terminal:
            self.stop_writing()
            self.clear()
            if self._replaced is not None and isinstance(sys.stderr, _AboveTheLine):
                sys.stderr = self._replaced
        self._thread.join()

    def clear(self) -> None:
        """Remove the status line if it is shown (the caller holds `_terminal`)."""
        if self._shown:
            self.stream.write(_CLEAR_LINE)
            self.stream.flush()
            self._shown = False

    def stop_writing(self) -> None:
        """Write no more lines (the caller holds `_terminal`)."""
        self._stop.set()
        _running.discard(self)

    def _tick(self, start: float) -> None:
        wait = self.DELAY
        while not self._stop.wait(wait):
            line = f"{_CLEAR_LINE}{self.prefix}: {self.doing()}"
            line += f", {time.monotonic() - start:.1f} s"
            with _terminal:
                if self._stop.is_set():
                    return
                self.stream.write(line)
                self.stream.flush()
                self._shown = True
            wait = self.PERIOD


class _AboveTheLine(io.TextIOBase):
    """sys.stderr while a ticker runs on it: each write first clears the
    status line, which the ticker writes again after its next period."""

    def __init__(self, ticker: Ticker):
        self._ticker = ticker

    def write(self, text: str) -> int:
        with _terminal:
            self._ticker.clear()
            return self._ticker.stream.write(text)

    def flush(self) -> None:
        self._ticker.stream.flush()

    def isatty(self) -> bool:
        return self._ticker.stream.isatty()

    def fileno(self) -> int:
        return self._ticker.stream.fileno()


def end_status_line(stream: TextIO | None) -> None:
    """On a terminal, clear the line the cursor is on (a status line, or the
    `^C` the terminal echoed), so that a last message starts at its left;
    tickers still running (on a thread a Ctrl-C left behind) write no more."""
    with _terminal:
        for ticker in list(_running):
            ticker.stop_writing()
        if stream is not None and stream.isatty():
            stream.write(_CLEAR_LINE)
            stream.flush()


def status_line(prefix: str, stream: TextIO | None = None) -> StatusLine | None:
    """A status line on `stream` (stderr by default) if it is a terminal, else None."""
    out = sys.stderr if stream is None else stream
    if out is None or not out.isatty():
        return None
    return StatusLine(prefix, out)

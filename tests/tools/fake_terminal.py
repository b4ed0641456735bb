"""A stderr that says it is a terminal, for the tools' status lines."""

from __future__ import annotations

import io
import time


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def until_shown(terminal: Terminal, text: str) -> None:
    """Wait for a ticker's thread to write `text` (it runs at its own pace)."""
    give_up = time.monotonic() + 30
    while text not in terminal.getvalue():
        assert time.monotonic() < give_up, terminal.getvalue()
        time.sleep(0.01)

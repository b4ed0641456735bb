"""What every memplan command does around its work: run it on a deep stack,
and end a Ctrl-C with one line instead of a Python traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable

from memplan.deep_stack import call_with_deep_stack
from memplan.tools.progress import end_status_line

EXIT_INTERRUPTED = 130
"""128 + SIGINT: the status a shell reports for a command a Ctrl-C stopped."""


def run_command(command: str, work: Callable[[], int]) -> int:
    """`work()` on a deep stack (xDSL and memplan follow nested regions by
    recursion); a Ctrl-C stops it and prints `<command>: interrupted`."""
    try:
        return call_with_deep_stack(work)
    except KeyboardInterrupt:
        end_status_line(sys.stderr)
        print(f"{command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED

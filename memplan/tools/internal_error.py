"""What a memplan command prints when something it did not expect goes wrong.

Bad input has its own messages; an exception none of them covers is a bug in
memplan (or xDSL), so the command still prints one line and exits non-zero,
asking for a report, and `MEMPLAN_TRACEBACK=1` shows the Python traceback.
"""

from __future__ import annotations

import os
import sys

from memplan.text import cut_tokens

TRACEBACK_VARIABLE = "MEMPLAN_TRACEBACK"


def report_internal_error(command: str, error: Exception) -> None:
    """Print the one-line report, or re-raise when the traceback is asked for."""
    if os.environ.get(TRACEBACK_VARIABLE):
        raise error
    print(
        f"{command}: internal error: {type(error).__name__}: {cut_tokens(str(error))}\n"
        f"  this is a bug in memplan: please report it with the input and the "
        f"command line; {TRACEBACK_VARIABLE}=1 shows the Python traceback",
        file=sys.stderr,
    )

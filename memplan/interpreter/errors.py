"""Errors the interpreter reports to its users."""

from __future__ import annotations


class InterpretationError(Exception):
    """A program did something its memory plan does not allow.

    The message names the op (``memory.alloc_tensor: ...``) and gives the
    numbers involved, so a plan can be fixed without a debugger.
    """


class ModelError(Exception):
    """A check failed inside an op implementation.

    Raised without the op's name; the runner knows which op was executing and
    turns it into an `InterpretationError`.
    """

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


READ_ONLY_WRITE = (
    "writes a read-only buffer: a constant memref.global, or a "
    "bufferization.to_buffer that is read_only or of a tensor argument of the "
    "function run (MLIR leaves writing those undefined); expected a write to a "
    "buffer of its own (a memref.alloc and a memref.copy)"
)
"""What numpy's refusal to write a read-only array means in a program."""


def plain_message(error: Exception) -> str:
    """What went wrong, in words: an error's text without its Python class.

    Exceptions other than ours mean a case the interpreter does not check
    for itself; their text is kept when it says something, never their class.
    """
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if isinstance(error, RecursionError):
        return (
            "calls and regions nest deeper than the interpreter can follow "
            "(Python's recursion limit: some 15,000 levels of calls, fewer when "
            "each level nests loops or branches, some 60 when a memory limit "
            "such as ulimit -v leaves no room for the interpreter's stack): "
            "expected a recursion that ends sooner; is it unbounded?"
        )
    text = "" if isinstance(error, KeyError) else str(error).strip()
    if isinstance(error, ValueError) and text.endswith("is read-only"):
        return READ_ONLY_WRITE
    return text or "the interpreter failed without a message (a bug: please report it)"

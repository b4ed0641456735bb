"""Running memplan where deep recursion fits: a thread with a large stack.

xDSL parses, verifies, walks and prints nested regions by recursion (a
region nested in an op some 10 Python frames deeper than the op), memplan's
passes recurse over regions too, and each interpreted call nests 10 to 35
frames (the call, its body's blocks, the regions of the `scf.if`s and loops
around the next call).  Python's default recursion limit of 1000 stops at
some 100 levels of nested regions or 60 of calls, and a higher limit on the
main thread overflows its 8 MiB C stack (a segmentation fault) before it
stops anything.  `call_with_deep_stack` runs a function on a worker thread
whose stack is `STACK_BYTES` (address space, used only as deep as the
recursion goes) with the recursion limit raised to `RECURSION_LIMIT` while
it runs: some 15,000 levels of calls fit, and the 10,000 levels of nested
regions `memplan.parser.MAX_REGION_NESTING` allows with room to spare; a
runaway recursion still ends with a `RecursionError`, long before the stack
runs out.  Each memplan tool runs its whole `main` so; the interpreter does
too when it is called as a library.

The calling thread waits for the worker: the worker's result is returned
and its exception raised, as if the call had run in place (context
variables, such as numpy's error state, are the caller's).  A call from the
worker itself runs in place, on the stack it already has.  A Ctrl-C while
the worker starts or runs raises `KeyboardInterrupt` in the caller at once,
and in the worker too, so that the call does not run on in the background.
"""

from __future__ import annotations

import contextvars
import ctypes
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

STACK_BYTES = 256 * 2**20
"""The worker's stack: address space reserved, not memory used."""

RECURSION_LIMIT = 250_000
"""Python frames the worker may nest.  The interpreter's frames take 185 to
285 bytes of C stack each (measured on recursions through `scf.if`,
`scf.for`, `scf.while` and `cf` branches), so at this limit the stack is at
most about a quarter used; frames that all recursed through C code (some
800 bytes each: `functools.partial`, a class's `__init__`) would still fit.
`plain_message` of a `RecursionError` gives the levels it allows."""

_WAIT_SECONDS = 0.1
"""How long the caller waits for the worker at a time: a Ctrl-C is seen
this soon at the latest (a wait without a timeout is not interrupted on
every platform)."""

_lock = threading.Lock()
_running = 0
_caller_limit = 0
_on_worker = threading.local()
"""`deep` is set on a worker's thread while it runs its function."""


@contextmanager
def _deep_recursion() -> Iterator[None]:
    """The recursion limit set to `RECURSION_LIMIT` while any worker runs (a
    higher one would let the worker's stack overflow); it is the process's,
    so the limit before the first worker comes back after the last."""
    global _running, _caller_limit
    with _lock:
        if _running == 0:
            _caller_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(RECURSION_LIMIT)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                sys.setrecursionlimit(_caller_limit)


def _start(worker: threading.Thread) -> bool:
    """Start `worker` on a stack of `STACK_BYTES`; False when the system
    does not give one (a tight `ulimit -v`)."""
    with _lock:
        default = threading.stack_size(STACK_BYTES)
        try:
            worker.start()
        except RuntimeError:
            return False
        finally:
            threading.stack_size(default)
    return True


def _interrupt(worker: threading.Thread) -> None:
    """Raise `KeyboardInterrupt` in `worker` at its next Python instruction
    (nothing if it has not started: it will not)."""
    if worker.ident is None:
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt)
    )


def _started_and_finished(worker: threading.Thread) -> bool:
    """Start `worker` and wait for it (False: it could not start).  A Ctrl-C
    at any point, even while it starts, stops it too once it runs."""
    try:
        if not _start(worker):
            return False
        while worker.is_alive():
            worker.join(_WAIT_SECONDS)
    except KeyboardInterrupt:
        # Even if `is_alive()` says otherwise: Python 3.11 takes a thread
        # whose `join` a Ctrl-C interrupted for stopped.
        _interrupt(worker)
        raise
    return True


def call_with_deep_stack(function: Callable[[], T]) -> T:
    """`function()`, run where a recursion of some 15,000 interpreted calls
    or 10,000 nested regions fits: in place on a worker, else on a new
    worker, else (no such thread can be started) in place with Python's
    limits."""
    if getattr(_on_worker, "deep", False):
        return function()
    outcome: list[T] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()

    def work() -> None:
        _on_worker.deep = True
        try:
            outcome.append(context.run(function))
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=work, name="memplan deep stack", daemon=True)
    with _deep_recursion():
        ran = _started_and_finished(worker)
    if not ran:
        return function()
    if failure:
        raise failure.pop()  # bound to no name: its traceback holds this frame
    return outcome[0]

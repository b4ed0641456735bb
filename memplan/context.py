"""The dialects a memplan tool parses with: every installed one, as in xdsl-opt."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.universe import Universe


def memplan_context(*, allow_unregistered: bool = False) -> Context:
    """A context with xDSL's dialects and every plugin's (memplan's included)."""
    return _context(Universe.get_multiverse().all_dialects, allow_unregistered)


def run_context(*, allow_unregistered: bool = False) -> Context:
    """`memplan_context` with linalg extended by the ops `memplan-run` adds
    (`memplan.interpreter.linalg_extra`): what programs to run parse with."""
    from memplan.interpreter.linalg_extra import run_dialects

    return _context(run_dialects(), allow_unregistered)


def _context(
    dialects: Mapping[str, Callable[[], Dialect]], allow_unregistered: bool
) -> Context:
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx

"""The dialects a memplan tool parses with: every installed one, as in xdsl-opt."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.universe import Universe


def memplan_context(*, allow_unregistered: bool = False) -> Context:
    """A context with xDSL's dialects and every plugin's (memplan's included)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx

"""Helpers shared by the interpreter tests: parse MLIR text and run it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from memplan.interpreter import RunResult
from memplan.interpreter.linalg_extra import run_dialects

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Run = Callable[..., RunResult]
"""The `run` fixture: run(text, *args, symbol="main", target=None) -> RunResult."""


def parse(text: str) -> ModuleOp:
    """Parse and verify with every dialect memplan-run knows."""
    ctx = Context()
    for name, factory in run_dialects().items():
        ctx.register_dialect(name, factory)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module

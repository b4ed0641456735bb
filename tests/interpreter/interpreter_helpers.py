"""Helpers shared by the interpreter tests: parse MLIR text and run it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from memplan.context import parse_module
from memplan.interpreter import RunResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Run = Callable[..., RunResult]
"""The `run` fixture: run(text, *args, symbol="main", target=None) -> RunResult."""


def parse(text: str) -> ModuleOp:
    """Parse and verify with every dialect memplan-run knows."""
    module = parse_module(text)
    module.verify()
    return module

"""Helpers shared by the interpreter tests: parse MLIR text and run it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation

from memplan.context import parse_module
from memplan.interpreter import RunResult
from memplan.interpreter.runner import Runner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Run = Callable[..., RunResult]
"""The `run` fixture: run(text, *args, symbol="main", target=None) -> RunResult."""


def parse(text: str) -> ModuleOp:
    """Parse and verify with every dialect memplan-run knows."""
    module = parse_module(text)
    module.verify()
    return module


def probe_tables(runner: Runner) -> list[tuple[int, int]]:
    """Record, before each op `runner` runs, how many tables of values its
    interpreter keeps and how many values the innermost one holds."""
    seen: list[tuple[int, int]] = []
    tables = runner.interpreter._tables  # pyright: ignore[reportPrivateUsage]

    class Probe(Interpreter.Listener):
        def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
            seen.append((len(tables), len(tables[-1])))

    runner.interpreter.listeners = (*runner.interpreter.listeners, Probe())
    return seen

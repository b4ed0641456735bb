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


SUM_TO = """
func.func @main(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> (index) {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %rest = func.call @main(%m) : (index) -> index
    %sum = arith.addi %rest, %n : index
    scf.yield %sum : index
  }
  func.return %r : index
}
"""
"""`@main(n)`: 0 + 1 + ... + n, one recursive call per step."""


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

"""The `run` fixture: parse MLIR text and run one of its functions."""

from __future__ import annotations

import pytest
from interpreter_helpers import Run, parse

from memplan.interpreter import RunResult, run_function
from memplan.targets import Target


@pytest.fixture
def run() -> Run:
    def _run(
        text: str, *args: object, symbol: str = "main", target: Target | None = None
    ) -> RunResult:
        return run_function(parse(text), symbol, args, target)

    return _run

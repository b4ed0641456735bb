"""Recursive programs run thousands of calls deep (on a thread with a large
stack, `memplan/deep_stack.py`), and a runaway recursion ends
with the clear error, not a crash."""

from __future__ import annotations

import _thread
import re
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from interpreter_helpers import SUM_TO, parse

import memplan.deep_stack as deep_stack
from memplan.interpreter import InterpretationError, run_function
from memplan.tools.memplan_run import main

ENDLESS = """
func.func @main(%depth: memref<index>) {
  %c1 = arith.constant 1 : index
  %d = memref.load %depth[] : memref<index>
  %e = arith.addi %d, %c1 : index
  memref.store %e, %depth[] : memref<index>
  func.call @main(%depth) : (memref<index>) -> ()
  func.return
}
"""
"""Recurses for ever, counting its levels in its argument."""

TOO_DEEP = (
    r"\(in @main\): calls and regions nest deeper than the interpreter can "
    r"follow \(Python's recursion limit: some 15,000 levels"
)


def test_a_recursion_2000_calls_deep_runs():
    assert run_function(parse(SUM_TO), "main", (2000,)).results == (2000 * 2001 // 2,)


def test_an_unbounded_recursion_stops_with_the_error_after_thousands_of_levels():
    limit = sys.getrecursionlimit()
    depth = np.zeros((), dtype=np.int64)
    with pytest.raises(InterpretationError, match=TOO_DEEP):
        run_function(parse(ENDLESS), "main", (depth,))
    assert depth > 10_000
    assert sys.getrecursionlimit() == limit


def test_an_unbounded_recursion_is_a_clean_error_of_memplan_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "endless.mlir"
    path.write_text(ENDLESS)
    assert main([str(path), "--args", "dense<0> : tensor<index>"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert re.match(f"memplan-run: error: {re.escape(str(path))}:.*{TOO_DEEP}", err)


def test_without_room_for_the_large_stack_the_run_takes_place_in_the_caller(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(deep_stack, "STACK_BYTES", 2**62)
    assert run_function(parse(SUM_TO), "main", (20,)).results == (210,)
    with pytest.raises(InterpretationError, match="nest deeper than the interpreter"):
        run_function(parse(SUM_TO), "main", (200,))


def test_ctrl_c_stops_the_run_and_its_thread():
    endless_loop = """
    func.func @main() {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %big = arith.constant 1000000000 : index
      scf.for %i = %c0 to %big step %c1 {
      }
      func.return
    }
    """
    module = parse(endless_loop)
    threads = threading.active_count()
    # Ctrl-C raises KeyboardInterrupt only where Python installed its own
    # handler: a process started with SIGINT ignored (a job that a
    # non-interactive shell put in the background, and its pytest workers)
    # has none, and `interrupt_main` then does nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        ctrl_c = threading.Timer(0.5, _thread.interrupt_main)
        ctrl_c.start()
        with pytest.raises(KeyboardInterrupt):
            run_function(module, "main")
    finally:
        signal.signal(signal.SIGINT, previous)
    give_up = time.monotonic() + 2
    while threading.active_count() > threads:
        assert time.monotonic() < give_up, "the interpreter's thread still runs"
        time.sleep(0.01)

"""A Ctrl-C ends a memplan command with one line and status 130, never a traceback."""

from __future__ import annotations

import _thread
import io
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memplan.tools import entry_point, memplan_run
from memplan.tools.entry_point import EXIT_INTERRUPTED, run_command

ENDLESS_LOOP = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000 : index
  scf.for %i = %c0 to %big step %c1 {
  }
  func.return
}
"""


@pytest.fixture
def ctrl_c_after_half_a_second() -> Iterator[None]:
    """A Ctrl-C in half a second.  It raises KeyboardInterrupt only where
    Python's own handler is installed, which a process started with SIGINT
    ignored (pytest's workers) does not have."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_after_half_a_second")
def test_ctrl_c_stops_memplan_run_with_one_line_and_status_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    module = tmp_path / "endless.mlir"
    module.write_text(ENDLESS_LOOP)
    assert memplan_run.main([str(module)]) == EXIT_INTERRUPTED
    captured = capsys.readouterr()
    assert captured.err == "memplan-run: interrupted\n"
    assert captured.out == ""


def test_an_interrupted_command_prints_its_name_and_returns_130(
    capsys: pytest.CaptureFixture[str],
):
    def interrupted() -> int:
        raise KeyboardInterrupt

    assert run_command("memplan-opt", interrupted) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "memplan-opt: interrupted\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_interrupted_line_replaces_the_status_line(
    monkeypatch: pytest.MonkeyPatch,
):
    terminal = _Terminal()
    terminal.write("memplan plan: best height so far 1025024, 10,000 nodes, 1.0 s^C")
    monkeypatch.setattr(entry_point.sys, "stderr", terminal)

    def interrupted() -> int:
        raise KeyboardInterrupt

    run_command("memplan", interrupted)
    assert terminal.getvalue().endswith("\r\x1b[Kmemplan: interrupted\n")

"""A Ctrl-C ends a memplan command with one line and status 130, never a traceback."""

from __future__ import annotations

import _thread
import re
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_terminal import Terminal, until_shown

from memplan.tools import entry_point, memplan_run
from memplan.tools.entry_point import EXIT_INTERRUPTED, run_command
from memplan.tools.progress import Ticker

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


def test_on_a_terminal_the_interrupted_line_replaces_the_status_line(
    monkeypatch: pytest.MonkeyPatch,
):
    terminal = Terminal()
    terminal.write("memplan plan: best height so far 1025024, 10,000 nodes, 1.0 s^C")
    monkeypatch.setattr(entry_point.sys, "stderr", terminal)

    def interrupted() -> int:
        raise KeyboardInterrupt

    run_command("memplan", interrupted)
    assert terminal.getvalue().endswith("\r\x1b[Kmemplan: interrupted\n")


def test_a_long_memplan_run_shows_its_ops_until_a_ctrl_c_replaces_the_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    module = tmp_path / "endless.mlir"
    module.write_text(ENDLESS_LOOP)
    monkeypatch.setattr(Ticker, "DELAY", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def ctrl_c_once_shown() -> None:
        until_shown(terminal, " ops executed, ")
        _thread.interrupt_main()

    threading.Thread(target=ctrl_c_once_shown, daemon=True).start()
    try:
        assert memplan_run.main([str(module)]) == EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGINT, previous)
    shown = terminal.getvalue()
    assert re.search(
        r"\r\x1b\[Kmemplan-run: running @main: [\d,]+ ops executed, [\d.]+ s\r",
        shown,
    )
    assert shown.endswith("\r\x1b[Kmemplan-run: interrupted\n")

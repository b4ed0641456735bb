"""`memplan plan` shows a live status line on stderr when it is a terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from memplan.planning import budget as budget_module
from memplan.tools import plan_cmd
from memplan.tools.memplan_main import main
from memplan.tools.progress import StatusLine, status_line

MINIMALLOC = Path(__file__).resolve().parents[2] / "bench" / "data" / "minimalloc"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_status_line_unless_stderr_is_a_terminal() -> None:
    assert status_line("memplan plan", io.StringIO()) is None
    assert isinstance(status_line("memplan plan", Terminal()), StatusLine)


def test_a_long_search_shows_height_nodes_and_seconds_then_clears_the_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(
        plan_cmd, "status_line", lambda prefix: StatusLine(prefix, terminal)
    )
    monkeypatch.setattr(budget_module, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setenv("MEMPLAN_PURE_PYTHON", "1")  # ticks at every node
    trace = MINIMALLOC / "challenging" / "D.1048576.csv"
    assert main(["plan", str(trace), "--budget", "200"]) == 0
    shown = terminal.getvalue()
    assert "memplan plan: D.1048576.csv: best height so far 1304576, " in shown
    assert " nodes, " in shown and shown.rstrip().endswith("\x1b[K")
    assert "nodes:          200" in capsys.readouterr().out


def test_compiling_the_kernel_is_announced_on_its_own_line() -> None:
    terminal = Terminal()
    line = StatusLine("memplan plan: a.csv", terminal)
    line.searching(10, 5, 0.1)
    line.loading_kernel(compiling=True)
    line.loading_kernel(compiling=False)  # loading from numba's cache: quick, silent
    text = terminal.getvalue()
    assert text.endswith(
        "\r\x1b[Kmemplan plan: a.csv: compiling the search kernel with numba"
        " (once per machine, about 30 s)...\n"
    )

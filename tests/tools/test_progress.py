"""`memplan plan` shows a live status line on stderr when it is a terminal."""

from __future__ import annotations

import io
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_terminal import Terminal, until_shown
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from memplan.passes.plan import MemoryPlanPass
from memplan.planning import budget as budget_module
from memplan.tools import memplan_opt, memplan_run, plan_cmd
from memplan.tools.memplan_main import main
from memplan.tools.progress import StatusLine, Ticker, status_line

MINIMALLOC = Path(__file__).resolve().parents[2] / "bench" / "data" / "minimalloc"


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


def test_a_ticker_says_what_runs_and_for_how_long_then_clears_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Ticker, "DELAY", 0.0)
    terminal = Terminal()
    with Ticker("memplan-opt", lambda: "memory-plan", terminal):
        until_shown(terminal, "memplan-opt: memory-plan, ")
    assert re.fullmatch(
        r"(\r\x1b\[Kmemplan-opt: memory-plan, \d+\.\d s)+\r\x1b\[K",
        terminal.getvalue(),
    )


def test_a_ticker_writes_nothing_where_stderr_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Ticker, "DELAY", 0.0)
    stream = io.StringIO()
    with Ticker("memplan-run", lambda: "running", stream):
        time.sleep(0.1)
    assert stream.getvalue() == ""


def test_memplan_opt_names_the_phase_and_the_pass_that_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []
    tickers: list[Recording] = []

    class Recording:
        def __init__(self, prefix: str, doing: Callable[[], str]):
            self.prefix = prefix
            self.doing = doing
            tickers.append(self)

        def __enter__(self) -> None:
            seen.append(f"{self.prefix}: {self.doing()}")

        def __exit__(self, *exc: object) -> None:
            seen.append(f"then {self.doing()}")

    plan = MemoryPlanPass.apply

    def planning(self: MemoryPlanPass, ctx: Context, op: ModuleOp) -> None:
        seen.append(f"while planning: {tickers[-1].doing()}")
        plan(self, ctx, op)

    monkeypatch.setattr(memplan_opt, "Ticker", Recording)
    monkeypatch.setattr(MemoryPlanPass, "apply", planning)
    example = Path(__file__).resolve().parents[2] / "examples" / "seed_naive.mlir"
    monkeypatch.setattr(
        sys, "argv", ["memplan-opt", "-p", "memory-manifest,memory-plan", str(example)]
    )
    assert memplan_opt.main() == 0
    assert seen == [
        f"memplan-opt: parsing {example}",
        f"then parsing {example}",
        "memplan-opt: the passes",
        "while planning: memory-plan",
        "then verifying after memory-plan",
        "memplan-opt: printing",
        "then printing",
    ]
    assert "memory.alloc_storage" in capsys.readouterr().out


def test_what_the_run_prints_to_stderr_goes_on_a_line_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Ticker, "DELAY", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with Ticker("memplan-opt", lambda: "memory-plan"):
        until_shown(terminal, "memplan-opt: memory-plan, ")
        print("memory-plan: remark: in @f, ...", file=sys.stderr)
    assert sys.stderr is terminal
    shown = terminal.getvalue()
    assert re.search(r" s\r\x1b\[Kmemory-plan: remark: in @f, \.\.\.\n", shown)


def test_memplan_run_reading_stdin_says_so_on_its_status_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Ticker, "DELAY", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)

    class SlowStdin:
        """Standard input that arrives once the status line shows."""

        class buffer:
            @staticmethod
            def read() -> bytes:
                until_shown(terminal, "memplan-run: reading <stdin>, ")
                return b"func.func @main() {\n  func.return\n}\n"

    monkeypatch.setattr(sys, "stdin", SlowStdin)
    assert memplan_run.main(["-", "--no-stats"]) == 0

"""What the packing benchmarks share: where MiniMalloc's suite lives, the run
line, the closing load line and the `--write` step (results go into
docs/bench only when asked)."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "bench" / "data" / "minimalloc" / "challenging"


def positive_int(text: str) -> int:
    """argparse type of node budgets: a positive whole number, else a usage
    error naming the flag."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def suite_files(letters: str | None) -> list[Path]:
    """The suite's files, all or those named by comma-separated letters (A,D);
    a letter without a file raises ValueError naming it."""
    files = sorted(SUITE.glob("*.csv"))
    if letters is None:
        return files
    by_letter = {f.stem.split(".")[0]: f for f in files}
    wanted = letters.split(",")
    unknown = [letter for letter in wanted if letter not in by_letter]
    if unknown:
        raise ValueError(
            f"no suite file for {', '.join(unknown)} (known: {', '.join(by_letter)})"
        )
    return [by_letter[letter] for letter in wanted]


def run_line(script: str) -> str:
    """When, with which command and on what machine a report was made (the
    caller ends the sentence)."""
    command = " ".join([f"python bench/{script}", *sys.argv[1:]])
    return (
        f"Run {datetime.date.today().isoformat()} with `{command}` on"
        f" {platform.machine()}, {os.cpu_count()} CPUs, Python"
        f" {platform.python_version()}"
    )


def load_note(load_before: float) -> list[str]:
    """The closing lines: the load average at the start and at the end."""
    return [
        "",
        f"Load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at"
        " the end (a shared machine: other jobs slow the seconds, never the plans).",
        "",
    ]


def write_report(path: Path, lines: list[str]) -> None:
    """Write the report's lines to `path` and say so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    print(f"wrote {path}")

"""Benchmark (not a test): how far from optimal are the files `best` does not
prove?  Prints a table; `--write` also writes docs/bench/optimality.md
(generated: notes belong in docs/planning.md).

    python bench/optimality.py [--files D,J] [--long-budget N]
                               [--window-budget N] [--write]

For each MiniMalloc challenging file (default: D and J, the two whose plan
stays above the max-live bound):

1. `best` without a capacity at the default budget and at a long one
   (default 100,000,000 nodes, about ten minutes here): height, proved lower
   bound, whether that proves the plan optimal;
2. window relaxations: the buffers alive in W consecutive sections around the
   peak, their lifetimes clipped to those sections, must fit under any plan of
   the whole, so a window the decision search proves not to fit at the
   max-live bound lifts the bound.  Reported per width: how many windows fit
   at the bound (no lift possible), how many were proved not to fit, and how
   many stayed undecided within the window budget.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from report import REPO, load_note, run_line, suite_files, write_report

from memplan.planning import Buffer, lower_bound, plan, validate
from memplan.planning.budget import DEFAULT_NODES, Budget, OutOfBudget
from memplan.planning.decision import Solver
from memplan.planning.sections import TimeStructure, sweep
from memplan.planning.trace_csv import read_trace

REPORT = REPO / "docs" / "bench" / "optimality.md"
LONG_BUDGET = 100_000_000
WINDOW_BUDGET = 200_000
WINDOW_WIDTHS = (10, 30)
MAX_OVERLAPS = 1_000_000


def window(
    buffers: Sequence[Buffer], structure: TimeStructure, first: int, width: int
) -> list[Buffer]:
    """The buffers alive in sections [first, first + width), lifetimes clipped to
    them and counted in sections: a relaxation of the whole trace."""
    clipped = []
    for i, buffer in enumerate(buffers):
        lower = max(structure.first_section[i], first)
        upper = min(structure.last_section[i], first + width)
        if lower < upper:
            clipped.append(Buffer(buffer.id, lower, upper, buffer.size))
    return clipped


def window_outcomes(
    buffers: Sequence[Buffer], width: int, budget: int
) -> tuple[int, int, int]:
    """(windows that fit at the max-live bound, proved not to, undecided) over
    the windows of `width` sections that hold a peak section."""
    structure = sweep(buffers, MAX_OVERLAPS)
    totals = structure.section_totals
    bound = max(totals)
    peaks = [s for s, total in enumerate(totals) if total == bound]
    starts = sorted(
        {
            max(0, min(first, len(totals) - width))
            for peak in peaks
            for first in range(peak - width + 1, peak + 1)
        }
    )
    fit = impossible = undecided = 0
    for first in starts:
        part = window(buffers, structure, first, width)
        solver = Solver(part, sweep(part, MAX_OVERLAPS), Budget(budget))
        try:
            found = solver.fit([bound], budget)
        except OutOfBudget:
            undecided += 1
            continue
        if found is None:
            impossible += 1
        else:
            fit += 1
    return fit, impossible, undecided


def best_row(name: str, buffers: list[Buffer], budget: int) -> str:
    started = time.perf_counter()
    result = plan(buffers, None, "best", budget=budget)
    seconds = time.perf_counter() - started
    problem = validate(buffers, result.offsets)
    if problem is not None:
        raise SystemExit(f"invalid plan of {name}: {problem}")
    bound = lower_bound(buffers)
    proved = "yes" if result.proved_optimal else "no"
    return (
        f"| {name} | {budget:,} | {result.height} | {result.height / bound:.4f}"
        f" | {result.lower_bound} | {proved} | {seconds:.0f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", default="D,J", help="file letters (default: D,J)")
    parser.add_argument(
        "--long-budget",
        type=int,
        default=LONG_BUDGET,
        help=f"search nodes of the long run (default: {LONG_BUDGET:,})",
    )
    parser.add_argument(
        "--window-budget",
        type=int,
        default=WINDOW_BUDGET,
        help=f"search nodes per window (default: {WINDOW_BUDGET:,})",
    )
    parser.add_argument(
        "--write", action="store_true", help=f"write the tables to {REPORT}"
    )
    args = parser.parse_args()
    try:
        files = suite_files(args.files)
    except ValueError as error:
        parser.error(f"--files: {error}")
    load_before = os.getloadavg()[0]
    best_rows = [
        "| file | budget (nodes) | height | height / max live | proved lower bound"
        " | proved optimal | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    window_rows = [
        "| file | sections | max live | window width (sections) | windows"
        " | fit at max live | proved not to fit | undecided |",
        "|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(best_rows), flush=True)
    for path in files:
        buffers = [b for b in read_trace(path).buffers if b.size]
        for budget in (DEFAULT_NODES, args.long_budget):
            best_rows.append(best_row(path.stem[0], buffers, budget))
            print(best_rows[-1], flush=True)
    print("\n".join(window_rows[:2]), flush=True)
    for path in files:
        buffers = [b for b in read_trace(path).buffers if b.size]
        sections = len(sweep(buffers, MAX_OVERLAPS).section_totals)
        for width in WINDOW_WIDTHS:
            fit, impossible, undecided = window_outcomes(
                buffers, width, args.window_budget
            )
            window_rows.append(
                f"| {path.stem[0]} | {sections} | {lower_bound(buffers)} | {width}"
                f" | {fit + impossible + undecided} | {fit} | {impossible}"
                f" | {undecided} |"
            )
            print(window_rows[-1], flush=True)
    lines = [
        "# Optimality benchmark",
        "",
        "Generated by `bench/optimality.py --write`; notes on these figures are in"
        " [docs/planning.md](../planning.md#what-is-proved).",
        "",
        f"{run_line('optimality.py')}, one core. Plans and bounds depend only on"
        " the budgets; the seconds depend on the load.",
        "",
        "## `best` without a capacity",
        "",
        *best_rows,
        "",
        f"## Window relaxations around the peak ({args.window_budget:,} nodes"
        " per window)",
        "",
        "A window proved not to fit at max live would lift the lower bound of the"
        " whole trace; one that fits cannot.",
        "",
        *window_rows,
        *load_note(load_before),
    ]
    if args.write:
        write_report(REPORT, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

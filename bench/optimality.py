"""Benchmark (not a test): how far from optimal are the files `best` does not
prove?  Prints a table; `--write` also writes docs/bench/optimality.md
(generated: notes belong in docs/planning.md).

    python bench/optimality.py [--files D,J] [--long-budget N]
                               [--window-budget N] [--relax-budget N]
                               [--relax-long-budget N] [--write]

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
   many stayed undecided within the window budget;
3. section-subset relaxations (`sections.restrict`): keep only the sections
   holding at least L live bytes, L going down through the section totals,
   until the decision search cannot fit one at max live; then shrink that
   one, section by section, to a core the search still cannot fit, and probe
   the core at heights just above max live; the failing level and its core
   are searched again at max live with the long relaxation budget (default
   40,000,000 nodes).  A relaxation proved not to fit at height h would lift
   the bound of the whole trace above h.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from report import REPO, load_note, positive_int, run_line, suite_files, write_report

from memplan.planning import Buffer, lower_bound, plan, validate
from memplan.planning.budget import DEFAULT_NODES, Budget, OutOfBudget
from memplan.planning.decision import Solver
from memplan.planning.sections import TimeStructure, restrict, sweep
from memplan.planning.trace_csv import read_trace

REPORT = REPO / "docs" / "bench" / "optimality.md"
LONG_BUDGET = 100_000_000
WINDOW_BUDGET = 200_000
WINDOW_WIDTHS = (10, 30)
RELAX_BUDGET = 2_000_000
RELAX_LONG_BUDGET = 40_000_000
MAX_OVERLAPS = 1_000_000
FITS = "fits"
IMPOSSIBLE = "proved not to fit"
UNDECIDED = "undecided"


def decide(part: list[Buffer], height: int, budget: int) -> str:
    """'fits', 'proved not to fit' or 'undecided': the decision search on a
    relaxation at `height` within `budget` nodes."""
    solver = Solver(part, sweep(part, MAX_OVERLAPS), Budget(budget))
    try:
        found = solver.fit([height], budget)
    except OutOfBudget:
        return UNDECIDED
    return FITS if found is not None else IMPOSSIBLE


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
    outcomes = [
        decide(restrict(buffers, structure, range(first, first + width)), bound, budget)
        for first in starts
    ]
    return outcomes.count(FITS), outcomes.count(IMPOSSIBLE), outcomes.count(UNDECIDED)


@dataclass
class Relaxation:
    """A relaxation to some sections: which, how many buffers, the search's answer."""

    sections: list[int]
    buffers: int
    outcome: str


def level_relaxations(
    buffers: Sequence[Buffer], structure: TimeStructure, budget: int
) -> tuple[Relaxation | None, Relaxation | None]:
    """The nested relaxations to the sections holding at least L live bytes,
    for each section total L from the top down: (the largest that fits at the
    max-live bound, the first that does not within `budget` nodes)."""
    totals = structure.section_totals
    bound = max(totals)
    fitting = None
    for level in sorted(set(totals), reverse=True):
        sections = [s for s, total in enumerate(totals) if total >= level]
        part = restrict(buffers, structure, sections)
        relaxation = Relaxation(sections, len(part), decide(part, bound, budget))
        if relaxation.outcome != FITS:
            return fitting, relaxation
        fitting = relaxation
    return fitting, None


def shrink(
    buffers: Sequence[Buffer],
    structure: TimeStructure,
    sections: list[int],
    budget: int,
) -> list[int]:
    """Drop sections one by one (passes in ascending order until none goes)
    while the relaxation still does not fit at the max-live bound within
    `budget` nodes: a core that the search fits once any one section is
    dropped."""
    bound = max(structure.section_totals)
    core = list(sections)
    dropped = True
    while dropped:
        dropped = False
        for section in list(core):
            trial = [s for s in core if s != section]
            if decide(restrict(buffers, structure, trial), bound, budget) != FITS:
                core = trial
                dropped = True
    return core


def describe(relaxation: Relaxation) -> str:
    return (
        f"{len(relaxation.sections)} sections, {relaxation.buffers} buffers:"
        f" {relaxation.outcome}"
    )


def core_row(
    name: str, buffers: list[Buffer], budget: int, long_budget: int, top: int
) -> str:
    """The level relaxations of one file, its core, the lowest height (in
    steps of the sizes' gcd, up to `top`) the core fits within `budget`, and
    the first failing level and the core at max live with `long_budget`."""
    structure = sweep(buffers, MAX_OVERLAPS)
    bound = max(structure.section_totals)
    fitting, failing = level_relaxations(buffers, structure, budget)
    fit_text = "-" if fitting is None else describe(fitting)
    if failing is None:
        return (
            f"| {name} | {len(structure.section_totals)} | {fit_text}"
            " | - | - | - | - | - |"
        )
    core = shrink(buffers, structure, failing.sections, budget)
    part = restrict(buffers, structure, core)
    step = math.gcd(*(b.size for b in buffers))
    heights = range(bound, top + 1, step)
    outcomes = {}
    for height in heights:
        outcomes[height] = decide(part, height, budget)
        if outcomes[height] == FITS:
            break
    core_text = (
        f"{len(core)} sections ({', '.join(map(str, core))}), {len(part)} buffers"
    )
    above = ", ".join(f"{h - bound:+,}: {o}" for h, o in outcomes.items())
    level_long = decide(
        restrict(buffers, structure, failing.sections), bound, long_budget
    )
    core_long = decide(part, bound, long_budget)
    return (
        f"| {name} | {len(structure.section_totals)} | {fit_text}"
        f" | {describe(failing)} | {level_long} | {core_text} | {above}"
        f" | {core_long} |"
    )


def best_row(name: str, buffers: list[Buffer], budget: int) -> tuple[str, int]:
    """The table row of `best` at `budget`, and the height it reached."""
    started = time.perf_counter()
    result = plan(buffers, None, "best", budget=budget)
    seconds = time.perf_counter() - started
    problem = validate(buffers, result.offsets)
    if problem is not None:
        raise SystemExit(f"invalid plan of {name}: {problem}")
    bound = lower_bound(buffers)
    proved = "yes" if result.proved_optimal else "no"
    row = (
        f"| {name} | {budget:,} | {result.height} | {result.height / bound:.4f}"
        f" | {result.lower_bound} | {proved} | {seconds:.0f} |"
    )
    return row, result.height


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", default="D,J", help="file letters (default: D,J)")
    parser.add_argument(
        "--long-budget",
        type=positive_int,
        default=LONG_BUDGET,
        help=f"search nodes of the long run (default: {LONG_BUDGET:,})",
    )
    parser.add_argument(
        "--window-budget",
        type=positive_int,
        default=WINDOW_BUDGET,
        help=f"search nodes per window (default: {WINDOW_BUDGET:,})",
    )
    parser.add_argument(
        "--relax-budget",
        type=positive_int,
        default=RELAX_BUDGET,
        help=f"search nodes per section-subset relaxation (default: {RELAX_BUDGET:,})",
    )
    parser.add_argument(
        "--relax-long-budget",
        type=positive_int,
        default=RELAX_LONG_BUDGET,
        help="search nodes for the first level relaxation that does not fit and"
        f" for its core, at max live (default: {RELAX_LONG_BUDGET:,})",
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
    core_rows = [
        "| file | sections | largest level relaxation that fits at max live"
        " | first that does not | it, long budget | its core"
        " | core at max live + ... bytes | core at max live, long budget |",
        "|---|---|---|---|---|---|---|---|",
    ]
    traces = {path: [b for b in read_trace(path).buffers if b.size] for path in files}
    print("\n".join(best_rows), flush=True)
    default_heights = {}
    for path, buffers in traces.items():
        for budget in (DEFAULT_NODES, args.long_budget):
            row, height = best_row(path.stem[0], buffers, budget)
            default_heights.setdefault(path, height)
            best_rows.append(row)
            print(row, flush=True)
    print("\n".join(window_rows[:2]), flush=True)
    for path, buffers in traces.items():
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
    print("\n".join(core_rows[:2]), flush=True)
    for path, buffers in traces.items():
        core_rows.append(
            core_row(
                path.stem[0],
                buffers,
                args.relax_budget,
                args.relax_long_budget,
                default_heights[path],
            )
        )
        print(core_rows[-1], flush=True)
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
        "",
        f"## Section-subset relaxations ({args.relax_budget:,} nodes per search,"
        f" long budget {args.relax_long_budget:,})",
        "",
        "The buffers alive in any chosen set of sections, each alive from the"
        " first to the last chosen section it spans, must fit under any plan of"
        " the whole trace. A level relaxation keeps the sections holding at least"
        " L live bytes; L goes down through the section totals until one does not"
        " fit at max live. Its core drops sections one by one while the rest"
        " still does not fit, then is probed just above max live, and both are"
        ' searched again at max live with the long budget. Only "proved not to'
        ' fit" would lift the bound.',
        "",
        *core_rows,
        *load_note(load_before),
    ]
    if args.write:
        write_report(REPORT, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

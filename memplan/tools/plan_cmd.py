"""`memplan plan`: pack CSV traces and report how close to the lower bound each got.

Several traces give one row each.  `--block-size` adds the smallest arena
reachable when every buffer is split into blocks of that many bytes (found
through a pointer table), next to the contiguous plan.  Exit codes: 0 every
trace planned (and fits the capacity if one was given, contiguous or, with
`--block-size`, in blocks), 1 some trace does not fit, 2 bad input or flags
(a bad trace is named, and the others are still planned).

`--check` plans nothing: it reads each trace's `offset` column (as
`--output` writes it, or another planner's) and reports the same figures for
that plan, after checking that it is valid (no two buffers alive at once
share a byte, every offset is aligned); an invalid plan is bad input.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from memplan.planning import ALGORITHMS, Plan, TraceError, lower_bound, plan, validate
from memplan.planning.blocks import (
    BlockPlan,
    TooManyBlocks,
    blocks_lower_bound,
    plan_with_blocks,
)
from memplan.planning.budget import DEFAULT_NODES
from memplan.planning.buffers import INT64_MAX, alignment_problem
from memplan.planning.trace_csv import Trace, read_trace, write_trace
from memplan.text import cut_tokens
from memplan.tools.progress import status_line

EXIT_OK = 0
EXIT_DOES_NOT_FIT = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 3

Report = dict[str, object]


class UsageError(Exception):
    """Bad input or flags: printed as `memplan <command>: error: ...`, exit 2."""


def add_planning_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags shared by every subcommand that plans a trace."""
    parser.add_argument("--capacity", type=int, help="arena size in bytes to fit in")
    parser.add_argument(
        "--algorithm",
        default="best",
        help=f"one of {', '.join(ALGORITHMS)} (default: best)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        help="search nodes the best search may spend (default: "
        f"{DEFAULT_NODES:,}); the plan depends only on the trace and this budget",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        help="opt-in wall-clock cap in seconds on the best search, on top of the "
        "budget; when it cuts the search short the plan depends on the machine's load",
    )
    parser.add_argument(
        "--alignment",
        type=int,
        default=1,
        help="minimum alignment of every buffer (power of two)",
    )


SEARCH_FLAGS = {
    "algorithm": "--algorithm",
    "budget": "--budget",
    "time_limit": "--time-limit",
}
"""The flags of the search.  A subcommand that may take its plan from the
file defaults `--algorithm` to None too, so that each is None when not
given and one that cannot apply is an error, not ignored."""


def reject_given(args: argparse.Namespace, flags: dict[str, str], why: str) -> None:
    """A UsageError for the first of `flags` (attribute: flag) the user gave."""
    for name, flag in flags.items():
        if getattr(args, name) is not None:
            raise UsageError(f"argument {flag}: {why}")


def check_planning_arguments(args: argparse.Namespace) -> None:
    """Reject flag values argparse's types let through."""
    if args.algorithm not in ALGORITHMS:
        raise UsageError(
            f"argument --algorithm: unknown algorithm {args.algorithm!r} "
            f"(known: {', '.join(ALGORITHMS)})"
        )
    if args.capacity is not None and args.capacity < 0:
        raise UsageError(f"argument --capacity: must be >= 0, got {args.capacity}")
    if args.capacity is not None and args.capacity > INT64_MAX:
        raise UsageError(
            f"argument --capacity: {args.capacity} does not fit in 64 bits (at most "
            f"{INT64_MAX}, as the trace's sizes)"
        )
    if args.budget is not None and args.budget < 0:
        raise UsageError(f"argument --budget: must be >= 0 nodes, got {args.budget}")
    limit = args.time_limit
    if limit is not None and not (math.isfinite(limit) and limit >= 0):
        raise UsageError(
            f"argument --time-limit: must be a finite number of seconds >= 0, got {limit}"
        )
    if args.algorithm != "best":
        for flag, value in (("--budget", args.budget), ("--time-limit", limit)):
            if value is not None:
                raise UsageError(
                    f"argument {flag}: has no effect with --algorithm "
                    f"{args.algorithm} (it limits the best search)"
                )
    problem = alignment_problem(args.alignment)
    if problem is not None:
        raise UsageError(f"argument --alignment: {problem}")


def load_trace(path: Path, args: argparse.Namespace) -> Trace:
    """Read a trace named on the command line, as a UsageError if malformed."""
    try:
        return read_trace(path, args.alignment)
    except TraceError as error:
        raise UsageError(str(error)) from None


def run_planner(args: argparse.Namespace, trace: Trace, command: str) -> Plan:
    """Plan with the flags; a long `best` search shows a status line on a terminal,
    and a wall-clock cap that cuts it is said on stderr.  A plan higher than
    64-bit offsets reach is a UsageError: no arena holds it, and `--output`
    would write offsets the trace reader rejects."""
    label = f"memplan {command}: {trace.path.name}"
    observer = status_line(label) if args.algorithm == "best" else None
    try:
        result = plan(
            trace.buffers,
            args.capacity,
            args.algorithm,
            args.time_limit,
            args.budget,
            observer,
        )
    finally:
        if observer is not None:
            observer.clear()
    if result.height > INT64_MAX:
        raise UsageError(
            f"{trace.path}: the plan is {result.height} bytes high, beyond 64-bit "
            f"offsets (at most {INT64_MAX}); its lower bound is {result.lower_bound}"
        )
    if result.time_limited:
        print(
            f"{label}: the --time-limit of {args.time_limit:g} s cut the search short"
            f" after {result.nodes:,} nodes: this plan depends on the machine's load",
            file=sys.stderr,
        )
    return result


def _report(path: Path, result: Plan, capacity: int | None) -> Report:
    bound = result.lower_bound
    return {
        "file": str(path),
        "algorithm": result.algorithm,
        "height": result.height,
        "lower_bound": bound,
        "ratio": round(result.height / bound if bound else 1.0, 4),
        "capacity": capacity,
        "fits": capacity is None or result.height <= capacity,
        "proved_optimal": result.proved_optimal,
        "nodes": result.nodes,
        "time_limited": result.time_limited,
        "unsearched": result.unsearched or None,
    }


_LABELS = {
    "algorithm": "algorithm",
    "height": "height",
    "lower_bound": "lower bound",
    "ratio": "ratio",
    "capacity": "capacity",
    "fits": "fits",
    "proved_optimal": "proved optimal",
    "nodes": "nodes",
    "time_limited": "time-limited",
    "unsearched": "not searched",
    "block_size": "block size",
    "block_height": "block height",
    "block_lower_bound": "block bound",
    "table_bytes": "table bytes",
    "tables_in_arena": "tables inside",
    "blocks_fit": "blocks fit",
}
# Table columns of several traces: (report key, heading, width).
_COLUMNS = [
    ("height", "height", 10),
    ("lower_bound", "lower bound", 11),
    ("ratio", "ratio", 6),
    ("capacity", "capacity", 10),
    ("fits", "fits", 4),
    ("proved_optimal", "proved optimal", 14),
    ("nodes", "nodes", 9),
]
# More columns with --block-size.
_BLOCK_COLUMNS = [
    ("block_height", "block height", 12),
    ("block_lower_bound", "block bound", 11),
    ("table_bytes", "table bytes", 11),
    ("blocks_fit", "blocks fit", 10),
]


def _text(key: str, value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "ratio":
        return f"{value:.3f}"
    return str(value)


def _print_fields(report: Report) -> None:
    for key, label in _LABELS.items():
        value = report.get(key)
        if value is None or (key == "time_limited" and not value):
            continue
        print(f"{label + ':':16}{_text(key, value)}")


class _Table:
    """One row per trace, printed as each finishes."""

    def __init__(self, paths: list[Path], blocks: bool):
        self.width = max(len(str(p)) for p in paths)
        self.columns = _COLUMNS + (_BLOCK_COLUMNS if blocks else [])
        cells = [f"{'file':{self.width}}", f"{'algorithm':9}"]
        cells += [f"{heading:>{width}}" for _, heading, width in self.columns]
        print("  ".join(cells))

    def row(self, report: Report) -> None:
        cells = [f"{report['file']!s:{self.width}}", f"{report['algorithm']!s:9}"]
        cells += [
            f"{_text(key, report[key]):>{width}}" for key, _, width in self.columns
        ]
        print("  ".join(cells), flush=True)


def run(args: argparse.Namespace) -> int:
    if args.check:
        reject_given(
            args,
            {**SEARCH_FLAGS, "output": "--output", "block_size": "--block-size"},
            "has no effect with --check (it checks the plan in the trace's offset "
            "column, planning nothing)",
        )
    if args.algorithm is None:
        args = argparse.Namespace(**{**vars(args), "algorithm": "best"})
    check_planning_arguments(args)
    paths: list[Path] = args.traces
    if args.output is not None and len(paths) > 1:
        raise UsageError(
            f"argument --output: writes one planned trace, got {len(paths)} traces"
        )
    block_size = args.block_size
    problem = None if block_size is None else alignment_problem(block_size)
    if problem is not None:
        raise UsageError(f"argument --block-size: {problem}")
    if args.table_in_arena and block_size is None:
        raise UsageError("argument --table-in-arena: needs --block-size")
    table = (
        _Table(paths, block_size is not None)
        if len(paths) > 1 and not args.json
        else None
    )
    codes = [_plan_one(path, args, table) for path in paths]
    return max(codes)


def _given_plan(trace: Trace) -> Plan:
    """The plan in `trace`'s offset column, once it is checked valid."""
    if trace.offsets is None:
        raise UsageError(f"{trace.path}: --check needs an offset column")
    problem = validate(trace.buffers, trace.offsets)
    if problem is not None:
        raise UsageError(f"{trace.path}: invalid plan: {problem}")
    height = max((trace.offsets[b.id] + b.size for b in trace.buffers), default=0)
    bound = lower_bound(trace.buffers)
    return Plan(
        dict(trace.offsets), height, "given", height <= bound, lower_bound=bound
    )


def _plan_one(path: Path, args: argparse.Namespace, table: _Table | None) -> int:
    """Plan one trace and print its report; its exit code."""
    try:
        trace = load_trace(path, args)
        result = _given_plan(trace) if args.check else run_planner(args, trace, "plan")
        blocks = None if args.block_size is None else _plan_blocks(trace, args)
    except UsageError as error:
        sys.stdout.flush()
        print(f"memplan plan: error: {cut_tokens(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = _report(path, result, args.capacity)
    if blocks is not None:
        report.update(_block_report(trace, blocks, args))
    if args.output is not None:
        try:
            write_trace(args.output, trace, result.offsets)
        except OSError as error:
            raise UsageError(
                f"argument --output: cannot write {args.output}: {error.strerror}"
            ) from None
    if args.json:
        print(json.dumps(report), flush=True)
    elif table is not None:
        table.row(report)
    else:
        _print_fields(report)
    if not report["fits"] and (blocks is None or not blocks.fits):
        sys.stdout.flush()  # keep the report before the message when both go to one pipe
        in_blocks = (
            ""
            if blocks is None
            else f" ({blocks.height} in blocks of {blocks.block_size} bytes)"
        )
        found = "height" if args.check else "best height found"
        print(
            f"memplan plan: {path}: does not fit: {found} {result.height}"
            f"{in_blocks} exceeds capacity {args.capacity}",
            file=sys.stderr,
        )
        return EXIT_DOES_NOT_FIT
    return EXIT_OK


def _plan_blocks(trace: Trace, args: argparse.Namespace) -> BlockPlan:
    """Every buffer in blocks (those aligned beyond a block stay contiguous)."""
    try:
        return plan_with_blocks(
            trace.buffers,
            block_size=args.block_size,
            capacity=args.capacity,
            mode="always",
            tables_in_arena=args.table_in_arena,
            algorithm=args.algorithm,
            budget=args.budget,
        )
    except TooManyBlocks as error:
        raise UsageError(f"argument --block-size: {trace.path}: {error}") from None


def _block_report(trace: Trace, blocks: BlockPlan, args: argparse.Namespace) -> Report:
    bound = blocks_lower_bound(
        trace.buffers, args.block_size, tables_in_arena=args.table_in_arena
    )
    return {
        "block_size": args.block_size,
        "block_height": blocks.height,
        "block_lower_bound": bound,
        "table_bytes": blocks.table_bytes,
        "tables_in_arena": args.table_in_arena,
        "blocks_fit": blocks.fits,
        "block_nodes": blocks.nodes,
    }


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="assign offsets to the buffers of CSV traces",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "traces",
        type=Path,
        nargs="+",
        metavar="TRACE",
        help="CSV with columns id,lower,upper,size[,alignment]",
    )
    add_planning_arguments(parser)
    parser.add_argument(
        "--output",
        type=Path,
        help="write the trace plus an offset column here (one trace only)",
    )
    parser.add_argument(
        "--block-size",
        type=int,
        metavar="BYTES",
        help="also plan every buffer as blocks of BYTES (a power of two) reached "
        "through a pointer table of 4 bytes per block: the arena height, its "
        "bound (most live blocks) and the table bytes",
    )
    parser.add_argument(
        "--table-in-arena",
        action="store_true",
        help="with --block-size: the pointer tables take bytes of the arena too",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="plan nothing: check the plan in each trace's offset column (valid, "
        "height, lower bound, proved optimal, fits --capacity)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per trace"
    )
    parser.set_defaults(run=run, algorithm=None)

"""`memplan plan`: pack a CSV trace and report how close to the lower bound it got.

Exit codes: 0 planned (and fits the capacity if one was given), 1 does not
fit, 2 bad input or flags.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from memplan.planning import ALGORITHMS, Plan, TraceError, lower_bound, plan
from memplan.planning.trace_csv import Trace, read_trace, write_trace

EXIT_OK = 0
EXIT_DOES_NOT_FIT = 1
EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input or flags: printed as `memplan <command>: error: ...`, exit 2."""


def add_planning_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags shared by every subcommand that plans a trace."""
    parser.add_argument(
        "trace", type=Path, help="CSV with columns id,lower,upper,size[,alignment]"
    )
    parser.add_argument("--capacity", type=int, help="arena size in bytes to fit in")
    parser.add_argument(
        "--algorithm",
        default="best",
        help=f"one of {', '.join(ALGORITHMS)} (default: best)",
    )
    parser.add_argument(
        "--time-limit", type=float, help="seconds for the best search (default: 10)"
    )
    parser.add_argument(
        "--alignment",
        type=int,
        default=1,
        help="minimum alignment of every buffer (power of two)",
    )


def check_planning_arguments(args: argparse.Namespace) -> None:
    """Reject flag values argparse's types let through."""
    if args.algorithm not in ALGORITHMS:
        raise UsageError(
            f"argument --algorithm: unknown algorithm {args.algorithm!r} "
            f"(known: {', '.join(ALGORITHMS)})"
        )
    if args.capacity is not None and args.capacity < 0:
        raise UsageError(f"argument --capacity: must be >= 0, got {args.capacity}")
    if args.time_limit is not None and args.time_limit < 0:
        raise UsageError(f"argument --time-limit: must be >= 0, got {args.time_limit}")
    alignment = args.alignment
    if alignment <= 0 or alignment & (alignment - 1):
        raise UsageError(
            f"argument --alignment: {alignment} is not a positive power of two"
        )


def load_trace(args: argparse.Namespace) -> Trace:
    """Read the trace named on the command line, as a UsageError if malformed."""
    try:
        return read_trace(args.trace, args.alignment)
    except TraceError as error:
        raise UsageError(str(error)) from None


def run_planner(args: argparse.Namespace, trace: Trace) -> Plan:
    return plan(trace.buffers, args.capacity, args.algorithm, args.time_limit)


def _report(plan_result: Plan, bound: int, capacity: int | None) -> dict[str, object]:
    fits = capacity is None or plan_result.height <= capacity
    ratio = plan_result.height / bound if bound else 1.0
    return {
        "algorithm": plan_result.algorithm,
        "height": plan_result.height,
        "lower_bound": bound,
        "ratio": round(ratio, 4),
        "capacity": capacity,
        "fits": fits,
        "optimal": plan_result.optimal,
        "seconds": round(plan_result.seconds, 3),
    }


def _print_text(report: dict[str, object]) -> None:
    labels = {
        "algorithm": "algorithm",
        "height": "height",
        "lower_bound": "lower bound",
        "ratio": "ratio",
        "capacity": "capacity",
        "fits": "fits",
        "optimal": "optimal",
        "seconds": "seconds",
    }
    for key, label in labels.items():
        value = report[key]
        if value is None:
            continue
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif key == "ratio":
            value = f"{value:.3f}"
        print(f"{label + ':':13}{value}")


def run(args: argparse.Namespace) -> int:
    check_planning_arguments(args)
    trace = load_trace(args)
    result = run_planner(args, trace)
    report = _report(result, lower_bound(trace.buffers), args.capacity)
    if args.output is not None:
        try:
            write_trace(args.output, trace, result.offsets)
        except OSError as error:
            raise UsageError(
                f"argument --output: cannot write {args.output}: {error.strerror}"
            ) from None
    if args.json:
        print(json.dumps(report))
    else:
        _print_text(report)
    if not report["fits"]:
        sys.stdout.flush()  # keep the report before the message when both go to one pipe
        print(
            f"memplan plan: does not fit: best height found {result.height} "
            f"exceeds capacity {args.capacity}",
            file=sys.stderr,
        )
        return EXIT_DOES_NOT_FIT
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plan", help="assign offsets to the buffers of a CSV trace", description=__doc__
    )
    add_planning_arguments(parser)
    parser.add_argument(
        "--output", type=Path, help="write the trace plus an offset column here"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)

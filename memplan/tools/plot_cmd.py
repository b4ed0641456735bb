"""`memplan plot`: draw a plan, time on x and address on y, one box per buffer.

Writes a PNG, SVG or PDF image (by the suffix of -o).  The input is a CSV
trace (one without an `offset` column is planned first) or a planned `.mlir`
module, drawn as it is: one function's tensors in one scope, with live ranges
from the liveness analysis of `memory-plan`.  A flag that cannot apply to the
input (a planning flag for a module or a CSV with offsets, `--scope` for a
CSV) is an error.  matplotlib is the optional `plot` extra; without it the
command says so and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

from memplan.planning import Buffer, BufferId, lower_bound, validate
from memplan.targets import VTCM_SCOPE
from memplan.tools.plan_cmd import (
    EXIT_OK,
    SEARCH_FLAGS,
    UsageError,
    add_planning_arguments,
    check_planning_arguments,
    load_trace,
    reject_given,
    run_planner,
)

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
STABLE_METADATA = {".png": {}, ".svg": {"Date": None}, ".pdf": {"CreationDate": None}}
"""What keeps an image's bytes the same from run to run: no date of writing;
SVG clip ids also come from a fixed salt (`svg.hashsalt`), not at random."""
LABELLED_BUFFERS = 40
"""Up to this many buffers, each box carries its id."""
LABEL_CHARACTERS = 24
"""A longer id is cut to this many characters on its box, `…` last:
matplotlib took minutes to draw an id of 100,000 characters."""


def _label(buffer: Buffer) -> str:
    text = str(buffer.id)
    if len(text) <= LABEL_CHARACTERS:
        return text
    return text[: LABEL_CHARACTERS - 1] + "…"


def _load_pyplot() -> ModuleType:
    try:
        import matplotlib  # pyright: ignore[reportMissingImports]

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot  # pyright: ignore[reportMissingImports]
    except ImportError:
        raise UsageError(
            "matplotlib is not installed; install the plot extra: pip install 'memplan[plot]'"
        ) from None
    return pyplot


def draw(
    pyplot: ModuleType,
    buffers: Sequence[Buffer],
    offsets: Mapping[BufferId, int],
    capacity: int | None,
    title: str,
    output: Path,
    left_out: Sequence[str] = (),
) -> None:
    """Save the plot: boxes per buffer, dashed lower bound, red capacity line;
    the legend names the `left_out` tensors that have no box."""
    figure, axes = pyplot.subplots(figsize=(10, 6))
    colours = pyplot.get_cmap("tab20")
    for k, buffer in enumerate(b for b in buffers if b.size):
        axes.add_patch(
            pyplot.Rectangle(
                (buffer.lower, offsets[buffer.id]),
                buffer.upper - buffer.lower,
                buffer.size,
                facecolor=colours(k % 20),
                edgecolor="black",
                linewidth=0.3,
            )
        )
        if len(buffers) <= LABELLED_BUFFERS:
            axes.text(
                (buffer.lower + buffer.upper) / 2,
                offsets[buffer.id] + buffer.size / 2,
                _label(buffer),
                ha="center",
                va="center",
                fontsize=8,
            )
    height = max((offsets[b.id] + b.size for b in buffers), default=0)
    bound = lower_bound(buffers)
    axes.axhline(bound, color="grey", linestyle="--", label=f"lower bound {bound}")
    if capacity is not None:
        axes.axhline(capacity, color="red", label=f"capacity {capacity}")
    if left_out:
        axes.plot([], [], " ", label=f"not drawn: {', '.join(left_out)}")
    axes.set_xlim(
        min((b.lower for b in buffers), default=0),
        max((b.upper for b in buffers), default=1),
    )
    axes.set_ylim(0, max(height, bound, capacity or 0, 1) * 1.05)
    axes.set_xlabel("time")
    axes.set_ylabel("address (bytes)")
    axes.set_title(f"{title}: height {height}")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2)
    with pyplot.rc_context({"svg.hashsalt": "memplan"}):
        figure.savefig(
            output, bbox_inches="tight", metadata=STABLE_METADATA[output.suffix]
        )
    pyplot.close(figure)


Drawing = tuple[Sequence[Buffer], Mapping[BufferId, int], str, list[str]]
"""Buffers, their offsets, the title and the tensors left out of the picture."""


MODULE_FLAGS = {"scope": "--scope", "function": "--function"}
DEFAULTS = {"algorithm": "best", "alignment": 1, "scope": VTCM_SCOPE}
"""What the flags mean when not given; None in the parsed arguments marks a
flag the user did not give, so one that cannot apply is an error, not ignored."""


def _with_defaults(args: argparse.Namespace) -> argparse.Namespace:
    given = vars(args)
    return argparse.Namespace(
        **{**given, **{k: v for k, v in DEFAULTS.items() if given[k] is None}}
    )


def _planned_trace(args: argparse.Namespace) -> Drawing:
    reject_given(args, MODULE_FLAGS, "applies to a .mlir module, not a CSV trace")
    defaulted = _with_defaults(args)
    trace = load_trace(args.trace, defaulted)
    if trace.offsets is not None:
        reject_given(
            args,
            SEARCH_FLAGS,
            f"{trace.path.name} has an offset column: it is drawn as planned",
        )
        title = f"{trace.path.name} (offsets from file)"
        return trace.buffers, trace.offsets, title, []
    result = run_planner(defaulted, trace, "plot")
    title = f"{trace.path.name} ({result.algorithm})"
    return trace.buffers, result.offsets, title, []


def _planned_module(args: argparse.Namespace) -> Drawing:
    # xDSL loads only for a module: drawing a CSV trace does not pay for it.
    from memplan.tools.module_trace import (
        ModuleTraceError,
        module_trace,
        read_module,
    )

    reject_given(
        args,
        {**SEARCH_FLAGS, "alignment": "--alignment"},
        "a .mlir module is drawn as planned",
    )
    args = _with_defaults(args)
    try:
        found = module_trace(read_module(args.trace), args.scope, args.function)
    except ModuleTraceError as error:
        raise UsageError(str(error)) from None
    title = f"{args.trace.name}: {found.title}"
    return found.buffers, found.offsets, title, found.left_out


def run(args: argparse.Namespace) -> int:
    check_planning_arguments(_with_defaults(args))
    if args.output.suffix not in PLOT_SUFFIXES:
        raise UsageError(
            f"argument -o/--output: expected a {', '.join(PLOT_SUFFIXES)} file"
        )
    pyplot = _load_pyplot()
    if args.trace.suffix == ".mlir":
        buffers, offsets, title, left_out = _planned_module(args)
    else:
        buffers, offsets, title, left_out = _planned_trace(args)
    problem = validate(buffers, offsets)
    if problem is not None:
        raise UsageError(f"{args.trace}: invalid plan: {problem}")
    if left_out:
        print(
            f"memplan plot: {args.trace}: not drawn (a dynamic offset or storage "
            f"size), nor counted in the lower bound: {', '.join(left_out)}",
            file=sys.stderr,
        )
    try:
        draw(pyplot, buffers, offsets, args.capacity, title, args.output, left_out)
    except OSError as error:
        raise UsageError(
            f"argument -o/--output: cannot write {args.output}: {error.strerror}"
        ) from None
    height = max((offsets[b.id] + b.size for b in buffers), default=0)
    print(f"wrote {args.output}: {title}, {len(buffers)} buffers, height {height}")
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plot",
        help="draw a plan of a CSV trace or a planned .mlir module as PNG, SVG or PDF",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "trace",
        type=Path,
        help="CSV trace (planned first unless it has an offset column) or planned .mlir module",
    )
    add_planning_arguments(parser)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="image to write: plan.png, plan.svg or plan.pdf",
    )
    parser.add_argument(
        "--scope",
        help=f"for a .mlir module: the scope to draw (default: {VTCM_SCOPE})",
    )
    parser.add_argument(
        "--function",
        help="for a .mlir module: the function to draw (default: the first with tensors in the scope)",
    )
    parser.set_defaults(run=run, algorithm=None, alignment=None)

"""Benchmark of discontiguous buffers against fragmentation (not a test): prints
tables; `--write` also writes them to docs/bench/fragmentation.md.

    python bench/fragmentation.py [--quick] [--files A,D] [--budget N] [--write]

For every MiniMalloc challenging file (bench/data/minimalloc/challenging):

1. the max-live bound and the contiguous `best` plan without capacity
   (height, nodes, seconds; `--budget`, default the library's);
2. for blocks of 1, 2 and 16 KiB, every buffer split (`plan_with_blocks`,
   mode `always`): the arena height with the pointer tables elsewhere, the
   block bound (most block bytes alive at once: max-live with every buffer
   rounded up to whole blocks), the table bytes (most alive at once, 4 bytes
   a block), the height with the tables in the arena (tables packed by
   `best` with AUTO_BUDGET nodes), seconds;
3. `auto` at a capacity halfway between the 1 KiB block height and the
   contiguous height, for the files where contiguous packing stays above
   the block height: which share of the buffers and bytes it splits.

`--quick`: files C and D only, and a budget of 20,000 nodes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from report import REPO, load_note, positive_int, run_line, suite_files, write_report

from memplan.planning import Buffer, lower_bound, plan, validate
from memplan.planning.blocks import (
    BlockPlan,
    blocks_lower_bound,
    plan_with_blocks,
    validate_block_plan,
)
from memplan.planning.budget import DEFAULT_NODES
from memplan.planning.trace_csv import read_trace

REPORT = REPO / "docs" / "bench" / "fragmentation.md"
BLOCK_SIZES = (1024, 2048, 16384)
QUICK_FILES = ("C", "D")
QUICK_BUDGET = 20_000
# Nodes for packing the tables in the arena and for `auto`: memory-plan's default.
AUTO_BUDGET = 20_000


def checked_blocks(buffers: list[Buffer], **options: object) -> tuple[BlockPlan, float]:
    """plan_with_blocks, validated, with the wall-clock seconds it took."""
    started = time.perf_counter()
    result = plan_with_blocks(buffers, **options)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    problems = validate_block_plan(buffers, result)
    if problems:
        raise SystemExit(f"invalid block plan: {problems[0]}")
    return result, seconds


def emit(rows: list[str], row: str) -> None:
    rows.append(row)
    print(row, flush=True)


def contiguous_rows(
    traces: dict[str, list[Buffer]], budget: int
) -> tuple[list[str], dict[str, int]]:
    rows: list[str] = []
    heights: dict[str, int] = {}
    for row in (
        "| file | buffers | max-live | `best` height | / max-live | nodes | s |",
        "|---|---|---|---|---|---|---|",
    ):
        emit(rows, row)
    for name, buffers in traces.items():
        started = time.perf_counter()
        result = plan(buffers, budget=budget)
        seconds = time.perf_counter() - started
        problem = validate(buffers, result.offsets)
        if problem is not None:
            raise SystemExit(f"{name}: invalid contiguous plan: {problem}")
        bound = lower_bound(buffers)
        heights[name] = result.height
        emit(
            rows,
            f"| {name} | {len(buffers)} | {bound:,} | {result.height:,}"
            f" | {result.height / bound:.4f} | {result.nodes:,} | {seconds:.2f} |",
        )
    return rows, heights


def block_rows(
    traces: dict[str, list[Buffer]], heights: dict[str, int], block_size: int
) -> list[str]:
    rows: list[str] = []
    for row in (
        "| file | block bound | height | = bound | table bytes"
        " | height + tables | vs contiguous | tables in arena | nodes | s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ):
        emit(rows, row)
    for name, buffers in traces.items():
        result, seconds = checked_blocks(buffers, block_size=block_size, mode="always")
        arena, _ = checked_blocks(
            buffers,
            block_size=block_size,
            mode="always",
            tables_in_arena=True,
            budget=AUTO_BUDGET,
        )
        bound = blocks_lower_bound(buffers, block_size)
        total = result.height + result.table_bytes
        emit(
            rows,
            f"| {name} | {bound:,} | {result.height:,}"
            f" | {'yes' if result.height == bound else 'no'} | {result.table_bytes:,}"
            f" | {total:,} | {total / heights[name]:.4f} | {arena.height:,}"
            f" | {arena.nodes:,} | {seconds:.3f} |",
        )
    return rows


def auto_rows(traces: dict[str, list[Buffer]], heights: dict[str, int]) -> list[str]:
    rows: list[str] = []
    for row in (
        "| file | capacity | fits | split buffers | split bytes | nodes | s |",
        "|---|---|---|---|---|---|---|",
    ):
        emit(rows, row)
    for name, buffers in traces.items():
        blocks, _ = checked_blocks(buffers, block_size=1024, mode="always")
        if heights[name] <= blocks.height:
            continue
        capacity = (blocks.height + heights[name]) // 2
        result, seconds = checked_blocks(
            buffers, block_size=1024, capacity=capacity, budget=AUTO_BUDGET
        )
        total = sum(b.size for b in buffers)
        split = sum(b.size for b in buffers if b.id in result.blocks)
        emit(
            rows,
            f"| {name} | {capacity:,} | {'yes' if result.fits else 'no'}"
            f" | {len(result.blocks)} of {len(buffers)} | {split / total:.0%}"
            f" | {result.nodes:,} | {seconds:.1f} |",
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"files {', '.join(QUICK_FILES)}, budget {QUICK_BUDGET:,}",
    )
    parser.add_argument("--files", help="comma-separated file letters, e.g. A,D")
    parser.add_argument(
        "--budget",
        type=positive_int,
        help=f"nodes of the contiguous `best` (default {DEFAULT_NODES:,})",
    )
    parser.add_argument("--write", action="store_true", help=f"write {REPORT}")
    args = parser.parse_args()
    budget = args.budget or (QUICK_BUDGET if args.quick else DEFAULT_NODES)
    letters = args.files or (",".join(QUICK_FILES) if args.quick else None)
    try:
        files = suite_files(letters)
    except ValueError as error:
        parser.error(f"--files: {error}")
    traces = {f.stem.split(".")[0]: read_trace(f).buffers for f in files}
    load_before = os.getloadavg()[0]
    lines = [
        "# Fragmentation benchmark: discontiguous buffers",
        "",
        "Generated by `bench/fragmentation.py --write`; what the figures mean is"
        " in [docs/planning.md](../planning.md#discontiguous-buffers-blocks).",
        "",
        f"{run_line('fragmentation.py')}. Heights depend only on the inputs and"
        " budgets; the seconds depend on the load.",
        "",
        f"## Contiguous (`best`, {budget:,} nodes, no capacity)",
        "",
    ]
    print("\n".join(lines), flush=True)
    rows, heights = contiguous_rows(traces, budget)
    lines += rows
    for size in BLOCK_SIZES:
        heading = [
            "",
            f"## Blocks of {size // 1024} KiB, every buffer split",
            "",
            "Block bound: the most block bytes alive at once (max-live with every"
            " buffer rounded up to whole blocks); height: tables elsewhere; table"
            " bytes: the most alive at once (4 bytes a block); vs contiguous:"
            " (height + table bytes) / contiguous height; tables in arena: the"
            f" height with the tables packed above the blocks by `best` within"
            f" {AUTO_BUDGET:,} nodes (the nodes column); s: seconds of the plan"
            " with the tables elsewhere.",
            "",
        ]
        print("\n".join(heading), flush=True)
        lines += heading + block_rows(traces, heights, size)
    heading = [
        "",
        "## `auto` with 1 KiB blocks, halfway between the block and contiguous"
        f" heights ({AUTO_BUDGET:,} nodes per packer run)",
        "",
    ]
    print("\n".join(heading), flush=True)
    lines += heading + auto_rows(traces, heights)
    tail = load_note(load_before)
    print("\n".join(tail), flush=True)
    lines += tail
    if args.write:
        write_report(REPORT, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

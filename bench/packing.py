"""Benchmark of the packing algorithms (not a test): prints a table, writes docs/bench/packing.md.

1. MiniMalloc's challenging suite at capacity 1,048,576 with `best`;
2. the same files without capacity: height / lower bound per algorithm;
3. random traces of 1k, 10k, 100k buffers: greedy's scaling, best within a limit.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time
from pathlib import Path

from memplan.planning import Buffer, Plan, lower_bound, plan, validate
from memplan.planning.trace_csv import read_trace

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO.parent / "shared" / "bench" / "minimalloc" / "challenging"
REPORT = REPO / "docs" / "bench" / "packing.md"
CAPACITY = 1_048_576
RANDOM_SIZES = (1_000, 10_000, 100_000)


def random_trace(count: int, seed: int = 0) -> list[Buffer]:
    """A long schedule where ~30 buffers are live at a time, sizes 64 B to 64 KiB."""
    rng = random.Random(seed)
    buffers = []
    for index in range(count):
        lower = rng.randrange(count)
        upper = lower + 1 + int(rng.expovariate(1 / 30))
        size = 64 * rng.randint(1, 1024)
        buffers.append(Buffer(index, lower, upper, size))
    return buffers


def timed(
    buffers: list[Buffer],
    capacity: int | None,
    algorithm: str,
    time_limit: float | None,
) -> tuple[Plan, float]:
    """Plan and check, with the wall-clock seconds the call took."""
    started = time.perf_counter()
    result = plan(buffers, capacity, algorithm, time_limit)
    seconds = time.perf_counter() - started
    problem = validate(buffers, result.offsets)
    if problem is not None:
        raise SystemExit(f"invalid plan from {algorithm}: {problem}")
    return result, seconds


def suite_tables(files: list[Path], time_limit: float) -> list[str]:
    fit_rows = [
        "| file | buffers | fits 1,048,576 | height | seconds |",
        "|---|---|---|---|---|",
    ]
    ratio_rows = [
        "| file | lower bound | token | greedy | best | best proved optimal | best seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in files:
        buffers = read_trace(path).buffers
        bound = lower_bound(buffers)
        fitted, seconds = timed(buffers, CAPACITY, "best", time_limit)
        fits = "yes" if fitted.height <= CAPACITY else "**no**"
        fit_rows.append(
            f"| {path.stem[0]} | {len(buffers)} | {fits} | {fitted.height} | {seconds:.2f} |"
        )
        print(fit_rows[-1], flush=True)
        cells = []
        for algorithm in ("token", "greedy"):
            result, _ = timed(buffers, None, algorithm, None)
            cells.append(f"{result.height / bound:.3f}")
        best, best_seconds = timed(buffers, None, "best", time_limit)
        proved = "yes" if best.optimal else "no"
        ratio_rows.append(
            f"| {path.stem[0]} | {bound} | {' | '.join(cells)} | {best.height / bound:.3f}"
            f" | {proved} | {best_seconds:.2f} |"
        )
        print(ratio_rows[-1], flush=True)
    return [
        f"## Challenging suite at capacity 1,048,576 (`best`, time limit {time_limit:g} s)",
        "",
        *fit_rows,
        "",
        f"## Height / lower bound without capacity (`best` time limit {time_limit:g} s)",
        "",
        *ratio_rows,
        "",
    ]


def random_table(sizes: tuple[int, ...], time_limit: float) -> list[str]:
    rows = [
        "| buffers | greedy seconds | greedy / lower bound | best seconds | best / lower bound |",
        "|---|---|---|---|---|",
    ]
    for count in sizes:
        buffers = random_trace(count)
        bound = lower_bound(buffers)
        greedy, greedy_seconds = timed(buffers, None, "greedy", None)
        best, best_seconds = timed(buffers, None, "best", time_limit)
        if best.height > greedy.height:
            raise SystemExit(
                f"best ({best.height}) worse than greedy ({greedy.height})"
            )
        rows.append(
            f"| {count} | {greedy_seconds:.2f} | {greedy.height / bound:.3f}"
            f" | {best_seconds:.2f} | {best.height / bound:.3f} |"
        )
        print(rows[-1], flush=True)
    return [f"## Random traces (`best` time limit {time_limit:g} s)", "", *rows, ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="3 files, 1k and 10k random buffers"
    )
    parser.add_argument("--files", help="comma-separated file letters, e.g. A,C")
    parser.add_argument(
        "--time-limit", type=float, default=60.0, help="seconds per best run"
    )
    args = parser.parse_args()
    if not SUITE.is_dir():
        print(f"benchmark data not found at {SUITE}", file=sys.stderr)
        return 2
    files = sorted(SUITE.glob("*.csv"))
    if args.files:
        wanted = set(args.files.split(","))
        files = [f for f in files if f.stem.split(".")[0] in wanted]
    elif args.quick:
        files = files[:3]
    sizes = RANDOM_SIZES[:2] if args.quick else RANDOM_SIZES
    lines = [
        "# Packing benchmark",
        "",
        f"Run {datetime.date.today().isoformat()} with `python bench/packing.py"
        f"{' ' + ' '.join(sys.argv[1:]) if sys.argv[1:] else ''}` on {platform.machine()},"
        f" {os.cpu_count()} CPUs, Python {platform.python_version()} (pure Python, one core);"
        f" load average {os.getloadavg()[0]:.1f} at the start (other jobs slow the seconds).",
        "",
        *suite_tables(files, args.time_limit),
        *random_table(sizes, min(args.time_limit, 10.0)),
    ]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines))
    print(f"wrote {REPORT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

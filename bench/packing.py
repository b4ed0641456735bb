"""Benchmark of the packing algorithms (not a test): prints a table, writes docs/bench/packing.md.

1. MiniMalloc's challenging suite at capacity 1,048,576 with `best`, on the
   compiled search (numba, the `fast` extra) and on pure Python;
2. the same files without capacity: height / lower bound per algorithm;
3. random traces of 1k, 10k, 100k buffers: greedy's scaling, best within a limit.

The header gives the numba kernel's compile seconds (cold cache, in a fresh
process) and its load seconds from numba's cache.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

from memplan.planning import Buffer, Plan, lower_bound, plan, validate
from memplan.planning.best import compiled_kernel
from memplan.planning.trace_csv import read_trace

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "bench" / "data" / "minimalloc" / "challenging"
REPORT = REPO / "docs" / "bench" / "packing.md"
CAPACITY = 1_048_576
RANDOM_SIZES = (1_000, 10_000, 100_000)
PURE_PYTHON = "MEMPLAN_PURE_PYTHON"
# Compiles the kernel: four buffers greedy packs one step above the optimum,
# so `best` has to search.
WARM_UP = (
    "from memplan.planning import Buffer, plan; "
    "plan([Buffer(0, 0, 2, 15), Buffer(1, 3, 4, 12), Buffer(2, 0, 4, 9),"
    " Buffer(3, 3, 4, 9)])"
)


@contextlib.contextmanager
def pure_python(enabled: bool) -> Iterator[None]:
    """Force `best` onto the pure-Python search (or not) for the duration."""
    saved = os.environ.get(PURE_PYTHON)
    os.environ[PURE_PYTHON] = "1" if enabled else "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ[PURE_PYTHON]
        else:
            os.environ[PURE_PYTHON] = saved


def kernel_seconds() -> tuple[float, float]:
    """Seconds of a fresh process that compiles the kernel (empty cache), then
    of another that loads it from that cache (imports included in both)."""
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop(PURE_PYTHON, None)
        for _ in range(2):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", WARM_UP], env=env, check=True)
            seconds.append(time.perf_counter() - started)
    return seconds[0], seconds[1]


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


def fit_cells(buffers: list[Buffer], time_limit: float) -> str:
    """fits | height | seconds of `best` at the suite's capacity."""
    fitted, seconds = timed(buffers, CAPACITY, "best", time_limit)
    fits = "yes" if fitted.height <= CAPACITY else "**no**"
    return f"{fits} | {fitted.height} | {seconds:.2f}"


def suite_tables(files: list[Path], time_limit: float, compiled: bool) -> list[str]:
    paths = ["compiled", "pure Python"] if compiled else ["pure Python"]
    fit_rows = [
        "| file | buffers | "
        + " | ".join(f"{p}: fits | height | seconds" for p in paths)
        + " |",
        "|---|---|" + "---|---|---|" * len(paths),
    ]
    ratio_rows = [
        "| file | lower bound | token | greedy | best | best proved optimal | best seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in files:
        buffers = read_trace(path).buffers
        bound = lower_bound(buffers)
        cells = []
        for name in paths:
            with pure_python(name == "pure Python"):
                cells.append(fit_cells(buffers, time_limit))
        fit_rows.append(f"| {path.stem[0]} | {len(buffers)} | {' | '.join(cells)} |")
        print(fit_rows[-1], flush=True)
        ratios = []
        for algorithm in ("token", "greedy"):
            result, _ = timed(buffers, None, algorithm, None)
            ratios.append(f"{result.height / bound:.3f}")
        best, best_seconds = timed(buffers, None, "best", time_limit)
        proved = "yes" if best.optimal else "no"
        ratio_rows.append(
            f"| {path.stem[0]} | {bound} | {' | '.join(ratios)} | {best.height / bound:.3f}"
            f" | {proved} | {best_seconds:.2f} |"
        )
        print(ratio_rows[-1], flush=True)
    return [
        f"## Challenging suite at capacity 1,048,576 (`best`, time limit {time_limit:g} s)",
        "",
        *fit_rows,
        "",
        f"## Height / lower bound without capacity (`best` {paths[0]}, time limit {time_limit:g} s)",
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


def kernel_lines(compiled: bool) -> list[str]:
    if not compiled:
        return ["numba is not installed: `best` runs the pure-Python search.", ""]
    cold, load = kernel_seconds()
    line = (
        f"`best` runs the numba kernel (numba {version('numba')}): compiling it took"
        f" {cold:.1f} s (a fresh process with an empty cache), loading it from"
        f" numba's cache {load:.2f} s (a fresh process, imports included)."
    )
    print(line, flush=True)
    return [line, ""]


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
    compiled = compiled_kernel() is not None
    lines = [
        "# Packing benchmark",
        "",
        f"Run {datetime.date.today().isoformat()} with `python bench/packing.py"
        f"{' ' + ' '.join(sys.argv[1:]) if sys.argv[1:] else ''}` on {platform.machine()},"
        f" {os.cpu_count()} CPUs, Python {platform.python_version()}, one core;"
        f" load average {os.getloadavg()[0]:.1f} at the start (other jobs slow the seconds).",
        "",
        *kernel_lines(compiled),
        *suite_tables(files, args.time_limit, compiled),
        *random_table(sizes, min(args.time_limit, 10.0)),
    ]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines))
    print(f"wrote {REPORT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of the packing algorithms (not a test): prints tables; `--write` also
writes them to docs/bench/packing.md (generated: notes belong in docs/planning.md).

    python bench/packing.py [--quick] [--files A,D] [--budget N]
                            [--minimalloc BINARY] [--write]

1. MiniMalloc's challenging suite (bench/data/minimalloc) at capacity
   1,048,576 with `best` and the default node budget: height, nodes, and
   seconds in process on the compiled search (numba, the `fast` extra), then
   pure Python's nodes per second (measured on up to PURE_SAMPLE nodes; the
   seconds of a longer run are estimated from them, as both paths visit the
   same nodes);
2. process-level seconds of `memplan plan FILE --capacity 1048576`, as a user
   sees them (Python start-up, imports, loading the kernel included), wall and
   CPU, next to the in-process seconds of table 1; with `--minimalloc`, the
   wall seconds of a MiniMalloc binary (github.com/google/minimalloc, built
   by the user: it is not bundled) on the same file and capacity, its runs
   taking turns with memplan's so that both see the same load, and D and J
   at four capacities below 1 MiB for both (MiniMalloc with a 60 s timeout);
3. the same files without capacity: height / lower bound per algorithm;
4. random traces of 1k, 10k, 100k buffers: greedy's scaling, best within the
   budget (wall and CPU seconds: the machine is shared).

The header gives the numba kernel's compile and load seconds (fresh processes).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

from report import REPO, load_note, positive_int, run_line, suite_files, write_report

from memplan.planning import Buffer, Plan, lower_bound, plan, validate
from memplan.planning.budget import DEFAULT_NODES
from memplan.planning.decision import compiled_kernel
from memplan.planning.trace_csv import read_trace

REPORT = REPO / "docs" / "bench" / "packing.md"
CAPACITY = 1_048_576
RANDOM_SIZES = (1_000, 10_000, 100_000)
PURE_PYTHON = "MEMPLAN_PURE_PYTHON"
# Pure Python runs at most this many nodes per file; beyond, seconds are estimated.
PURE_SAMPLE = 5_000
# Process-level runs per file (the median is reported).
PROCESS_RUNS = 3
# With --minimalloc: capacities below 1 MiB on the files whose max live is
# below it, and MiniMalloc's wall-clock timeout there.
LADDER_FILES = ("D", "J")
LADDER_CAPACITIES = (1_040_384, 1_036_288, 1_032_192, 1_028_096)
LADDER_TIMEOUT = 60
# Loads the kernel (compiling it when numba's cache is empty) and runs the
# tiny search that warms it up.
WARM_UP = (
    "from memplan.planning.decision import compiled_kernel; "
    "assert compiled_kernel() is not None"
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


def kernel_seconds(quick: bool) -> tuple[float | None, float, float]:
    """Seconds of a fresh process that compiles the kernel (empty cache; skipped
    when quick), then wall and CPU seconds of one that loads it from the cache
    (imports included)."""
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    cold = None
    if not quick:
        with tempfile.TemporaryDirectory() as cache:
            cold = process_seconds(
                [sys.executable, "-c", WARM_UP], {**env, "NUMBA_CACHE_DIR": cache}
            )
    wall, cpu, _ = run_process([sys.executable, "-c", WARM_UP], env, check=True)
    return cold, wall, cpu


def process_seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    seconds, _, _ = run_process(command, env, check=True)
    return seconds


def run_process(
    command: list[str], env: dict[str, str] | None = None, check: bool = False
) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one fresh process; `check`: it must
    exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, env=env, check=check, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stdout


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
    buffers: list[Buffer], capacity: int | None, algorithm: str, budget: int
) -> tuple[Plan, float]:
    """Plan and check, with the wall-clock seconds the call took."""
    result, seconds, _ = timed_cpu(buffers, capacity, algorithm, budget)
    return result, seconds


def timed_cpu(
    buffers: list[Buffer], capacity: int | None, algorithm: str, budget: int
) -> tuple[Plan, float, float]:
    """Plan and check, with the wall-clock and CPU seconds the call took."""
    started, cpu_started = time.perf_counter(), time.process_time()
    result = plan(buffers, capacity, algorithm, budget=budget)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    problem = validate(buffers, result.offsets)
    if problem is not None:
        raise SystemExit(f"invalid plan from {algorithm}: {problem}")
    return result, seconds, cpu


def rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds / 1000:.1f}k" if seconds > 0 and nodes else "-"


def suite_rows(
    files: list[Path], budget: int, compiled: bool, in_process: dict[str, float]
) -> list[str]:
    """Table 1; fills `in_process` with each file's CPU seconds on the path used."""
    rows = [
        "| file | buffers | fits | height | nodes | compiled s | compiled CPU s"
        " | compiled nodes/s | pure Python nodes/s | pure Python s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for path in files:
        buffers = read_trace(path).buffers
        with pure_python(not compiled):
            result, seconds, cpu = timed_cpu(buffers, CAPACITY, "best", budget)
        whole = result.nodes <= PURE_SAMPLE  # else a shorter run gives the rate
        with pure_python(True):
            pure, pure_seconds = timed(
                buffers, CAPACITY, "best", budget if whole else PURE_SAMPLE
            )
        if whole and pure != result:
            raise SystemExit(f"{path.name}: the two paths gave different plans")
        in_process[path.stem[0]] = cpu
        pure_rate = pure.nodes / pure_seconds if pure.nodes else 0.0
        if whole:
            pure_cell = f"{pure_seconds:.2f}"
        else:
            pure_cell = f"~{result.nodes / pure_rate:.0f} (estimated)"
        fits = "yes" if result.height <= CAPACITY else "**no**"
        compiled_cells = (
            f"{seconds:.2f} | {cpu:.2f} | {rate(result.nodes, seconds)}"
            if compiled
            else "- | - | -"
        )
        rows.append(
            f"| {path.stem[0]} | {len(buffers)} | {fits} | {result.height}"
            f" | {result.nodes} | {compiled_cells}"
            f" | {rate(pure.nodes, pure_seconds)} | {pure_cell} |"
        )
        print(rows[-1], flush=True)
    return rows


def process_rows(
    files: list[Path],
    budget: int,
    in_process: dict[str, float],
    minimalloc: Path | None,
) -> list[str]:
    """Wall and CPU seconds of `memplan plan` in a fresh process per run, numba's
    cache warm, next to the CPU seconds of the same plan in process (table 1)
    and, if given, a MiniMalloc binary's wall seconds (its solution checked)."""
    memplan = Path(sys.executable).parent / "memplan"
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON}
    baseline = statistics.median(
        process_seconds([sys.executable, "-c", "pass"]) for _ in range(PROCESS_RUNS)
    )
    header = (
        "| file | in process CPU s (table 1) | `memplan plan --capacity 1048576`"
        f" s, wall (median of {PROCESS_RUNS}) | its CPU s | nodes |"
    )
    rule = "|---|---|---|---|---|"
    if minimalloc is not None:
        header += f" MiniMalloc binary s, wall (median of {PROCESS_RUNS}) | memplan / MiniMalloc |"
        rule += "---|---|"
    rows = [
        f"Python start-up alone (`python -c pass`): {baseline:.2f} s.",
        "",
        header,
        rule,
    ]
    print("\n".join(rows), flush=True)
    for path in files:
        command = [str(memplan), "plan", str(path), "--capacity", str(CAPACITY)]
        command += ["--budget", str(budget), "--json"]
        runs, theirs = [], []
        for _ in range(PROCESS_RUNS):
            runs.append(run_process(command, env))
            if minimalloc is not None:
                theirs.append(minimalloc_seconds(minimalloc, path))
        seconds = statistics.median(seconds for seconds, _, _ in runs)
        cpu = statistics.median(cpu for _, cpu, _ in runs)
        nodes = json.loads(runs[0][2])["nodes"]
        here = in_process.get(path.stem[0])
        here_cell = "-" if here is None else f"{here:.2f}"
        row = f"| {path.stem[0]} | {here_cell} | {seconds:.2f} | {cpu:.2f} | {nodes} |"
        if theirs:
            other = statistics.median(theirs)
            row += f" {other:.2f} | {seconds / other:.2f} |"
        rows.append(row)
        print(rows[-1], flush=True)
    return rows


def minimalloc_seconds(binary: Path, path: Path) -> float:
    """Wall seconds of one MiniMalloc run at CAPACITY, its solution validated."""
    seconds = minimalloc_run(binary, path, CAPACITY, None)
    if seconds is None:
        raise SystemExit(f"MiniMalloc found no solution of {path.name}")
    return seconds


def minimalloc_run(
    binary: Path, path: Path, capacity: int, timeout: int | None
) -> float | None:
    """Wall seconds of one MiniMalloc run, or None when it gave no solution (its
    timeout, in seconds of wall clock); a solution is validated."""
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "solution.csv"
        command = [
            str(binary),
            f"--capacity={capacity}",
            f"--input={path}",
            f"--output={output}",
        ]
        if timeout is not None:
            command.append(f"--timeout={timeout}s")
        seconds, _, _ = run_process(command)
        if not output.exists():
            return None
        offsets = read_trace(output).offsets
    if offsets is None:
        raise SystemExit(f"MiniMalloc wrote no offsets for {path.name}")
    problem = validate(read_trace(path).buffers, offsets, capacity=capacity)
    if problem is not None:
        raise SystemExit(f"MiniMalloc's solution of {path.name}: {problem}")
    return seconds


def ladder_rows(files: list[Path], budget: int, minimalloc: Path) -> list[str]:
    """D and J (the files below 1 MiB of max live) at capacities under 1 MiB:
    `memplan plan` with the budget against MiniMalloc with LADDER_TIMEOUT."""
    memplan = Path(sys.executable).parent / "memplan"
    rows = [
        "| file | capacity | `memplan plan` fits | its wall s |"
        f" MiniMalloc fits (in {LADDER_TIMEOUT} s) | its wall s |",
        "|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for path in files:
        if path.stem[0] not in LADDER_FILES:
            continue
        for capacity in LADDER_CAPACITIES:
            command = [str(memplan), "plan", str(path), "--capacity", str(capacity)]
            command += ["--budget", str(budget), "--json"]
            seconds, _, out = run_process(command)
            fits = "yes" if json.loads(out)["fits"] else "no"
            theirs = minimalloc_run(minimalloc, path, capacity, LADDER_TIMEOUT)
            their_cells = "no answer | -" if theirs is None else f"yes | {theirs:.2f}"
            rows.append(
                f"| {path.stem[0]} | {capacity:,} | {fits} | {seconds:.2f}"
                f" | {their_cells} |"
            )
            print(rows[-1], flush=True)
    return rows


def ladder_section(
    files: list[Path], budget: int, minimalloc: Path | None
) -> list[str]:
    """The capacity ladder's heading and table, when there is a MiniMalloc binary."""
    if minimalloc is None or not any(p.stem[0] in LADDER_FILES for p in files):
        return []
    return [
        "## Capacities below 1 MiB on D and J, against MiniMalloc",
        "",
        *ladder_rows(files, budget, minimalloc),
        "",
    ]


def ratio_rows(files: list[Path], budget: int) -> list[str]:
    rows = [
        "| file | max live | token | greedy | best | best lower bound | proved optimal"
        " | nodes | best s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for path in files:
        buffers = read_trace(path).buffers
        bound = lower_bound(buffers)
        ratios = []
        for algorithm in ("token", "greedy"):
            result, _ = timed(buffers, None, algorithm, budget)
            ratios.append(f"{result.height / bound:.4f}")
        best, seconds = timed(buffers, None, "best", budget)
        proved = "yes" if best.proved_optimal else "no"
        rows.append(
            f"| {path.stem[0]} | {bound} | {' | '.join(ratios)}"
            f" | {best.height / bound:.4f} | {best.lower_bound} | {proved}"
            f" | {best.nodes} | {seconds:.2f} |"
        )
        print(rows[-1], flush=True)
    return rows


def random_rows(sizes: tuple[int, ...], budget: int) -> list[str]:
    rows = [
        "| buffers | greedy s | greedy / lower bound | best s | best CPU s"
        " | best nodes | best / lower bound |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for count in sizes:
        buffers = random_trace(count)
        bound = lower_bound(buffers)
        greedy, greedy_seconds = timed(buffers, None, "greedy", budget)
        best, best_seconds, best_cpu = timed_cpu(buffers, None, "best", budget)
        if best.height > greedy.height:
            raise SystemExit(
                f"best ({best.height}) worse than greedy ({greedy.height})"
            )
        rows.append(
            f"| {count} | {greedy_seconds:.2f} | {greedy.height / bound:.3f}"
            f" | {best_seconds:.2f} | {best_cpu:.2f} | {best.nodes}"
            f" | {best.height / bound:.3f} |"
        )
        print(rows[-1], flush=True)
    return rows


def kernel_line(compiled: bool, quick: bool) -> str:
    if not compiled:
        return "numba is not installed: `best` runs the pure-Python search only."
    cold, load, load_cpu = kernel_seconds(quick)
    compile_text = (
        ""
        if cold is None
        else f" compiling it took {cold:.1f} s (a fresh process with an empty cache,"
        " ahead of time when a C compiler is there, else jit);"
    )
    line = (
        f"`best` runs the numba kernel (numba {version('numba')}):{compile_text}"
        f" a fresh process that loads it from the cache takes {load:.2f} s"
        f" ({load_cpu:.2f} s of CPU), Python start-up and imports included."
    )
    print(line, flush=True)
    return line


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="3 files, 1k and 10k random buffers"
    )
    parser.add_argument("--files", help="comma-separated file letters, e.g. A,C")
    parser.add_argument(
        "--budget",
        type=positive_int,
        default=DEFAULT_NODES,
        help=f"search nodes per best run (default: {DEFAULT_NODES:,}, the library's)",
    )
    parser.add_argument(
        "--minimalloc",
        type=Path,
        metavar="BINARY",
        help="also time this MiniMalloc binary in the process-level table",
    )
    parser.add_argument(
        "--write", action="store_true", help=f"write the tables to {REPORT}"
    )
    args = parser.parse_args()
    minimalloc = args.minimalloc
    if minimalloc is not None and not (
        minimalloc.is_file() and os.access(minimalloc, os.X_OK)
    ):
        parser.error(f"--minimalloc: {minimalloc} is not an executable file")
    try:
        files = suite_files(args.files)
    except ValueError as error:
        parser.error(f"--files: {error}")
    if args.quick and not args.files:
        files = files[:3]
    sizes = RANDOM_SIZES[:2] if args.quick else RANDOM_SIZES
    compiled = compiled_kernel() is not None
    in_process: dict[str, float] = {}
    load_before = os.getloadavg()[0]
    lines = [
        "# Packing benchmark",
        "",
        "Generated by `bench/packing.py --write`; notes on these figures are in"
        " [docs/planning.md](../planning.md).",
        "",
        f"{run_line('packing.py')}, one core; `best` budget {args.budget:,}"
        " nodes. Plans depend only on the budget; the seconds depend on the load.",
        "",
        kernel_line(compiled, args.quick),
        "",
        f"## Challenging suite at capacity 1,048,576 (`best`, {args.budget:,} nodes)",
        "",
        *suite_rows(files, args.budget, compiled, in_process),
        "",
        "## Process-level seconds, as a user sees them",
        "",
        *process_rows(files, args.budget, in_process, args.minimalloc),
        "",
        *ladder_section(files, args.budget, args.minimalloc),
        f"## Height / max-live bound without capacity (`best`, {args.budget:,} nodes)",
        "",
        *ratio_rows(files, args.budget),
        "",
        f"## Random traces (`best`, {args.budget:,} nodes)",
        "",
        *random_rows(sizes, args.budget),
        *load_note(load_before),
    ]
    if args.write:
        write_report(REPORT, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())

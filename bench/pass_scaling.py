"""How `memory-manifest,memory-plan` scales with the number of tensors.

All times are CPU seconds (user + system), the least of `--repeat` runs.
Generates one function of N naive VTCM tensors (`memref.alloc`, every
dealloc at the end, each tensor read by a few later ops: one arena; or with
`--lifetimes disjoint` each tensor freed before the next is allocated: one
arena per tensor), then times, in separate `xdsl-opt` processes on the same
file:

* parse + print alone (`xdsl-opt file`),
* `-p memory-manifest` (the input planning starts from),
* `-p memory-manifest,memory-plan{algorithm=A}` for each algorithm.

The planning cost is the last minus the second; the target is at most twice
parse + print at 10k tensors, growing no worse than n log n.

    python bench/pass_scaling.py --sizes 1000 10000 50000 --output docs/bench/pass_scaling.md

With `--calls`, the sizes are numbers of functions instead: a module of N
functions, each with a VTCM buffer of its own and called once from `@main`,
parsed, verified and printed (`TOOL file`) by each tool given, which shows
what verifying N calls costs:

    python bench/pass_scaling.py --calls --sizes 500 1000 2000 4000 \
        --tools .venv/bin/memplan-opt .venv/bin/xdsl-opt
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func, get_all_dialects
from xdsl.parser import Parser

from memplan.dialects.memory import AllocStorageOp, Memory
from memplan.passes.liveness import FunctionLiveness
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass

SHAPES = ["16xi32", "64xi32", "256xi32", "1024xi32"]
MAX_REUSE_DISTANCE = 24


def generate(count: int, seed: int = 0) -> str:
    """A straight-line function of `count` tensors with random reuse distances."""
    rng = random.Random(seed)
    shapes = [rng.choice(SHAPES) for _ in range(count)]
    readers: dict[int, list[int]] = {}
    for tensor in range(count):
        for _ in range(rng.randint(1, 3)):
            step = min(count - 1, tensor + rng.randint(0, MAX_REUSE_DISTANCE))
            readers.setdefault(step, []).append(tensor)
    lines = ["func.func @main() {"]
    for step in range(count):
        lines.append(
            f'  %t{step} = memref.alloc() : memref<{shapes[step]}, "global.vtcm">'
        )
        used = sorted(set(readers.get(step, [])) | {step})
        operands = ", ".join(f"%t{t}" for t in used)
        types = ", ".join(f'memref<{shapes[t]}, "global.vtcm">' for t in used)
        lines.append(f'  "test.op"({operands}) : ({types}) -> ()')
    lines += [
        f'  memref.dealloc %t{t} : memref<{shapes[t]}, "global.vtcm">'
        for t in range(count)
    ]
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def generate_disjoint(count: int, seed: int = 0) -> str:
    """A straight-line function of `count` tensors, each used once and freed
    before the next is allocated: `count` arenas of one tensor each."""
    rng = random.Random(seed)
    lines = ["func.func @main() {"]
    for step in range(count):
        type_ = f'memref<{rng.choice(SHAPES)}, "global.vtcm">'
        lines += [
            f"  %t{step} = memref.alloc() : {type_}",
            f'  "test.op"(%t{step}) : ({type_}) -> ()',
            f"  memref.dealloc %t{step} : {type_}",
        ]
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


GENERATORS = {"reuse": generate, "disjoint": generate_disjoint}


def generate_calls(count: int) -> str:
    """`count` functions, each with a VTCM buffer of its own, all called once
    from `@main`."""
    type_ = 'memref<64xi32, "global.vtcm">'
    lines: list[str] = []
    for number in range(count):
        lines += [
            f"func.func @f{number}() {{",
            f"  %t = memref.alloc() : {type_}",
            f'  "test.op"(%t) : ({type_}) -> ()',
            f"  memref.dealloc %t : {type_}",
            "  func.return",
            "}",
        ]
    lines.append("func.func @main() {")
    lines += [f"  func.call @f{number}() : () -> ()" for number in range(count)]
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def timed(xdsl_opt: list[str], path: Path, passes: str | None, repeat: int) -> float:
    """Least CPU seconds (user + system) of `repeat` `xdsl-opt` runs, output
    discarded.  CPU time of the child, not wall time: other load on the
    machine then barely moves the figures."""
    command = [*xdsl_opt, str(path)] + (["-p", passes] if passes else [])
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime - before.ru_utime) + (
            after.ru_stime - before.ru_stime
        )
        best = min(best, seconds)
    return best


def pass_seconds(source: str, algorithm: str) -> tuple[float, float, int]:
    """In-process CPU seconds of memory-plan alone (after memory-manifest), of the
    liveness analysis inside it, and the arena size it chose."""
    ctx = Context(allow_unregistered=True)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    ctx.load_dialect(Memory)
    module = Parser(ctx, source).parse_module()
    MemoryManifestPass().apply(ctx, module)
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    started = time.process_time()
    liveness = FunctionLiveness(function)
    for tensor in liveness.tensors():
        liveness.range_of(tensor)
    analysed = time.process_time()
    MemoryPlanPass(algorithm=algorithm).apply(ctx, module)
    planned = time.process_time()
    arena = next(op for op in module.walk() if isinstance(op, AllocStorageOp))
    size = arena.static_size_bytes()
    assert size is not None
    return planned - analysed, analysed - started, size


def _difference(planning: float, base: float) -> str:
    """The "plan s" and "plan / parse+print" cells.  `planning` is the
    difference of two process timings; below zero it is noise (small inputs,
    where start-up dominates), which the table says rather than print a
    negative time."""
    if planning < 0:
        return "below noise | below noise"
    return f"{planning:.2f} | {planning / base:.2f}"


def calls_rows(sizes: list[int], tools: list[str], repeat: int) -> list[str]:
    """Markdown rows: CPU seconds of `TOOL file` (parse, verify, print) on
    `generate_calls(N)`, one column per tool."""
    rows = [
        "| functions | " + " | ".join(f"`{tool}` s" for tool in tools) + " |",
        "|---:|" + "---:|" * len(tools),
    ]
    print(*rows, sep="\n", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        for count in sizes:
            path = Path(scratch) / f"calls_{count}.mlir"
            path.write_text(generate_calls(count))
            seconds = [timed([tool], path, None, repeat) for tool in tools]
            rows.append(
                f"| {count} | " + " | ".join(f"{s:.2f}" for s in seconds) + " |"
            )
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Time memory-manifest,memory-plan against parse + print."
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--algorithms", nargs="+", default=["greedy", "best", "token"])
    parser.add_argument(
        "--xdsl-opt", default=str(Path(sys.executable).with_name("xdsl-opt"))
    )
    parser.add_argument(
        "--disable-verify",
        action="store_true",
        help="pass --disable-verify to every xdsl-opt run (skips IR verification)",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per timing; the least counts"
    )
    parser.add_argument(
        "--lifetimes",
        choices=sorted(GENERATORS),
        default="reuse",
        help="reuse: tensors read within the next 24 steps, one arena (default); "
        "disjoint: each tensor freed before the next, one arena per tensor",
    )
    parser.add_argument(
        "--calls",
        action="store_true",
        help="time parse + verify + print of N functions called from @main "
        "with each of --tools, instead of the passes",
    )
    parser.add_argument(
        "--tools",
        nargs="+",
        default=[str(Path(sys.executable).with_name("memplan-opt"))],
        help="with --calls: the tools to time (default: memplan-opt)",
    )
    parser.add_argument("--output", type=Path, help="append the markdown rows here")
    args = parser.parse_args()
    if args.calls:
        rows = calls_rows(args.sizes, args.tools, args.repeat)
        if args.output:
            with args.output.open("a") as output:
                output.write("\n".join(rows) + "\n\n")
        return
    xdsl_opt = [args.xdsl_opt, *(["--disable-verify"] if args.disable_verify else [])]
    header = (
        "| tensors | verify | parse+print s | manifest s | algorithm | manifest+plan s | "
        "plan s | plan / parse+print | pass alone s | liveness s | arena bytes |\n"
        "|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"
    )
    rows = [header]
    print(header, flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        for count in args.sizes:
            source = GENERATORS[args.lifetimes](count)
            path = Path(scratch) / f"tensors_{count}.mlir"
            path.write_text(source)
            base = timed(xdsl_opt, path, None, args.repeat)
            manifest = timed(xdsl_opt, path, "memory-manifest", args.repeat)
            for algorithm in args.algorithms:
                passes = f"memory-manifest,memory-plan{{algorithm={algorithm}}}"
                total = timed(xdsl_opt, path, passes, args.repeat)
                planning = total - manifest
                alone, liveness, size = pass_seconds(source, algorithm)
                row = (
                    f"| {count} | {'off' if args.disable_verify else 'on'} | {base:.2f} | "
                    f"{manifest:.2f} | {algorithm} | {total:.2f} | "
                    f"{_difference(planning, base)} | "
                    f"{alone:.2f} | {liveness:.2f} | {size} |"
                )
                rows.append(row)
                print(row, flush=True)
    if args.output:
        with args.output.open("a") as output:
            output.write("\n".join(rows) + "\n\n")


if __name__ == "__main__":
    main()

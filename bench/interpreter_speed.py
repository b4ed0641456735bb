"""How fast memplan-run executes linalg programs, against numpy and xdsl-run.

    python bench/interpreter_speed.py [--size 512] [--repeats 5] [--write docs/bench/interpreter.md]

1. A generated program of 20 linalg ops (adds, muls, one matmul) on NxN f32
   memrefs: memplan's interpreter (parsed once; startup reported apart) vs
   the same computation written directly in numpy (including its allocations).
2. One `linalg.add` at several sizes: memplan vs stock xDSL interpreter
   (`xdsl-run`'s engine, element by element), both timed in-process around
   the call only.
Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters import register_implementations
from xdsl.parser import Parser

from memplan.context import run_context
from memplan.interpreter import run_function

NUM_OPS = 20
MATMUL_AT = 10
"""Position of the one matmul among the 20 ops."""


def program_text(size: int) -> str:
    """t_{i+1} = op_i(t_i, x) with op alternating add/mul, one matmul at MATMUL_AT."""
    t = f"memref<{size}x{size}xf32>"
    lines = [f"func.func @main(%x: {t}, %y: {t}) -> {t} {{"]
    lines.append("  %zero = arith.constant 0.0 : f32")
    previous = "%y"
    for i in range(NUM_OPS):
        out = f"%t{i}"
        lines.append(f"  {out} = memref.alloc() : {t}")
        if i == MATMUL_AT:
            lines.append(f"  linalg.fill ins(%zero : f32) outs({out} : {t})")
            lines.append(
                f"  linalg.matmul ins({previous}, %x : {t}, {t}) outs({out} : {t})"
            )
        else:
            op = "add" if i % 2 == 0 else "mul"
            lines.append(
                f"  linalg.{op} ins({previous}, %x : {t}, {t}) outs({out} : {t})"
            )
        if previous != "%y":
            lines.append(f"  memref.dealloc {previous} : {t}")
        previous = out
    lines.append(f"  func.return {previous} : {t}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def numpy_program(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The same computation, written directly in numpy."""
    previous = y
    for i in range(NUM_OPS):
        out = np.empty_like(x)
        if i == MATMUL_AT:
            out.fill(0)
            out += previous @ x
        elif i % 2 == 0:
            np.add(previous, x, out=out)
        else:
            np.multiply(previous, x, out=out)
        previous = out
    return previous


def add_program(size: int) -> str:
    t = f"memref<{size}x{size}xf32>"
    return (
        f"func.func @main() {{\n  %a = memref.alloc() : {t}\n  %b = memref.alloc() : {t}\n"
        f"  %c = memref.alloc() : {t}\n"
        f"  linalg.add ins(%a, %b : {t}, {t}) outs(%c : {t})\n  func.return\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    ctx = run_context()
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def best_of(repeats: int, action: Callable[[], object]) -> float:
    times: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def xdsl_seconds(module: ModuleOp) -> float:
    interpreter = Interpreter(module)
    register_implementations(interpreter, Context())
    start = time.perf_counter()
    interpreter.call_op("main", ())
    return time.perf_counter() - start


def cli_seconds(path: Path, size: int) -> float:
    splat = f"dense<0.5> : tensor<{size}x{size}xf32>"
    start = time.perf_counter()
    subprocess.run(
        [
            str(Path(sys.executable).with_name("memplan-run")),
            str(path),
            "--no-stats",
            "--args",
            f"{splat}, {splat}",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--xdsl-sizes", default="64,128,256")
    parser.add_argument(
        "--xdsl-limit",
        type=float,
        default=30.0,
        help="skip larger xdsl-run sizes after one slower than this",
    )
    parser.add_argument("--write", type=Path, help="write the markdown table here")
    options = parser.parse_args()

    rng = np.random.default_rng(0)
    n = options.size
    x = (rng.standard_normal((n, n), dtype=np.float32) / n).astype(np.float32)
    y = rng.standard_normal((n, n), dtype=np.float32)
    text = program_text(n)
    parse_seconds = best_of(options.repeats, lambda: parse(text))
    module = parse(text)
    expected = numpy_program(x, y)
    actual = run_function(module, "main", (x, y)).results[0]
    assert isinstance(actual, np.ndarray)
    np.testing.assert_allclose(actual, expected, rtol=1e-3, atol=1e-3)
    memplan_seconds = best_of(
        options.repeats, lambda: run_function(module, "main", (x, y))
    )
    numpy_seconds = best_of(options.repeats, lambda: numpy_program(x, y))
    program_path = Path(f"/tmp/memplan_bench_{n}.mlir")
    program_path.write_text(text)
    cli = best_of(min(3, options.repeats), lambda: cli_seconds(program_path, n))

    rows = [
        "| what | time | ratio |",
        "|---|---:|---:|",
        f"| numpy, {NUM_OPS} ops on {n}x{n} f32 (incl. allocations) | {numpy_seconds * 1e3:.2f} ms | 1.00x |",
        f"| memplan interpreter, same program (run only) | {memplan_seconds * 1e3:.2f} ms | {memplan_seconds / numpy_seconds:.2f}x |",
        f"| parse + verify of that program | {parse_seconds * 1e3:.1f} ms | |",
        f"| `memplan-run` end to end (process start, parse, run; splat inputs) | {cli * 1e3:.0f} ms | |",
    ]
    per_op = [
        "| linalg.add size | stock xDSL interpreter | memplan | speed-up |",
        "|---|---:|---:|---:|",
    ]
    for size in (int(s) for s in options.xdsl_sizes.split(",")):
        module = parse(add_program(size))
        ours = best_of(options.repeats, lambda module=module: run_function(module))
        theirs = xdsl_seconds(module)
        per_op.append(
            f"| {size}x{size} f32 | {theirs * 1e3:.1f} ms | {ours * 1e3:.3f} ms | {theirs / ours:,.0f}x |"
        )
        if theirs > options.xdsl_limit:
            break

    report = "\n".join(
        [
            "## 20-op program",
            "",
            *rows,
            "",
            "## One op against stock xdsl-run",
            "",
            *per_op,
            "",
        ]
    )
    print(report)
    if options.write:
        options.write.write_text(report)


if __name__ == "__main__":
    main()

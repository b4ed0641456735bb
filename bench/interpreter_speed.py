"""How fast memplan-run executes programs, and how it scales with live storages.

    python bench/interpreter_speed.py [--size 512] [--loops 20] [--runs 5]
        [--storages 2500,5000,10000,20000] [--conv 12x4]
        [--parts chain,add,loops,storages] [--write [docs/bench/interpreter.md]]

1. chain: a generated program running a chain of 20 linalg ops (adds, muls,
   one matmul) on NxN f32 memrefs `--loops` times in an `scf.for`, against the
   same loop written directly in numpy.  Each side is timed `--runs` times;
   the table gives the median and the spread (max - min, in % of the median),
   so a rerun can be judged against it.  Times are CPU time of the process,
   except the end-to-end `memplan-run` row (wall time), and BLAS runs on one
   thread (unless OPENBLAS_NUM_THREADS says otherwise): idle BLAS threads
   spin, which CPU time would count as work.
2. add: one `linalg.add` at several sizes, memplan against the stock xDSL
   interpreter (`xdsl-run`'s engine, element by element).
3. loops: a 3x3 convolution in loop form (`convert-linalg-to-loops`: scalar
   loads, arith and stores in six `scf.for`s), the time per executed op: on
   f32, on f32 with `--check-uninitialized`, on i8 accumulated in i32
   (sign extensions, integer multiply and add), against the same convolution
   as one linalg op; each loop form op by op (`MEMPLAN_SCALAR_LOOPS=1`: the
   interpreter's per-op overhead) and with its nest on whole arrays
   (`loop_vectorize.py`), which must give the same result and statistics.
4. storages: N storages live at once (each holding one tensor) and one
   storage holding N live tensors, all killed at the end: the run time per
   storage must stay flat as N grows (allocation, lookup and the overlap
   checks are O(log n) per op).  Parsing (xDSL's) is reported apart.
Not a test: figures depend on the machine.  Nothing is written unless
`--write` is given.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters import register_implementations
from xdsl.parser import Parser

from memplan.context import run_context
from memplan.interpreter import Stats, run_function

NUM_OPS = 20
MATMUL_AT = 10
"""Position of the one matmul among the 20 ops."""
REPORT = Path(__file__).resolve().parents[1] / "docs" / "bench" / "interpreter.md"
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def chain_program(size: int, loops: int) -> str:
    """`loops` times: t_{i+1} = op_i(t_i, x) from y, the last copied to out."""
    t = f"memref<{size}x{size}xf32>"
    lines = [
        f"func.func @main(%x: {t}, %y: {t}, %out: {t}) {{",
        "  %zero = arith.constant 0.0 : f32",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %loops = arith.constant {loops} : index",
        "  scf.for %k = %c0 to %loops step %c1 {",
    ]
    previous = "%y"
    for i in range(NUM_OPS):
        out = f"%t{i}"
        lines.append(f"    {out} = memref.alloc() : {t}")
        if i == MATMUL_AT:
            lines.append(f"    linalg.fill ins(%zero : f32) outs({out} : {t})")
            lines.append(
                f"    linalg.matmul ins({previous}, %x : {t}, {t}) outs({out} : {t})"
            )
        else:
            op = "add" if i % 2 == 0 else "mul"
            lines.append(
                f"    linalg.{op} ins({previous}, %x : {t}, {t}) outs({out} : {t})"
            )
        if previous != "%y":
            lines.append(f"    memref.dealloc {previous} : {t}")
        previous = out
    lines.append(f"    linalg.copy ins({previous} : {t}) outs(%out : {t})")
    lines.append(f"    memref.dealloc {previous} : {t}")
    lines += ["  }", "  func.return", "}"]
    return "\n".join(lines) + "\n"


def numpy_chain(x: np.ndarray, y: np.ndarray, out: np.ndarray, loops: int) -> None:
    """The same loop, written directly in numpy."""
    for _ in range(loops):
        previous = y
        for i in range(NUM_OPS):
            result = np.empty_like(x)
            if i == MATMUL_AT:
                result.fill(0)
                result += previous @ x
            elif i % 2 == 0:
                np.add(previous, x, out=result)
            else:
                np.multiply(previous, x, out=result)
            previous = result
        np.copyto(out, previous)


def add_program(size: int) -> str:
    t = f"memref<{size}x{size}xf32>"
    return (
        f"func.func @main() {{\n  %a = memref.alloc() : {t}\n  %b = memref.alloc() : {t}\n"
        f"  %c = memref.alloc() : {t}\n"
        f"  linalg.add ins(%a, %b : {t}, {t}) outs(%c : {t})\n  func.return\n}}\n"
    )


def storages_program(count: int) -> str:
    """`count` DDR storages live at once, one tensor in each, then killed."""
    storage, tensor = '!memory.storage<"global">', "memref<16xi32>"
    lines = ["func.func @main() {"]
    for i in range(count):
        lines.append(f"  %s{i} = memory.alloc_storage [64] : {storage}")
        lines.append(f"  %t{i} = memory.alloc_tensor %s{i}[0] : {storage} to {tensor}")
    lines += [f"  memory.kill %s{i} : {storage}" for i in range(count)]
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def tensors_program(count: int) -> str:
    """One storage holding `count` live tensors, each killed at the end."""
    storage, tensor = '!memory.storage<"global">', "memref<16xi32>"
    lines = [
        "func.func @main() {",
        f"  %s = memory.alloc_storage [{64 * count}] : {storage}",
    ]
    lines += [
        f"  %t{i} = memory.alloc_tensor %s[{64 * i}] : {storage} to {tensor}"
        for i in range(count)
    ]
    lines += [f"  memory.kill %t{i} : {tensor}" for i in range(count)]
    lines += [f"  memory.kill %s : {storage}", "  func.return", "}"]
    return "\n".join(lines) + "\n"


CONV_TYPES = {"f32": ("f32", "f32"), "i8": ("i8", "i32")}
"""A convolution's element types: inputs, output (i8 accumulates in i32)."""


def _conv_types(size: int, channels: int, types: str) -> tuple[str, str, str]:
    element, accumulator = CONV_TYPES[types]
    padded = size + 2
    return (
        f"memref<1x{channels}x{padded}x{padded}x{element}>",
        f"memref<{channels}x{channels}x3x3x{element}>",
        f"memref<1x{channels}x{size}x{size}x{accumulator}>",
    )


def conv_loops_program(size: int, channels: int, types: str = "f32") -> str:
    """A 3x3 convolution (`channels` in and out, `size`x`size` output) in the
    form `convert-linalg-to-loops` gives `linalg.conv_2d_nchw_fchw`: six
    `scf.for`s around two `affine.apply`, three scalar loads, a multiply, an
    add and a store (i8 inputs are sign-extended to i32 first)."""
    element, accumulator = CONV_TYPES[types]
    image, weights, out = _conv_types(size, channels, types)
    loops = [
        ("f", "%nc"),
        ("y", "%n"),
        ("x", "%n"),
        ("c", "%nc"),
        ("ky", "%c3"),
        ("kx", "%c3"),
    ]
    lines = [
        "#shift = affine_map<(d0, d1) -> (d0 + d1)>",
        f"func.func @main(%in: {image}, %w: {weights}, %out: {out}) {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c3 = arith.constant 3 : index",
        f"  %n = arith.constant {size} : index",
        f"  %nc = arith.constant {channels} : index",
    ]
    for depth, (name, bound) in enumerate(loops):
        lines.append(
            f"{'  ' * (depth + 1)}scf.for %{name} = %c0 to {bound} step %c1 {{"
        )
    pad = "  " * (len(loops) + 1)
    lines += [
        f"{pad}%iy = affine.apply #shift(%y, %ky)",
        f"{pad}%ix = affine.apply #shift(%x, %kx)",
        f"{pad}%a = memref.load %in[%c0, %c, %iy, %ix] : {image}",
        f"{pad}%b = memref.load %w[%f, %c, %ky, %kx] : {weights}",
        f"{pad}%acc = memref.load %out[%c0, %f, %y, %x] : {out}",
    ]
    if element == accumulator:
        lines += [
            f"{pad}%p = arith.mulf %a, %b : {element}",
            f"{pad}%s = arith.addf %acc, %p : {element}",
        ]
    else:
        lines += [
            f"{pad}%ea = arith.extsi %a : {element} to {accumulator}",
            f"{pad}%eb = arith.extsi %b : {element} to {accumulator}",
            f"{pad}%p = arith.muli %ea, %eb : {accumulator}",
            f"{pad}%s = arith.addi %acc, %p : {accumulator}",
        ]
    lines.append(f"{pad}memref.store %s, %out[%c0, %f, %y, %x] : {out}")
    lines += [f"{'  ' * (depth + 1)}}}" for depth in reversed(range(len(loops)))]
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def conv_linalg_program(size: int, channels: int, types: str = "f32") -> str:
    """The same convolution as one `linalg.conv_2d_nchw_fchw`."""
    image, weights, out = _conv_types(size, channels, types)
    return (
        f"func.func @main(%in: {image}, %w: {weights}, %out: {out}) {{\n"
        f"  linalg.conv_2d_nchw_fchw ins(%in, %w : {image}, {weights}) "
        f"outs(%out : {out})\n  func.return\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    module = Parser(run_context(), text).parse_module()
    module.verify()
    return module


def timed(action: Callable[[], object]) -> float:
    """CPU seconds of this process (all its threads) spent in `action`: on a
    shared machine other jobs stretch wall time far more than CPU time."""
    start = time.process_time()
    action()
    return time.process_time() - start


def wall(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def runs(count: int, action: Callable[[], object]) -> list[float]:
    return [timed(action) for _ in range(count)]


def median_and_spread(times: list[float]) -> tuple[float, float]:
    """The median, and (max - min) as a fraction of it."""
    median = statistics.median(times)
    return median, (max(times) - min(times)) / median


def xdsl_seconds(text: str) -> float:
    """Stock xdsl-run's engine on `text`, parsed with xDSL's own dialects."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    module = Parser(ctx, text).parse_module()
    interpreter = Interpreter(module)
    register_implementations(interpreter, Context())
    return timed(lambda: interpreter.call_op("main", ()))


def cli_seconds(path: Path, size: int) -> float:
    splat = f"dense<0.5> : tensor<{size}x{size}xf32>"
    command = [
        str(Path(sys.executable).with_name("memplan-run")),
        str(path),
        "--no-stats",
        "--args",
        f"{splat}, {splat}, {splat}",
    ]
    return wall(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))


def chain_section(size: int, loops: int, count: int) -> list[str]:
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((size, size), dtype=np.float32) / size).astype(np.float32)
    y = rng.standard_normal((size, size), dtype=np.float32)
    text = chain_program(size, loops)
    parse_seconds = min(runs(3, lambda: parse(text)))
    module = parse(text)
    expected, actual = np.empty_like(x), np.empty_like(x)
    numpy_chain(x, y, expected, loops)
    run_function(module, "main", (x, y, actual))
    np.testing.assert_allclose(actual, expected, rtol=1e-3, atol=1e-3)
    ours, ours_spread = median_and_spread(
        runs(count, lambda: run_function(module, "main", (x, y, actual)))
    )
    theirs, theirs_spread = median_and_spread(
        runs(count, lambda: numpy_chain(x, y, expected, loops))
    )
    path = Path(f"/tmp/memplan_bench_chain_{size}_{loops}.mlir")
    path.write_text(text)
    cli = min(cli_seconds(path, size) for _ in range(2))
    what = f"{loops} x {NUM_OPS} ops on {size}x{size} f32"
    return [
        f"| what | median of {count} runs | spread | ratio |",
        "|---|---:|---:|---:|",
        f"| numpy, {what} (incl. allocations) | {theirs * 1e3:.0f} ms | {theirs_spread:.0%} | 1.00x |",
        f"| memplan interpreter, same program (run only) | {ours * 1e3:.0f} ms | {ours_spread:.0%} | {ours / theirs:.2f}x |",
        f"| parse + verify of that program (best of 3) | {parse_seconds * 1e3:.0f} ms | | |",
        f"| `memplan-run` end to end, wall time (process start, parse, run; splat inputs; best of 2) | {cli * 1e3:.0f} ms | | |",
    ]


def add_section(sizes: list[int], count: int, limit: float) -> list[str]:
    rows = [
        "| linalg.add size | stock xDSL interpreter | memplan (best of runs) | speed-up |",
        "|---|---:|---:|---:|",
    ]
    for size in sizes:
        module = parse(add_program(size))
        ours = min(runs(count, lambda module=module: run_function(module)))
        theirs = xdsl_seconds(add_program(size))
        rows.append(
            f"| {size}x{size} f32 | {theirs * 1e3:.1f} ms | {ours * 1e3:.3f} ms | {theirs / ours:,.0f}x |"
        )
        if theirs > limit:
            break
    return rows


def _conv_inputs(size: int, channels: int, types: str) -> tuple[np.ndarray, ...]:
    """Image, weights and a zeroed output of a convolution."""
    rng = np.random.default_rng(0)
    image_shape = (1, channels, size + 2, size + 2)
    weights_shape = (channels, channels, 3, 3)
    out_shape = (1, channels, size, size)
    if types == "f32":
        image = rng.standard_normal(image_shape, dtype=np.float32)
        weights = rng.standard_normal(weights_shape, dtype=np.float32)
        return image, weights, np.zeros(out_shape, np.float32)
    image = rng.integers(-128, 128, image_shape, dtype=np.int8)
    weights = rng.integers(-128, 128, weights_shape, dtype=np.int8)
    return image, weights, np.zeros(out_shape, np.int32)


LOOP_FORMS = (
    ("loops", "f32", False, False, False),
    ("loops", "f32", False, True, False),
    ("loops", "f32", True, False, False),
    ("loops", "f32", True, True, False),
    ("loops", "i8", False, False, False),
    ("loops", "i8", False, True, False),
    ("linalg", "f32", False, True, False),
    ("linalg", "f32", False, True, True),
)
"""(form, element types, whether `--check-uninitialized` is on, whether loop
nests may run on whole arrays: False is `MEMPLAN_SCALAR_LOOPS=1`, whether
`--sequential-sums` is on)."""


def loops_section(size: int, channels: int, count: int) -> list[str]:
    """Loop forms against the linalg form; each loop form's result must be
    the linalg form's (i8 exactly, f32 exactly with `--sequential-sums`)."""
    builders = {"loops": conv_loops_program, "linalg": conv_linalg_program}
    scalar_runs: dict[tuple[str, bool], tuple[bytes, Stats]] = {}
    rows = [
        f"| form | ops executed | median of {count} runs | spread | per op |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, types, check, vectorize, sequential in LOOP_FORMS:
        module = parse(builders[name](size, channels, types))
        image, weights, out = _conv_inputs(size, channels, types)
        run = partial(
            run_function,
            module,
            "main",
            check_uninitialized=check,
            vectorize_loops=vectorize,
            sequential_sums=sequential,
        )
        stats = run((image, weights, out)).stats
        ops = stats.ops_executed
        if name == "loops":
            # Op by op first: the run on arrays must match it bit for bit.
            seen = scalar_runs.setdefault((types, check), (out.tobytes(), stats))
            assert seen == (out.tobytes(), stats), "arrays differ from op by op"
        elif sequential:
            loops = scalar_runs[(types, False)][0]
            assert out.tobytes() == loops, "sequential sums differ from the loops"
        expected = np.zeros_like(out)
        linalg = parse(conv_linalg_program(size, channels, types))
        run_function(linalg, "main", (image, weights, expected))
        if out.dtype.kind == "f":
            np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
        else:
            np.testing.assert_array_equal(out, expected)
        again = partial(run, (image, weights, np.zeros_like(out)))
        median, spread = median_and_spread(runs(count, again))
        element, accumulator = CONV_TYPES[types]
        what = (
            f"{name}: 3x3 conv, {channels} to {channels} channels, "
            f"{size}x{size} {accumulator} output"
        )
        if element != accumulator:
            what += f" from {element}"
        if check:
            what += ", `--check-uninitialized`"
        if sequential:
            what += ", `--sequential-sums`"
        if name == "loops":
            what += ", on whole arrays" if vectorize else ", op by op"
        rows.append(
            f"| {what} | {ops:,} | {median * 1e3:.0f} ms | {spread:.0%} | "
            f"{median / ops * 1e6:.2f} us |"
        )
    return rows


def storages_section(counts: list[int], limit: float) -> list[str]:
    rows = [
        "| live | program | parse + verify | run | run per storage or tensor |",
        "|---:|---|---:|---:|---:|",
    ]
    for name, build in (("storages", storages_program), ("tensors", tensors_program)):
        for count in counts:
            text = build(count)
            start = time.process_time()
            module = parse(text)
            parsed = time.process_time() - start
            seconds = timed(lambda module=module: run_function(module))
            what = (
                f"{count:,} storages, one tensor each"
                if name == "storages"
                else f"one storage, {count:,} tensors"
            )
            rows.append(
                f"| {count:,} | {what} | {parsed:.1f} s | {seconds:.2f} s | {seconds / count * 1e6:.0f} us |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
            if seconds > limit:
                break
    return rows


def header(arguments: list[str]) -> list[str]:
    """What produced the tables, and on what machine (figures depend on it)."""
    cpu = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    command = " ".join(["python bench/interpreter_speed.py", *arguments])
    return [
        "# Interpreter speed",
        "",
        f"Generated by `{command}` on {os.cpu_count()} cores of {cpu} (load "
        f"average {load} at the end of the run).  Do not edit: rerun the "
        "script; what the figures mean is in [docs/interpreter.md]"
        "(../interpreter.md#speed).",
        "",
    ]


def main() -> None:
    if not any(variable in os.environ for variable in BLAS_THREADS):
        # numpy reads the BLAS thread count once, at import: start again.
        one_thread = dict.fromkeys(BLAS_THREADS, "1")
        os.execve(sys.executable, [sys.executable, *sys.argv], os.environ | one_thread)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--loops", type=int, default=20, help="chain repetitions")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per row")
    parser.add_argument("--xdsl-sizes", default="64,128,256")
    parser.add_argument("--storages", default="2500,5000,10000,20000")
    parser.add_argument(
        "--conv", default="12x4", help="loop-form convolution: SIZExCHANNELS"
    )
    parser.add_argument("--parts", default="chain,add,loops,storages")
    parser.add_argument(
        "--limit",
        type=float,
        default=60.0,
        help="skip larger sizes of a table after one slower than this (seconds)",
    )
    parser.add_argument(
        "--write",
        type=Path,
        nargs="?",
        const=REPORT,
        help=f"write the tables to this markdown file (default {REPORT.name})",
    )
    options = parser.parse_args()
    parts = set(options.parts.split(","))

    sections: list[str] = []
    if "chain" in parts:
        rows = chain_section(options.size, options.loops, options.runs)
        sections += ["## Chain of linalg ops against numpy", "", *rows, ""]
        print("\n".join(rows), file=sys.stderr, flush=True)
    if "add" in parts:
        sizes = [int(s) for s in options.xdsl_sizes.split(",")]
        rows = add_section(sizes, options.runs, options.limit)
        sections += ["## One op against stock xdsl-run", "", *rows, ""]
    if "loops" in parts:
        size, channels = (int(s) for s in options.conv.split("x"))
        rows = loops_section(size, channels, options.runs)
        sections += ["## Scalar code in loop form", "", *rows, ""]
        print("\n".join(rows), file=sys.stderr, flush=True)
    if "storages" in parts:
        counts = [int(s) for s in options.storages.split(",")]
        rows = storages_section(counts, options.limit)
        sections += ["## Many live storages and tensors", "", *rows, ""]
    report = "\n".join([*header(sys.argv[1:]), *sections])
    print(report)
    if options.write:
        options.write.write_text(report)


if __name__ == "__main__":
    main()

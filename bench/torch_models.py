"""PyTorch models through memplan: parse, plan and run times, peaks, VTCM fit.

    python bench/torch_models.py [--repeats 3] [--torch-python PATH] [--write]

1. Every fixture in tests/fixtures/torch (torch-mlir's bufferized output):
   parse + verify, `memory-manifest,memory-plan` and the run of the planned
   module on memplan's interpreter (`run_function`, parse excluded), the
   peak bytes before and after planning, which Hexagon VTCM sizes the
   planned peak fits, and the largest difference from PyTorch's output.
2. torchvision's resnet18 (random weights, 1x3x64x64), exported now with
   examples/torch/export_model.py by a Python that has torch (this one, or
   `--torch-python`; skipped with a message if none has), run by memplan and
   by PyTorch eager in the same bench run (target: memplan within 20x).
3. One convolution, 1x64x56x56 input, 64 3x3 filters, padding 1, written as
   torch-mlir bufferizes it (padded copy, fill, `linalg.conv_2d_nchw_fchw`),
   against numpy formulations of the same padded convolution.

Times are the least of `--repeats` runs, wall clock and CPU time; on a
loaded machine CPU time is the steadier figure.  numpy's BLAS runs on one
thread (unless OPENBLAS_NUM_THREADS or the like is set), as does the first
PyTorch row; the second uses torch's default thread count.  Not a test: the figures
depend on the machine.  `--write` writes docs/bench/torch_models.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from blas_threads import ensure_one_blas_thread, original_environment
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.dialects.builtin import ModuleOp

from memplan.context import parse_module, run_context
from memplan.interpreter import run_function
from memplan.interpreter.element_types import BF16
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.targets import GLOBAL_SCOPE, KIB, MIB

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "torch"
EXPORTER = ROOT / "examples" / "torch" / "export_model.py"
RESNET18 = ROOT / "examples" / "torch" / "resnet18.py"
OUTPUT = ROOT / "docs" / "bench" / "torch_models.md"
VTCM_SIZES = (("v66", 256 * KIB), ("v68", 4 * MIB), ("v73", 8 * MIB))


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"... {message}", file=sys.stderr, flush=True)


def summary(error: Exception) -> str:
    """One line for a table cell: a parse error's location and its message."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = lines[0] if len(lines) < 2 else f"{lines[0]} {lines[-1]}"
    return f"{type(error).__name__}: {text[:200]}".replace("|", "/")


@dataclass(frozen=True)
class Timing:
    """The least wall-clock and the least CPU seconds (all threads) of the runs."""

    wall: float
    cpu: float

    def __truediv__(self, other: Timing) -> str:
        return f"{self.wall / other.wall:.1f}x wall, {self.cpu / other.cpu:.1f}x CPU"

    def ms(self) -> str:
        return f"{self.wall * 1e3:.1f} ms ({self.cpu * 1e3:.1f} ms CPU)"


def best_of(repeats: int, action: Callable[[], object]) -> Timing:
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return Timing(min(walls), min(cpus))


def parse(text: str) -> ModuleOp:
    module = parse_module(text)
    module.verify()
    return module


def plan(module: ModuleOp) -> ModuleOp:
    planned = module.clone()
    ctx = run_context()
    MemoryManifestPass().apply(ctx, planned)
    MemoryPlanPass().apply(ctx, planned)
    return planned


@dataclass
class Figures:
    name: str
    parse: Timing
    plan: Timing
    run: Timing
    peak_before: int
    peak_after: int
    max_error: float

    @property
    def fits(self) -> str:
        fitting = [name for name, size in VTCM_SIZES if self.peak_after <= size]
        return ", ".join(fitting) if fitting else "none"

    @property
    def saved(self) -> str:
        return f"{100 * (1 - self.peak_after / self.peak_before):.0f} %"


def measure(
    name: str, text: str, arrays: dict[str, np.ndarray], repeats: int
) -> Figures:
    """Parse, plan and run one exported model; compare with PyTorch's output."""
    args = tuple(arrays[k] for k in sorted(arrays) if k.startswith("arg"))
    want = [arrays[k] for k in sorted(arrays) if k.startswith("result")]
    progress(f"{name}: parse")
    parse_time = best_of(repeats, lambda: parse(text))
    module = parse(text)
    progress(f"{name}: plan")
    plan_time = best_of(repeats, lambda: plan(module))
    planned = plan(module)
    progress(f"{name}: run")
    before = run_function(module, "main", args)
    after = run_function(planned, "main", args)
    run_time = best_of(repeats, lambda: run_function(planned, "main", args))
    errors = [
        float(np.max(np.abs(np.asarray(got, dtype=np.float64) - expected)))
        for got, expected in zip(after.results, want, strict=True)
    ]
    return Figures(
        name,
        parse_time,
        plan_time,
        run_time,
        before.stats.peak_bytes[GLOBAL_SCOPE],
        after.stats.peak_bytes[GLOBAL_SCOPE],
        max(errors),
    )


def fixture_rows(repeats: int) -> list[str]:
    rows = [
        "| model | parse | plan | run (planned) | peak before | peak after | saved | fits VTCM | max abs diff vs PyTorch |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for path in sorted(FIXTURES.glob("*.mlir")):
        with np.load(path.with_suffix(".npz")) as saved:
            # bf16 arrays come back from .npz as 2-byte void
            arrays = {
                k: v.view(BF16) if v.dtype == np.dtype("V2") else v
                for k, v in saved.items()
            }
        try:
            f = measure(path.stem, path.read_text(), arrays, repeats)
        except Exception as error:
            rows.append(f"| {path.stem} | failed: {summary(error)} |")
            continue
        rows.append(
            f"| {f.name} | {f.parse.wall:.2f} s | {f.plan.wall:.2f} s | {f.run.ms()} "
            f"| {f.peak_before:,} | {f.peak_after:,} | {f.saved} | {f.fits} | {f.max_error:.1e} |"
        )
    return rows


EAGER_TIMER = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import export_model, torch
model, inputs = export_model.load_model(Path(sys.argv[2]), 0)
seconds = {}
with torch.no_grad():
    for threads in sorted({1, torch.get_num_threads()}):
        torch.set_num_threads(threads)
        model(*inputs)
        walls, cpus = [], []
        for _ in range(int(sys.argv[3])):
            wall, cpu = time.perf_counter(), time.process_time()
            model(*inputs)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        seconds[threads] = (min(walls), min(cpus))
print(json.dumps(seconds))
"""
"""Prints {threads: [least wall, least CPU seconds]} of the forward, for one
thread and for torch's default number."""


def torch_python(requested: str | None) -> str | None:
    """A Python that can import torch, torch-mlir and torchvision, or None."""
    python = requested or sys.executable
    found = subprocess.run(
        [python, "-c", "import torch, torch_mlir, torchvision"],
        capture_output=True,
        check=False,
    )
    return python if found.returncode == 0 else None


def resnet18_rows(python: str | None, repeats: int) -> list[str]:
    if python is None:
        message = (
            "resnet18: skipped: torch, torch-mlir and torchvision are not "
            f"importable by {sys.executable} (install '.[torch]' or pass --torch-python)"
        )
        print(message, file=sys.stderr)
        return [message]
    with tempfile.TemporaryDirectory() as directory:
        progress("resnet18: export")
        start = time.perf_counter()
        subprocess.run(
            [python, str(EXPORTER), str(RESNET18), "-o", directory],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        export_s = time.perf_counter() - start
        progress("resnet18: PyTorch eager")
        eager = json.loads(
            subprocess.run(
                [
                    python,
                    "-c",
                    EAGER_TIMER,
                    str(EXPORTER.parent),
                    str(RESNET18),
                    str(max(repeats, 5)),
                ],
                check=True,
                capture_output=True,
                text=True,
                env=original_environment(),
            ).stdout
        )
        text = (Path(directory) / "resnet18.mlir").read_text()
        with np.load(Path(directory) / "resnet18.npz") as saved:
            arrays = dict(saved)
    f = measure("resnet18", text, arrays, repeats)
    timings = {threads: Timing(*seconds) for threads, seconds in eager.items()}
    eager_rows = [
        f"| PyTorch eager forward, {threads} thread(s) | {timing.ms()} |"
        for threads, timing in timings.items()
    ]
    fastest = min(timings.values(), key=lambda timing: timing.wall)
    return [
        "| what | figure |",
        "|---|---:|",
        f"| export (torch-mlir + bufferization, separate process) | {export_s:.1f} s |",
        f"| `.mlir` size | {len(text) / MIB:.1f} MiB |",
        f"| parse + verify | {f.parse.wall:.2f} s |",
        f"| memory-manifest,memory-plan | {f.plan.wall:.2f} s |",
        f"| memplan: run of the planned module (parse excluded) | {f.run.ms()} |",
        *eager_rows,
        f"| **memplan run / fastest PyTorch eager** (target within 20x) | **{f.run / fastest}** |",
        f"| peak bytes before / after planning | {f.peak_before:,} / {f.peak_after:,} ({f.saved} saved) |",
        f"| fits VTCM | {f.fits} |",
        f"| max abs diff vs PyTorch | {f.max_error:.1e} |",
    ]


CONV = """
"builtin.module"() ({
  "func.func"() <{function_type = (memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) -> memref<1x64x56x56xf32>, sym_name = "main"}> ({
  ^bb0(%x: memref<1x64x56x56xf32>, %w: memref<64x64x3x3xf32>):
    %zero = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %padded = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1x64x58x58xf32>
    "linalg.fill"(%zero, %padded) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%in: f32, %out: f32):
      "linalg.yield"(%in) : (f32) -> ()
    }) : (f32, memref<1x64x58x58xf32>) -> ()
    %inner = "memref.subview"(%padded) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0, 1, 1>, static_sizes = array<i64: 1, 64, 56, 56>, static_strides = array<i64: 1, 1, 1, 1>}> : (memref<1x64x58x58xf32>) -> memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>
    "memref.copy"(%x, %inner) : (memref<1x64x56x56xf32>, memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>) -> ()
    %y = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<1x64x56x56xf32>
    "linalg.fill"(%zero, %y) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%in: f32, %out: f32):
      "linalg.yield"(%in) : (f32) -> ()
    }) : (f32, memref<1x64x56x56xf32>) -> ()
    "linalg.conv_2d_nchw_fchw"(%padded, %w, %y) <{dilations = dense<1> : vector<2xi64>, operandSegmentSizes = array<i32: 2, 1>, strides = dense<1> : vector<2xi64>}> ({
    ^bb0(%a: f32, %b: f32, %c: f32):
      %m = "arith.mulf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      %s = "arith.addf"(%c, %m) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "linalg.yield"(%s) : (f32) -> ()
    }) : (memref<1x64x58x58xf32>, memref<64x64x3x3xf32>, memref<1x64x56x56xf32>) -> ()
    "memref.dealloc"(%padded) : (memref<1x64x58x58xf32>) -> ()
    "func.return"(%y) : (memref<1x64x56x56xf32>) -> ()
  }) : () -> ()
}) : () -> ()
"""


def conv_shifted_matmuls(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Nine (64x64) @ (64x3136) matmuls, one per filter tap, summed."""
    padded = np.pad(x[0], ((0, 0), (1, 1), (1, 1)))
    out = np.zeros((64, 56 * 56), np.float32)
    for i in range(3):
        for j in range(3):
            out += w[:, :, i, j] @ padded[:, i : i + 56, j : j + 56].reshape(64, -1)
    return out.reshape(1, 64, 56, 56)


def conv_im2col(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """One (64x576) @ (576x3136) matmul on the unfolded input."""
    padded = np.pad(x[0], ((0, 0), (1, 1), (1, 1)))
    windows = sliding_window_view(padded, (3, 3), axis=(1, 2))  # c, h, w, i, j
    columns = windows.transpose(0, 3, 4, 1, 2).reshape(64 * 9, 56 * 56)
    return (w.reshape(64, -1) @ columns).reshape(1, 64, 56, 56)


def conv_tensordot(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    padded = np.pad(x[0], ((0, 0), (1, 1), (1, 1)))
    windows = sliding_window_view(padded, (3, 3), axis=(1, 2))
    return np.tensordot(w, windows, axes=([1, 2, 3], [0, 3, 4]))[None]


def conv_einsum(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    padded = np.pad(x[0], ((0, 0), (1, 1), (1, 1)))
    windows = sliding_window_view(padded, (3, 3), axis=(1, 2))
    return np.einsum("chwij,fcij->fhw", windows, w, optimize=True)[None]


NUMPY_CONVS = {
    "nine shifted matmuls": conv_shifted_matmuls,
    "im2col + one matmul": conv_im2col,
    "sliding_window_view + tensordot": conv_tensordot,
    "sliding_window_view + einsum(optimize)": conv_einsum,
}


def conv_rows(repeats: int) -> list[str]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 64, 56, 56), dtype=np.float32)
    w = rng.standard_normal((64, 64, 3, 3), dtype=np.float32) / 24
    reference = conv_shifted_matmuls(x, w)
    numpy_times = {}
    for name, conv in NUMPY_CONVS.items():
        np.testing.assert_allclose(conv(x, w), reference, rtol=1e-4, atol=1e-4)
        numpy_times[name] = best_of(repeats, lambda conv=conv: conv(x, w))
    progress("conv: memplan")
    rows = ["| formulation | time | vs fastest numpy |", "|---|---:|---:|"]
    fastest = min(numpy_times.values(), key=lambda timing: timing.wall)
    try:
        module = parse(CONV)
        got = run_function(module, "main", (x, w)).results[0]
        np.testing.assert_allclose(np.asarray(got), reference, rtol=1e-4, atol=1e-4)
        ours = best_of(repeats, lambda: run_function(module, "main", (x, w)))
        rows.append(
            f"| **memplan-run** (`run_function`; pad copy, fill, conv) | {ours.ms()} | **{ours / fastest}** |"
        )
    except Exception as error:
        rows.append(f"| memplan-run | failed: {summary(error)} | |")
    rows += [
        f"| numpy: {name} | {t.ms()} | {t / fastest} |"
        for name, t in sorted(numpy_times.items(), key=lambda item: item[1].wall)
    ]
    return rows


HEADER = """# PyTorch models: parse, plan and run

Produced by `{command}` (see the script's docstring for what each figure
is). Peaks are the interpreter's `peak_bytes` of the
`global` scope: all the activations and temporaries the function allocates
(weights are `memref.global` constants and the input is the caller's, so
neither counts). "Fits VTCM" lists the Hexagon VTCM sizes the planned peak
fits: v66 256 KiB, v68 4 MiB, v73 8 MiB. Times are the least of the repeats,
wall clock and CPU time. Targets: the CNN runs in under 2 s, resnet18 within
20x of PyTorch eager, the single conv within 3x of the fastest numpy
formulation. A large difference from PyTorch is explained under "Known
differences and limits" in [docs/frontend.md](../frontend.md).

"""


def main() -> None:
    ensure_one_blas_thread()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs per figure (least kept)"
    )
    parser.add_argument(
        "--torch-python",
        help="a Python with the torch extra, for resnet18 (default: this one)",
    )
    parser.add_argument("--skip-resnet18", action="store_true")
    parser.add_argument(
        "--write", action="store_true", help=f"write {OUTPUT.relative_to(ROOT)}"
    )
    options = parser.parse_args()

    python = None if options.skip_resnet18 else torch_python(options.torch_python)
    sections = [
        ("Fixtures (tests/fixtures/torch)", fixture_rows(options.repeats)),
        (
            "resnet18 (torchvision, random weights, 1x3x64x64)",
            ["skipped (--skip-resnet18)"]
            if options.skip_resnet18
            else resnet18_rows(python, options.repeats),
        ),
        (
            "One conv: 1x64x56x56, 64 3x3 filters, padding 1 (target: within 3x of numpy)",
            conv_rows(options.repeats),
        ),
    ]
    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, load average {os.getloadavg()[0]:.1f} at the end"
    )
    report = (
        "\n".join(
            line for title, rows in sections for line in (f"## {title}", "", *rows, "")
        )
        + f"\nMachine: {machine}.\n"
    )
    print(report)
    if options.write:
        command = " ".join(["python bench/torch_models.py", *sys.argv[1:]])
        OUTPUT.write_text(HEADER.format(command=command) + report)


if __name__ == "__main__":
    main()

"""torchvision's models through memplan's whole route: export, plan, lower, run.

    python bench/torchvision_sweep.py [--models resnet18,alexnet] [--size 64]
        [--max-params 30] [--torch-python PATH] [--keep DIR] [--write]

For each model (default: every classification and segmentation model of
`torchvision.models.list_models`, smallest first; `--models` takes names,
`segmentation.` names too), with random weights (`weights=None`, BatchNorm
running statistics drawn at random so that they are not the identity, a
Linear weight that starts at zero drawn at random), eval mode, batch 1, a `--size` square input (larger where the
model needs it: `inception_v3` 75, `maxvit_t` 224; ViTs are built with
`image_size` the input size, rounded to their patch):

1. export with examples/torch/export_model.py, by a Python that has torch
   (this one or `--torch-python`; the sweep stops with a message if none
   has);
2. `memplan-run` the export (`--check-uninitialized`): "unplanned";
3. `memplan-opt -p memory-manifest,memory-plan,memory-verify,convert-memory-to-memref`;
4. `memplan-run` the lowered module: "planned";
5. with `--place TARGET` (e.g. hexagon-v66), also
   `memory-manifest,memory-place,memory-plan,memory-verify` for that target
   and `convert-memory-to-memref`, and `memplan-run --target TARGET` of the
   result: "placed", compared bit for bit with the unplanned run, and its
   peak bytes in VTCM.

Each step is a child process with a time limit (`--export-timeout`,
`--step-timeout`); a model over `--max-params` million parameters is not
exported (its export would be several hundred MB of hex weights).  The
figures: whether each step worked (else the last line of its message), the
largest absolute difference from PyTorch and the same divided by PyTorch's
largest magnitude, for the unplanned and the planned run, whether the two
runs give the same bits, the `global` peak bytes of each, and the times
(wall clock).  Numpy's BLAS and torch run on one thread.

`--keep DIR` keeps the figures of each model in DIR/results.json as it
goes, and a run with the same DIR reuses those of the models it already
has (`--rerun` does them again); exports stay in DIR only for models that
failed or differ.  Not a test: the figures depend on the machine.
`--write` writes docs/bench/torchvision.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from blas_threads import ensure_one_blas_thread
from torch_models import torch_python

ROOT = Path(__file__).resolve().parents[1]
EXPORTER = ROOT / "examples" / "torch" / "export_model.py"
OUTPUT = ROOT / "docs" / "bench" / "torchvision.md"
PIPELINE = "memory-manifest,memory-plan,memory-verify,convert-memory-to-memref"
# Within this much of PyTorch's largest magnitude a result counts as matching.
RELATIVE_TOLERANCE = 1e-4

CATALOGUE = """
import json, torchvision
from torchvision import models
names = [*models.list_models(module=models),
         *("segmentation." + n for n in models.list_models(module=models.segmentation))]
found = {}
for name in names:
    meta = models.get_model_weights(name.split(".")[-1]).DEFAULT.meta
    found[name] = {"params": meta["num_params"]}
print(json.dumps(found))
"""
"""Prints {name: {params}} from torchvision's weight metadata (read from the
package, no download)."""

MODEL_FILE = """\
import torch
import torchvision
from torch import nn

INPUT_SHAPE = (1, 3, {size}, {size})


class MainOutput(nn.Module):
    \"\"\"A segmentation model's "out" map (the exporter takes tensors).\"\"\"

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def make_model():
    model = torchvision.models.get_model({name!r}, weights=None, **{kwargs!r})
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
            # ViT's classifier starts at zero: every output would be 0.
            if isinstance(module, nn.Linear) and not module.weight.any():
                module.weight.normal_(0, 0.02)
    return MainOutput(model) if {segmentation!r} else model
"""


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


# The smallest input these models take (torchvision's weight metadata gives
# the size the weights were trained at, 224 for Swin, which runs at 64).
SMALLEST_INPUT = {"inception_v3": 75, "maxvit_t": 224}


def build(name: str, size: int) -> tuple[int, dict]:
    """The input size and the constructor's keyword arguments for `name`."""
    base = name.split(".")[-1]
    if base.startswith("vit_"):
        patch = int(base.rsplit("_", 1)[1])
        image = max(patch, round(size / patch) * patch)
        return image, {"image_size": image}
    if name.startswith("segmentation."):
        return size, {"weights_backbone": None}
    return max(size, SMALLEST_INPUT.get(name, 1)), {}


class StepFailed(Exception):
    """A child failed or ran out of time; the message is one line."""


def child(command: list[str], timeout: float) -> float:
    """Runs `command`; its wall-clock seconds, or StepFailed with the last
    line it printed to stderr."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise StepFailed(f"over the {timeout:.0f} s limit") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        last = lines[-1] if lines else f"exit status {done.returncode}"
        raise StepFailed(last[:300].replace("|", "/"))
    return time.perf_counter() - started


@dataclass
class Row:
    name: str
    params: int
    size: int
    status: str = "ok"
    export_s: float | None = None
    plan_s: float | None = None
    run_s: list[float] = field(default_factory=list)
    peaks: list[int] = field(default_factory=list)
    errors: list[tuple[float, float]] = field(default_factory=list)
    bitwise: bool | None = None
    magnitude: float | None = None
    placed_bitwise: bool | None = None
    vtcm_peak: int | None = None


def run_memplan(
    source: Path, arrays: Path, out: Path, timeout: float, target: str | None = None
) -> float:
    return child(
        [
            sys.executable,
            "-m",
            "memplan.tools.memplan_run",
            str(source),
            "--args",
            str(arrays),
            "--output",
            f"{out}.npz",
            "--stats-json",
            f"{out}.json",
            "--no-stats",
            "--check-uninitialized",
            *(["--target", target] if target else []),
        ],
        timeout,
    )


def memplan_opt(source: Path, pipeline: str, out: Path, timeout: float) -> float:
    return child(
        [
            sys.executable,
            "-m",
            "memplan.tools.memplan_opt",
            str(source),
            "-p",
            pipeline,
            "-o",
            str(out),
        ],
        timeout,
    )


def placing(target: str) -> str:
    on = f"{{target={target}}}"
    return (
        f"memory-manifest,memory-place{on},memory-plan{on},memory-verify{on},"
        "convert-memory-to-memref"
    )


def results(path: Path) -> list[np.ndarray]:
    with np.load(path) as saved:
        keys = [k for k in saved if k.startswith("result")]
        return [saved[k] for k in sorted(keys, key=lambda k: int(k[len("result") :]))]


def difference(got: list[np.ndarray], want: list[np.ndarray]) -> tuple[float, float]:
    """Largest absolute difference, and it over PyTorch's largest magnitude."""
    largest = max(float(np.max(np.abs(w), initial=0)) for w in want)
    worst = max(
        float(np.max(np.abs(g.astype(np.float64) - w), initial=0))
        for g, w in zip(got, want, strict=True)
    )
    return worst, worst / largest if largest else worst


def sweep_one(
    row: Row, python: str, work: Path, options: argparse.Namespace, kwargs: dict
) -> None:
    name = row.name.split(".")[-1]
    model_file = work / f"{name}.py"
    model_file.write_text(
        MODEL_FILE.format(
            name=name,
            size=row.size,
            kwargs=kwargs,
            segmentation=row.name.startswith("segmentation."),
        )
    )
    mlir, arrays = work / f"{name}.mlir", work / f"{name}.npz"
    lowered = work / f"{name}.lowered.mlir"
    step = "export"
    try:
        progress(f"{row.name}: export")
        row.export_s = child(
            [python, str(EXPORTER), str(model_file), "-o", str(work)],
            options.export_timeout,
        )
        want = results(arrays)
        row.magnitude = max(float(np.max(np.abs(w), initial=0)) for w in want)
        step = "run"
        progress(f"{row.name}: run unplanned")
        row.run_s.append(
            run_memplan(mlir, arrays, work / "unplanned", options.step_timeout)
        )
        step = "plan"
        progress(f"{row.name}: plan and lower")
        row.plan_s = memplan_opt(mlir, PIPELINE, lowered, options.step_timeout)
        step = "planned run"
        progress(f"{row.name}: run planned")
        row.run_s.append(
            run_memplan(lowered, arrays, work / "planned", options.step_timeout)
        )
        if options.place:
            step = "place"
            progress(f"{row.name}: place for {options.place}")
            placed = work / f"{name}.placed.mlir"
            memplan_opt(mlir, placing(options.place), placed, options.step_timeout)
            step = "placed run"
            run_memplan(
                placed, arrays, work / "placed", options.step_timeout, options.place
            )
    except StepFailed as error:
        message = str(error).replace(f"{work}{os.sep}", "")
        row.status = f"{step} failed: {message.removeprefix('export_model: error: ')}"
        return
    runs = [results(work / f"{stage}.npz") for stage in ("unplanned", "planned")]
    row.errors = [difference(got, want) for got in runs]
    row.bitwise = all(a.tobytes() == b.tobytes() for a, b in zip(*runs, strict=True))
    row.peaks = [
        json.loads((work / f"{stage}.json").read_text())["peak_bytes"]["global"]
        for stage in ("unplanned", "planned")
    ]
    if options.place:
        placed = results(work / "placed.npz")
        row.placed_bitwise = all(
            a.tobytes() == b.tobytes() for a, b in zip(runs[0], placed, strict=True)
        )
        peaks = json.loads((work / "placed.json").read_text())["peak_bytes"]
        row.vtcm_peak = peaks.get("global.vtcm", 0)
    if not row.magnitude:
        row.status = "PyTorch's outputs are all 0: not compared"
    elif not row.bitwise or row.placed_bitwise is False:
        row.status = "planned differs from unplanned"
    elif row.errors[0][1] > RELATIVE_TOLERANCE:
        row.status = "differs from PyTorch"


def seconds(value: float | None) -> str:
    return "" if value is None else f"{value:.0f}"


def yes_no(value: bool | None) -> str:
    return "" if value is None else "yes" if value else "no"


def table(rows: list[Row], place: str | None) -> list[str]:
    lines = [
        "| model | params (M) | input | status | export s | plan+lower s "
        "| run s (unplanned / planned) | peak before | peak after | saved "
        "| max abs diff (unplanned / planned) | relative | planned bitwise |"
        + (f" placed {place}: bitwise, VTCM peak |" if place else ""),
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        + ("---:|" if place else ""),
    ]
    for r in rows:
        peaks = r.peaks or [0, 0]
        saved = f"{100 * (1 - peaks[1] / peaks[0]):.0f} %" if peaks[0] else ""
        errors = f"{r.errors[0][0]:.1e} / {r.errors[1][0]:.1e}" if r.errors else ""
        relative = f"{r.errors[0][1]:.1e} / {r.errors[1][1]:.1e}" if r.errors else ""
        lines.append(
            f"| {r.name} | {r.params / 1e6:.1f} | {r.size} | {r.status} "
            f"| {seconds(r.export_s)} | {seconds(r.plan_s)} "
            f"| {' / '.join(f'{s:.0f}' for s in r.run_s)} "
            f"| {f'{peaks[0]:,}' if r.peaks else ''} "
            f"| {f'{peaks[1]:,}' if r.peaks else ''} | {saved} | {errors} "
            f"| {relative} | {yes_no(r.bitwise)} |"
            + (
                f" {yes_no(r.placed_bitwise)}, {r.vtcm_peak or 0:,} |"
                if place and r.placed_bitwise is not None
                else " |"
                if place
                else ""
            )
        )
    return lines


def summary_line(rows: list[Row]) -> str:
    kinds = {
        "ok": "ok",
        "skipped": "skipped",
        "export failed": "not exported",
        "run failed": "failed in memplan",
        "plan failed": "failed in memplan",
        "planned run failed": "failed in memplan",
        "place failed": "failed in memplan",
        "placed run failed": "failed in memplan",
    }
    counts: dict[str, int] = {}
    for r in rows:
        kind = next(
            (kinds[k] for k in kinds if r.status.startswith(k)),
            "differ or not compared",
        )
        counts[kind] = counts.get(kind, 0) + 1
    return (
        f"{len(rows)} models: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + "."
    )


HEADER = """# torchvision models through memplan

Produced by `{command}` (see the script's docstring). Each model, with random
weights (BatchNorm statistics and a Linear weight that starts at zero drawn
at random) in eval mode at batch 1, is
exported by examples/torch/export_model.py (torch 2.14.1, torch-mlir
20261001), run by `memplan-run --check-uninitialized` as exported
("unplanned"), planned and lowered with `memplan-opt -p {pipeline}` and run
again ("planned"). "relative" is the largest absolute difference from
PyTorch over PyTorch's largest magnitude; a model is "ok" when it is at most
{tolerance:g} and the planned run gives the unplanned run's bits. Peaks are
`memplan-run`'s `peak bytes global` (activations and temporaries; weights and
the input are not counted); in most of the 1000-class nets the planned peak
is mostly one buffer, the classifier's weight, which torch-mlir's module
transposes into a fresh buffer on every call (4,096,000 bytes for 1024
features). Times are wall clock on a shared machine, which is also why some
exports ran over the limit.

"""


def main() -> int:
    ensure_one_blas_thread()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", help="comma-separated names (default: all)")
    parser.add_argument("--size", type=int, default=64, help="input height and width")
    parser.add_argument(
        "--max-params",
        type=float,
        default=30,
        help="skip models with more million parameters (default 30)",
    )
    parser.add_argument("--export-timeout", type=float, default=120)
    parser.add_argument("--step-timeout", type=float, default=180)
    parser.add_argument(
        "--place", metavar="TARGET", help="also place for TARGET (hexagon-v66)"
    )
    parser.add_argument("--torch-python", help="a Python with the torch extra")
    parser.add_argument("--keep", type=Path, help="directory for results and exports")
    parser.add_argument("--rerun", action="store_true", help="ignore kept results")
    parser.add_argument(
        "--write", action="store_true", help=f"write {OUTPUT.relative_to(ROOT)}"
    )
    options = parser.parse_args()

    python = torch_python(options.torch_python)
    if python is None:
        print(
            "torchvision_sweep: skipped: torch, torch-mlir and torchvision are not "
            f"importable by {sys.executable} (install '.[torch]' or pass --torch-python)",
            file=sys.stderr,
        )
        return 0
    catalogue = json.loads(
        subprocess.run(
            [python, "-c", CATALOGUE], check=True, capture_output=True, text=True
        ).stdout
    )
    # Smallest first: a sweep cut short has done the most models.
    names = (
        options.models.split(",")
        if options.models
        else sorted(catalogue, key=lambda name: catalogue[name]["params"])
    )
    unknown = [name for name in names if name not in catalogue]
    if unknown:
        parser.error(f"unknown models: {', '.join(unknown)}")
    kept_path = options.keep / "results.json" if options.keep else None
    kept = (
        json.loads(kept_path.read_text())
        if kept_path and kept_path.exists() and not options.rerun
        else {}
    )
    rows = []
    for name in names:
        entry = catalogue[name]
        size, kwargs = build(name, options.size)
        # A skipped model is tried again: --max-params may have changed.
        if (
            name in kept
            and kept[name]["size"] == size
            and not kept[name]["status"].startswith("skipped")
        ):
            rows.append(Row(**kept[name]))
            continue
        row = Row(name, entry["params"], size)
        if row.params > options.max_params * 1e6:
            row.status = f"skipped: over --max-params {options.max_params:g} M"
        else:
            work = (
                options.keep / name
                if options.keep
                else Path(tempfile.mkdtemp(prefix=f"{name}-"))
            )
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            sweep_one(row, python, work, options, kwargs)
            if options.keep is None or row.status == "ok":
                shutil.rmtree(work)
        rows.append(row)
        print(table([row], options.place)[-1], flush=True)
        if kept_path:
            kept[name] = asdict(row)
            kept_path.write_text(json.dumps(kept, indent=1))
    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores shared with other jobs, "
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )
    report = "\n".join(
        [
            *table(rows, options.place),
            "",
            summary_line(rows),
            "",
            f"Machine: {machine}.",
            "",
        ]
    )
    print(report)
    if options.write:
        command = " ".join(["python bench/torchvision_sweep.py", *sys.argv[1:]])
        OUTPUT.write_text(
            HEADER.format(
                command=command, pipeline=PIPELINE, tolerance=RELATIVE_TOLERANCE
            )
            + report
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

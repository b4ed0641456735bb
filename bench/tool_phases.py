"""Where a `memplan-opt` / `memplan-run` call on a real model spends its CPU.

    python bench/tool_phases.py [MODEL.mlir ...] [--repeat 3] [--write]

For each input (default: the largest model in tests/fixtures/torch; any
torch-mlir export given on the command line, e.g. a torchvision model made
with examples/torch/export_model.py) and each pipeline below, the phases of
one `memplan-opt` call, timed in this process with `memplan-opt`'s own
frontend, pipeline and printer:

* **parse**: reading the file (`MemplanParser`, dense_resource blobs too);
* **verify**: the verification xdsl-opt runs before the first pass and after
  each one (all of them together);
* **passes**: each pass alone;
* **print**: writing the result as `memplan-opt` does;

then **opt process** and **run process**: the CPU of a whole `memplan-opt`
child with that pipeline (start-up and imports included, output discarded)
and of a `memplan-run` child on the input (its `.npz` next to it as
`--args` when there is one).

All figures are CPU seconds (user + system), the least of `--repeat` runs:
on a machine shared with other jobs CPU time moves far less than wall time.
The in-process phases leave out what a process pays once (imports, loading
a dialect on first use), which the process figures include.
`--write` puts the table in docs/bench/tool_phases.md under `--label` (e.g.
a branch name), replacing that label's older table: the same script run by
another checkout's Python measures that checkout's memplan.  Not a test:
the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from subprocess import PIPE

from xdsl.dialects.builtin import ModuleOp

from memplan.tools.memplan_opt import MemplanOptMain

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "torch"
OUTPUT = ROOT / "docs" / "bench" / "tool_phases.md"
V66 = "{target=hexagon-v66}"
PIPELINES = {
    "plan": "memory-manifest,memory-plan",
    "place v66": f"memory-manifest,memory-place{V66},memory-plan{V66},memory-verify{V66}",
    "lower": "memory-manifest,memory-plan,convert-memory-to-memref",
}


def largest_fixture() -> Path:
    return max(FIXTURES.glob("*.mlir"), key=lambda path: path.stat().st_size)


def least_cpu(repeat: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        action()
        best = min(best, time.process_time() - started)
    return best


def child_cpu(command: list[str], repeat: int) -> float:
    """Least CPU seconds of `repeat` runs of `command` (output discarded; a
    failure raises with the tool's message)."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=PIPE)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best = min(best, used)
    return best


@dataclass
class Phases:
    parse: float
    verify: float
    verifications: int
    passes: list[tuple[str, float]]
    print: float

    @property
    def total(self) -> float:
        return self.parse + self.verify + sum(s for _, s in self.passes) + self.print


def phases_once(path: Path, pipeline: str) -> Phases:
    """One `memplan-opt -p pipeline path`, phase by phase."""
    opt = MemplanOptMain(args=[str(path), "-p", pipeline])
    clock = time.process_time
    started = clock()
    with path.open("rb") as chunk:
        module = opt.parse_chunk(chunk, "mlir")
    assert isinstance(module, ModuleOp)
    parsed = clock() - started
    verify = 0.0
    passes: list[tuple[str, float]] = []
    for step in [None, *opt.pipeline.passes]:
        if step is not None:
            started = clock()
            step.apply(opt.ctx, module)
            passes.append((step.name, clock() - started))
        started = clock()
        module.verify()
        verify += clock() - started
    started = clock()
    opt.output_resulting_program(module)
    return Phases(parsed, verify, len(passes) + 1, passes, clock() - started)


def phases(path: Path, pipeline: str, repeat: int) -> Phases:
    """Each phase's least time over `repeat` calls."""
    runs = [phases_once(path, pipeline) for _ in range(repeat)]
    return Phases(
        min(r.parse for r in runs),
        min(r.verify for r in runs),
        runs[0].verifications,
        [
            (name, min(r.passes[i][1] for r in runs))
            for i, (name, _) in enumerate(runs[0].passes)
        ],
        min(r.print for r in runs),
    )


def tool(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def rows(path: Path, repeat: int) -> list[str]:
    found: list[str] = []
    run = [tool("memplan-run"), str(path)]
    if (args := path.with_suffix(".npz")).exists():
        run += ["--args", str(args)]
    run_cpu = child_cpu(run, repeat)
    for label, pipeline in PIPELINES.items():
        print(f"... {path.name}: {label}", file=sys.stderr, flush=True)
        timed = phases(path, pipeline, repeat)
        opt_cpu = child_cpu([tool("memplan-opt"), "-p", pipeline, str(path)], repeat)
        passes = ", ".join(f"{name} {seconds:.2f}" for name, seconds in timed.passes)
        found.append(
            f"| {path.name} | {label} | {timed.parse:.2f} | {timed.verify:.2f} "
            f"({timed.verifications}x) | {passes} | {timed.print:.2f} | "
            f"{timed.total:.2f} | {opt_cpu:.2f} | {run_cpu:.2f} |"
        )
    return found


HEADER = """\
# memplan-opt / memplan-run: CPU by phase on real models

Produced by `python bench/tool_phases.py [MODEL.mlir ...] --label L --write`
(see the script's docstring for what each figure is), one section per label:
the same script run by another checkout's Python measures that checkout.
CPU seconds, the least of the repeats. Pipelines: **plan**
`{plan}`; **place v66** `{place}`; **lower** `{lower}`.

mobilenet_v2 and efficientnet_b0 are torchvision models (random weights,
1x3x64x64) exported with examples/torch/export_model.py: at 29 and 43 MB they
are not in the repository. On this 2-core machine shared with other jobs,
CPU times still grow with the load (a phase can take 1.5x at load 8).
"""

TABLE = """\
| input | pipeline | parse | verify | passes | print | in-process total | opt process | run process |
|---|---|---:|---:|---|---:|---:|---:|---:|
"""


def write_section(label: str, text: str) -> None:
    """Put `text` under `## label` in OUTPUT, replacing an older one."""
    header = HEADER.format(
        plan=PIPELINES["plan"], place=PIPELINES["place v66"], lower=PIPELINES["lower"]
    )
    old = OUTPUT.read_text() if OUTPUT.exists() else header
    sections = old.split("\n## ")
    kept = [s for s in sections[1:] if not s.startswith(f"{label}\n")]
    OUTPUT.write_text("\n## ".join([header.rstrip("\n") + "\n", *kept, text]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description="CPU of memplan-opt and memplan-run by phase on real models."
    )
    parser.add_argument("inputs", nargs="*", type=Path, help="models (.mlir)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--label", default="this checkout", help="code measured")
    parser.add_argument(
        "--write", action="store_true", help=f"write {OUTPUT.relative_to(ROOT)}"
    )
    options = parser.parse_args()
    inputs = options.inputs or [largest_fixture()]
    load = os.getloadavg()[0]
    table = TABLE + "\n".join(r for path in inputs for r in rows(path, options.repeat))
    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {options.repeat} repeats; load average "
        f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end."
    )
    print(f"{table}\n\n{machine}")
    if options.write:
        write_section(options.label, f"{options.label}\n\n{table}\n\n{machine}\n")


if __name__ == "__main__":
    main()

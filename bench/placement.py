"""memory-place on the examples and the PyTorch fixtures: cycles, VTCM, copies.

    python bench/placement.py [--write] [--only NAME]

For every program (examples/*.mlir whose @main takes no argument, and
tests/fixtures/torch/*.mlir with the inputs of their .npz) and every VTCM
(hexagon-v66: 256 KiB, hexagon-v68: 4 MiB, unbounded), the pipeline
`memory-manifest,memory-place,memory-plan{algorithm=greedy}` is run by
memplan's interpreter and compared with the same program with every tensor
in DDR:

* modeled cycles all-DDR, with the heuristic, with `algorithm=exact` (when
  the solver proves its answer optimal within its node budget; "-" when not,
  "n/a" for programs above EXACT_ENTITIES entities), and with an unbounded
  VTCM (the ideal);
* the fraction of the ideal saving reached, (all-DDR - placed) / (all-DDR -
  ideal) (1.0 when nothing can be saved);
* the VTCM address high-water mark of the placed run, the copies the pass
  inserted, and the pass's own time (seconds, wall clock, this machine).

Every placed run must give the results of the unplaced program; the script
fails otherwise.  Not a test: times depend on the machine.  `--write`
writes docs/bench/placement.md.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from memplan.context import memplan_context, parse_module
from memplan.interpreter import RunResult, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.place import MemoryPlacePass, PlaceReport
from memplan.passes.plan import MemoryPlanPass
from memplan.targets import VTCM_SCOPE, Target, get_target

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures" / "torch"
OUTPUT = ROOT / "docs" / "bench" / "placement.md"
UNBOUNDED = 1 << 40
"""A VTCM no program here fills: the capacity of the ideal placement."""
TARGETS = (("hexagon-v66", None), ("hexagon-v68", None), ("unbounded", UNBOUNDED))
EXACT_ENTITIES = 60
"""Programs with more entities than this in a function skip algorithm=exact."""
CONTEXT = memplan_context()


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"... {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Program:
    name: str
    text: str
    args: tuple[np.ndarray, ...]


def programs(only: str | None) -> list[Program]:
    found: list[Program] = []
    for path in sorted(EXAMPLES.glob("*.mlir")):
        text = path.read_text()
        if "func.func @main()" in text:
            found.append(Program(f"examples/{path.name}", text, ()))
    for path in sorted(FIXTURES.glob("*.mlir")):
        with np.load(path.with_suffix(".npz")) as saved:
            args = tuple(saved[k] for k in sorted(saved) if k.startswith("arg"))
        found.append(Program(f"torch/{path.stem}", path.read_text(), args))
    return [p for p in found if only is None or only in p.name]


def target_of(name: str, capacity: int | None) -> Target:
    target = get_target("hexagon-v73" if name == "unbounded" else name)
    return target if capacity is None else target.with_vtcm_size(capacity)


def manifested(text: str) -> ModuleOp:
    module = parse_module(text)
    MemoryManifestPass().apply(CONTEXT, module)
    return module


def run(module: ModuleOp, program: Program, target: Target) -> RunResult:
    return run_function(module, "main", [a.copy() for a in program.args], target)


@dataclass
class Placed:
    cycles: int
    extent: int
    copies: int
    seconds: float
    optimal: bool
    results: tuple[object, ...]


def placed(
    program: Program, target_name: str, capacity: int | None, algorithm: str
) -> Placed:
    module = manifested(program.text)
    place = MemoryPlacePass(
        target="hexagon-v73" if target_name == "unbounded" else target_name,
        capacity=capacity,
        algorithm=algorithm,
    )
    started = time.perf_counter()
    report: PlaceReport = place.place(module)
    seconds = time.perf_counter() - started
    plan = MemoryPlanPass(target=place.target, capacity=capacity, algorithm="greedy")
    plan.apply(CONTEXT, module)
    result = run(module, program, target_of(target_name, capacity))
    return Placed(
        result.stats.modeled_cycles,
        result.stats.peak_extent.get(VTCM_SCOPE, 0),
        sum(f.copies for f in report.functions),
        seconds,
        all(f.optimal for f in report.functions),
        result.results,
    )


def same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a, b, strict=True)
    )


def measure(program: Program, small: bool) -> list[list[str]]:
    ddr_module = manifested(program.text.replace(f', "{VTCM_SCOPE}"', ""))
    MemoryPlanPass(algorithm="greedy").apply(CONTEXT, ddr_module)
    ddr = run(ddr_module, program, get_target())
    ideal = placed(program, "unbounded", UNBOUNDED, "heuristic")
    rows: list[list[str]] = []
    for target_name, capacity in TARGETS:
        progress(f"{program.name} on {target_name}")
        heuristic = placed(program, target_name, capacity, "heuristic")
        if not same(heuristic.results, ddr.results):
            raise SystemExit(f"{program.name} on {target_name}: results changed")
        exact = "n/a"
        if small:
            solved = placed(program, target_name, capacity, "exact")
            if not same(solved.results, ddr.results):
                raise SystemExit(f"{program.name}: exact placement changed results")
            exact = str(solved.cycles) if solved.optimal else "-"
        saving = ddr.stats.modeled_cycles - ideal.cycles
        fraction = (
            (ddr.stats.modeled_cycles - heuristic.cycles) / saving
            if saving > 0
            else 1.0
        )
        rows.append(
            [
                program.name,
                target_name,
                str(ddr.stats.modeled_cycles),
                str(heuristic.cycles),
                exact,
                str(ideal.cycles),
                f"{fraction:.3f}",
                str(heuristic.extent),
                str(heuristic.copies),
                f"{heuristic.seconds:.2f}",
            ]
        )
    return rows


HEADER = [
    "program",
    "VTCM",
    "all-DDR cycles",
    "heuristic",
    "exact",
    "ideal (unbounded)",
    "fraction of ideal saving",
    "VTCM peak (bytes)",
    "copies",
    "pass time (s)",
]


def table(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="memory-place on the examples and fixtures"
    )
    parser.add_argument("--write", action="store_true", help=f"write {OUTPUT}")
    parser.add_argument("--only", help="programs whose name contains this")
    options = parser.parse_args()
    rows: list[list[str]] = []
    for program in programs(options.only):
        small = program.text.count("alloc") <= EXACT_ENTITIES
        rows += measure(program, small)
    text = table(rows)
    print(text)
    if options.write:
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_text(
            "# memory-place benchmark\n\n"
            "Produced by `python bench/placement.py --write` on "
            f"{platform.machine()} with Python {platform.python_version()}.  "
            "Cycles are the interpreter's modeled cycles (docs/cost-model.md) "
            "after `memory-manifest,memory-place,memory-plan{algorithm=greedy}`; "
            "all-DDR is the same program with every tensor in DDR.  The "
            "fraction is (all-DDR - placed) / (all-DDR - ideal); exact is "
            "shown where HiGHS proved its placement optimal within its node "
            "budget (`-`: not proved, `n/a`: program too large).\n\n"
            f"{text}\n"
        )


if __name__ == "__main__":
    main()

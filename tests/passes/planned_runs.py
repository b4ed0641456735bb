"""A program run three times, on fresh arguments each time: as written;
after memory-manifest, memory-plan and memory-verify; and after
convert-memory-to-memref.  The planned and lowered runs check that no byte
is read before an op wrote it; tests compare the arguments the runs leave."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.interpreter import RunResult, run_function
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

CONTEXT = memplan_context()


@dataclass(frozen=True)
class ThreeRuns:
    unplanned: list[object]
    planned: list[object]
    lowered: list[object]
    planned_result: RunResult


def run_unplanned_planned_lowered(
    program: str, arguments: Callable[[], list[object]]
) -> ThreeRuns:
    """The arguments `@main` of `program` leaves in each of the three runs."""
    unplanned = arguments()
    run_function(Parser(CONTEXT, program).parse_module(), "main", unplanned)
    module = Parser(CONTEXT, program).parse_module()
    MemoryManifestPass().apply(CONTEXT, module)
    MemoryPlanPass().apply(CONTEXT, module)
    MemoryVerifyPass().apply(CONTEXT, module)
    planned = arguments()
    result = run_function(module.clone(), "main", planned, check_uninitialized=True)
    ConvertMemoryToMemrefPass().apply(CONTEXT, module)
    lowered = arguments()
    run_function(module, "main", lowered, check_uninitialized=True)
    return ThreeRuns(unplanned, planned, lowered, result)

"""`memory-place` keeps results, fits the VTCM and never costs more than all-DDR.

Random programs (tests/passes/program_gen.py: straight-line code, `scf.if`,
`scf.for`, tensors in DDR and VTCM, some first written by a broadcast or a
loop of stores) are placed for hexagon-v65 with its own VTCM and with tiny
capacities, then planned by `memory-plan` and run:

* the results equal those of the program as written (a returned tensor
  written in VTCM must be copied back), and the run reads no byte nothing
  wrote (`--check-uninitialized`: a copy into VTCM of a tensor nothing wrote
  yet reads such bytes);
* the VTCM peak the interpreter measures is within the capacity (the run
  itself fails on a capacity error, so this also checks the address window);
* `memory-verify` accepts the planned module;
* the modeled cycles are never above those of the same program with every
  tensor in DDR, planned the same way.

`MEMPLAN_SLOW=1` runs ten times more examples.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from program_gen import programs
from same_results import NAN_RESULT, assert_same_results
from stable_strategies import one_of_values
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from memplan.context import memplan_context
from memplan.interpreter import RunResult, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.place import MemoryPlacePass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.targets import VTCM_SCOPE, get_target

SLOW = bool(os.environ.get("MEMPLAN_SLOW"))
CONTEXT = memplan_context()
TARGET = "hexagon-v65"
CAPACITIES = (None, 0, 2048, 4096, 8192)
"""VTCM sizes tried: the target's own (256 KiB) and a few arenas' worth."""
TENSOR_ALIGNMENTS = (None, 1024)
"""`tensor-alignment` of memory-place and memory-plan: the element size, or
one that rounds the 32- and 64-byte tensors up enough for a few to fill a
capacity."""


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples * 10 if SLOW else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _parse(text: str) -> ModuleOp:
    return Parser(CONTEXT, text).parse_module()


def _apply(module: ModuleOp, passes: list[ModulePass]) -> ModuleOp:
    copy = module.clone()
    for module_pass in passes:
        module_pass.apply(CONTEXT, copy)
    copy.verify()
    return copy


def _run(module: ModuleOp, capacity: int | None) -> RunResult:
    """Run with `--check-uninitialized`: the programs write every tensor
    before reading it, so the placed ones must too."""
    target = get_target(TARGET)
    if capacity is not None:
        target = target.with_vtcm_size(capacity)
    return run_function(module, target=target, check_uninitialized=True)


def _all_ddr(text: str) -> str:
    return text.replace(f', "{VTCM_SCOPE}"', "")


def check_placement(
    text: str, capacity: int | None, algorithm: str, tensor_alignment: int | None
) -> None:
    original = run_function(_parse(text))
    # The all-DDR program is planned by the same memory-plan as the placed
    # one: with another packer its arenas (and their allocations) differ.
    plan = MemoryPlanPass(
        target=TARGET,
        capacity=capacity,
        algorithm="greedy",
        tensor_alignment=tensor_alignment,
    )
    ddr = _run(_apply(_parse(_all_ddr(text)), [MemoryManifestPass(), plan]), capacity)
    placed = _apply(
        _parse(text),
        [
            MemoryManifestPass(),
            MemoryPlacePass(
                target=TARGET,
                capacity=capacity,
                algorithm=algorithm,
                tensor_alignment=tensor_alignment,
            ),
            plan,
        ],
    )
    MemoryVerifyPass(target=TARGET, capacity=capacity).apply(CONTEXT, placed.clone())
    run = _run(placed, capacity)
    assert_same_results(original, run, "memory-place")
    limit = get_target(TARGET).capacity(VTCM_SCOPE) if capacity is None else capacity
    assert limit is not None
    assert run.stats.peak_bytes.get(VTCM_SCOPE, 0) <= limit
    assert run.stats.peak_extent.get(VTCM_SCOPE, 0) <= limit
    assert run.stats.modeled_cycles <= ddr.stats.modeled_cycles


def test_arenas_of_a_branch_in_a_loop_are_not_counted_as_saved():
    """memory-place's never-worse check credited the DDR arenas of a branch
    as saved by moving its tensors to VTCM, but memory-plan puts those DDR
    tensors into the function's arena: the placed program cost 5221 cycles
    against 5140 for all-DDR."""
    text = (
        Path(__file__).parent / "data" / "branch_tensors_in_a_loop.mlir"
    ).read_text()
    check_placement(text, 4096, "heuristic", 1024)


def test_a_branch_arena_that_no_longer_nests_counts_as_added():
    """memory-place's never-worse check counted the DDR arena of a branch the
    same with or without a placement, but memory-plan nests it in the
    function's DDR arena in all-DDR only: the placement emptied that arena of
    the tensors it moved to VTCM, and cost 2112 cycles against 2000."""
    text = (
        Path(__file__).parent / "data" / "branch_arena_left_without_room.mlir"
    ).read_text()
    check_placement(text, 2048, "heuristic", 1024)


@_settings(examples=40)
@given(
    text=programs(),
    capacity=one_of_values(CAPACITIES),
    tensor_alignment=one_of_values(TENSOR_ALIGNMENTS),
)
def test_placed_programs_keep_results_fit_and_cost_no_more(
    text: str, capacity: int | None, tensor_alignment: int | None
) -> None:
    check_placement(text, capacity, "heuristic", tensor_alignment)


@_settings(examples=12)
@given(
    text=programs(),
    capacity=one_of_values(CAPACITIES),
    tensor_alignment=one_of_values(TENSOR_ALIGNMENTS),
)
def test_exact_placements_keep_results_fit_and_cost_no_more(
    text: str, capacity: int | None, tensor_alignment: int | None
) -> None:
    pytest.importorskip("highspy")
    check_placement(text, capacity, "exact", tensor_alignment)


def test_a_nan_result_kept_by_the_placement_is_the_same_result():
    """Random programs can make NaN (inf - inf after an overflow): a result
    NaN before and after the placement is kept, though NaN != NaN."""
    check_placement(NAN_RESULT, 4096, "heuristic", None)

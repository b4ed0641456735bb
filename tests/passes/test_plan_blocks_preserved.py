"""`memory-plan` with blocks keeps meaning: random programs (program_gen,
without `scf.if`, so arenas never stack) planned with `discontiguous=auto`
at the tightest VTCM capacity it reaches, and with `discontiguous=always`,
compute the same results, stay within the VTCM address window the run is
given, and pass `memory-verify` at that capacity.

Tensors of random programs are 32 or 64 bytes, so blocks are 16 bytes
(`block-size=16`): a tensor takes two to four of them.  Their contiguous
plans already reach the live bytes, so `auto` seldom needs blocks there (0 of
41 programs measured); `always` cuts tensors in most programs that have VTCM
tensors.  So a second test makes `auto` cut: the live ranges of
examples/fragmentation.mlir, which no contiguous plan fits in their live
bytes, with random element types, shapes, block sizes and birth orders.
"""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from program_gen import programs
from same_results import assert_same_results
from stable_strategies import one_of_values
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocDiscontiguousTensorOp, AllocStorageOp
from memplan.interpreter import RunResult, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.targets import VTCM_SCOPE, get_target

CONTEXT = memplan_context()
BLOCK = 16
EXAMPLES = 300 if os.environ.get("MEMPLAN_SLOW") else 30


def _planned(module: ModuleOp, plan: MemoryPlanPass) -> ModuleOp:
    copy = module.clone()
    plan.apply(CONTEXT, copy)
    copy.verify()
    return copy


def _vtcm_height(module: ModuleOp) -> int:
    """Bytes of the largest VTCM storage: with one arena at a time, what the
    VTCM window must hold."""
    sizes = [
        op.static_size_bytes() or 0
        for op in module.walk()
        if isinstance(op, AllocStorageOp) and op.scope == VTCM_SCOPE
    ]
    return max(sizes, default=0)


def _tightest(module: ModuleOp, start: int) -> tuple[int, ModuleOp]:
    """The lowest capacity, in steps of a block down from `start`, that
    `discontiguous=auto` plans into, with its plan."""
    capacity = start
    planned = _planned(module, MemoryPlanPass(capacity=capacity))
    while capacity >= BLOCK:
        try:
            lower = _planned(
                module,
                MemoryPlanPass(
                    discontiguous="auto", block_size=BLOCK, capacity=capacity - BLOCK
                ),
            )
        except PassFailedException:
            break
        capacity, planned = capacity - BLOCK, lower
    return capacity, planned


def _assert_runs_within(
    planned: ModuleOp, capacity: int, original: RunResult, what: str
) -> None:
    MemoryVerifyPass(capacity=capacity).apply(CONTEXT, planned)
    run = run_function(planned, target=get_target().with_vtcm_size(capacity))
    assert run.stats.peak_extent.get(VTCM_SCOPE, 0) <= capacity, what
    assert_same_results(original, run, what)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=programs(branches=False, rich=True))
def test_blocks_keep_results_within_a_tight_vtcm(text: str) -> None:
    manifested = Parser(CONTEXT, text).parse_module()
    MemoryManifestPass().apply(CONTEXT, manifested)
    original = run_function(manifested.clone())
    height = _vtcm_height(_planned(manifested, MemoryPlanPass()))
    assume(height > 0)
    capacity, planned = _tightest(manifested, height)
    _assert_runs_within(planned, capacity, original, f"auto at {capacity} bytes")
    always = _planned(
        manifested, MemoryPlanPass(discontiguous="always", block_size=BLOCK)
    )
    blocked = any(isinstance(op, AllocDiscontiguousTensorOp) for op in always.walk())
    event(f"always cuts a tensor into blocks: {blocked}")
    _assert_runs_within(always, _vtcm_height(always), original, "always")


GADGET = (
    (0, 2, 4),
    (0, 4, 2),
    (2, 5, 2),
    (2, 6, 1),
    (2, 3, 1),
    (3, 5, 1),
    (4, 6, 1),
    (4, 5, 1),
    (5, 7, 4),
    (6, 7, 2),
)
"""(first step, last step, units) of the tensors of examples/fragmentation.mlir:
at most 6 units live at once, while every contiguous placement needs 7."""

ELEMENTS = {"f32": 4, "i32": 4, "i16": 2, "i8": 1}


def _gadget_program(element: str, unit: int, columns: int, order: list[int]) -> str:
    """The fragmentation gadget with tensors of `unit`-byte units shaped
    (rows, columns) of `element`, born in `order` within a step; each is
    filled when born and summed over its rows into the result when it dies."""
    rows_per_unit = unit // (ELEMENTS[element] * columns)
    zero = "0.0" if element == "f32" else "0"
    add = "arith.addf" if element == "f32" else "arith.addi"
    acc = f"memref<{columns}x{element}>"
    lines = [
        f"func.func @main() -> {acc} {{",
        f"  %zero = arith.constant {zero} : {element}",
        f"  %acc = memref.alloc() : {acc}",
        f"  linalg.fill ins(%zero : {element}) outs(%acc : {acc})",
    ]

    def type_(units: int) -> str:
        return f'memref<{units * rows_per_unit}x{columns}x{element}, "global.vtcm">'

    for step in range(8):
        for k, (_, last, units) in enumerate(GADGET):
            if last == step:
                lines += [
                    f"  linalg.reduce ins(%t{k} : {type_(units)}) outs(%acc : {acc}) "
                    "dimensions = [0]",
                    f"    (%x: {element}, %s: {element}) {{",
                    f"      %r = {add} %x, %s : {element}",
                    f"      linalg.yield %r : {element}",
                    "    }",
                    f"  memref.dealloc %t{k} : {type_(units)}",
                ]
        for k in order:
            first, _, units = GADGET[k]
            if first == step:
                value = f"{k + 1}.0" if element == "f32" else str(k + 1)
                lines += [
                    f"  %v{k} = arith.constant {value} : {element}",
                    f"  %t{k} = memref.alloc() : {type_(units)}",
                    f"  linalg.fill ins(%v{k} : {element}) outs(%t{k} : {type_(units)})",
                ]
    lines += [f"  func.return %acc : {acc}", "}"]
    return "\n".join(lines)


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(
    element=one_of_values(sorted(ELEMENTS)),
    unit=one_of_values([64, 256, 2048]),
    columns=one_of_values([4, 8, 16]),
    order=st.permutations(list(range(len(GADGET)))),
)
def test_auto_cuts_tensors_to_beat_fragmentation_and_keeps_results(
    element: str, unit: int, columns: int, order: list[int]
) -> None:
    module = Parser(
        CONTEXT, _gadget_program(element, unit, columns, order)
    ).parse_module()
    original = run_function(module.clone())
    MemoryManifestPass().apply(CONTEXT, module)
    capacity = 6 * unit
    plan = MemoryPlanPass(capacity=capacity)
    with pytest.raises(PassFailedException, match="over the scope capacity"):
        _planned(module, plan)
    planned = _planned(module, replace(plan, discontiguous="auto", block_size=unit))
    assert any(isinstance(op, AllocDiscontiguousTensorOp) for op in planned.walk())
    _assert_runs_within(planned, capacity, original, f"auto, {unit}-byte units")


NAN_RESULT = """
func.func @main() -> memref<8xf32> {
  %m = memref.alloc() : memref<8xf32, "global.vtcm">
  %r = memref.alloc() : memref<8xf32>
  %big = arith.constant 3.0e38 : f32
  linalg.fill ins(%big : f32) outs(%m : memref<8xf32, "global.vtcm">)
  linalg.mul ins(%m, %m : memref<8xf32, "global.vtcm">, memref<8xf32, "global.vtcm">) outs(%m : memref<8xf32, "global.vtcm">)
  linalg.sub ins(%m, %m : memref<8xf32, "global.vtcm">, memref<8xf32, "global.vtcm">) outs(%r : memref<8xf32>)
  memref.dealloc %m : memref<8xf32, "global.vtcm">
  func.return %r : memref<8xf32>
}
"""


def test_a_nan_result_kept_by_the_plan_is_the_same_result() -> None:
    """Random programs can make NaN (inf - inf after an overflow): a result
    NaN before and after planning is kept, though NaN != NaN."""
    manifested = Parser(CONTEXT, NAN_RESULT).parse_module()
    MemoryManifestPass().apply(CONTEXT, manifested)
    original = run_function(manifested.clone())
    planned = _planned(manifested, MemoryPlanPass())
    _assert_runs_within(planned, 1024, original, "a NaN result")

"""Statistics: fields, the cost model's arithmetic, and determinism."""

from __future__ import annotations

import json

import numpy as np
import pytest
from interpreter_helpers import EXAMPLES, Run, parse
from xdsl.dialects.builtin import ModuleOp

from memplan.context import run_context
from memplan.interpreter import run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, get_target

COPY_TO_VTCM = """
func.func @main(%x: memref<4x64xi32>) {
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
  memory.copy %x, %t : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
  func.return
}
"""


def test_stats_json_has_every_field():
    stats = run_function(parse((EXAMPLES / "seed_vtcm_offsets.mlir").read_text())).stats
    document = stats.to_json()
    assert set(document) == {
        "target",
        "capacity",
        "peak_bytes",
        "peak_extent",
        "storage_allocations",
        "bytes_copied",
        "modeled_cycles",
        "ops_executed",
    }
    assert document["target"] == "hexagon-v73"
    assert document["capacity"] == {GLOBAL_SCOPE: None, VTCM_SCOPE: 8 * 1024 * 1024}
    assert json.loads(json.dumps(document)) == document


def test_runs_are_deterministic():
    text = (EXAMPLES / "seed_discontiguous.mlir").read_text()
    first = run_function(parse(text)).stats.to_json()
    second = run_function(parse(text)).stats.to_json()
    assert first == second


def test_copy_cycles_follow_the_documented_formula(run: Run):
    target = get_target()
    stats = run(COPY_TO_VTCM, np.zeros((4, 64), np.int32)).stats
    ddr, vtcm = target.scope(GLOBAL_SCOPE), target.scope(VTCM_SCOPE)
    copy = (
        target.op_overhead_cycles
        + 1024 / ddr.bytes_per_cycle
        + 1024 / vtcm.bytes_per_cycle
        + ddr.latency_cycles
        + vtcm.latency_cycles
        + target.copy_setup_cycles
        + 1024 / target.copy_bytes_per_cycle
    )
    allocate_storage = target.op_overhead_cycles + target.allocator_call_cycles
    alloc_tensor = return_ = target.op_overhead_cycles
    assert stats.ops_executed == 4
    assert stats.modeled_cycles == round(
        allocate_storage + alloc_tensor + copy + return_
    )
    assert stats.bytes_copied == {"global->global.vtcm": 1024}
    assert stats.peak_bytes == {VTCM_SCOPE: 1024}


def test_matmul_cycles_include_multiply_accumulates(run: Run):
    program = """
    func.func @main(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
      linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
      func.return
    }
    """
    target = get_target()
    arrays = (
        np.zeros((64, 32), np.float32),
        np.zeros((32, 16), np.float32),
        np.zeros((64, 16), np.float32),
    )
    stats = run(program, *arrays).stats
    touched = sum(a.nbytes for a in arrays) / target.scope(GLOBAL_SCOPE).bytes_per_cycle
    matmul = (
        target.op_overhead_cycles + touched + target.scope(GLOBAL_SCOPE).latency_cycles
    )
    matmul += 64 * 32 * 16 / target.macs_per_cycle
    assert stats.modeled_cycles == round(matmul + target.op_overhead_cycles)


def test_peak_bytes_track_kills():
    program = """
    func.func @main() {
      %a = memory.alloc_storage [3000] : !memory.storage<"global.vtcm">
      %b = memory.alloc_storage [5000] : !memory.storage<"global.vtcm">
      memory.kill %a : !memory.storage<"global.vtcm">
      memory.kill %b : !memory.storage<"global.vtcm">
      %c = memory.alloc_storage [7000] : !memory.storage<"global.vtcm">
      func.return
    }
    """
    stats = run_function(parse(program)).stats
    assert stats.peak_bytes == {VTCM_SCOPE: 8000}
    assert stats.storage_allocations == {VTCM_SCOPE: 3}


def _planned(text: str) -> ModuleOp:
    module = parse(text)
    MemoryManifestPass().apply(run_context(), module)
    MemoryPlanPass().apply(run_context(), module)
    return module


def test_a_planned_seed_costs_fewer_cycles_than_the_naive_one():
    text = (EXAMPLES / "seed_naive.mlir").read_text()
    naive = run_function(parse(text)).stats
    planned = run_function(_planned(text)).stats
    assert (
        planned.storage_allocations[VTCM_SCOPE] < naive.storage_allocations[VTCM_SCOPE]
    )
    assert planned.modeled_cycles < naive.modeled_cycles


ALLOCATIONS = """
func.func @main() {
  %s = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<512xi32, "global.vtcm">
  memory.kill %t : memref<512xi32, "global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  %m = memref.alloc() : memref<512xi32, "global.vtcm">
  memref.dealloc %m : memref<512xi32, "global.vtcm">
  func.return
}
"""


def test_allocator_calls_cost_more_than_placing_and_killing_tensors():
    target = get_target()
    stats = run_function(parse(ALLOCATIONS)).stats
    call = target.op_overhead_cycles + target.allocator_call_cycles
    alloc_tensor = return_ = target.op_overhead_cycles
    tensor_kill = 0
    assert stats.ops_executed == 7
    assert stats.modeled_cycles == 4 * call + alloc_tensor + tensor_kill + return_


DISCONTIGUOUS_ADD = """
func.func @main() {
  %table = memory.alloc_storage [8] : !memory.storage<"global">
  %data = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %table[0], blocks %data[0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x128xi32, #memory.discontiguous, "global.vtcm">
  linalg.add ins(%t, %t : memref<2x128xi32, #memory.discontiguous, "global.vtcm">, memref<2x128xi32, #memory.discontiguous, "global.vtcm">) outs(%t : memref<2x128xi32, #memory.discontiguous, "global.vtcm">)
  func.return
}
"""


def test_discontiguous_operands_pay_for_reading_their_table():
    target = get_target()
    ddr, vtcm = target.scope(GLOBAL_SCOPE), target.scope(VTCM_SCOPE)
    stats = run_function(parse(DISCONTIGUOUS_ADD)).stats
    allocations = 2 * (target.op_overhead_cycles + target.allocator_call_cycles)
    write_table = (
        target.op_overhead_cycles + 8 / ddr.bytes_per_cycle + ddr.latency_cycles
    )
    add = (
        target.op_overhead_cycles
        + 3 * (1024 / vtcm.bytes_per_cycle + 8 / ddr.bytes_per_cycle)
        + vtcm.latency_cycles
        + ddr.latency_cycles
    )
    return_ = target.op_overhead_cycles
    assert stats.modeled_cycles == round(allocations + write_table + add + return_)


REALLOC_AND_ATOMIC = """
func.func @main(%n: index) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %a = memref.alloc() : memref<100xi32, "global.vtcm">
  %old = memref.atomic_rmw addi %one, %a[%c0] : (i32, memref<100xi32, "global.vtcm">) -> i32
  %b = memref.realloc %a(%n) : memref<100xi32, "global.vtcm"> to memref<?xi32, "global.vtcm">
  func.return
}
"""


def test_realloc_costs_two_allocator_calls_and_a_copy_of_the_kept_elements():
    """As MLIR lowers it (alloc, copy, dealloc), in one op; an atomic_rmw
    costs what a load or store does."""
    target = get_target()
    vtcm = target.scope(VTCM_SCOPE)
    constants = alloc = return_ = target.op_overhead_cycles
    alloc += target.allocator_call_cycles
    atomic = target.op_overhead_cycles + 4 / vtcm.bytes_per_cycle + vtcm.latency_cycles
    for size, kept_bytes in ((50, 200), (300, 400)):
        stats = run_function(parse(REALLOC_AND_ATOMIC), "main", (size,)).stats
        realloc = (
            target.op_overhead_cycles
            + 2 * target.allocator_call_cycles
            + 2 * ((kept_bytes + 127) // 128 * 128) / vtcm.bytes_per_cycle
            + vtcm.latency_cycles
        )
        assert stats.modeled_cycles == round(
            2 * constants + alloc + atomic + realloc + return_
        )


CLONE = """
func.func @main(%x: memref<64xf32>) -> memref<64xf32{space}> {{
  %c = bufferization.clone %x : memref<64xf32> to memref<64xf32{space}>
  func.return %c : memref<64xf32{space}>
}}
"""

ALLOC_AND_COPY = """
func.func @main(%x: memref<64xf32>) -> memref<64xf32{space}> {{
  %c = memref.alloc() : memref<64xf32{space}>
  memref.copy %x, %c : memref<64xf32> to memref<64xf32{space}>
  func.return %c : memref<64xf32{space}>
}}
"""


@pytest.mark.parametrize("space", ["", ', "global.vtcm"'], ids=["ddr", "to-vtcm"])
def test_a_clone_costs_what_its_alloc_and_copy_cost_in_one_op(space: str):
    """MLIR lowers a clone to a `memref.alloc` and a `memref.copy`: it pays
    their allocator call and bytes (and the DMA between scopes), with one
    op's overhead instead of two (docs/cost-model.md)."""
    x = np.ones(64, np.float32)
    clone = run_function(parse(CLONE.format(space=space)), "main", (x,)).stats
    lowered = run_function(parse(ALLOC_AND_COPY.format(space=space)), "main", (x,))
    overhead = get_target().op_overhead_cycles
    assert clone.modeled_cycles == lowered.stats.modeled_cycles - overhead
    assert clone.bytes_copied == lowered.stats.bytes_copied
    assert clone.storage_allocations == lowered.stats.storage_allocations

"""memory-plan end to end: the examples, and random programs run before and after."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stable_strategies import one_of_values
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp
from memplan.interpreter import InterpretationError, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.planning import ALGORITHMS
from memplan.targets import MIB, VTCM_SCOPE, get_target

EXAMPLES = Path(__file__).parents[2] / "examples"
V73 = get_target("hexagon-v73")


CONTEXT = memplan_context(allow_unregistered=True)


def parse(source: str) -> ModuleOp:
    module = Parser(CONTEXT, source).parse_module()
    module.verify()
    return module


def planned(source: str, plan: MemoryPlanPass | None = None) -> ModuleOp:
    """`source` after memory-manifest and memory-plan, verified."""
    module = parse(source)
    MemoryManifestPass().apply(CONTEXT, module)
    (plan or MemoryPlanPass()).apply(CONTEXT, module)
    module.verify()
    return module


def storages(module: ModuleOp, function: str) -> list[AllocStorageOp]:
    body = next(
        op
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.sym_name.data == function
    )
    return [op for op in body.walk() if isinstance(op, AllocStorageOp)]


def test_seed_plans_to_one_3072_byte_vtcm_storage_and_computes_the_same():
    source = (EXAMPLES / "seed_naive.mlir").read_text()
    module = planned(source)
    (arena,) = [s for s in storages(module, "seed") if s.scope == VTCM_SCOPE]
    assert arena.static_size_bytes() == 3 * 1024
    before = run_function(parse(source), target=V73)
    after = run_function(module, target=V73)
    hand_planned = run_function(
        parse((EXAMPLES / "seed_vtcm_offsets.mlir").read_text()), target=V73
    )
    np.testing.assert_array_equal(after.results[0], before.results[0])
    np.testing.assert_array_equal(after.results[0], hand_planned.results[0])
    assert after.stats.peak_bytes[VTCM_SCOPE] == 3072
    assert hand_planned.stats.peak_bytes[VTCM_SCOPE] == 4096


def test_three_big_vtcm_tensors_fail_unplanned_and_run_planned_in_6_mib():
    source = (EXAMPLES / "three_big_vtcm.mlir").read_text()
    with pytest.raises(
        InterpretationError, match=r'cannot allocate 3145728 bytes in "global\.vtcm"'
    ):
        run_function(parse(source), target=V73)
    result = run_function(planned(source), target=V73)
    assert result.stats.peak_bytes[VTCM_SCOPE] <= 6 * MIB
    assert (np.asarray(result.results[0]) == 4).all()


@pytest.mark.parametrize("example", ["seed_naive.mlir", "three_big_vtcm.mlir"])
@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_planned_examples_pass_memory_verify(example: str, algorithm: str):
    module = planned(
        (EXAMPLES / example).read_text(), MemoryPlanPass(algorithm=algorithm)
    )
    MemoryVerifyPass().apply(CONTEXT, module)


def test_over_capacity_names_scope_sizes_and_lower_bound():
    source = (EXAMPLES / "three_big_vtcm.mlir").read_text()
    with pytest.raises(PassFailedException) as failure:
        planned(source, MemoryPlanPass(capacity=5 * MIB))
    message = str(failure.value)
    assert '"global.vtcm"' in message
    assert f"needs {6 * MIB} bytes" in message
    assert f"at least {6 * MIB} bytes are live at once" in message
    assert f"capacity of {5 * MIB} bytes" in message


@pytest.mark.parametrize("example", ["seed_naive.mlir", "three_big_vtcm.mlir"])
def test_auto_blocks_change_nothing_when_the_contiguous_plan_fits(example: str):
    source = (EXAMPLES / example).read_text()
    contiguous = planned(source)
    auto = planned(source, MemoryPlanPass(discontiguous="auto"))
    assert str(auto) == str(contiguous)


def test_fragmentation_example_fits_only_with_blocks_and_keeps_its_results():
    source = (EXAMPLES / "fragmentation.mlir").read_text()
    window = V73.with_vtcm_size(12 * 1024)
    with pytest.raises(InterpretationError, match="the largest free range has 4096"):
        run_function(parse(source), target=window)
    with pytest.raises(PassFailedException, match="needs 14336 bytes"):
        planned(source, MemoryPlanPass(capacity=12 * 1024))
    module = planned(source, MemoryPlanPass(discontiguous="auto", capacity=12 * 1024))
    MemoryVerifyPass(capacity=12 * 1024).apply(CONTEXT, module)
    before = run_function(parse(source), target=V73)
    after = run_function(module, target=window)
    np.testing.assert_array_equal(after.results[0], before.results[0])
    assert after.stats.peak_extent[VTCM_SCOPE] == 12 * 1024


def test_planning_twice_keeps_the_arena_size():
    once = planned((EXAMPLES / "seed_naive.mlir").read_text())
    size = [s.static_size_bytes() for s in storages(once, "seed")]
    MemoryPlanPass().apply(CONTEXT, once)
    assert [s.static_size_bytes() for s in storages(once, "seed")] == size


def random_program(rows: list[int], last_uses: list[int]) -> str:
    """Tensor i (rows[i] x 16 i32 in VTCM) is allocated at step i, filled with
    i + 1, and read (first and last element) at every step up to last_uses[i].
    The reads are summed and returned: any plan that lets two live tensors
    share bytes changes the sum or trips the interpreter."""
    lines = ["func.func @main() -> i32 {", "  %sum0 = arith.constant 0 : i32"]
    zero, total = "%c0", "%sum0"
    lines.append(f"  {zero} = arith.constant 0 : index")
    reads = 0
    for step, row_count in enumerate(rows):
        type_ = f'memref<{row_count}x16xi32, "global.vtcm">'
        lines += [
            f"  %v{step} = arith.constant {step + 1} : i32",
            f"  %t{step} = memref.alloc() : {type_}",
            f"  linalg.fill ins(%v{step} : i32) outs(%t{step} : {type_})",
            f"  %last{step} = arith.constant {row_count - 1} : index",
            f"  %c15_{step} = arith.constant 15 : index",
        ]
        for tensor in range(step + 1):
            if last_uses[tensor] >= step:
                tensor_type = f'memref<{rows[tensor]}x16xi32, "global.vtcm">'
                for row, column in ((zero, zero), (f"%last{tensor}", f"%c15_{tensor}")):
                    lines.append(
                        f"  %r{reads} = memref.load %t{tensor}[{row}, {column}] : {tensor_type}"
                    )
                    lines.append(
                        f"  %sum{reads + 1} = arith.addi {total}, %r{reads} : i32"
                    )
                    total = f"%sum{reads + 1}"
                    reads += 1
    for tensor, row_count in enumerate(rows):
        lines.append(
            f'  memref.dealloc %t{tensor} : memref<{row_count}x16xi32, "global.vtcm">'
        )
    lines += [f"  func.return {total} : i32", "}"]
    return "\n".join(lines)


@st.composite
def programs(draw: st.DrawFn) -> str:
    count = draw(st.integers(2, 7))
    rows = draw(st.lists(one_of_values([1, 2, 4]), min_size=count, max_size=count))
    last_uses = [draw(st.integers(step, count - 1)) for step in range(count)]
    return random_program(rows, last_uses)


@settings(max_examples=25, deadline=None)
@given(source=programs(), algorithm=one_of_values(sorted(ALGORITHMS)))
def test_plan_keeps_results_and_never_raises_the_peak(source: str, algorithm: str):
    before = run_function(parse(source), target=V73)
    module = planned(source, MemoryPlanPass(algorithm=algorithm))
    MemoryVerifyPass().apply(CONTEXT, module)
    after = run_function(module, target=V73)
    assert after.results == before.results
    assert after.stats.peak_bytes[VTCM_SCOPE] <= before.stats.peak_bytes[VTCM_SCOPE]


BRANCHES = """
func.func @main(%take: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %a = memref.alloc() : memref<256xi32, "global.vtcm">
  linalg.fill ins(%one : i32) outs(%a : memref<256xi32, "global.vtcm">)
  %x = memref.load %a[%c0] : memref<256xi32, "global.vtcm">
  memref.dealloc %a : memref<256xi32, "global.vtcm">
  %r = scf.if %take -> (i32) {
    %b = memref.alloc() : memref<256xi32, "global.vtcm">
    linalg.fill ins(%x : i32) outs(%b : memref<256xi32, "global.vtcm">)
    %y = memref.load %b[%c0] : memref<256xi32, "global.vtcm">
    memref.dealloc %b : memref<256xi32, "global.vtcm">
    scf.yield %y : i32
  } else {
    %big = memref.alloc() : memref<1024xi32, "global.vtcm">
    linalg.fill ins(%x : i32) outs(%big : memref<1024xi32, "global.vtcm">)
    %z = memref.load %big[%c0] : memref<1024xi32, "global.vtcm">
    memref.dealloc %big : memref<1024xi32, "global.vtcm">
    scf.yield %z : i32
  }
  func.return %r : i32
}
"""


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_each_branch_has_its_own_arena_and_untaken_ones_cost_nothing(algorithm: str):
    module = planned(BRANCHES, MemoryPlanPass(algorithm=algorithm))
    MemoryVerifyPass().apply(CONTEXT, module)
    sizes = [s.static_size_bytes() for s in storages(module, "main")]
    assert sizes == [1024, 1024, 4096]
    for take, peak in ((True, 1024), (False, 4096)):
        before = run_function(parse(BRANCHES), args=[take], target=V73)
        after = run_function(module.clone(), args=[take], target=V73)
        assert after.results == before.results
        assert after.stats.peak_bytes[VTCM_SCOPE] == peak


CARRIED = """
func.func @main() -> f32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<16xf32>)
  %r = {loop} iter_args(%acc = %x) -> (memref<16xf32>) {{
    %t = memref.alloc() : memref<16xf32>
    linalg.add ins(%acc, %acc : memref<16xf32>, memref<16xf32>) outs(%t : memref<16xf32>)
    {yield_} %t : memref<16xf32>
  }}
  %u = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%u : memref<16xf32>)
  %v = memref.alloc() : memref<16xf32>
  linalg.add ins(%u, %r : memref<16xf32>, memref<16xf32>) outs(%v : memref<16xf32>)
  %e = memref.load %v[%c0] : memref<16xf32>
  func.return %e : f32
}}
"""


@pytest.mark.parametrize(
    ("loop", "yield_"),
    [
        ("scf.for %i = %c0 to %c2 step %c1", "scf.yield"),
        ("affine.for %i = 0 to 2", "affine.yield"),
    ],
)
def test_a_tensor_yielded_out_of_a_loop_keeps_its_bytes_while_the_result_is_read(
    loop: str, yield_: str
):
    """%t leaves its loop as %r, read after %u is allocated and filled: a plan
    giving %u the bytes of %t changes %v (or trips the interpreter)."""
    source = CARRIED.format(loop=loop, yield_=yield_)
    before = run_function(parse(source), target=V73)
    module = planned(source)
    MemoryVerifyPass().apply(CONTEXT, module)
    after = run_function(module, target=V73)
    assert after.results == before.results == (5.0,)

"""affine ops as convert-linalg-to-loops / -to-affine-loops leave them, and
affine.if, vs numpy."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run
from xdsl.dialects import affine

from memplan.context import memplan_context, parse_module
from memplan.interpreter import InterpretationError, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass

RNG = np.random.default_rng(3)


@pytest.mark.parametrize(("d", "s"), [(7, 3), (-7, 3), (0, 5), (-1, 2)])
def test_apply_reads_dimensions_then_symbols_and_rounds_down(run: Run, d: int, s: int):
    program = """
    func.func @main(%d: index, %s: index) -> (index, index, index) {
      %a = affine.apply affine_map<(i)[n] -> (i * 2 - n * 5)>(%d)[%s]
      %b = affine.apply affine_map<(i)[n] -> ((i + n) floordiv 3)>(%d)[%s]
      %c = affine.apply affine_map<(i)[n] -> (i mod 3 + (i - n) ceildiv 2)>(%d)[%s]
      func.return %a, %b, %c : index, index, index
    }
    """
    assert run(program, d, s).results == (
        d * 2 - s * 5,
        (d + s) // 3,
        d % 3 + -(-(d - s) // 2),
    )


def test_min_takes_the_smallest_result(run: Run):
    program = """
    func.func @main(%i: index) -> index {
      %m = affine.min affine_map<(i) -> (i + 4, 10, i * 3)>(%i)
      func.return %m : index
    }
    """
    assert [run(program, i).results[0] for i in (0, 2, 5, 8)] == [0, 6, 9, 10]


def test_for_runs_between_its_bounds_and_carries_values(run: Run):
    # sum of i for i in [max(lo, 2), min(hi, 9)) step 2
    program = """
    func.func @main(%lo: index, %hi: index) -> index {
      %zero = arith.constant 0 : index
      %sum = affine.for %i = max affine_map<(a) -> (a, 2)>(%lo) to min affine_map<(b) -> (b, 9)>(%hi) step 2 iter_args(%acc = %zero) -> (index) {
        %next = arith.addi %acc, %i : index
        affine.yield %next : index
      }
      func.return %sum : index
    }
    """
    assert run(program, 0, 20).results == (sum(range(2, 9, 2)),)
    assert run(program, 3, 7).results == (sum(range(3, 7, 2)),)
    assert run(program, 8, 4).results == (0,)


def test_affine_loops_compute_a_strided_convolution(run: Run):
    # what convert-linalg-to-affine-loops makes of a 1-D stride-2 convolution
    program = """
    func.func @main(%x: memref<11xf32>, %w: memref<3xf32>, %y: memref<5xf32>) {
      affine.for %o = 0 to 5 {
        affine.for %k = 0 to 3 {
          %a = affine.load %x[%o * 2 + %k] : memref<11xf32>
          %b = affine.load %w[%k] : memref<3xf32>
          %acc = affine.load %y[%o] : memref<5xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          affine.store %s, %y[%o] : memref<5xf32>
        }
      }
      func.return
    }
    """
    x = RNG.standard_normal(11).astype(np.float32)
    w = RNG.standard_normal(3).astype(np.float32)
    y = np.zeros(5, np.float32)
    run(program, x, w, y)
    windows = np.lib.stride_tricks.sliding_window_view(x, 3)[::2]
    np.testing.assert_allclose(y, windows @ w, rtol=1e-6)


def test_scf_loops_with_affine_apply_compute_a_strided_convolution(run: Run):
    # what convert-linalg-to-loops makes of the same convolution
    program = """
    func.func @main(%x: memref<11xf32>, %w: memref<3xf32>, %y: memref<5xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      scf.for %o = %c0 to %c5 step %c1 {
        scf.for %k = %c0 to %c3 step %c1 {
          %i = affine.apply affine_map<(o, k) -> (o * 2 + k)>(%o, %k)
          %a = memref.load %x[%i] : memref<11xf32>
          %b = memref.load %w[%k] : memref<3xf32>
          %acc = memref.load %y[%o] : memref<5xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          memref.store %s, %y[%o] : memref<5xf32>
        }
      }
      func.return
    }
    """
    x = RNG.standard_normal(11).astype(np.float32)
    w = RNG.standard_normal(3).astype(np.float32)
    y = np.zeros(5, np.float32)
    run(program, x, w, y)
    windows = np.lib.stride_tricks.sliding_window_view(x, 3)[::2]
    np.testing.assert_allclose(y, windows @ w, rtol=1e-6)


def test_affine_load_outside_the_memref_is_an_error(run: Run):
    program = """
    func.func @main(%x: memref<4xf32>, %i: index) -> f32 {
      %v = affine.load %x[%i + 1] : memref<4xf32>
      func.return %v : f32
    }
    """
    x = np.arange(4, dtype=np.float32)
    assert run(program, x, 2).results == (3.0,)
    with pytest.raises(
        InterpretationError, match=r"affine\.load.*index \[4\] is out of bounds"
    ):
        run(program, x, 3)


@pytest.mark.parametrize(
    "access",
    [
        "%x[%i * 2 + symbol(%n)]",
        '"affine.load"(%x, %i, %n) <{map = affine_map<(d0)[s0] -> (d0 * 2 + s0)>}>',
    ],
)
def test_affine_load_reads_dimensions_then_symbols(run: Run, access: str):
    # The generic form printed in custom form and read back reads the same
    # element (xDSL printed the symbol as the dimension's operand).
    load = (
        f"affine.load {access} : memref<8xf32>"
        if access.startswith("%")
        else f"{access} : (memref<8xf32>, index, index) -> f32"
    )
    program = f"""
    func.func @main(%x: memref<8xf32>, %i: index, %n: index) -> f32 {{
      %v = {load}
      func.return %v : f32
    }}
    """
    x = np.arange(8, dtype=np.float32)
    assert run(program, x, 1, 3).results == (5.0,)
    printed = str(parse_module(program))
    assert run(printed, x, 1, 3).results == (5.0,)


EXPANDED_SUBVIEW = """
#map = affine_map<()[s0, s1] -> (s0 * s1)>
#map1 = affine_map<()[s0, s1, s2] -> (s0 * s1 + s2)>
func.func @main(%m: memref<6x8xf32>, %i: index, %n: index, %s: index) {
  %c8 = arith.constant 8 : index
  %seven = arith.constant 7.0 : f32
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<6x8xf32> -> memref<f32>, index, index, index, index, index
  %row_stride = affine.apply #map()[%s, %c8]
  %start = affine.apply #map1()[%i, %c8, %n]
  %view = memref.reinterpret_cast %base to offset: [%start], sizes: [%n, %n], strides: [%row_stride, %s] : memref<f32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  linalg.fill ins(%seven : f32) outs(%view : memref<?x?xf32, strided<[?, ?], offset: ?>>)
  func.return
}
"""
"""What MLIR's expand-strided-metadata writes for `memref.subview %m[%i, %n]
[%n, %n] [%s, %s]` of a dynamic shape: maps that multiply symbols."""


def test_semi_affine_maps_of_expand_strided_metadata_fill_the_subview(run: Run):
    m = np.zeros((6, 8), np.float32)
    run(EXPANDED_SUBVIEW, m, 1, 2, 3)
    expected = np.zeros((6, 8), np.float32)
    expected[1:6:3, 2:8:3] = 7.0
    np.testing.assert_array_equal(m, expected)


@pytest.mark.parametrize(("a", "b"), [(4, 5), (3, 7), (1, 1)])
def test_semi_affine_expressions_multiply_and_divide_by_symbols(
    run: Run, a: int, b: int
):
    program = """
    func.func @main(%i: index, %a: index, %b: index) -> (index, index, index, index) {
      %p = affine.apply affine_map<(d0)[s0, s1] -> (s0 * d0 + s0 * s1)>(%i)[%a, %b]
      %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%a]
      %r = affine.apply affine_map<(d0)[s0, s1] -> (d0 ceildiv (s0 + s1))>(%i)[%a, %b]
      %t = affine.apply affine_map<(d0)[s0] -> ((d0 * 3) mod s0)>(%i)[%b]
      func.return %p, %q, %r, %t : index, index, index, index
    }
    """
    for i in (-9, 0, 13):
        assert run(program, i, a, b).results == (
            a * i + a * b,
            i // a,
            -(-i // (a + b)),
            (i * 3) % b,
        )


@pytest.mark.parametrize(
    ("expression", "divisor"),
    [
        ("d0 mod s0", "0"),
        ("d0 floordiv s0", "-2"),
        ("d0 ceildiv (s0 - 3)", "-3"),
        ("d0 mod 0", "0"),
    ],
)
def test_dividing_by_a_divisor_that_is_not_positive_is_an_error(
    run: Run, expression: str, divisor: str
):
    program = f"""
    func.func @main(%i: index, %n: index) -> index {{
      %r = affine.apply affine_map<(d0)[s0] -> ({expression})>(%i)[%n]
      func.return %r : index
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=rf"affine\.apply.*by {divisor}: expected a positive divisor",
    ):
        run(program, 7, 0 if divisor in ("0", "-3") else -2)


def test_affine_for_step_zero_is_an_error_when_run_unverified():
    # The verifier rejects it (tests/filecheck/dialects/affine/invalid.mlir);
    # under memplan-run --disable-verify the interpreter still refuses it.
    program = """
    func.func @main() {
      affine.for %i = 0 to 4 step 0 {
      }
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"affine\.for \(in @main\): step 0 is not positive: expected a step "
        "above 0$",
    ):
        run_function(parse_module(program), "main", ())


AFFINE_IF = """
func.func @main(%x: memref<8xf32>, %out: memref<8xf32>, %lo: index) -> index {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %count = affine.for %i = 0 to 8 iter_args(%n = %zero) -> (index) {
    %v = affine.load %x[%i] : memref<8xf32>
    %r, %m = affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, 5 - d0 >= 0)>(%i)[%lo] -> (f32, index) {
      %t = memref.alloc() : memref<1xf32>
      %u = memref.alloc() : memref<1xf32>
      affine.store %v, %t[0] : memref<1xf32>
      %h = affine.load %t[0] : memref<1xf32>
      %d = arith.addf %h, %h : f32
      affine.store %d, %u[0] : memref<1xf32>
      memref.dealloc %t : memref<1xf32>
      %l = affine.load %u[0] : memref<1xf32>
      memref.dealloc %u : memref<1xf32>
      %more = arith.addi %n, %one : index
      affine.yield %l, %more : f32, index
    } else {
      affine.yield %v, %n : f32, index
    }
    affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%i) {
      affine.store %r, %out[%i] : memref<8xf32>
    }
    affine.yield %m : index
  }
  func.return %count : index
}
"""


@pytest.mark.parametrize("lo", [0, 2, 7])
def test_if_runs_then_where_every_constraint_holds(run: Run, lo: int):
    x = np.arange(1, 9, dtype=np.float32)
    out = np.zeros(8, np.float32)
    assert run(AFFINE_IF, x, out, lo).results == (max(0, 6 - lo),)
    doubled = np.where((np.arange(8) >= lo) & (np.arange(8) <= 5), 2 * x, x)
    np.testing.assert_array_equal(out, np.where(np.arange(8) % 2 == 0, doubled, 0))


def test_a_tensor_allocated_in_an_affine_if_is_planned_in_its_branch():
    module = parse_module(AFFINE_IF)
    MemoryManifestPass().apply(memplan_context(), module)
    MemoryPlanPass().apply(memplan_context(), module)
    branch = next(op for op in module.walk() if isinstance(op, affine.IfOp))
    names = [op.name for op in branch.then_region.block.ops]
    # One arena of the then block holds both tensors.
    assert names.count("memory.alloc_storage") == 1
    assert names.count("memory.alloc_tensor") == 2
    x = np.arange(1, 9, dtype=np.float32)
    out = np.zeros(8, np.float32)
    assert run_function(module, "main", [x, out, 2]).results == (4,)
    np.testing.assert_array_equal(out, [1, 0, 6, 0, 10, 0, 7, 0])

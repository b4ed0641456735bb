"""Loop nests of scalar loads, arith and stores (`convert-linalg-to-loops`):
run from prepared blocks with one table of values per call, and with the
per-op work of the checks and the cost model done once per op."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import SUM_TO, Run, parse, probe_tables

from memplan.interpreter import InterpretationError, run_function
from memplan.interpreter.loop_vectorize import SCALAR_LOOPS_ENV
from memplan.interpreter.runner import Runner
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, get_target


@pytest.fixture(autouse=True)
def op_by_op(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the op-by-op path: nests that would run on whole
    arrays (`loop_vectorize`, checked against this path in
    test_loop_vectorize.py) run op by op here."""
    monkeypatch.setenv(SCALAR_LOOPS_ENV, "1")


MATMUL_LOOPS = """
func.func @main(%a: memref<3x4xf32>, %b: memref<4x5xf32>, %c: memref<3x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %a[%i, %k] : memref<3x4xf32>
        %y = memref.load %b[%k, %j] : memref<4x5xf32>
        %acc = memref.load %c[%i, %j] : memref<3x5xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<3x5xf32>
      }
    }
  }
  func.return
}
"""


def test_nested_loops_read_outer_values_from_the_functions_table():
    """Each loop body ran in a scope of its own under xDSL's runner, so an
    operand defined outside a nest of depth d was found after d lookups."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4), dtype=np.float32)
    b = rng.standard_normal((4, 5), dtype=np.float32)
    c = np.zeros((3, 5), np.float32)
    runner = Runner(parse(MATMUL_LOOPS))
    tables = probe_tables(runner)
    runner.run("main", (a, b, c))
    assert {count for count, _ in tables} == {2}
    expected = np.zeros((3, 5), np.float32)
    for i in range(3):
        for j in range(5):
            for k in range(4):
                expected[i, j] = np.float32(expected[i, j] + a[i, k] * b[k, j])
    assert c.tobytes() == expected.tobytes()


def test_a_listener_added_after_a_run_is_called_on_the_next():
    """Blocks are prepared with what their listeners do around each op: a
    listener added later must not be left out by blocks prepared before."""
    runner = Runner(parse(MATMUL_LOOPS))
    args = tuple(np.zeros(shape, np.float32) for shape in ((3, 4), (4, 5), (3, 5)))
    runner.run("main", args)
    tables = probe_tables(runner)
    runner.run("main", args)
    assert len(tables) == runner.stats.ops_executed // 2


def test_a_recursive_call_keeps_the_values_of_its_caller():
    """A call runs in a table of its own: the callee runs the same ops, whose
    values must not replace the caller's."""
    assert run_function(parse(SUM_TO), "main", (6,)).results == (21,)


def test_a_load_after_a_kill_in_an_earlier_trip_is_refused(run: Run):
    """The checks of an op are worked out once, on its first run: they must
    still refuse its later runs on a dead tensor."""
    text = """
    func.func @main() {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %t = memref.alloc() : memref<4xf32>
      scf.for %i = %c0 to %c2 step %c1 {
        %x = memref.load %t[%i] : memref<4xf32>
        memory.kill %t : memref<4xf32>
      }
      func.return
    }
    """
    with pytest.raises(InterpretationError, match="after it was killed by"):
        run(text)


def test_element_accesses_cost_by_scope_and_element_size():
    """An access's cycles are worked out once per scope and element size:
    loads of f32 and f64 elements from DDR and VTCM all cost their own."""
    text = """
    func.func @main(%d32: memref<4xf32>, %d64: memref<4xf64>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %v32 = memref.alloc() : memref<4xf32, "global.vtcm">
      %v64 = memref.alloc() : memref<4xf64, "global.vtcm">
      scf.for %i = %c0 to %c3 step %c1 {
        %a = memref.load %d32[%i] : memref<4xf32>
        %b = memref.load %d64[%i] : memref<4xf64>
        %c = memref.load %v32[%i] : memref<4xf32, "global.vtcm">
        %d = memref.load %v64[%i] : memref<4xf64, "global.vtcm">
      }
      func.return
    }
    """
    target = get_target()
    ddr, vtcm = target.scope(GLOBAL_SCOPE), target.scope(VTCM_SCOPE)
    overhead = target.op_overhead_cycles
    loads = sum(
        overhead + size / scope.bytes_per_cycle + scope.latency_cycles
        for scope in (ddr, vtcm)
        for size in (4, 8)
    )
    plain = 3 * overhead  # the constants
    plain += 2 * (overhead + target.allocator_call_cycles)  # the allocs
    plain += overhead + 3 * overhead + overhead  # scf.for, 3 yields, return
    args = (np.zeros(4, np.float32), np.zeros(4, np.float64))
    stats = run_function(parse(text), "main", args).stats
    assert stats.modeled_cycles == round(plain + 3 * loads)


def _specials(dtype: type[np.floating]) -> np.ndarray:
    """Signed zeros, infinities, extremes, subnormals and NaNs with payloads."""
    info = np.finfo(dtype)
    values = np.array(
        [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, info.max, -info.max],
        dtype,
    )
    values = np.concatenate(
        [values, [info.smallest_subnormal, info.tiny, info.eps, dtype(1) / 3]]
    ).astype(dtype)
    bits = np.array([np.nan, np.nan], dtype).view(f"u{values.itemsize}")
    bits |= np.array([5, 9], bits.dtype)
    bits[1] |= np.array(1, bits.dtype) << (8 * values.itemsize - 1)
    return np.concatenate([values, bits.view(dtype)])


@pytest.mark.parametrize(
    "op, ufunc",
    [
        ("addf", np.add),
        ("subf", np.subtract),
        ("mulf", np.multiply),
        ("divf", np.divide),
    ],
)
@pytest.mark.parametrize("dtype, name", [(np.float32, "f32"), (np.float64, "f64")])
def test_scalar_float_ops_give_the_bits_of_the_vector_kernels(
    op: str, ufunc: np.ufunc, dtype: type[np.floating], name: str
):
    """Scalar f32 and f64 arithmetic runs on numpy's scalar operators, not on
    the kernels that vectorized bodies use: every pair of special values
    (signed zeros, infinities, subnormals, NaNs of different payloads) must
    give the same bits as the kernel over whole arrays."""
    values = _specials(dtype)
    lhs = np.repeat(values, len(values))
    rhs = np.tile(values, len(values))
    n = len(lhs)
    text = f"""
    func.func @main(%a: memref<{n}x{name}>, %b: memref<{n}x{name}>, %c: memref<{n}x{name}>) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant {n} : index
      scf.for %i = %c0 to %n step %c1 {{
        %x = memref.load %a[%i] : memref<{n}x{name}>
        %y = memref.load %b[%i] : memref<{n}x{name}>
        %z = arith.{op} %x, %y : {name}
        memref.store %z, %c[%i] : memref<{n}x{name}>
      }}
      func.return
    }}
    """
    result = np.zeros(n, dtype)
    run_function(parse(text), "main", (lhs, rhs, result))
    with np.errstate(all="ignore"):
        expected = ufunc(lhs, rhs)
    assert result.tobytes() == expected.tobytes()


@pytest.mark.parametrize(
    "access, index",
    [
        ("%x = memref.load %t[%j] : memref<4xf32>", 4),
        ("memref.store %f, %t[%j] : memref<4xf32>", 4),
        ("%x = memref.load %t[%k] : memref<4xf32>", -1),
        ("memref.store %f, %t[%k] : memref<4xf32>", -1),
    ],
)
def test_an_access_out_of_bounds_in_a_loop_nest_is_refused_where_it_runs(
    run: Run, access: str, index: int
):
    """Accesses in bounds index numpy directly; the others must still fail
    with the checked message, located at the access, not at its loops."""
    text = f"""
    func.func @main() {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %f = arith.constant 1.0 : f32
      %t = memref.alloc() : memref<4xf32>
      scf.for %i = %c0 to %c5 step %c1 {{
        scf.for %j = %c0 to %c5 step %c1 {{
          %k = arith.subi %i, %c1 : index
          {access}
        }}
      }}
      func.return
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=rf"^memref\.(load %x|store) \(in @main\): index \[{index}\] is out of "
        r"bounds for shape \[4\]$",
    ):
        run(text)


@pytest.mark.parametrize("step", [0, -1])
def test_an_scf_for_step_that_is_not_positive_is_refused(run: Run, step: int):
    text = """
    func.func @main(%step: index) -> index {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %n = scf.for %i = %c0 to %c4 step %step iter_args(%acc = %c0) -> (index) {
        %next = arith.addi %acc, %i : index
        scf.yield %next : index
      }
      func.return %n : index
    }
    """
    with pytest.raises(
        InterpretationError,
        match=rf"scf\.for %n \(in @main\): step {step} is not positive: "
        "expected a step above 0$",
    ):
        run(text, step)

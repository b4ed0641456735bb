"""`memref.atomic_rmw` and `memref.realloc` on the memory model."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run, parse

from memplan.interpreter import InterpretationError, run_function
from memplan.targets import GLOBAL_SCOPE


def _atomic(kind: str, type_: str) -> str:
    return f"""
    func.func @main(%m: memref<1x{type_}>, %v: {type_}) -> {type_} {{
      %c0 = arith.constant 0 : index
      %old = memref.atomic_rmw {kind} %v, %m[%c0] : ({type_}, memref<1x{type_}>) -> {type_}
      func.return %old : {type_}
    }}
    """


NAN = float("nan")


@pytest.mark.parametrize(
    ("kind", "type_", "memory", "value", "stored"),
    [
        ("addf", "f32", -1.5, 2.0, 0.5),
        ("assign", "f32", -1.5, 2.0, 2.0),
        ("maximumf", "f32", NAN, 2.0, NAN),
        ("maxnumf", "f32", NAN, 2.0, 2.0),
        ("minimumf", "f32", 1.0, NAN, NAN),
        ("minnumf", "f32", 1.0, NAN, 1.0),
        ("mulf", "f32", -1.5, 2.0, -3.0),
        ("addi", "i32", -6, 3, -3),
        ("addi", "i8", 127, 1, -128),
        ("andi", "i32", -6, 3, 2),
        ("assign", "i32", -6, 3, 3),
        ("maxs", "i32", -6, 3, 3),
        ("maxu", "i32", -6, 3, -6),
        ("mins", "i32", -6, 3, -6),
        ("minu", "i32", -6, 3, 3),
        ("muli", "i32", 1 << 30, 4, 0),
        ("ori", "i32", -6, 3, -5),
        ("xori", "i32", -6, 3, -7),
    ],
)
def test_atomic_rmw_stores_the_combination_and_returns_the_old_value(
    run: Run, kind: str, type_: str, memory: float, value: float, stored: float
):
    dtype = np.dtype("float32" if type_ == "f32" else f"int{type_[1:]}")
    m = np.array([memory], dtype)
    result = run(_atomic(kind, type_), m, dtype.type(value))
    np.testing.assert_array_equal(result.results, [memory])
    np.testing.assert_array_equal(m, [stored])


def test_atomic_rmw_maxnumf_of_an_integer_is_an_error(run: Run):
    with pytest.raises(
        InterpretationError,
        match=r"memref.atomic_rmw %old \(in @main\): kind 'maxnumf' combines floats "
        r"\(arith.maxnumf\): expected a floating-point value, got i32",
    ):
        run(_atomic("maxnumf", "i32"), np.zeros(1, np.int32), np.int32(1))


def test_atomic_rmw_out_of_bounds_index_is_an_error(run: Run):
    program = """
    func.func @main(%m: memref<4xi32>, %i: index) -> i32 {
      %v = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %v, %m[%i] : (i32, memref<4xi32>) -> i32
      func.return %old : i32
    }
    """
    with pytest.raises(InterpretationError, match=r"index \[4\] is out of bounds"):
        run(program, np.zeros(4, np.int32), 4)


@pytest.mark.parametrize(("kind", "fails"), [("addi", True), ("assign", False)])
def test_atomic_rmw_reads_the_element_unless_it_assigns(kind: str, fails: bool):
    program = f"""
    func.func @main() -> memref<2xi32> {{
      %c1 = arith.constant 1 : index
      %v = arith.constant 5 : i32
      %m = memref.alloc() : memref<2xi32>
      %old = memref.atomic_rmw {kind} %v, %m[%c1] : (i32, memref<2xi32>) -> i32
      memref.store %v, %m[%c1] : memref<2xi32>
      %c0 = arith.constant 0 : index
      memref.store %v, %m[%c0] : memref<2xi32>
      func.return %m : memref<2xi32>
    }}
    """
    run = lambda: run_function(parse(program), check_uninitialized=True)  # noqa: E731
    if not fails:
        np.testing.assert_array_equal(run().results[0], [5, 5])
        return
    with pytest.raises(
        InterpretationError,
        match=r"memref.atomic_rmw %old \(in @main\): the element it loads reads "
        "bytes never written",
    ):
        run()


REALLOC = """
func.func @main(%x: memref<4xi32>) -> memref<3xi32> {
  %a = memref.alloc() : memref<4xi32>
  memref.copy %x, %a : memref<4xi32> to memref<4xi32>
  %b = memref.realloc %a : memref<4xi32> to memref<8xi32>
  %c3 = arith.constant 3 : index
  %c = memref.realloc %b(%c3) : memref<8xi32> to memref<?xi32>
  %r = memref.cast %c : memref<?xi32> to memref<3xi32>
  func.return %r : memref<3xi32>
}
"""


def test_realloc_keeps_the_leading_elements_in_a_new_allocation(run: Run):
    """Each realloc allocates its result while the source is live (both count
    in the peak, as MLIR's alloc, copy, dealloc lowering has them), copies the
    kept elements and frees the source."""
    x = np.array([1, 2, 3, 4], np.int32)
    result = run(REALLOC, x)
    np.testing.assert_array_equal(result.results[0], [1, 2, 3])
    assert result.stats.storage_allocations == {GLOBAL_SCOPE: 3}
    assert result.stats.peak_bytes == {GLOBAL_SCOPE: 16 + 32}
    assert result.stats.bytes_copied == {
        f"{GLOBAL_SCOPE}->{GLOBAL_SCOPE}": 16 + 16 + 12
    }


def test_realloc_of_an_argument_copies_it_and_leaves_it_to_the_caller(run: Run):
    program = """
    func.func @main(%x: memref<4xi32>) -> memref<2xi32> {
      %r = memref.realloc %x : memref<4xi32> to memref<2xi32>
      func.return %r : memref<2xi32>
    }
    """
    x = np.array([5, 6, 7, 8], np.int32)
    np.testing.assert_array_equal(run(program, x).results[0], [5, 6])
    np.testing.assert_array_equal(x, [5, 6, 7, 8])


@pytest.mark.parametrize(
    ("use", "what"),
    [
        ("%v = memref.load %a[%c0] : memref<4xi32>", "memref.load %v"),
        ("memref.dealloc %a : memref<4xi32>", "memref.dealloc"),
        (
            "%again = memref.realloc %a : memref<4xi32> to memref<2xi32>",
            "memref.realloc %again",
        ),
    ],
)
def test_the_source_of_a_realloc_is_freed(run: Run, use: str, what: str):
    program = f"""
    func.func @main() {{
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<4xi32>
      %b = memref.realloc %a : memref<4xi32> to memref<8xi32>
      {use}
      func.return
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=rf"{what} \(in @main\): .*allocated by memref.alloc %a .* killed by "
        r"memref.realloc %b",
    ):
        run(program)


def test_realloc_of_a_tensor_placed_in_a_storage_is_an_error(run: Run):
    program = """
    func.func @main() {
      %s = memory.alloc_storage [64] : !memory.storage<"global">
      %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xi32>
      %r = memref.realloc %t : memref<4xi32> to memref<8xi32>
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.realloc %r \(in @main\): reallocates the tensor made by "
        r"memory.alloc_tensor %t .*; expected a result of memref.alloc, "
        "memref.realloc, bufferization.clone",
    ):
        run(program)


@pytest.mark.parametrize(("index", "first_unwritten"), [(0, None), (1, 4), (5, 20)])
def test_realloc_carries_which_bytes_were_written(
    index: int, first_unwritten: int | None
):
    """A kept element is written when it was in the source; the grown tail is
    new, unwritten memory."""
    program = """
    func.func @main(%i: index) -> i32 {
      %c0 = arith.constant 0 : index
      %seven = arith.constant 7 : i32
      %a = memref.alloc() : memref<4xi32>
      memref.store %seven, %a[%c0] : memref<4xi32>
      %b = memref.realloc %a : memref<4xi32> to memref<8xi32>
      %v = memref.load %b[%i] : memref<8xi32>
      func.return %v : i32
    }
    """
    module = parse(program)
    if first_unwritten is None:
        result = run_function(module, "main", (index,), check_uninitialized=True)
        assert result.results == (7,)
        return
    with pytest.raises(
        InterpretationError,
        match=r"memref.load %v \(in @main\): the element it loads reads bytes never "
        rf"written .* the first at byte {first_unwritten} of",
    ):
        run_function(module, "main", (index,), check_uninitialized=True)

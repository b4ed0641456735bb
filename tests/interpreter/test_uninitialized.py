"""`check_uninitialized`: reads of bytes never written since allocation fail."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import EXAMPLES, parse
from xdsl.dialects import func

from memplan.context import run_context
from memplan.interpreter import InterpretationError, RunResult, run_function
from memplan.interpreter.errors import ModelError
from memplan.interpreter.runner import Runner
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.targets import GLOBAL_SCOPE

V = 'memref<4xi32, "global.vtcm">'
S = '!memory.storage<"global.vtcm">'


def checked(text: str, *args: object) -> RunResult:
    return run_function(parse(text), "main", args, check_uninitialized=True)


def program(*body: str, result: str = "%t") -> str:
    return "\n".join(
        [
            f"func.func @main(%x: memref<4xi32>) -> {V} {{",
            f"  %s = memory.alloc_storage [32] : {S}",
            f"  %t = memory.alloc_tensor %s[0] : {S} to {V}",
            "  %c1 = arith.constant 1 : i32",
            "  %i0 = arith.constant 0 : index",
            *(f"  {line}" for line in body),
            f"  func.return {result} : {V}",
            "}",
        ]
    )


X = np.arange(4, dtype=np.int32)
FILL_T = f"linalg.fill ins(%c1 : i32) outs(%t : {V})"
ADD_T = f"linalg.add ins(%t, %t : {V}, {V}) outs(%t : {V})"


def test_reading_a_fresh_tensor_fails():
    with pytest.raises(
        InterpretationError,
        match=r"linalg.add \(in @main\): operand 0 reads bytes never written since "
        r"the tensor allocated by memory.alloc_tensor %t \(in @main\) was allocated: "
        r'16 of the 16 bytes it reads, the first at byte 0 of the "global.vtcm" storage',
    ):
        checked(program(ADD_T), X)


def test_written_tensors_read_fine_and_the_check_changes_no_result():
    text = program(FILL_T, ADD_T)
    (result,) = checked(text, X).results
    (unchecked,) = run_function(parse(text), "main", (X,)).results
    np.testing.assert_array_equal(result, [2, 2, 2, 2])
    np.testing.assert_array_equal(result, unchecked)


def test_a_result_never_written_fails():
    with pytest.raises(
        InterpretationError, match=r"@main result 0: result 0 reads bytes never"
    ):
        checked(program(), X)


def test_a_tensor_placed_on_written_bytes_starts_unwritten_again():
    text = program(
        FILL_T,
        f"memory.kill %t : {V}",
        f"%u = memory.alloc_tensor %s[0] : {S} to {V}",
        f"linalg.add ins(%u, %u : {V}, {V}) outs(%u : {V})",
        result="%u",
    )
    with pytest.raises(InterpretationError, match=r"memory\.alloc_tensor %u"):
        checked(text, X)


def test_partial_writes_are_tracked_per_byte():
    text = program(
        f'%half = memref.subview %t[0] [2] [1] : {V} to memref<2xi32, strided<[1]>, "global.vtcm">',
        'linalg.fill ins(%c1 : i32) outs(%half : memref<2xi32, strided<[1]>, "global.vtcm">)',
        f"%v = memref.load %t[%i0] : {V}",
        ADD_T,
    )
    with pytest.raises(
        InterpretationError,
        match=r"linalg.add .* 8 of the 16 bytes it reads, the first at byte 8",
    ):
        checked(text, X)


def test_loads_and_stores_track_single_elements():
    read_before_store = program(f"%v = memref.load %t[%i0] : {V}")
    with pytest.raises(
        InterpretationError, match=r"memref.load %v .* the element it loads"
    ):
        checked(read_before_store, X)
    store_then_load = program(
        f"memref.store %c1, %t[%i0] : {V}",
        f"%v = memref.load %t[%i0] : {V}",
        f"memory.copy %x, %t : memref<4xi32> to {V}",
    )
    checked(store_then_load, X)


def test_affine_loads_and_stores_track_the_element_their_map_names():
    # convert-linalg-to-affine-loops writes affine.load / affine.store; the
    # check counted them as writing the whole memref, so a read of bytes
    # never written went unseen.
    read_before_store = program(
        f"%v = affine.load %t[%i0 + 1] : {V}",
        f"memory.copy %x, %t : memref<4xi32> to {V}",
    )
    with pytest.raises(
        InterpretationError, match=r"affine.load %v .* the element it loads"
    ):
        checked(read_before_store, X)
    other_element = program(
        f"affine.store %c1, %t[%i0] : {V}",
        f"%v = affine.load %t[%i0 + 1] : {V}",
    )
    with pytest.raises(InterpretationError, match=r"affine.load %v"):
        checked(other_element, X)
    same_element = program(
        f"affine.store %c1, %t[%i0 * 2 + 1] : {V}",
        f"%v = affine.load %t[%i0 + 1] : {V}",
        f"memory.copy %x, %t : memref<4xi32> to {V}",
    )
    checked(same_element, X)


def test_stores_and_loads_of_a_0d_memref_track_its_element():
    store_then_return = """
    func.func @main() -> memref<i64> {
      %c = arith.constant 5 : i64
      %a = memref.alloc() : memref<i64>
      memref.store %c, %a[] : memref<i64>
      func.return %a : memref<i64>
    }
    """
    assert checked(store_then_return).results[0] == 5
    load_fresh = """
    func.func @main() -> i64 {
      %a = memref.alloc() : memref<i64>
      %v = memref.load %a[] : memref<i64>
      func.return %v : i64
    }
    """
    with pytest.raises(InterpretationError, match=r"memref.load %v .* the element"):
        checked(load_fresh)


def test_a_store_through_a_strided_view_marks_its_own_element_only():
    view = 'memref<2xi32, strided<[2], offset: 1>, "global.vtcm">'
    prefix = (
        f"%v = memref.subview %t[1] [2] [2] : {V} to {view}",
        "%i1 = arith.constant 1 : index",
        f"memref.store %c1, %v[%i1] : {view}",
    )
    same_element = program(
        *prefix,
        "%i3 = arith.constant 3 : index",
        f"%a = memref.load %t[%i3] : {V}",
        f"memory.copy %x, %t : memref<4xi32> to {V}",
    )
    checked(same_element, X)
    next_element = program(
        *prefix,
        "%i2 = arith.constant 2 : index",
        f"%a = memref.load %t[%i2] : {V}",
        f"memory.copy %x, %t : memref<4xi32> to {V}",
    )
    with pytest.raises(
        InterpretationError, match=r"memref.load %a .* the first at byte 8"
    ):
        checked(next_element, X)


def test_a_cached_element_place_answers_for_its_own_array_only():
    """Scalar loads and stores find where their array lies in its storage's
    mask from an entry kept per array, by `id`.  A new array may get the id
    of a dead one: the dead one's entry (its element written) must not
    answer for it."""
    module = parse(
        """
        func.func @main(%v: i32, %i: index) {
          %a = memref.alloc() : memref<4xi32>
          memref.store %v, %a[%i] : memref<4xi32>
          %x = memref.load %a[%i] : memref<4xi32>
          func.return
        }
        """
    )
    function = module.body.block.first_op
    assert isinstance(function, func.FuncOp)
    alloc, store, load, _ = function.body.block.ops
    runner = Runner(module, check_uninitialized=True)
    model, reads = runner.model, runner.reads
    assert reads is not None
    i32 = np.dtype(np.int32)
    old = model.allocate_memref(alloc, GLOBAL_SCOPE, (4,), i32, 64)
    reads.prepare(store)((np.int32(1), old, 0))
    reads.prepare(load)((old, 0))
    new = model.allocate_memref(alloc, GLOBAL_SCOPE, (4,), i32, 64)
    places = reads._layouts  # pyright: ignore[reportPrivateUsage]
    places[id(new)] = places.pop(id(old))
    del old
    with pytest.raises(ModelError, match="the element it loads reads bytes never"):
        reads.prepare(load)((new, 0))


def test_a_clone_reads_its_source_and_is_written_whole():
    clone = """
    func.func @main(%x: memref<4xi32>) -> memref<4xi32> {
      %c = bufferization.clone %x : memref<4xi32> to memref<4xi32>
      func.return %c : memref<4xi32>
    }
    """
    np.testing.assert_array_equal(checked(clone, X).results[0], X)
    clone_of_fresh = """
    func.func @main() -> memref<4xi32> {
      %a = memref.alloc() : memref<4xi32>
      %c = bufferization.clone %a : memref<4xi32> to memref<4xi32>
      func.return %c : memref<4xi32>
    }
    """
    with pytest.raises(
        InterpretationError, match=r"bufferization.clone %c .* the source reads"
    ):
        checked(clone_of_fresh)


def test_a_reshape_reads_its_shape_operand_and_not_its_source():
    """A reshape is a view: its source's bytes stay unwritten (a later load
    of them through the view is a read of fresh memory), and its shape
    operand must have been written."""
    reshape = """
    func.func @main(%x: memref<4xi32>) -> i32 {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %s = memref.alloc() : memref<2xindex>
      {stores}
      %a = memref.alloc() : memref<4xi32>
      %r = memref.reshape %a(%s) : (memref<4xi32>, memref<2xindex>) -> memref<?x?xi32>
      %v = memref.load %r[%c0, %c0] : memref<?x?xi32>
      func.return %v : i32
    }
    """
    stores = """
      %c1 = arith.constant 1 : index
      memref.store %c2, %s[%c0] : memref<2xindex>
      memref.store %c2, %s[%c1] : memref<2xindex>
    """
    with pytest.raises(
        InterpretationError, match=r"memref.load %v .* the element it loads reads"
    ):
        checked(reshape.replace("{stores}", stores), X)
    with pytest.raises(
        InterpretationError, match=r"memref.reshape %r .* the shape reads"
    ):
        checked(reshape.replace("{stores}", ""), X)


def test_copies_read_their_source_and_write_their_target():
    copy_in = program(f"memory.copy %x, %t : memref<4xi32> to {V}", ADD_T)
    np.testing.assert_array_equal(checked(copy_in, X).results[0], 2 * X)
    copy_out = program(f"memory.copy %t, %x : {V} to memref<4xi32>", FILL_T)
    with pytest.raises(InterpretationError, match=r"memory.copy .* the source reads"):
        checked(copy_out, X)


def test_an_output_that_its_op_accumulates_into_is_a_read():
    matmul = """
    func.func @main(%a: memref<2x2xf32>) -> memref<2x2xf32> {
      %c = memref.alloc() : memref<2x2xf32>
      linalg.matmul ins(%a, %a : memref<2x2xf32>, memref<2x2xf32>) outs(%c : memref<2x2xf32>)
      func.return %c : memref<2x2xf32>
    }
    """
    with pytest.raises(InterpretationError, match=r"linalg.matmul .* operand 2 reads"):
        checked(matmul, np.eye(2, dtype=np.float32))


def test_the_seed_examples_never_read_unwritten_bytes_planned_or_not():
    for name in (
        "seed_naive.mlir",
        "seed_vtcm_offsets.mlir",
        "seed_discontiguous.mlir",
    ):
        text = (EXAMPLES / name).read_text()
        checked(text)
        module = parse(text)
        MemoryManifestPass().apply(run_context(), module)
        MemoryPlanPass().apply(run_context(), module)
        run_function(module, check_uninitialized=True)

"""memref views and control flow: views alias their source, loops run."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run, parse
from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from memplan.interpreter import InterpretationError, run_function
from memplan.targets import GLOBAL_SCOPE, get_target


def test_static_subview_writes_into_its_source(run: Run):
    program = """
    func.func @main(%m: memref<4x6xi32>) {
      %c5 = arith.constant 5 : i32
      %s = memref.subview %m[1, 1] [2, 3] [1, 2] : memref<4x6xi32> to memref<2x3xi32, strided<[6, 2], offset: 7>>
      linalg.fill ins(%c5 : i32) outs(%s : memref<2x3xi32, strided<[6, 2], offset: 7>>)
      func.return
    }
    """
    m = np.zeros((4, 6), np.int32)
    run(program, m)
    expected = np.zeros((4, 6), np.int32)
    expected[1:3, 1:6:2] = 5
    np.testing.assert_array_equal(m, expected)


def test_dynamic_rank_reducing_subview(run: Run):
    program = """
    func.func @main(%m: memref<4x6xf32>, %row: index) -> f32 {
      %c1 = arith.constant 1 : index
      %s = memref.subview %m[%row, 0] [1, 6] [1, 1] : memref<4x6xf32> to memref<6xf32, strided<[1], offset: ?>>
      %v = memref.load %s[%c1] : memref<6xf32, strided<[1], offset: ?>>
      func.return %v : f32
    }
    """
    m = np.arange(24, dtype=np.float32).reshape(4, 6)
    assert run(program, m, 2).results == (13.0,)


def test_rank_reducing_subview_drops_the_unit_dims_its_strides_name(run: Run):
    """Of the unit dims of sizes [3, 1, 2, 1] (strides [2, 2, 1, 1]), the
    result strides [2, 2, 1] keep dim 1 (both its stride's 2s are still
    there) and drop dim 3, as MLIR's `computeMemRefRankReductionMask`
    decides; dropping the first unit dim gave a 3x2x1 view, which the copy
    into 3x1x2 refused."""
    program = """
    func.func @main(%m: memref<3x1x2x1xi32>, %out: memref<3x1x2xi32>) {
      %s = memref.subview %m[0, 0, 0, 0] [3, 1, 2, 1] [1, 1, 1, 1] : memref<3x1x2x1xi32> to memref<3x1x2xi32, strided<[2, 2, 1]>>
      linalg.copy ins(%s : memref<3x1x2xi32, strided<[2, 2, 1]>>) outs(%out : memref<3x1x2xi32>)
      func.return
    }
    """
    m = np.arange(6, dtype=np.int32).reshape(3, 1, 2, 1)
    out = np.zeros((3, 1, 2), np.int32)
    run(program, m, out)
    np.testing.assert_array_equal(out, m[..., 0])


def test_view_collapse_and_expand_share_bytes(run: Run):
    program = """
    func.func @main() -> memref<2x2xi32> {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c9 = arith.constant 9 : i32
      %bytes = memref.alloc() : memref<64xi8>
      %v = memref.view %bytes[%c0][] : memref<64xi8> to memref<4x4xi32>
      %flat = memref.collapse_shape %v [[0, 1]] : memref<4x4xi32> into memref<16xi32>
      memref.store %c9, %flat[%c3] : memref<16xi32>
      %back = memref.expand_shape %flat [[0, 1]] output_shape [8, 2] : memref<16xi32> into memref<8x2xi32>
      %out = memref.alloc() : memref<2x2xi32>
      %top = memref.subview %back[0, 0] [2, 2] [1, 1] : memref<8x2xi32> to memref<2x2xi32, strided<[2, 1]>>
      "memref.copy"(%top, %out) : (memref<2x2xi32, strided<[2, 1]>>, memref<2x2xi32>) -> ()
      func.return %out : memref<2x2xi32>
    }
    """
    result = run(program)
    np.testing.assert_array_equal(result.results[0], [[0, 0], [0, 9]])
    assert result.stats.peak_bytes == {GLOBAL_SCOPE: 64 + 16}


def test_collapse_shape_with_several_dynamic_result_sizes(run: Run):
    """Each result size is the product of its group of source sizes (a
    dynamic-shape torch export collapses into two `?` sizes at once)."""
    program = """
    func.func @main(%x: memref<3x?x?x1x4xf32>) -> memref<3x?x?x4xf32> {
      %c = memref.collapse_shape %x [[0], [1], [2, 3], [4]] : memref<3x?x?x1x4xf32> into memref<3x?x?x4xf32>
      func.return %c : memref<3x?x?x4xf32>
    }
    """
    x = np.arange(3 * 2 * 5 * 4, dtype=np.float32).reshape(3, 2, 5, 1, 4)
    np.testing.assert_array_equal(run(program, x).results[0], x.reshape(3, 2, 5, 4))


def test_global_is_read_and_persists(run: Run):
    program = """
    "memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<3xi32>, initial_value = dense<[1, 2, 3]> : tensor<3xi32>}> : () -> ()
    func.func @bump() {
      %g = memref.get_global @table : memref<3xi32>
      linalg.add ins(%g, %g : memref<3xi32>, memref<3xi32>) outs(%g : memref<3xi32>)
      func.return
    }
    func.func @main() -> memref<3xi32> {
      func.call @bump() : () -> ()
      func.call @bump() : () -> ()
      %g = memref.get_global @table : memref<3xi32>
      func.return %g : memref<3xi32>
    }
    """
    np.testing.assert_array_equal(run(program).results[0], [4, 8, 12])


def test_clone_is_a_new_buffer_that_dealloc_frees(run: Run):
    """bufferization.clone (MLIR's deallocation pipeline clones each argument a
    function returns) copies its operand into an allocation of its own."""
    program = """
    func.func @main(%x: memref<4xi32>) -> (memref<4xi32>, memref<4xi32>) {
      %scratch = bufferization.clone %x : memref<4xi32> to memref<4xi32>
      linalg.add ins(%scratch, %scratch : memref<4xi32>, memref<4xi32>) outs(%scratch : memref<4xi32>)
      %doubled = bufferization.clone %scratch : memref<4xi32> to memref<4xi32>
      memref.dealloc %scratch : memref<4xi32>
      %same = "bufferization.clone"(%x) : (memref<4xi32>) -> memref<4xi32>
      func.return %same, %doubled : memref<4xi32>, memref<4xi32>
    }
    """
    x = np.array([1, -2, 3, 4], np.int32)
    result = run(program, x)
    np.testing.assert_array_equal(result.results[0], [1, -2, 3, 4])
    np.testing.assert_array_equal(result.results[1], [2, -4, 6, 8])
    np.testing.assert_array_equal(x, [1, -2, 3, 4])
    assert result.stats.storage_allocations == {GLOBAL_SCOPE: 3}
    assert result.stats.peak_bytes == {GLOBAL_SCOPE: 32}


def test_clone_into_another_type_allocates_the_result_type(run: Run):
    """MLIR's deallocation pipeline clones a view into an identity-layout
    buffer (`x[0]` of a model); a static size of the result asserts the
    operand's."""
    program = """
    func.func @main(%x: memref<2x6xf32>, %y: memref<?xf32>) -> (memref<6xf32>, memref<?xf32>) {
      %v = memref.subview %x[0, 0] [1, 6] [1, 1] : memref<2x6xf32> to memref<6xf32, strided<[1]>>
      %c = bufferization.clone %v : memref<6xf32, strided<[1]>> to memref<6xf32>
      %s = memref.cast %y : memref<?xf32> to memref<3xf32>
      %d = bufferization.clone %s : memref<3xf32> to memref<?xf32>
      linalg.add ins(%c, %c : memref<6xf32>, memref<6xf32>) outs(%c : memref<6xf32>)
      func.return %c, %d : memref<6xf32>, memref<?xf32>
    }
    """
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    y = np.array([1, 2, 3], np.float32)
    result = run(program, x, y)
    np.testing.assert_array_equal(result.results[0], 2 * x[0])
    np.testing.assert_array_equal(result.results[1], y)
    np.testing.assert_array_equal(x[0], np.arange(6))
    assert result.stats.storage_allocations == {GLOBAL_SCOPE: 2}
    assert result.stats.bytes_copied == {"global->global": 24 + 12}
    mismatch = """
    func.func @main(%y: memref<?xf32>) -> memref<3xf32> {
      %d = bufferization.clone %y : memref<?xf32> to memref<3xf32>
      func.return %d : memref<3xf32>
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"bufferization.clone %d \(in @main\): cannot clone shape \[4\] to memref<3xf32>",
    ):
        run(mismatch, np.zeros(4, np.float32))


def test_clone_the_copy_cannot_express_is_a_model_error(run: Run):
    """MLIR's verifier takes a clone between any two memrefs; one whose copy
    would change the element type has no meaning."""
    program = """
    func.func @main(%x: memref<4xf32>) -> memref<4xi32> {
      %c = bufferization.clone %x : memref<4xf32> to memref<4xi32>
      func.return %c : memref<4xi32>
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"cannot clone of memref<4xf32> to memref<4xi32>: expected the same "
        "element type",
    ):
        run(program, np.zeros(4, np.float32))


def test_cast_may_change_the_stride_of_a_unit_dimension(run: Run):
    """MLIR compares no stride of a dimension of size 1 (the row a ViT or
    BERT pooler picks): the cast is the same memory, written through."""
    program = """
    func.func @main(%x: memref<2x5x8xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %seven = arith.constant 7.0 : f32
      %row = memref.subview %x[1, 2, 0] [1, 1, 8] [1, 1, 1] : memref<2x5x8xf32> to memref<1x8xf32, strided<[40, 1], offset: 56>>
      %c = memref.cast %row : memref<1x8xf32, strided<[40, 1], offset: 56>> to memref<1x8xf32, strided<[8, 1], offset: 56>>
      memref.store %seven, %c[%c0, %c3] : memref<1x8xf32, strided<[8, 1], offset: 56>>
      %v = memref.load %c[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: 56>>
      func.return %v : f32
    }
    """
    x = np.arange(80, dtype=np.float32).reshape(2, 5, 8)
    assert run(program, x).results == (56.0,)
    assert x[1, 2, 3] == 7.0


def test_reshape_views_its_source_with_the_sizes_its_shape_operand_holds(run: Run):
    program = """
    func.func @main(%x: memref<?x4xf32>, %shape: memref<3xi64>) -> memref<?x2x?xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %nine = arith.constant 9.0 : f32
      %r = memref.reshape %x(%shape) : (memref<?x4xf32>, memref<3xi64>) -> memref<?x2x?xf32>
      memref.store %nine, %r[%c1, %c0, %c1] : memref<?x2x?xf32>
      func.return %r : memref<?x2x?xf32>
    }
    """
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    result = run(program, x, np.array([3, 2, 2], np.int64))
    expected = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    expected[1, 0, 1] = 9.0
    np.testing.assert_array_equal(result.results[0], expected)
    assert x[1, 1] == 9.0
    assert result.stats.storage_allocations == {}


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        (
            [4, 2, 2],
            r"cannot reshape \[3, 4\] \(12 elements\) to \[4, 2, 2\] \(16 elements\)",
        ),
        (
            [-3, 2, -2],
            r"the shape operand holds \[-3, 2, -2\]: expected non-negative sizes",
        ),
        (
            [3, 4, 1],
            r"the shape operand holds \[3, 4, 1\]: expected non-negative sizes that fit memref<\?x2x\?xf32>",
        ),
    ],
    ids=["element-count", "negative", "static-size"],
)
def test_reshape_to_sizes_the_source_cannot_have_is_a_model_error(
    run: Run, shape: list[int], message: str
):
    program = """
    func.func @main(%x: memref<?x4xf32>, %shape: memref<3xi64>) -> memref<?x2x?xf32> {
      %r = memref.reshape %x(%shape) : (memref<?x4xf32>, memref<3xi64>) -> memref<?x2x?xf32>
      func.return %r : memref<?x2x?xf32>
    }
    """
    with pytest.raises(
        InterpretationError, match=rf"memref.reshape %r \(in @main\): {message}"
    ):
        run(program, np.zeros((3, 4), np.float32), np.array(shape, np.int64))


def test_an_unranked_memref_is_a_model_error_naming_its_type(run: Run):
    program = """
    func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
      %u = "memref.cast"(%x) : (memref<4xf32>) -> memref<*xf32>
      %c = "bufferization.clone"(%u) : (memref<*xf32>) -> memref<*xf32>
      %r = "memref.cast"(%c) : (memref<*xf32>) -> memref<4xf32>
      func.return %r : memref<4xf32>
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.cast %u \(in @main\): memref<\*xf32> is not supported: "
        "the interpreter runs ranked memrefs only",
    ):
        run(program, np.zeros(4, np.float32))


def test_alloca_is_freed_when_its_function_returns(run: Run):
    program = """
    func.func @scratch() {
      %a = memref.alloca() : memref<256xi32, "global.vtcm">
      func.return
    }
    func.func @main() {
      func.call @scratch() : () -> ()
      func.call @scratch() : () -> ()
      func.return
    }
    """
    stats = run(program).stats
    assert stats.peak_bytes == {"global.vtcm": 1024}
    assert stats.storage_allocations == {"global.vtcm": 2}


def test_alloca_whose_tensor_was_killed_is_still_freed_on_return(run: Run):
    """A memory.kill ends the alloca's tensor, not its bytes: the return
    frees them all the same (it used to leave them in the window, so the
    second call found no room in 1536 bytes)."""
    program = """
    func.func @scratch() {
      %a = memref.alloca() : memref<256xi32, "global.vtcm">
      memory.kill %a : memref<256xi32, "global.vtcm">
      func.return
    }
    func.func @main() {
      func.call @scratch() : () -> ()
      func.call @scratch() : () -> ()
      func.return
    }
    """
    stats = run(program, target=get_target().with_vtcm_size(1536)).stats
    assert stats.peak_bytes == {"global.vtcm": 1024}


def test_scf_for_with_loads_stores_and_iter_args(run: Run):
    program = """
    func.func @main(%m: memref<10xi64>) -> i64 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %zero = arith.constant 0 : i64
      %sum = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i64) {
        %x = arith.index_cast %i : index to i64
        %sq = arith.muli %x, %x : i64
        memref.store %sq, %m[%i] : memref<10xi64>
        %next = arith.addi %acc, %sq : i64
        scf.yield %next : i64
      }
      func.return %sum : i64
    }
    """
    m = np.zeros(10, np.int64)
    assert run(program, m).results == (285,)
    np.testing.assert_array_equal(m, np.arange(10) ** 2)


def test_scf_while_counts_down(run: Run):
    program = """
    func.func @main(%n: i32) -> i32 {
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %r:2 = scf.while (%i = %n, %steps = %zero) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi sgt, %i, %zero : i32
        scf.condition(%more) %i, %steps : i32, i32
      } do {
      ^bb0(%j: i32, %s: i32):
        %k = arith.subi %j, %one : i32
        %t = arith.addi %s, %one : i32
        scf.yield %k, %t : i32, i32
      }
      func.return %r#1 : i32
    }
    """
    assert run(program, 7).results == (7,)


def test_scalar_arith_semantics(run: Run):
    program = """
    func.func @main(%a: i32, %b: i32) -> (i32, i32, i1, f32, i32, i32, i1) {
      %q = arith.divsi %a, %b : i32
      %r = arith.remsi %a, %b : i32
      %lt = arith.cmpi ult, %a, %b : i32
      %f = arith.sitofp %a : i32 to f32
      %big = arith.constant 2147483647 : i32
      %wrap = arith.addi %big, %b : i32
      %slt = arith.cmpi slt, %a, %b : i32
      %minus_one = arith.extsi %slt : i1 to i32
      %nan = arith.constant 0x7FC00000 : f32
      %uno = arith.cmpf uno, %f, %nan : f32
      func.return %q, %r, %lt, %f, %wrap, %minus_one, %uno : i32, i32, i1, f32, i32, i32, i1
    }
    """
    assert run(program, -7, 2).results == (-3, -1, False, -7.0, -2147483647, -1, True)


def test_reinterpret_cast_counts_offsets_from_the_allocation(run: Run):
    program = """
    func.func @main(%m: memref<4x4xi32>) -> memref<2x2xi32, strided<[1, 4], offset: 5>> {
      %inner = memref.subview %m[1, 0] [3, 4] [1, 1] : memref<4x4xi32> to memref<3x4xi32, strided<[4, 1], offset: 4>>
      %t = memref.reinterpret_cast %inner to offset: [5], sizes: [2, 2], strides: [1, 4] : memref<3x4xi32, strided<[4, 1], offset: 4>> to memref<2x2xi32, strided<[1, 4], offset: 5>>
      func.return %t : memref<2x2xi32, strided<[1, 4], offset: 5>>
    }
    """
    m = np.arange(16, dtype=np.int32).reshape(4, 4)
    np.testing.assert_array_equal(run(program, m).results[0], [[5, 9], [6, 10]])


def test_reinterpret_cast_past_the_allocation_is_an_error(run: Run):
    program = """
    func.func @main() {
      %m = memref.alloc() : memref<8xi32>
      %t = memref.reinterpret_cast %m to offset: [4], sizes: [5], strides: [1] : memref<8xi32> to memref<5xi32, strided<[1], offset: 4>>
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.reinterpret_cast %t \(in @main\): offset 4, sizes \[5\], strides \[1\] reach element 8 of an allocation of 8 elements",
    ):
        run(program)


def test_calls_find_their_callee_without_scanning_the_module_each_time(
    monkeypatch: pytest.MonkeyPatch,
):
    functions = "\n".join(
        f"""
        func.func @add{i}(%x: i32) -> i32 {{
          %c = arith.constant {i} : i32
          %y = arith.addi %x, %c : i32
          func.return %y : i32
        }}"""
        for i in range(20)
    )
    calls = "\n".join(
        f"  %v{i + 1} = func.call @add{i % 20}(%v{i}) : (i32) -> i32" for i in range(60)
    )
    module = parse(f"""
    {functions}
    func.func @main(%v0: i32) -> i32 {{
    {calls}
      func.return %v60 : i32
    }}
    """)
    scans: list[object] = []
    lookup = SymbolTable.lookup_symbol

    def counted(op: Operation, name: str | StringAttr | SymbolRefAttr):
        scans.append(name)
        return lookup(op, name)

    monkeypatch.setattr(SymbolTable, "lookup_symbol", staticmethod(counted))
    assert run_function(module, "main", (1,)).results == (1 + 3 * sum(range(20)),)
    assert len(scans) <= 1

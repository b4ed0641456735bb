"""Plans that break a memory rule fail with an error naming the op and numbers."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError
from memplan.targets import get_target

VTCM = '!memory.storage<"global.vtcm">'


def test_vtcm_capacity_is_enforced_per_target(run: Run):
    program = f"""
    func.func @main() {{
      %s = memory.alloc_storage [262144] : {VTCM}
      %t = memory.alloc_storage [1] : {VTCM}
      func.return
    }}
    """
    run(program, target=get_target("hexagon-v68"))
    with pytest.raises(
        InterpretationError,
        match=r'memory.alloc_storage %t \(in @main\): cannot allocate 1 bytes in "global.vtcm": no free range of its 262144-byte window .* \(0 bytes free in total',
    ):
        run(program, target=get_target("hexagon-v65"))


def test_vtcm_memref_alloc_counts_against_capacity(run: Run):
    program = """
    func.func @main() {
      %a = memref.alloc() : memref<1024xi32, "global.vtcm">
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.alloc %a \(in @main\): cannot allocate 4096 bytes",
    ):
        run(program, target=get_target().with_vtcm_size(4095))


def test_dynamic_offset_past_storage_end_is_reported(run: Run):
    program = f"""
    func.func @main(%off: index) {{
      %s = memory.alloc_storage [64] : {VTCM}
      %t = memory.alloc_tensor %s[%off] : {VTCM} to memref<8xi32, "global.vtcm">
      func.return
    }}
    """
    run(program, 32)
    with pytest.raises(
        InterpretationError,
        match="tensor of 32 bytes at offset 36 does not fit in its 64-byte",
    ):
        run(program, 36)


def test_dynamic_misaligned_offset_is_reported(run: Run):
    program = f"""
    func.func @main(%off: index) {{
      %s = memory.alloc_storage [64] : {VTCM}
      %t = memory.alloc_tensor %s[%off] : {VTCM} to memref<2xi64, "global.vtcm">
      func.return
    }}
    """
    with pytest.raises(
        InterpretationError, match=r"tensor offset 4 is misaligned.*element size 8"
    ):
        run(program, 4)


def test_tensor_over_live_tensor_fails_only_when_the_old_one_is_used(run: Run):
    program = f"""
    func.func @main(%use_old: i1) -> i32 {{
      %c0 = arith.constant 0 : index
      %s = memory.alloc_storage [64] : {VTCM}
      %old = memory.alloc_tensor %s[0] : {VTCM} to memref<4xi32, "global.vtcm">
      %new = memory.alloc_tensor %s[8] : {VTCM} to memref<4xi32, "global.vtcm">
      %r = scf.if %use_old -> (i32) {{
        %v = memref.load %old[%c0] : memref<4xi32, "global.vtcm">
        scf.yield %v : i32
      }} else {{
        %v = memref.load %new[%c0] : memref<4xi32, "global.vtcm">
        scf.yield %v : i32
      }}
      func.return %r : i32
    }}
    """
    assert run(program, False).results == (0,)
    with pytest.raises(
        InterpretationError,
        match=r"memref.load %v \(in @main\): uses the tensor allocated by memory.alloc_tensor %old .* memory.alloc_tensor %new .* bytes \[8, 16\)",
    ):
        run(program, True)


def test_zero_byte_tensors_share_offsets_with_any_tensor(run: Run):
    """A tensor of zero bytes owns none: it neither clobbers a live tensor at
    its offset nor clashes with another empty one there, and both die cleanly."""
    program = f"""
    func.func @main() -> i32 {{
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : i32
      %s = memory.alloc_storage [16] : {VTCM}
      %live = memory.alloc_tensor %s[0] : {VTCM} to memref<4xi32, "global.vtcm">
      memref.store %c7, %live[%c0] : memref<4xi32, "global.vtcm">
      %e1 = memory.alloc_tensor %s[0] : {VTCM} to memref<0xi32, "global.vtcm">
      %e2 = memory.alloc_tensor %s[0] : {VTCM} to memref<0xi32, "global.vtcm">
      %v = memref.load %live[%c0] : memref<4xi32, "global.vtcm">
      memory.kill %e1 : memref<0xi32, "global.vtcm">
      memory.kill %e2 : memref<0xi32, "global.vtcm">
      memory.kill %live : memref<4xi32, "global.vtcm">
      memory.kill %s : {VTCM}
      func.return %v : i32
    }}
    """
    assert run(program).results == (7,)


def test_zero_byte_tensor_dies_with_its_storage(run: Run):
    program = f"""
    func.func @main() {{
      %s = memory.alloc_storage [16] : {VTCM}
      %e = memory.alloc_tensor %s[4] : {VTCM} to memref<0xi32, "global.vtcm">
      memory.kill %s : {VTCM}
      memory.kill %e : memref<0xi32, "global.vtcm">
      func.return
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=r"memory.kill \(in @main\): kills the tensor allocated by memory.alloc_tensor %e .* again: it was killed by memory.kill .*, which killed its storage",
    ):
        run(program)


def test_use_after_dealloc_is_reported(run: Run):
    program = """
    func.func @free(%m: memref<4xf32>) {
      memref.dealloc %m : memref<4xf32>
      func.return
    }
    func.func @main() -> f32 {
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<4xf32>
      func.call @free(%m) : (memref<4xf32>) -> ()
      %v = memref.load %m[%c0] : memref<4xf32>
      func.return %v : f32
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.load %v \(in @main\): uses the tensor allocated by memref.alloc %m .* after it was killed by memref.dealloc",
    ):
        run(program)


def test_dealloc_of_a_placed_tensor_frees_its_whole_storage(run: Run):
    """As the dealloc of the `memref.view` a tensor lowers to frees the view's
    base buffer: the storage, with the other tensors in it."""
    program = """
    func.func @main() -> i32 {
      %c0 = arith.constant 0 : index
      %s = memory.alloc_storage [32] : !memory.storage<"global">
      %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xi32>
      %b = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<4xi32>
      memref.dealloc %a : memref<4xi32>
      %v = memref.load %b[%c0] : memref<4xi32>
      func.return %v : i32
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.load %v \(in @main\): uses the tensor allocated by memory.alloc_tensor %b .* after it was killed by memref.dealloc",
    ):
        run(program)


def test_dealloc_of_stack_memory_is_an_error(run: Run):
    program = """
    func.func @main() {
      %m = memref.alloca() : memref<4xf32>
      memref.dealloc %m : memref<4xf32>
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.dealloc \(in @main\): deallocates the tensor made by memref.alloca %m .*; expected a result of memref.alloc, memref.realloc, bufferization.clone, memory.alloc_tensor",
    ):
        run(program)


def test_out_of_bounds_load_is_reported(run: Run):
    program = """
    func.func @main(%m: memref<4xf32>, %i: index) -> f32 {
      %v = memref.load %m[%i] : memref<4xf32>
      func.return %v : f32
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.load %v \(in @main\): index \[-1\] is out of bounds for shape \[4\]",
    ):
        run(program, np.zeros(4, np.float32), -1)


def test_wrong_argument_dtype_is_reported(run: Run):
    program = """
    func.func @main(%m: memref<4xf32>) {
      func.return
    }
    """
    with pytest.raises(
        InterpretationError, match="argument 0 is a float64 array of shape"
    ):
        run(program, np.zeros(4))


COLLAPSE = """
func.func @main(%m: memref<2x3xf32>) -> memref<6xf32> {
  %flat = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  %out = memref.alloc() : memref<6xf32>
  memref.copy %flat, %out : memref<6xf32> to memref<6xf32>
  func.return %out : memref<6xf32>
}
"""


def test_a_column_major_array_for_an_identity_layout_memref_is_refused(run: Run):
    """A memref with the identity layout is row-major: a Fortran-order array
    would make views of it (collapse_shape) impossible or wrong."""
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    with pytest.raises(InterpretationError) as error:
        run(COLLAPSE, np.asfortranarray(values))
    assert str(error.value) == (
        "@main: argument 0 is an array with strides [4, 8], expected a row-major "
        "(C-contiguous) array for memref<2x3xf32>, whose layout is the identity: "
        "pass np.ascontiguousarray(value)"
    )
    np.testing.assert_array_equal(run(COLLAPSE, values).results[0], values.ravel())


def test_unsigned_array_fills_a_signless_integer_memref_with_its_bits(run: Run):
    """torch-mlir passes a uint8 image as memref<...xi8> and reads it with
    arith.uitofp: 200 must stay 200.0, not become -56.0."""
    program = """
    func.func @main(%m: memref<2xi8>) -> memref<2xf32> {
      %out = memref.alloc() : memref<2xf32>
      linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                      iterator_types = ["parallel"]}
          ins(%m : memref<2xi8>) outs(%out : memref<2xf32>) {
      ^bb0(%a: i8, %b: f32):
        %f = arith.uitofp %a : i8 to f32
        linalg.yield %f : f32
      }
      func.return %out : memref<2xf32>
    }
    """
    (result,) = run(program, np.array([200, 7], np.uint8)).results
    np.testing.assert_array_equal(result, [200.0, 7.0])


def test_unsigned_array_of_another_width_is_reported(run: Run):
    program = """
    func.func @main(%m: memref<4xi8>) {
      func.return
    }
    """
    with pytest.raises(InterpretationError, match="argument 0 is a uint16 array"):
        run(program, np.zeros(4, np.uint16))


def test_returning_a_killed_tensor_is_reported(run: Run):
    program = f"""
    func.func @release(%s: {VTCM}) {{
      memory.kill %s : {VTCM}
      func.return
    }}
    func.func @main() -> memref<4xi32, "global.vtcm"> {{
      %s = memory.alloc_storage [64] : {VTCM}
      %t = memory.alloc_tensor %s[0] : {VTCM} to memref<4xi32, "global.vtcm">
      func.call @release(%s) : ({VTCM}) -> ()
      func.return %t : memref<4xi32, "global.vtcm">
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=r"@main result 0: uses the tensor allocated by memory.alloc_tensor %t .* after it was killed",
    ):
        run(program)


def test_tensors_reallocated_in_a_loop_after_kills_run_cleanly(run: Run):
    program = f"""
    func.func @main(%out: memref<4xi32>) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %s = memory.alloc_storage [2048] : {VTCM}
      scf.for %i = %c0 to %c3 step %c1 {{
        %t = memory.alloc_tensor %s[0] : {VTCM} to memref<4xi32, "global.vtcm">
        memory.copy %out, %t : memref<4xi32> to memref<4xi32, "global.vtcm">
        linalg.add ins(%t, %t : memref<4xi32, "global.vtcm">, memref<4xi32, "global.vtcm">) outs(%t : memref<4xi32, "global.vtcm">)
        memory.copy %t, %out : memref<4xi32, "global.vtcm"> to memref<4xi32>
        memory.kill %t : memref<4xi32, "global.vtcm">
      }}
      memory.kill %s : {VTCM}
      func.return
    }}
    """
    out = np.array([1, 2, 3, 4], np.int32)
    stats = run(program, out).stats
    np.testing.assert_array_equal(out, [8, 16, 24, 32])
    assert stats.bytes_copied == {"global->global.vtcm": 48, "global.vtcm->global": 48}
    assert stats.peak_bytes == {"global.vtcm": 2048}


def test_a_fresh_storage_reads_zeros_even_where_a_killed_one_was(run: Run):
    tensor = "memref<16384xi32>"
    program = f"""
    func.func @main() -> {tensor} {{
      %seven = arith.constant 7 : i32
      %a = memref.alloc() : {tensor}
      linalg.fill ins(%seven : i32) outs(%a : {tensor})
      memref.dealloc %a : {tensor}
      %b = memref.alloc() : {tensor}
      func.return %b : {tensor}
    }}
    """
    (result,) = run(program).results
    assert isinstance(result, np.ndarray)
    assert not result.any()


def test_a_storage_larger_than_host_memory_is_refused_in_words(run: Run):
    program = """
    func.func @main() {
      %s = memory.alloc_storage [4611686018427387904] : !memory.storage<"global">
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memory\.alloc_storage %s \(in @main\): cannot allocate "
        r'4611686018427387904 bytes in "global": the interpreter keeps every '
        "storage in host memory",
    ):
        run(program)


def test_a_memref_over_64_bits_of_bytes_is_refused_not_wrapped(run: Run):
    program = """
    func.func @main(%n: index) {
      %a = memref.alloc(%n) : memref<?x4xi32>
      func.return
    }
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref\.alloc %a \(in @main\): a memref of shape "
        r"\[4611686018427387904, 4\] needs 73786976294838206464 bytes, more than "
        r"a storage size holds \(at most 9223372036854775807\)",
    ):
        run(program, 2**62)

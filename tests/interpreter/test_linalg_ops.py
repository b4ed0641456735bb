"""Each linalg op gives what numpy gives, on DDR, VTCM and discontiguous memrefs."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import vector_body

RNG = np.random.default_rng(0)

ELEMENTWISE = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
}


def _binary_program(op: str, type_: str) -> str:
    return f"""
    func.func @main(%a: {type_}, %b: {type_}, %c: {type_}) {{
      linalg.{op} ins(%a, %b : {type_}, {type_}) outs(%c : {type_})
      func.return
    }}
    """


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_op_matches_numpy_on_f32(run: Run, name: str):
    a, b = RNG.standard_normal((2, 8, 16), dtype=np.float32)
    c = np.zeros_like(a)
    run(_binary_program(name, "memref<8x16xf32>"), a, b, c)
    np.testing.assert_array_equal(c, ELEMENTWISE[name](a, b))


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_op_wraps_like_i32(run: Run, name: str):
    a = np.array([2**31 - 1, -(2**31), 7, -3], dtype=np.int32)
    b = np.array([1, -1, 2**30, 5], dtype=np.int32)
    c = np.zeros_like(a)
    run(_binary_program(name, "memref<4xi32>"), a, b, c)
    np.testing.assert_array_equal(c, ELEMENTWISE[name](a, b))


def test_add_on_discontiguous_vtcm_tensors_matches_numpy(run: Run):
    disc = 'memref<4x8xf32, #memory.discontiguous, "global.vtcm">'
    program = f"""
    func.func @main(%x: memref<4x8xf32>, %y: memref<4x8xf32>) -> memref<4x8xf32> {{
      %data = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
      %tables = memory.alloc_storage [64] : !memory.storage<"global">
      %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[96, 0, 224, 32] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {disc}
      %b = memory.alloc_discontiguous_tensor table %tables[16], blocks %data[64, 192, 128, 160] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {disc}
      memory.copy %x, %a : memref<4x8xf32> to {disc}
      memory.copy %y, %b : memref<4x8xf32> to {disc}
      linalg.add ins(%a, %b : {disc}, {disc}) outs(%b : {disc})
      %out = memref.alloc() : memref<4x8xf32>
      memory.copy %b, %out : {disc} to memref<4x8xf32>
      func.return %out : memref<4x8xf32>
    }}
    """
    x, y = RNG.standard_normal((2, 4, 8), dtype=np.float32)
    np.testing.assert_array_equal(run(program, x, y).results[0], x + y)


def test_fill_sets_every_element(run: Run):
    program = """
    func.func @main(%c: memref<3x5xi32, "global.vtcm">) {
      %v = arith.constant -4 : i32
      linalg.fill ins(%v : i32) outs(%c : memref<3x5xi32, "global.vtcm">)
      func.return
    }
    """
    c = np.zeros((3, 5), np.int32)
    run(program, c)
    np.testing.assert_array_equal(c, np.full((3, 5), -4))


def test_copy_copies_and_counts_bytes(run: Run):
    program = """
    func.func @main(%a: memref<16xf32>, %c: memref<16xf32>) {
      linalg.copy ins(%a : memref<16xf32>) outs(%c : memref<16xf32>)
      func.return
    }
    """
    a, c = RNG.standard_normal(16, dtype=np.float32), np.zeros(16, np.float32)
    stats = run(program, a, c).stats
    np.testing.assert_array_equal(c, a)
    assert stats.bytes_copied == {"global->global": 64}


def test_copy_between_element_types_casts_as_its_body(run: Run):
    # MLIR's body: extsi (an i1 true is -1), sitofp, trunci (the low bit).
    program = """
    func.func @main(%b: memref<2xi1>, %w: memref<2xi32>, %f: memref<2xf32>, %t: memref<2xi1>) {
      linalg.copy ins(%b : memref<2xi1>) outs(%w : memref<2xi32>)
      linalg.copy ins(%b : memref<2xi1>) outs(%f : memref<2xf32>)
      linalg.copy ins(%w : memref<2xi32>) outs(%t : memref<2xi1>)
      func.return
    }
    """
    b = np.array([True, False])
    w, f, t = np.zeros(2, np.int32), np.zeros(2, np.float32), np.ones(2, bool)
    stats = run(program, b, w, f, t).stats
    np.testing.assert_array_equal(w, [-1, 0])
    np.testing.assert_array_equal(f, [-1.0, 0.0])
    np.testing.assert_array_equal(t, [True, False])
    assert stats.bytes_copied == {"global->global": 2 + 2 + 8}


def test_bool_sums_are_ors_and_products_ands(run: Run):
    program = """
    func.func @main(%a: memref<4xi1>, %b: memref<4xi1>, %s: memref<4xi1>, %p: memref<4xi1>, %m: memref<2x2xi1>, %o: memref<2x2xi1>) {
      linalg.add ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%s : memref<4xi1>)
      linalg.mul ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%p : memref<4xi1>)
      linalg.matmul ins(%m, %m : memref<2x2xi1>, memref<2x2xi1>) outs(%o : memref<2x2xi1>)
      func.return
    }
    """
    a, b = np.array([1, 1, 0, 0], bool), np.array([1, 0, 1, 0], bool)
    s, p = np.zeros(4, bool), np.zeros(4, bool)
    m, o = np.array([[1, 1], [0, 1]], bool), np.zeros((2, 2), bool)
    run(program, a, b, s, p, m, o)
    np.testing.assert_array_equal(s, a | b)
    np.testing.assert_array_equal(p, a & b)
    # [[1 & 1 | 1 & 0, 1 & 1 | 1 & 1], [0 & 1 | 1 & 0, 0 & 1 | 1 & 1]]
    np.testing.assert_array_equal(o, [[True, True], [False, True]])


def test_transpose_matches_numpy(run: Run):
    program = """
    func.func @main(%a: memref<2x3x4xf32>, %c: memref<4x2x3xf32>) {
      linalg.transpose ins(%a : memref<2x3x4xf32>) outs(%c : memref<4x2x3xf32>) permutation = [2, 0, 1]
      func.return
    }
    """
    a, c = (
        RNG.standard_normal((2, 3, 4), dtype=np.float32),
        np.zeros((4, 2, 3), np.float32),
    )
    run(program, a, c)
    np.testing.assert_array_equal(c, np.transpose(a, (2, 0, 1)))


def test_matmul_accumulates_into_output(run: Run):
    program = """
    func.func @main(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %c: memref<8x6xf32>) {
      linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%c : memref<8x6xf32>)
      func.return
    }
    """
    a = RNG.standard_normal((8, 4), dtype=np.float32)
    b = RNG.standard_normal((4, 6), dtype=np.float32)
    c = RNG.standard_normal((8, 6), dtype=np.float32)
    expected = c + a @ b
    run(program, a, b, c)
    np.testing.assert_allclose(c, expected, rtol=1e-5)


def test_generic_with_index_and_captured_scalar(run: Run):
    program = """
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @main(%m: memref<3x4xi32>, %scale: i32) {
      linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%m : memref<3x4xi32>) {
      ^bb0(%unused: i32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %c10 = arith.constant 10 : index
        %row = arith.muli %i, %c10 : index
        %flat = arith.addi %row, %j : index
        %v = arith.index_cast %flat : index to i32
        %r = arith.muli %v, %scale : i32
        linalg.yield %r : i32
      }
      func.return
    }
    """
    m = np.zeros((3, 4), np.int32)
    run(program, m, 3)
    i, j = np.indices((3, 4))
    np.testing.assert_array_equal(m, 3 * (10 * i + j))


def test_generic_with_transposed_and_broadcast_maps(run: Run):
    program = """
    #t = affine_map<(d0, d1) -> (d1, d0)>
    #row = affine_map<(d0, d1) -> (d1)>
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @main(%a: memref<5x3xf32>, %bias: memref<5xf32>, %c: memref<3x5xf32>) {
      linalg.generic {indexing_maps = [#t, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %bias : memref<5x3xf32>, memref<5xf32>) outs(%c : memref<3x5xf32>) {
      ^bb0(%x: f32, %y: f32, %unused: f32):
        %s = arith.addf %x, %y : f32
        %n = arith.negf %s : f32
        linalg.yield %n : f32
      }
      func.return
    }
    """
    a = RNG.standard_normal((5, 3), dtype=np.float32)
    bias = RNG.standard_normal(5, dtype=np.float32)
    c = np.zeros((3, 5), np.float32)
    run(program, a, bias, c)
    np.testing.assert_array_equal(c, -(a.T + bias))


def test_generic_matmul_reduction_matches_numpy(run: Run):
    program = """
    #a = affine_map<(m, n, k) -> (m, k)>
    #b = affine_map<(m, n, k) -> (k, n)>
    #c = affine_map<(m, n, k) -> (m, n)>
    func.func @main(%a: memref<4x3xi32>, %b: memref<3x5xi32>, %c: memref<4x5xi32>) {
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x3xi32>, memref<3x5xi32>) outs(%c : memref<4x5xi32>) {
      ^bb0(%x: i32, %y: i32, %acc: i32):
        %p = arith.muli %x, %y : i32
        %s = arith.addi %acc, %p : i32
        linalg.yield %s : i32
      }
      func.return
    }
    """
    a = RNG.integers(-50, 50, (4, 3), dtype=np.int32)
    b = RNG.integers(-50, 50, (3, 5), dtype=np.int32)
    c = RNG.integers(-50, 50, (4, 5), dtype=np.int32)
    expected = c + a @ b
    stats = run(program, a, b, c).stats
    np.testing.assert_array_equal(c, expected)
    assert stats.ops_executed == 2


def test_generic_max_reduction_over_rows(run: Run):
    program = """
    #in = affine_map<(i, j) -> (i, j)>
    #out = affine_map<(i, j) -> (j)>
    func.func @main(%a: memref<6x4xf32>, %c: memref<4xf32>) {
      linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]} ins(%a : memref<6x4xf32>) outs(%c : memref<4xf32>) {
      ^bb0(%x: f32, %acc: f32):
        %m = arith.maximumf %x, %acc : f32
        linalg.yield %m : f32
      }
      func.return
    }
    """
    a = RNG.standard_normal((6, 4), dtype=np.float32)
    c = np.full(4, -np.inf, np.float32)
    run(program, a, c)
    np.testing.assert_array_equal(c, a.max(axis=0))


def test_generic_with_region_in_body_runs_element_by_element(run: Run):
    program = """
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: memref<6xi32>, %c: memref<6xi32>) {
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<6xi32>) outs(%c : memref<6xi32>) {
      ^bb0(%x: i32, %unused: i32):
        %zero = arith.constant 0 : i32
        %neg = arith.cmpi slt, %x, %zero : i32
        %r = scf.if %neg -> (i32) {
          %n = arith.subi %zero, %x : i32
          scf.yield %n : i32
        } else {
          scf.yield %x : i32
        }
        linalg.yield %r : i32
      }
      func.return
    }
    """
    a = np.array([-3, 4, 0, -7, 9, -1], np.int32)
    c = np.zeros_like(a)
    run(program, a, c)
    np.testing.assert_array_equal(c, np.abs(a))


def test_broadcast_adds_dimensions(run: Run):
    program = """
    func.func @main(%a: memref<3xf32>, %c: memref<2x3xf32>) {
      linalg.broadcast ins(%a : memref<3xf32>) outs(%c : memref<2x3xf32>) dimensions = [0]
      func.return
    }
    """
    a, c = np.arange(3, dtype=np.float32), np.zeros((2, 3), np.float32)
    run(program, a, c)
    np.testing.assert_array_equal(c, np.broadcast_to(a, (2, 3)))


def test_div_is_true_for_floats_and_truncating_for_integers(run: Run):
    a = np.array([7.0, -7.0, 1.0], np.float32)
    b = np.array([2.0, 2.0, 3.0], np.float32)
    c = np.zeros_like(a)
    run(_binary_program("div", "memref<3xf32>"), a, b, c)
    np.testing.assert_array_equal(c, a / b)
    ai, bi, ci = (
        np.array([7, -7, 9], np.int32),
        np.array([2, 2, -4], np.int32),
        np.zeros(3, np.int32),
    )
    run(_binary_program("div", "memref<3xi32>"), ai, bi, ci)
    np.testing.assert_array_equal(ci, [3, -3, -2])


def test_batch_matmul_matches_numpy(run: Run):
    program = """
    func.func @main(%a: memref<3x4x5xf32>, %b: memref<3x5x2xf32>, %c: memref<3x4x2xf32>) {
      linalg.batch_matmul ins(%a, %b : memref<3x4x5xf32>, memref<3x5x2xf32>) outs(%c : memref<3x4x2xf32>)
      func.return
    }
    """
    a = RNG.standard_normal((3, 4, 5), dtype=np.float32)
    b = RNG.standard_normal((3, 5, 2), dtype=np.float32)
    c = np.zeros((3, 4, 2), np.float32)
    stats = run(program, a, b, c).stats
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)
    assert stats.modeled_cycles > 3 * 4 * 2 * 5 / 64


def test_matmul_with_transposed_operand_map(run: Run):
    program = """
    func.func @main(%a: memref<5x4xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
      linalg.matmul {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]} ins(%a, %b : memref<5x4xf32>, memref<5x3xf32>) outs(%c : memref<4x3xf32>)
      func.return
    }
    """
    a = RNG.standard_normal((5, 4), dtype=np.float32)
    b = RNG.standard_normal((5, 3), dtype=np.float32)
    c = np.zeros((4, 3), np.float32)
    run(program, a, b, c)
    np.testing.assert_allclose(c, a.T @ b, rtol=1e-5)


@pytest.mark.parametrize(
    ("name", "function"), [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt)]
)
def test_unary_op_matches_numpy(run: Run, name: str, function: np.ufunc):
    program = f"""
    func.func @main(%a: memref<8xf32>, %c: memref<8xf32>) {{
      linalg.{name} ins(%a : memref<8xf32>) outs(%c : memref<8xf32>)
      func.return
    }}
    """
    a = RNG.uniform(0.5, 2.0, 8).astype(np.float32)
    c = np.zeros_like(a)
    run(program, a, c)
    np.testing.assert_allclose(c, function(a), rtol=1e-6)


def test_reduce_sums_over_dimensions_into_init(run: Run):
    program = """
    func.func @main(%a: memref<4x5x6xi32>, %c: memref<5xi32>) {
      linalg.reduce ins(%a : memref<4x5x6xi32>) outs(%c : memref<5xi32>) dimensions = [0, 2]
        (%x: i32, %acc: i32) {
          %s = arith.addi %x, %acc : i32
          linalg.yield %s : i32
        }
      func.return
    }
    """
    a = RNG.integers(-100, 100, (4, 5, 6), dtype=np.int32)
    c = np.full(5, 7, np.int32)
    run(program, a, c)
    np.testing.assert_array_equal(c, 7 + a.sum(axis=(0, 2)))


def test_conv_and_pooling_run_through_their_bodies(run: Run):
    program = """
    func.func @main(%i: memref<1x1x4x4xf32>, %f: memref<1x1x3x3xf32>, %o: memref<1x1x2x2xf32>, %w: memref<2x2xf32>, %p: memref<1x1x2x2xf32>) {
      linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : memref<1x1x4x4xf32>, memref<1x1x3x3xf32>) outs(%o : memref<1x1x2x2xf32>)
      linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %w : memref<1x1x4x4xf32>, memref<2x2xf32>) outs(%p : memref<1x1x2x2xf32>)
      func.return
    }
    """
    image = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    kernel = RNG.standard_normal((1, 1, 3, 3), dtype=np.float32)
    conv, pooled = (
        np.zeros((1, 1, 2, 2), np.float32),
        np.full((1, 1, 2, 2), -np.inf, np.float32),
    )
    run(program, image, kernel, conv, np.zeros((2, 2), np.float32), pooled)
    windows = np.lib.stride_tricks.sliding_window_view(image[0, 0], (3, 3))
    np.testing.assert_allclose(
        conv[0, 0], np.einsum("ijkl,kl->ij", windows, kernel[0, 0]), rtol=1e-5
    )
    np.testing.assert_array_equal(pooled[0, 0], [[5, 7], [13, 15]])


def test_large_generic_is_evaluated_in_slices(
    run: Run, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(vector_body, "MAX_SLICE_ELEMENTS", 7)
    program = """
    #a = affine_map<(m, n, k) -> (m, k)>
    #b = affine_map<(m, n, k) -> (k, n)>
    #c = affine_map<(m, n, k) -> (m, n)>
    func.func @main(%a: memref<5x3xi32>, %b: memref<3x4xi32>, %c: memref<5x4xi32>, %d: memref<5x4xi32>) {
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<5x3xi32>, memref<3x4xi32>) outs(%c : memref<5x4xi32>) {
      ^bb0(%x: i32, %y: i32, %acc: i32):
        %p = arith.muli %x, %y : i32
        %s = arith.addi %acc, %p : i32
        linalg.yield %s : i32
      }
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%d : memref<5x4xi32>) {
      ^bb0(%unused: i32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %s = arith.addi %i, %j : index
        %v = arith.index_cast %s : index to i32
        linalg.yield %v : i32
      }
      func.return
    }
    """
    a = RNG.integers(-9, 9, (5, 3), dtype=np.int32)
    b = RNG.integers(-9, 9, (3, 4), dtype=np.int32)
    c, d = np.zeros((5, 4), np.int32), np.zeros((5, 4), np.int32)
    run(program, a, b, c, d)
    np.testing.assert_array_equal(c, a @ b)
    np.testing.assert_array_equal(d, np.add.outer(np.arange(5), np.arange(4)))


def test_matmul_and_generic_write_through_pointer_tables(run: Run):
    disc = 'memref<4x4xf32, #memory.discontiguous, "global.vtcm">'
    program = f"""
    #id = affine_map<(i, j) -> (i, j)>
    func.func @main(%a: memref<4x4xf32>, %b: memref<4x4xf32>) -> memref<4x4xf32> {{
      %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
      %tables = memory.alloc_storage [16] : !memory.storage<"global">
      %c = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 64, 512, 0] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {disc}
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%c : {disc})
      linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : {disc})
      linalg.generic {{indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}} outs(%c : {disc}) {{
      ^bb0(%x: f32):
        %two = arith.constant 2.0 : f32
        %y = arith.mulf %x, %two : f32
        linalg.yield %y : f32
      }}
      %out = memref.alloc() : memref<4x4xf32>
      memory.copy %c, %out : {disc} to memref<4x4xf32>
      func.return %out : memref<4x4xf32>
    }}
    """
    a, b = RNG.standard_normal((2, 4, 4), dtype=np.float32)
    np.testing.assert_allclose(
        np.asarray(run(program, a, b).results[0]), 2 * (a @ b), rtol=1e-5
    )

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// memref.collapse_shape and memref.expand_shape are verified as MLIR's
// MemRefOps.cpp does; xDSL 0.74 verifies neither, so each op below used to be
// accepted (and run by memplan-run under rules that do not hold).

func.func @collapse_group_size(%m: memref<4x4xf32>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<8xf32>
  func.return
}

// CHECK: collapsed dim size (8) must equal reassociation group size (16)

// -----

func.func @expand_group_size(%m: memref<6xf32>) {
  %r = memref.expand_shape %m [[0, 1]] output_shape [4, 2] : memref<6xf32> into memref<4x2xf32>
  func.return
}

// CHECK: collapsed dim size (6) must equal reassociation group size (8)

// -----

func.func @expand_output_shape(%m: memref<2xi64>) {
  %r = memref.expand_shape %m [[0, 1, 2]] output_shape [2, 1, 65536] : memref<2xi64> into memref<2x1x1xi64>
  func.return
}

// CHECK: invalid output shape provided at pos 2: the result type has size 1, output_shape gives 65536

// -----

func.func @expand_output_shape_dynamic(%m: memref<?xf32>, %d: index) {
  %r = "memref.expand_shape"(%m, %d) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, -9223372036854775808>}> : (memref<?xf32>, index) -> memref<?x3xf32>
  func.return
}

// CHECK: invalid output shape provided at pos 1: the result type has size 3, output_shape gives dynamic

// -----

func.func @expand_dynamic_sizes(%m: memref<6xf32>, %d: index) {
  %r = memref.expand_shape %m [[0, 1]] output_shape [%d, 3] : memref<6xf32> into memref<2x3xf32>
  func.return
}

// CHECK: incorrect number of dynamic sizes, has 1, expected 0

// -----

func.func @expand_output_shape_rank(%m: memref<6xf32>) {
  %r = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2>}> : (memref<6xf32>) -> memref<2x3xf32>
  func.return
}

// CHECK: expected number of static shape bounds to be equal to the output rank (2) but found 1 inputs instead

// -----

func.func @expand_output_shape_operands(%m: memref<6xf32>) {
  %r = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 3>}> : (memref<6xf32>) -> memref<2x3xf32>
  func.return
}

// CHECK: mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values

// -----

func.func @collapse_groups_not_contiguous(%m: memref<2x3x4xf32>) {
  %r = memref.collapse_shape %m [[1, 2], [0]] : memref<2x3x4xf32> into memref<12x2xf32>
  func.return
}

// CHECK: reassociation indices must be contiguous

// -----

func.func @collapse_groups_not_covering(%m: memref<2x3x4xf32>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<2x3x4xf32> into memref<6xf32>
  func.return
}

// CHECK: expanded rank (3) inconsistent with number of reassociation indices (2)

// -----

func.func @collapse_group_out_of_bounds(%m: memref<2x3xf32>) {
  %r = memref.collapse_shape %m [[0, 1, 2]] : memref<2x3xf32> into memref<6xf32>
  func.return
}

// CHECK: reassociation index 2 is out of bounds

// -----

func.func @collapse_group_count(%m: memref<2x3xf32>) {
  %r = memref.collapse_shape %m [[0], [1]] : memref<2x3xf32> into memref<6xf32>
  func.return
}

// CHECK: invalid number of reassociation groups: found 2, expected 1

// -----

func.func @collapse_rank(%m: memref<6xf32>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<6xf32> into memref<2x3xf32>
  func.return
}

// CHECK: has source rank 1 and result rank 2. This is not a collapse (1 < 2).

// -----

func.func @expand_rank(%m: memref<2x3xf32>) {
  %r = memref.expand_shape %m [[0, 1]] output_shape [6] : memref<2x3xf32> into memref<6xf32>
  func.return
}

// CHECK: has source rank 2 and result rank 1. This is not an expansion (2 > 1).

// -----

func.func @expand_rank_zero(%m: memref<f32>) {
  %r = memref.expand_shape %m [] output_shape [2] : memref<f32> into memref<2xf32>
  func.return
}

// CHECK: rank 0 memrefs can only be extended/collapsed with/from ones

// -----

func.func @collapse_dynamic_into_static(%m: memref<?x4xf32>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<?x4xf32> into memref<8xf32>
  func.return
}

// CHECK: collapsed dim (0) must be dynamic if and only if reassociation group is dynamic

// -----

func.func @collapse_not_contiguous(%m: memref<2x3xf32, strided<[4, 1]>>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32, strided<[4, 1]>> into memref<6xf32, strided<[1]>>
  func.return
}

// CHECK: invalid source layout map or collapsing non-contiguous dims

// -----

func.func @collapse_layout(%m: memref<2x3x4xf32, strided<[12, 4, 1]>>) {
  %r = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32, strided<[12, 4, 1]>> into memref<6x4xf32>
  func.return
}

// CHECK: expected collapsed type to be 'memref<6x4xf32, strided<[4, 1]>>' but found 'memref<6x4xf32>'

// -----

func.func @collapse_element_type(%m: memref<2x3xf32>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xi32>
  func.return
}

// CHECK: expected collapsed type to be 'memref<6xf32>' but found 'memref<6xi32>'

// -----

func.func @expand_layout(%m: memref<4x6xf32, strided<[10, 1], offset: 2>>) {
  %r = memref.expand_shape %m [[0], [1, 2]] output_shape [4, 2, 3] : memref<4x6xf32, strided<[10, 1], offset: 2>> into memref<4x2x3xf32, strided<[18, 3, 1], offset: 2>>
  func.return
}

// CHECK: expected expanded type to be 'memref<4x2x3xf32, strided<[10, 3, 1], offset: 2>>' but found 'memref<4x2x3xf32, strided<[18, 3, 1], offset: 2>>'

// -----

func.func @expand_offset(%m: memref<6xf32, strided<[1], offset: ?>>) {
  %r = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<6xf32, strided<[1], offset: ?>> into memref<2x3xf32, strided<[3, 1], offset: 6>>
  func.return
}

// CHECK: expected expanded type to be 'memref<2x3xf32, strided<[3, 1], offset: ?>>' but found 'memref<2x3xf32, strided<[3, 1], offset: 6>>'

// -----

func.func @collapse_affine_not_contiguous(%m: memref<2x3xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>>) {
  %r = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>> into memref<6xf32, strided<[1]>>
  func.return
}

// CHECK: invalid source layout map or collapsing non-contiguous dims

// -----

func.func @expand_affine_layout(%m: memref<6xf32, affine_map<(d0) -> (d0 * 2)>>) {
  %r = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<6xf32, affine_map<(d0) -> (d0 * 2)>> into memref<2x3xf32>
  func.return
}

// CHECK: expected expanded type to be 'memref<2x3xf32, strided<[6, 2]>>' but found 'memref<2x3xf32>'

// -----

// What MLIR accepts stays accepted and prints unchanged: dynamic sizes, unit
// dimensions, strided layouts (a unit dimension's stride is free), dynamic
// strides and offsets, rank 0, an affine-map layout MLIR reads strides from.
func.func @valid(%a: memref<3x?x?x1x4xf32>, %b: memref<?xf32, strided<[2]>>, %c: memref<1x3xf32, strided<[7, 1], offset: ?>>, %d: memref<2x3xf32, strided<[?, ?]>>, %e: memref<f32>, %f: memref<2x3xf32, affine_map<(d0, d1)[s0] -> (d0 * 3 + d1 + s0)>>, %n: index) {
  %0 = memref.collapse_shape %a [[0], [1], [2, 3], [4]] : memref<3x?x?x1x4xf32> into memref<3x?x?x4xf32>
  %1 = memref.expand_shape %b [[0, 1]] output_shape [%n, 3] : memref<?xf32, strided<[2]>> into memref<?x3xf32, strided<[6, 2]>>
  %2 = memref.collapse_shape %c [[0, 1]] : memref<1x3xf32, strided<[7, 1], offset: ?>> into memref<3xf32, strided<[1], offset: ?>>
  %3 = memref.collapse_shape %d [[0, 1]] : memref<2x3xf32, strided<[?, ?]>> into memref<6xf32, strided<[?]>>
  %4 = memref.expand_shape %e [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  %5 = memref.collapse_shape %f [[0, 1]] : memref<2x3xf32, affine_map<(d0, d1)[s0] -> (d0 * 3 + d1 + s0)>> into memref<6xf32, strided<[1], offset: ?>>
  func.return
}

// CHECK: %0 = memref.collapse_shape %a [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] : memref<3x?x?x1x4xf32> into memref<3x?x?x4xf32>
// CHECK: %1 = memref.expand_shape %b [[0 : i64, 1 : i64]] output_shape [%n, 3] : memref<?xf32, strided<[2]>> into memref<?x3xf32, strided<[6, 2]>>
// CHECK: %2 = memref.collapse_shape %c [[0 : i64, 1 : i64]] : memref<1x3xf32, strided<[7, 1], offset: ?>> into memref<3xf32, strided<[1], offset: ?>>
// CHECK: %3 = memref.collapse_shape %d [[0 : i64, 1 : i64]] : memref<2x3xf32, strided<[?, ?]>> into memref<6xf32, strided<[?]>>
// CHECK: %4 = memref.expand_shape %e [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
// CHECK: %5 = memref.collapse_shape %f [[0 : i64, 1 : i64]] : memref<2x3xf32, affine_map<(d0, d1)[s0] -> ((((d0 * 3) + d1) + s0))>> into memref<6xf32, strided<[1], offset: ?>>

// Ops whose operandSegmentSizes is missing in generic form: MLIR takes it
// as all zeros, so an op with operands does not verify (memplan.generic_form;
// see generic-properties.mlir).

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// MLIR: rejects ("'memref.alloc' op operand count (1) does not match with the
// total size (0) specified in attribute 'operandSegmentSizes'").

func.func @alloc(%n: index) {
  %0 = "memref.alloc"(%n) : (index) -> memref<?xf32>
  func.return
}

// CHECK: operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'

// -----

// MLIR: rejects.

func.func @generic(%a: memref<4xf32>, %b: memref<4xf32>) {
  "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>]}> ({
  ^bb0(%in: f32, %out: f32):
    "linalg.yield"(%in) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK: operand count (2) does not match with the total size (0) specified in attribute 'operandSegmentSizes'

// -----

// MLIR: rejects ("operand count (1) does not match with the total size (0)");
// xDSL's verifier names the first segment instead.

func.func @subview(%a: memref<4xf32>) {
  %0 = "memref.subview"(%a) <{static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1]>>
  func.return
}

// CHECK: expected 1 value for source, but got 0

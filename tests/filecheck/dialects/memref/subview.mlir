// RUN: memplan-opt %s --verify-diagnostics | filecheck %s
// RUN: memplan-opt %s -p canonicalize | filecheck %s --check-prefix CANON

// memref.subview result types MLIR's verifier accepts (and, since
// tests/dialects/test_output_parses_in_mlir.py reads this file, upstream MLIR
// too): the inferred type, a stride or offset left dynamic only where an
// operand makes it so (or multiplies a zero), an identity layout where the
// inferred strides are contiguous, and unit dimensions dropped (which
// ones, the strides tell).  Rejected
// ones are in invalid.mlir.

func.func @subviews(%m: memref<8x8xf32>, %d: memref<4x?xf32>, %z: memref<4x4xf32, strided<[4, 0]>>, %i: index) {
  %inferred = memref.subview %m[0, 0] [2, 2] [2, 2] : memref<8x8xf32> to memref<2x2xf32, strided<[16, 2]>>
  %zero_offset = memref.subview %m[0, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 0>>
  %identity = memref.subview %m[0, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32>
  %dynamic_offset = memref.subview %m[%i, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  %dynamic_stride = memref.subview %m[1, 0] [4, 4] [%i, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[?, 1], offset: 8>>
  %dynamic_size = memref.subview %m[2, 3] [1, %i] [1, 1] : memref<8x8xf32> to memref<?xf32, strided<[1], offset: 19>>
  %row = memref.subview %m[3, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 24>>
  %column = memref.subview %m[0, 5] [8, 1] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[8], offset: 5>>
  %element = memref.subview %m[%i, 1] [1, 1] [1, 1] : memref<8x8xf32> to memref<f32, strided<[], offset: ?>>
  %unit_column = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<8x8xf32> to memref<1xf32, strided<[8]>>
  %unit_row = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<8x8xf32> to memref<1xf32, strided<[1]>>
  %source_stride = memref.subview %d[0, 1] [2, 2] [1, 1] : memref<4x?xf32> to memref<2x2xf32, strided<[?, 1], offset: 1>>
  %zero_stride = memref.subview %z[0, %i] [2, 2] [1, %i] : memref<4x4xf32, strided<[4, 0]>> to memref<2x2xf32, strided<[4, 0]>>
  %empty = memref.subview %m[7, 0] [0, 8] [1, 1] : memref<8x8xf32> to memref<0x8xf32, strided<[8, 1], offset: 56>>
  func.return
}

// CHECK-LABEL: func.func @subviews
// CHECK-NEXT:    %inferred = memref.subview %m[0, 0] [2, 2] [2, 2] : memref<8x8xf32> to memref<2x2xf32, strided<[16, 2]>>
// CHECK-NEXT:    %zero_offset = memref.subview %m[0, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1]>>
// CHECK-NEXT:    %identity = memref.subview %m[0, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32>
// CHECK-NEXT:    %dynamic_offset = memref.subview %m[%i, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    %dynamic_stride = memref.subview %m[1, 0] [4, 4] [%i, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[?, 1], offset: 8>>
// CHECK-NEXT:    %dynamic_size = memref.subview %m[2, 3] [1, %i] [1, 1] : memref<8x8xf32> to memref<?xf32, strided<[1], offset: 19>>
// CHECK-NEXT:    %row = memref.subview %m[3, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 24>>
// CHECK-NEXT:    %column = memref.subview %m[0, 5] [8, 1] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[8], offset: 5>>
// CHECK-NEXT:    %element = memref.subview %m[%i, 1] [1, 1] [1, 1] : memref<8x8xf32> to memref<f32, strided<[], offset: ?>>
// CHECK-NEXT:    %unit_column = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<8x8xf32> to memref<1xf32, strided<[8]>>
// CHECK-NEXT:    %unit_row = memref.subview %m[0, 0] [1, 1] [1, 1] : memref<8x8xf32> to memref<1xf32, strided<[1]>>
// CHECK-NEXT:    %source_stride = memref.subview %d[0, 1] [2, 2] [1, 1] : memref<4x?xf32> to memref<2x2xf32, strided<[?, 1], offset: 1>>
// CHECK-NEXT:    %zero_stride = memref.subview %z[0, %i] [2, 2] [1, %i] : memref<4x4xf32, strided<[4, 0]>> to memref<2x2xf32, strided<[4, 0]>>
// CHECK-NEXT:    %empty = memref.subview %m[7, 0] [0, 8] [1, 1] : memref<8x8xf32> to memref<0x8xf32, strided<[8, 1], offset: 56>>

// canonicalize folds constant offsets, sizes and strides as MLIR does: the
// subview gets the inferred type of its static values (with the same unit
// dimensions dropped) and a memref.cast back to the old type, or none when
// the type is unchanged.  A negative offset or size, or a slice the folded
// subview would take out of bounds, stays an operand.  As xDSL's pattern did,
// a static unit-stride subview of one that drops no dimension becomes one
// subview of the first source (MLIR's canonicalizer leaves both).

func.func @fold_constants(%m: memref<8x8xf32>, %z: memref<4x4xf32, strided<[4, 0]>>) -> (memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, memref<2x2xf32, strided<[4, 0]>>, memref<1x2xf32, strided<[8, 1], offset: ?>>, memref<2x2xf32, strided<[8, 1], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %minus = arith.constant -1 : index
  %static = memref.subview %m[%c1, 0] [2, %c2] [%c2, 1] : memref<8x8xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
  %reduced = memref.subview %m[%c3, 0] [1, %c3] [1, 1] : memref<8x8xf32> to memref<?xf32, strided<[1], offset: ?>>
  %same_type = memref.subview %z[0, %c1] [2, 2] [1, %c2] : memref<4x4xf32, strided<[4, 0]>> to memref<2x2xf32, strided<[4, 0]>>
  %negative = memref.subview %m[%minus, 0] [1, 2] [1, 1] : memref<8x8xf32> to memref<1x2xf32, strided<[8, 1], offset: ?>>
  %out_of_bounds = memref.subview %m[%c9, 0] [2, 2] [1, 1] : memref<8x8xf32> to memref<2x2xf32, strided<[8, 1], offset: ?>>
  func.return %static, %reduced, %same_type, %negative, %out_of_bounds : memref<2x?xf32, strided<[?, 1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>, memref<2x2xf32, strided<[4, 0]>>, memref<1x2xf32, strided<[8, 1], offset: ?>>, memref<2x2xf32, strided<[8, 1], offset: ?>>
}
func.func @compose(%m: memref<8x8xf32>) -> (memref<2x2xf32, strided<[8, 1], offset: 27>>, memref<2xf32, strided<[1], offset: 27>>, memref<2x2xf32, strided<[16, 1], offset: 11>>, memref<3xf32, strided<[1], offset: 10>>) {
  %v = memref.subview %m[1, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 10>>
  %composed = memref.subview %v[2, 1] [2, 2] [1, 1] : memref<4x4xf32, strided<[8, 1], offset: 10>> to memref<2x2xf32, strided<[8, 1], offset: 27>>
  %reduced = memref.subview %v[2, 1] [1, 2] [1, 1] : memref<4x4xf32, strided<[8, 1], offset: 10>> to memref<2xf32, strided<[1], offset: 27>>
  %strided = memref.subview %v[0, 1] [2, 2] [2, 1] : memref<4x4xf32, strided<[8, 1], offset: 10>> to memref<2x2xf32, strided<[16, 1], offset: 11>>
  %row = memref.subview %m[1, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %of_reduced = memref.subview %row[2] [3] [1] : memref<8xf32, strided<[1], offset: 8>> to memref<3xf32, strided<[1], offset: 10>>
  func.return %composed, %reduced, %strided, %of_reduced : memref<2x2xf32, strided<[8, 1], offset: 27>>, memref<2xf32, strided<[1], offset: 27>>, memref<2x2xf32, strided<[16, 1], offset: 11>>, memref<3xf32, strided<[1], offset: 10>>
}

// CANON-LABEL: func.func @fold_constants
// CANON-NEXT:    %c9 = arith.constant 9 : index
// CANON-NEXT:    %minus = arith.constant -1 : index
// CANON-NEXT:    %static = memref.subview %m[1, 0] [2, 2] [2, 1] : memref<8x8xf32> to memref<2x2xf32, strided<[16, 1], offset: 8>>
// CANON-NEXT:    %static_1 = memref.cast %static : memref<2x2xf32, strided<[16, 1], offset: 8>> to memref<2x?xf32, strided<[?, 1], offset: ?>>
// CANON-NEXT:    %reduced = memref.subview %m[3, 0] [1, 3] [1, 1] : memref<8x8xf32> to memref<3xf32, strided<[1], offset: 24>>
// CANON-NEXT:    %reduced_1 = memref.cast %reduced : memref<3xf32, strided<[1], offset: 24>> to memref<?xf32, strided<[1], offset: ?>>
// CANON-NEXT:    %same_type = memref.subview %z[0, 1] [2, 2] [1, 2] : memref<4x4xf32, strided<[4, 0]>> to memref<2x2xf32, strided<[4, 0]>>
// CANON-NEXT:    %negative = memref.subview %m[%minus, 0] [1, 2] [1, 1] : memref<8x8xf32> to memref<1x2xf32, strided<[8, 1], offset: ?>>
// CANON-NEXT:    %out_of_bounds = memref.subview %m[%c9, 0] [2, 2] [1, 1] : memref<8x8xf32> to memref<2x2xf32, strided<[8, 1], offset: ?>>
// CANON-NEXT:    func.return %static_1, %reduced_1, %same_type, %negative, %out_of_bounds

// CANON-LABEL: func.func @compose
// CANON-NEXT:    %v = memref.subview %m[1, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 10>>
// CANON-NEXT:    %composed = memref.subview %m[3, 3] [2, 2] [1, 1] : memref<8x8xf32> to memref<2x2xf32, strided<[8, 1], offset: 27>>
// CANON-NEXT:    %reduced = memref.subview %m[3, 3] [1, 2] [1, 1] : memref<8x8xf32> to memref<2xf32, strided<[1], offset: 27>>
// CANON-NEXT:    %strided = memref.subview %v[0, 1] [2, 2] [2, 1] : memref<4x4xf32, strided<[8, 1], offset: 10>> to memref<2x2xf32, strided<[16, 1], offset: 11>>
// CANON-NEXT:    %row = memref.subview %m[1, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 8>>
// CANON-NEXT:    %of_reduced = memref.subview %row[2] [3] [1] : memref<8xf32, strided<[1], offset: 8>> to memref<3xf32, strided<[1], offset: 10>>
// CANON-NEXT:    func.return %composed, %reduced, %strided, %of_reduced

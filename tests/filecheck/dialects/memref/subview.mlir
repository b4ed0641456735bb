// RUN: memplan-opt %s --verify-diagnostics | filecheck %s

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

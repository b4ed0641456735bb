// RUN: memplan-opt %s | filecheck %s
// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s

// affine.if in MLIR's custom syntax: the integer set, its dimension operands
// in parentheses and symbol operands in brackets, optional result types, a
// then region and an optional else region.  The affine.yield of a block that
// yields nothing is implied, as MLIR's parser inserts it.  xDSL 0.74 has no
// custom syntax for the op.

#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 - 3 == 0)>

// CHECK-LABEL: func.func @custom_syntax(%m: memref<4xf32>, %n: index) {
// CHECK-NEXT:    %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    affine.for %i = 0 to 4 {
// CHECK-NEXT:      affine.if affine_set<(d0)[s0] : ((d0 + (s0 * -1)) >= 0, (d0 + -3) == 0)>(%i)[%n] {
// CHECK-NEXT:        %c = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        affine.store %c, %m[%i] : memref<4xf32>
// CHECK-NEXT:      } {tag}
// CHECK-NEXT:      %r, %r_1 = affine.if affine_set<() : (0 == 0)>() -> (f32, index) {
// CHECK-NEXT:        %c_1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        affine.yield %c_1, %i : f32, index
// CHECK-NEXT:      } else {
// CHECK-NEXT:        affine.yield %two, %n : f32, index
// CHECK-NEXT:      }
// CHECK-NEXT:      affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %v = affine.load %m[%i] : memref<4xf32>
// CHECK-NEXT:        affine.store %v, %m[%i] : memref<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @custom_syntax(%m: memref<4xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 4 {
    affine.if #set(%i)[%n] {
      %c = arith.constant 1.0 : f32
      affine.store %c, %m[%i] : memref<4xf32>
    } {tag}
    %r:2 = affine.if affine_set<() : (0 == 0)>() -> (f32, index) {
      %c = arith.constant 1.0 : f32
      affine.yield %c, %i : f32, index
    } else {
      affine.yield %two, %n : f32, index
    }
    affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    } else {
      %v = affine.load %m[%i] : memref<4xf32>
      affine.store %v, %m[%i] : memref<4xf32>
    }
  }
  func.return
}

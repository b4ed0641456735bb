// RUN: memplan-opt %s --print-op-generic | filecheck %s

// xDSL 0.74 writes matmul and conv bodies with the accumulator as the second
// operand of the add; that is MLIR's body up to a commutative swap, so it
// verifies, and it is kept as written.
func.func @xdsl_matmul_body(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  "linalg.matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%0: f32, %1: f32, %2: f32):
    %3 = "arith.mulf"(%0, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %4 = "arith.addf"(%3, %2) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "linalg.yield"(%4) : (f32) -> ()
  }) : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
  func.return
}

// CHECK:      ^bb0(%[[A:[0-9a-z_]+]]: f32, %[[B:[0-9a-z_]+]]: f32, %[[ACC:[0-9a-z_]+]]: f32):
// CHECK-NEXT:   %[[MUL:[0-9a-z_]+]] = "arith.mulf"(%[[A]], %[[B]])
// CHECK-NEXT:   %{{.*}} = "arith.addf"(%[[MUL]], %[[ACC]])

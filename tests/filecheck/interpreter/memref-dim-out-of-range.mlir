// RUN: not memplan-run %s --args "dense<1> : tensor<4x8xi32>" 2>&1 | filecheck %s

// memref.dim with a negative index is out of range, not the last dimension.
func.func @main(%m: memref<4x8xi32>) -> index {
  %minus_one = arith.constant -1 : index
  %d = memref.dim %m, %minus_one : memref<4x8xi32>
  func.return %d : index
}

// CHECK: memplan-run: error: {{.*}}memref-dim-out-of-range.mlir:6:3: memref.dim %d (in @main): dimension index -1 is out of range for a rank-2 memref{{$}}

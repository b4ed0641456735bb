// memplan-run reads hex elements of float dense literals as bit patterns, as
// MLIR does, both in the module (-inf and +inf in a global) and in --args.

// RUN: memplan-run %s --args "dense<[0x40000000, 0x40A00000, 1.0, 0x80000000]> : tensor<4xf32>" --no-stats | filecheck %s
// RUN: memplan-opt %s | memplan-run - --args "dense<[0x40000000, 0x40A00000, 1.0, 0x80000000]> : tensor<4xf32>" --no-stats | filecheck %s

"memref.global"() <{sym_name = "mask", type = memref<4xf32>, initial_value = dense<[0x3F800000, 0xFF800000, 0x7F800000, 0x80000000]> : tensor<4xf32>, constant, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
  %m = memref.get_global @mask : memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  linalg.add ins(%x, %m : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  func.return %out : memref<4xf32>
}

// 2 + 1, 5 + -inf, 1 + inf, -0 + -0
// CHECK: result: array([  3., -inf,  inf,  -0.], dtype=float32)

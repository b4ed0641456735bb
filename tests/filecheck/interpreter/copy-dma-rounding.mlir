// RUN: memplan-run %s --args 'dense<1.0> : tensor<25xf32>' --verbose 2>&1 | filecheck %s

// A copy between scopes is a DMA moving whole 128-byte lines: its transfer
// term counts the 100 bytes of the source as 128 (docs/cost-model.md).
//   alloc 110, copy 10 + 128/16 + 128/256 + 200 + 1 + 100 + 128/8 = 335.5,
//   dealloc 110, return 10: 565.5, rounded to 566 (562 with 100 bytes).
func.func @main(%x: memref<25xf32>) {
  %v = memref.alloc() : memref<25xf32, "global.vtcm">
  memref.copy %x, %v : memref<25xf32> to memref<25xf32, "global.vtcm">
  memref.dealloc %v : memref<25xf32, "global.vtcm">
  func.return
}

// CHECK: "modeled_cycles": 566,

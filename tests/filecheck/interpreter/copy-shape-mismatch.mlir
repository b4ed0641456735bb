// RUN: not memplan-run %s 2>&1 | filecheck %s

// The static shapes agree after casting to dynamic ones; the runtime shapes do not.
func.func @main() {
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<8xi32>
  %da = "memref.cast"(%a) : (memref<4xi32>) -> memref<?xi32>
  %db = "memref.cast"(%b) : (memref<8xi32>) -> memref<?xi32>
  "memref.copy"(%da, %db) : (memref<?xi32>, memref<?xi32>) -> ()
  func.return
}

// CHECK: memplan-run: error: {{.*}}copy-shape-mismatch.mlir:9:3: memref.copy (in @main): copies a tensor of shape [4] into one of shape [8]{{$}}

// bufferization.clone, which MLIR's buffer-deallocation-pipeline puts on every
// function argument (or view of one) a function returns: memplan-run gives a
// new buffer with the operand's values, counted as an allocation and a copy,
// and memref.dealloc may free it; memory-manifest makes it an alloc and a
// copy, so the planned and lowered modules agree.

// RUN: memplan-run %s --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,convert-memory-to-memref %s | memplan-run - --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s

func.func @main(%x: memref<3xf32>) -> (memref<3xf32>, memref<3xf32>) {
  %scratch = "bufferization.clone"(%x) : (memref<3xf32>) -> memref<3xf32>
  %doubled = memref.alloc() : memref<3xf32>
  linalg.add ins(%scratch, %scratch : memref<3xf32>, memref<3xf32>) outs(%doubled : memref<3xf32>)
  memref.dealloc %scratch : memref<3xf32>
  %returned = bufferization.clone %x : memref<3xf32> to memref<3xf32>
  func.return %returned, %doubled : memref<3xf32>, memref<3xf32>
}

// CHECK:      result: (
// CHECK-NEXT:     array({{\[}} 1.5, -2. ,  3. ], dtype=float32),
// CHECK-NEXT:     array({{\[}} 3., -4.,  6.], dtype=float32)
// CHECK-NEXT: )
// CHECK-NEXT: memplan-run: {{.*}}peak bytes global=24;{{.*}}storages global=3; bytes copied global->global=24;

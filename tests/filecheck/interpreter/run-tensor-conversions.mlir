// A function as MLIR's default one-shot-bufferize leaves it (tensor arguments
// and result, bufferization.to_buffer and to_tensor at the edges) runs with
// tensor --args and prints its tensor result; planning and lowering the plan
// keep the result.

// RUN: memplan-run %s --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,convert-memory-to-memref %s | memplan-run - --args "dense<[1.5, -2.0, 3.0]> : tensor<3xf32>" 2>&1 | filecheck %s

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %in = bufferization.to_buffer %x : tensor<3xf32> to memref<3xf32, strided<[?], offset: ?>>
  %doubled = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
  linalg.add ins(%in, %in : memref<3xf32, strided<[?], offset: ?>>, memref<3xf32, strided<[?], offset: ?>>) outs(%doubled : memref<3xf32>)
  %t = bufferization.to_tensor %doubled : memref<3xf32> to tensor<3xf32>
  func.return %t : tensor<3xf32>
}

// CHECK:      result: array({{\[}} 3., -4.,  6.], dtype=float32)
// CHECK-NEXT: memplan-run: {{.*}}peak bytes global=12;{{.*}}bytes copied none;

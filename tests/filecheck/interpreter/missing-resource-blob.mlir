// RUN: not memplan-run %s 2>&1 | filecheck %s

// A weight stored as dense_resource whose blob the file does not carry (the
// dialect_resources section was cut off): an error naming the global, not zeros.
memref.global "private" constant @weights : memref<4xf32> = dense_resource<torch_tensor_4_torch.float32>

func.func @main() -> memref<4xf32> {
  %w = memref.get_global @weights : memref<4xf32>
  func.return %w : memref<4xf32>
}

// CHECK: memplan-run: error: {{.*}}missing-resource-blob.mlir:8:3: memref.get_global %w (in @main): memref.global @weights: dense_resource<torch_tensor_4_torch.float32> has no data: the input's `{-# dialect_resources #-}` section holds no blob named torch_tensor_4_torch.float32{{$}}

// RUN: not memplan-run %s --args "dense<1.0> : tensor<2x6x8xf32>" 2>&1 | filecheck %s

// A cast to a static size asserts the run-time size: torch-mlir 20261001
// casts a `?x?x8` input to `?x1x8` for a Linear layer on a batch and a
// sequence length that are both dynamic. The error names the target type
// (`?` for a dynamic size) and the dimension that differs.
func.func @main(%x: memref<?x?x8xf32>) -> memref<?x8xf32> {
  %c = memref.cast %x : memref<?x?x8xf32> to memref<?x1x8xf32>
  %f = memref.collapse_shape %c [[0], [1, 2]] : memref<?x1x8xf32> into memref<?x8xf32>
  func.return %f : memref<?x8xf32>
}

// CHECK: memplan-run: error: {{.*}}memref-cast-size-mismatch.mlir:8:3: memref.cast %c (in @main): cannot cast a memref of shape [2, 6, 8] to memref<?x1x8xf32>: its size 6 in dimension 1 is not the static size 1{{$}}

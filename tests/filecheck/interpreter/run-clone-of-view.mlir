// A clone of a view with a dynamic layout, as a torch export bufferized with
// one-shot-bufferize{bufferize-function-boundaries} returns a slice of its
// input: memory-manifest makes it an identity-layout buffer cast to the
// clone's type, as MLIR lowers it, so the planned and lowered modules run
// and agree with the input.

// RUN: memplan-run %s --args "dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --args "dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>" --check-uninitialized 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,convert-memory-to-memref %s | memplan-run - --args "dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>" --check-uninitialized 2>&1 | filecheck %s

func.func @main(%x: memref<4x4xf32>) -> memref<2x2xf32, strided<[?, ?], offset: ?>> {
  %s = memref.subview %x[0, 0] [2, 2] [2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 2]>>
  %v = memref.cast %s : memref<2x2xf32, strided<[8, 2]>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %scratch = bufferization.clone %v : memref<2x2xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %doubled = memref.alloc() : memref<2x2xf32>
  linalg.add ins(%scratch, %scratch : memref<2x2xf32, strided<[?, ?], offset: ?>>, memref<2x2xf32, strided<[?, ?], offset: ?>>) outs(%doubled : memref<2x2xf32>)
  memref.dealloc %scratch : memref<2x2xf32, strided<[?, ?], offset: ?>>
  %d = memref.cast %doubled : memref<2x2xf32> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %c = bufferization.clone %d : memref<2x2xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  memref.dealloc %doubled : memref<2x2xf32>
  func.return %c : memref<2x2xf32, strided<[?, ?], offset: ?>>
}

// CHECK:      result: array({{\[\[}} 0.,  4.],
// CHECK-NEXT:        [16., 20.]], dtype=float32)

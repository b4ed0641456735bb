// memref.transpose is a view (result dimension i is dimension permutation(i)
// of its input), memref.prefetch a hint that does nothing, and a
// memref.alloca_scope runs its block once and frees its memref.allocas when
// it ends.  Planned and lowered, the module computes the same.

// RUN: memplan-run %s --args "dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,convert-memory-to-memref %s | memplan-run - --args "dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>" 2>&1 | filecheck %s
// RUN: not memplan-run %s --symbol alloca_after_scope 2>&1 | filecheck %s --check-prefix=SCOPE

func.func @main(%m: memref<2x3xf32>) -> (memref<3x2xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  memref.prefetch %t[%c1, %c0], read, locality<3>, data : memref<3x2xf32, strided<[1, 3]>>
  %copy = memref.alloc() : memref<3x2xf32>
  memref.copy %t, %copy : memref<3x2xf32, strided<[1, 3]>> to memref<3x2xf32>
  %sum = memref.alloca_scope -> (f32) {
    %acc = memref.alloca() : memref<1xf32>
    %a = memref.load %t[%c0, %c1] : memref<3x2xf32, strided<[1, 3]>>
    %b = memref.load %t[%c1, %c0] : memref<3x2xf32, strided<[1, 3]>>
    %s = arith.addf %a, %b : f32
    memref.store %s, %acc[%c0] : memref<1xf32>
    %v = memref.load %acc[%c0] : memref<1xf32>
    memref.alloca_scope.return %v : f32
  }
  return %copy, %sum : memref<3x2xf32>, f32
}

// CHECK:      result: (
// CHECK-NEXT:   array({{\[\[}}1., 4.],
// CHECK-NEXT:   [2., 5.],
// CHECK-NEXT:   [3., 6.]], dtype=float32),
// CHECK-NEXT:   6.0
// CHECK-NEXT: )

func.func @alloca_after_scope() -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %m = memref.alloca_scope -> (memref<1xf32>) {
    %a = memref.alloca() : memref<1xf32>
    memref.store %one, %a[%c0] : memref<1xf32>
    memref.alloca_scope.return %a : memref<1xf32>
  }
  %v = memref.load %m[%c0] : memref<1xf32>
  return %v : f32
}

// SCOPE: memplan-run: error: {{.*}}:44:3: memref.load %v (in @alloca_after_scope): uses the tensor allocated by memref.alloca %a (line 40, in @alloca_after_scope) after it was killed by the end of their memref.alloca_scope, which killed its storage

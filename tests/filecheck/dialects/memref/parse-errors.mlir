// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

memref.global @g : memref<2xf32> = 5

// CHECK: expected `uninitialized`, dense<...> or dense_resource<...> as the initial value of memref.global

// -----

memref.global @g : tensor<2xf32>

// CHECK: memref.global type must be a memref, got tensor<2xf32>

// -----

memref.global @g : memref<2xvector<2xf32>> = dense<1.0>

// CHECK: dense<...> cannot initialize memref<2xvector<2xf32>>

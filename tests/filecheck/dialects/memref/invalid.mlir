// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

"memref.global"() <{sym_name = "g", type = memref<3xf32>, initial_value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> ()

// CHECK: initial value shape expected to be [3] but was [2]

// -----

"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense_resource<blob> : tensor<2xi32>}> : () -> ()

// CHECK: initial value element expected to be of type f32, but was of type i32

// -----

"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = 3 : i32}> : () -> ()

// CHECK: initial value should be a unit attribute, dense<...> or dense_resource<...>, but got 3 : i32

// -----

"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<1.0> : vector<2xf32>}> : () -> ()

// CHECK: initial value must have a tensor type, got vector<2xf32>

// -----

memref.global "private" @g : memref<?xf32>

// CHECK: type should be static shaped memref, but got memref<?xf32>

// -----

memref.global "private" @g : memref<2xf32> = uninitialized {alignment = 3 : i64}

// CHECK: alignment must be a positive power of two, got 3

// -----

func.func @load(%m: memref<2x2xf32>, %i: index) -> f32 {
  %v = memref.load %m[%i] : memref<2x2xf32>
  func.return %v : f32
}

// CHECK: incorrect number of indices for load, expected 2 but got 1

// -----

func.func @store(%m: memref<2xf32>, %i: index, %v: f32) {
  memref.store %v, %m[%i] {alignment = 6 : i64} : memref<2xf32>
  func.return
}

// CHECK: alignment must be a positive power of two, got 6

// -----

func.func @copy(%a: memref<2xf32>, %b: memref<3xf32>) {
  memref.copy %a, %b : memref<2xf32> to memref<3xf32>
  func.return
}

// CHECK: memref.copy requires the same shape for source (memref<2xf32>) and destination (memref<3xf32>)

// -----

func.func @copy(%a: memref<2xf32>, %b: memref<2xi32>) {
  memref.copy %a, %b : memref<2xf32> to memref<2xi32>
  func.return
}

// CHECK: memref.copy requires the same element type for source (memref<2xf32>) and destination (memref<2xi32>)

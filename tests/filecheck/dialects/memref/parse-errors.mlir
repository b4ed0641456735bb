// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

memref.global @g : memref<2xf32> = 5

// CHECK: expected `uninitialized`, dense<...> or dense_resource<...> as the initial value of memref.global

// -----

memref.global @g : tensor<2xf32>

// CHECK: memref.global type must be a memref, got tensor<2xf32>

// -----

memref.global @g : memref<2xvector<2xf32>> = dense<1.0>

// CHECK: dense<...> cannot initialize memref<2xvector<2xf32>>

// -----

func.func @atomic_kind(%m: memref<4xf32>, %i: index, %v: f32) {
  %x = memref.atomic_rmw addx %v, %m[%i] : (f32, memref<4xf32>) -> f32
  func.return
}

// CHECK: unknown atomic_rmw kind 'addx': expected one of addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori

// -----

func.func @prefetch_access(%m: memref<4xf32>, %i: index) {
  memref.prefetch %m[%i], load, locality<3>, data : memref<4xf32>
  func.return
}

// CHECK: rw specifier has to be 'read' or 'write'

// -----

func.func @prefetch_cache(%m: memref<4xf32>, %i: index) {
  memref.prefetch %m[%i], read, locality<3>, code : memref<4xf32>
  func.return
}

// CHECK: cache type has to be 'data' or 'instr'

// -----

func.func @transpose_tensor(%m: tensor<4x4xf32>) {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : tensor<4x4xf32> to memref<4x4xf32>
  func.return
}

// CHECK: expected a ranked memref type, got tensor<4x4xf32>

// -----

func.func @scope_blocks() {
  memref.alloca_scope {
    cf.br ^next
  ^next:
    memref.alloca_scope.return
  }
  func.return
}

// CHECK: expected a single block in memref.alloca_scope, got 2

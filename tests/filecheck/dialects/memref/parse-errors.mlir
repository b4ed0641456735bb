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

// -----

// MLIR's MemRefType::verify, which xDSL does not make: one stride per dimension.
func.func @strides(%a: memref<4xf32, strided<[8, 1]>>) {
  func.return
}

// CHECK: expected the number of strides to match the rank: strided<[8, 1]> has 2 stride(s) for 1 dimension(s)

// -----

func.func @map(%a: memref<4xf32, affine_map<(d0, d1) -> (d0)>>) {
  func.return
}

// CHECK: memref layout mismatch between rank and affine map: affine_map<(d0, d1) -> (d0)> takes 2 dimension(s), the memref has 1

// -----

func.func @float_space(%a: memref<4xf32, 1.0 : f64>) {
  func.return
}

// CHECK: unsupported memory space 1.000000e+00 : f64: expected an integer, a string, a dictionary or an attribute of another dialect than builtin

// -----

func.func @unranked_array_space(%a: memref<*xf32, [1]>) {
  func.return
}

// CHECK: unsupported memory space [1 : i64]: expected an integer, a string, a dictionary or an attribute of another dialect than builtin

// -----

func.func @tensor_element(%a: memref<4xtensor<2xf32>>) {
  func.return
}

// CHECK: invalid memref element type tensor<2xf32>: expected an integer, index, float, complex, vector or memref type

// -----

// What MLIR accepts stays accepted: integer, string and dictionary spaces,
// vector and memref elements, strides and maps of the memref's rank.
func.func @valid(%a: memref<4xf32, 1>, %b: memref<4xf32, "global.vtcm">,
                 %c: memref<4xf32, {kind = 1}>, %d: memref<2xvector<4xf32>>,
                 %e: memref<2xmemref<4xf32>>, %f: memref<4x8xf32, strided<[1, 4]>>,
                 %g: memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>,
                 %h: memref<*xf32, 2>) {
  func.return
}

// CHECK: func.func @valid(%a: memref<4xf32, 1 : i64>, %b: memref<4xf32, "global.vtcm">, %c: memref<4xf32, {kind = 1 : i64}>, %d: memref<2xvector<4xf32>>, %e: memref<2xmemref<4xf32>>, %f: memref<4x8xf32, strided<[1, 4]>>, %g: memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>, %h: memref<*xf32, 2 : i64>)

// -----

func.func @huge_dimension(%a: memref<9223372036854775808xf32>) {
  func.return
}

// CHECK: invalid dimension 9223372036854775808 (dimension 0): expected a size of at most 9223372036854775807

// -----

// -2^63 is how MLIR stores '?', so it is no static offset.
func.func @sentinel_offset(%a: memref<4xf32, strided<[1], offset: -9223372036854775808>>) {
  func.return
}

// CHECK: strided<[1], offset: -9223372036854775808>: -9223372036854775808 is no stride or offset, expected a 64-bit signed integer other than -9223372036854775808, or '?'

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

// -----

func.func @cast_element(%m: memref<4xf32>) {
  %c = memref.cast %m : memref<4xf32> to memref<4xi32>
  func.return
}

// CHECK: operand type memref<4xf32> and result type memref<4xi32> are cast incompatible

// -----

func.func @cast_strides(%m: memref<4x4xf32, strided<[4, 1]>>) {
  %c = memref.cast %m : memref<4x4xf32, strided<[4, 1]>> to memref<4x4xf32, strided<[8, 1]>>
  func.return
}

// CHECK: operand type memref<4x4xf32, strided<[4, 1]>> and result type memref<4x4xf32, strided<[8, 1]>> are cast incompatible

// -----

// A dimension of size 1 skips only its own stride: the offset and the other
// strides are still compared.
func.func @cast_unit_dim_offset(%m: memref<1x8xf32, strided<[40, 1], offset: 8>>) {
  %c = memref.cast %m : memref<1x8xf32, strided<[40, 1], offset: 8>> to memref<1x8xf32>
  func.return
}

// CHECK: operand type memref<1x8xf32, strided<[40, 1], offset: 8>> and result type memref<1x8xf32> are cast incompatible

// -----

func.func @cast_unit_dim_other_stride(%m: memref<1x8xf32, strided<[40, 2]>>) {
  %c = memref.cast %m : memref<1x8xf32, strided<[40, 2]>> to memref<1x8xf32>
  func.return
}

// CHECK: operand type memref<1x8xf32, strided<[40, 2]>> and result type memref<1x8xf32> are cast incompatible

// -----

// A dynamic size is not 1: its stride is compared.
func.func @cast_dynamic_dim_stride(%m: memref<?x8xf32, strided<[40, 1]>>) {
  %c = memref.cast %m : memref<?x8xf32, strided<[40, 1]>> to memref<?x8xf32>
  func.return
}

// CHECK: operand type memref<?x8xf32, strided<[40, 1]>> and result type memref<?x8xf32> are cast incompatible

// -----

func.func @cast_unranked(%m: memref<*xf32>) {
  %c = memref.cast %m : memref<*xf32> to memref<*xf32, 1>
  func.return
}

// CHECK: operand type memref<*xf32> and result type memref<*xf32, 1 : i64> are cast incompatible

// -----

func.func @memory_space_cast_shape(%m: memref<4xf32>) {
  %c = memref.memory_space_cast %m : memref<4xf32> to memref<?xf32, "global.vtcm">
  func.return
}

// CHECK: operand type memref<4xf32> and result type memref<?xf32, "global.vtcm"> are cast incompatible

// -----

func.func @atomic_indices(%m: memref<4xf32>, %i: index, %v: f32) {
  %x = memref.atomic_rmw addf %v, %m[%i, %i] : (f32, memref<4xf32>) -> f32
  func.return
}

// CHECK: incorrect number of indices for atomic_rmw, expected 1 but got 2

// -----

func.func @atomic_float_kind(%m: memref<4xi32>, %i: index, %v: i32) {
  %x = memref.atomic_rmw addf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  func.return
}

// CHECK: with kind 'addf' expects a floating-point type, got i32

// -----

func.func @atomic_integer_kind(%m: memref<4xf32>, %i: index, %v: f32) {
  %x = memref.atomic_rmw ori %v, %m[%i] : (f32, memref<4xf32>) -> f32
  func.return
}

// CHECK: with kind 'ori' expects an integer type, got f32

// -----

func.func @atomic_kind_number(%m: memref<4xf32>, %i: index, %v: f32) {
  %x = "memref.atomic_rmw"(%v, %m, %i) <{kind = 16 : i64}> : (f32, memref<4xf32>, index) -> f32
  func.return
}

// CHECK: kind 16 is not an atomic_rmw kind: expected 0 to 15 (addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori)

// -----

func.func @scope_result(%v: f32) {
  %r = memref.alloca_scope -> (i32) {
    memref.alloca_scope.return %v : f32
  }
  func.return
}

// CHECK: expected the types of memref.alloca_scope's results, (i32), got (f32)

// -----

func.func @scope_arguments() {
  "memref.alloca_scope"() ({
  ^entry(%i: index):
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected a region without arguments, got 1

// -----

func.func @transpose_map(%m: memref<4x4xf32>) {
  %t = memref.transpose %m (d0, d1) -> (d0, d0) : memref<4x4xf32> to memref<4x4xf32>
  func.return
}

// CHECK: expected a permutation map, got (d0, d1) -> (d0, d0)

// -----

func.func @transpose_rank(%m: memref<4x4xf32>) {
  %t = memref.transpose %m (d0) -> (d0) : memref<4x4xf32> to memref<4x4xf32>
  func.return
}

// CHECK: expected a permutation map of same rank as the input (2), got (d0) -> (d0)

// -----

func.func @transpose_result(%m: memref<4x8xf32>) {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32>
  func.return
}

// CHECK: result type memref<8x4xf32> is not equivalent to the canonical transposed input type memref<8x4xf32, strided<[1, 8]>>

// -----

// As in MLIR: the rank-1 identity transpose has the layout strided<[1]>.
func.func @transpose_rank_one(%m: memref<8xf32>) {
  %t = memref.transpose %m (d0) -> (d0) : memref<8xf32> to memref<8xf32>
  func.return
}

// CHECK: result type memref<8xf32> is not equivalent to the canonical transposed input type memref<8xf32, strided<[1]>>

// -----

func.func @transpose_affine_layout(%m: memref<4x8xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>) {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>> to memref<8x4xf32>
  func.return
}

// CHECK: expected the input to have an identity or strided layout, got memref<4x8xf32, affine_map<(d0, d1) -> (((d1 * 4) + d0))>>

// -----

func.func @realloc_rank(%m: memref<4x4xf32>) {
  %r = memref.realloc %m : memref<4x4xf32> to memref<16xf32>
  func.return
}

// CHECK: expected a 1-D source memref, got memref<4x4xf32>

// -----

func.func @realloc_layout(%m: memref<4xf32, strided<[2]>>) {
  %r = memref.realloc %m : memref<4xf32, strided<[2]>> to memref<8xf32>
  func.return
}

// CHECK: unsupported layout for source memref type memref<4xf32, strided<[2]>>

// -----

func.func @realloc_space(%m: memref<4xf32>) {
  %r = memref.realloc %m : memref<4xf32> to memref<8xf32, "global.vtcm">
  func.return
}

// CHECK: different memory spaces specified for source memref type memref<4xf32> and result memref type memref<8xf32, "global.vtcm">

// -----

func.func @realloc_element(%m: memref<4xf32>) {
  %r = memref.realloc %m : memref<4xf32> to memref<8xi32>
  func.return
}

// CHECK: different element types specified for source memref type memref<4xf32> and result memref type memref<8xi32>

// -----

func.func @realloc_missing_size(%m: memref<4xf32>) {
  %r = memref.realloc %m : memref<4xf32> to memref<?xf32>
  func.return
}

// CHECK: missing dimension operand for result type memref<?xf32>

// -----

func.func @realloc_extra_size(%m: memref<4xf32>, %n: index) {
  %r = memref.realloc %m(%n) : memref<4xf32> to memref<8xf32>
  func.return
}

// CHECK: unnecessary dimension operand for result type memref<8xf32>

// -----

func.func @realloc_alignment(%m: memref<4xf32>) {
  %r = memref.realloc %m {alignment = 12 : i64} : memref<4xf32> to memref<8xf32>
  func.return
}

// CHECK: alignment must be a positive power of two, got 12

// -----

func.func @prefetch_indices(%m: memref<4x4xf32>, %i: index) {
  memref.prefetch %m[%i], read, locality<3>, data : memref<4x4xf32>
  func.return
}

// CHECK: incorrect number of indices for prefetch, expected 2 but got 1

// -----

func.func @prefetch_locality(%m: memref<4xf32>, %i: index) {
  "memref.prefetch"(%m, %i) <{isWrite = false, localityHint = 4 : i32, isDataCache = true}> : (memref<4xf32>, index) -> ()
  func.return
}

// CHECK: localityHint must be between 0 and 3, got 4

// -----

// memref.subview as MLIR verifies it (xDSL 0.74 accepted all of these): static
// strides make a static layout, which a dynamic one does not stand for.
func.func @subview_dynamic_layout(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [2, 2] [2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  func.return
}

// CHECK: expected result type to be memref<2x2xf32, strided<[8, 2]>> or a rank-reduced version. (mismatch of result layout), but got memref<2x2xf32, strided<[?, ?], offset: ?>>

// -----

func.func @subview_static_offset(%m: memref<4x4xf32>, %i: index) {
  %v = memref.subview %m[%i, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 3>>
  func.return
}

// CHECK: expected result type to be memref<2x2xf32, strided<[4, 1], offset: ?>> or a rank-reduced version. (mismatch of result layout), but got memref<2x2xf32, strided<[4, 1], offset: 3>>

// -----

func.func @subview_strides(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32>
  func.return
}

// CHECK: expected result type to be memref<2x2xf32, strided<[4, 1]>> or a rank-reduced version. (mismatch of result layout), but got memref<2x2xf32>

// -----

// A dropped unit dimension takes its stride with it: the column keeps 4.
func.func @subview_dropped_stride(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  func.return
}

// CHECK: expected result type to be memref<4x1xf32, strided<[4, 1]>> or a rank-reduced version. (mismatch of result layout), but got memref<4xf32, strided<[1]>>

// -----

func.func @subview_sizes(%m: memref<?x4xf32>, %n: index) {
  %v = memref.subview %m[0, 0] [%n, 4] [1, 1] : memref<?x4xf32> to memref<3x4xf32>
  func.return
}

// CHECK: expected result type to be memref<?x4xf32, strided<[4, 1]>> or a rank-reduced version. (mismatch of result sizes), but got memref<3x4xf32>

// -----

func.func @subview_rank(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2x1xf32, strided<[4, 1, 1]>>
  func.return
}

// CHECK: expected result rank to be smaller or equal to the source rank, but got memref<2x2x1xf32, strided<[4, 1, 1]>>

// -----

func.func @subview_element_type(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf16, strided<[4, 1]>>
  func.return
}

// CHECK: expected result element type to be f32, but got memref<2x2xf16, strided<[4, 1]>>

// -----

func.func @subview_memory_space(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>, "global.vtcm">
  func.return
}

// CHECK: different memory spaces specified for base memref type memref<4x4xf32> and subview memref type memref<2x2xf32, strided<[4, 1]>, "global.vtcm">

// -----

func.func @subview_count(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0, 0] [2, 2, 1] [1, 1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  func.return
}

// CHECK: expected 2 offset values, one per dimension of memref<4x4xf32>, got 3

// -----

// MLIR's wording for a negative static size or offset (its
// verifyOffsetSizeAndStrideOp); a negative stride is valid.
func.func @subview_negative_size(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 0] [-1, 2] [1, 1] : memref<4x4xf32> to memref<?x2xf32, strided<[4, 1]>>
  func.return
}

// CHECK: expected sizes to be non-negative, but got -1

// -----

func.func @subview_negative_offset(%m: memref<4x4xf32>) {
  %v = memref.subview %m[-1, 0] [1, 2] [1, 1] : memref<4x4xf32> to memref<1x2xf32, strided<[4, 1], offset: -4>>
  func.return
}

// CHECK: expected offsets to be non-negative, but got -1

// -----

func.func @subview_offset_bounds(%m: memref<4x4xf32>) {
  %v = memref.subview %m[4, 0] [0, 4] [1, 1] : memref<4x4xf32> to memref<0x4xf32, strided<[4, 1], offset: 16>>
  func.return
}

// CHECK: offset 4 of dimension 0 is out of bounds: expected less than the source size 4

// -----

func.func @subview_slice_bounds(%m: memref<4x4xf32>) {
  %v = memref.subview %m[0, 1] [2, 2] [1, 3] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 3], offset: 1>>
  func.return
}

// CHECK: slice along dimension 1 runs out of bounds: its last index 4 is not less than the source size 4

// -----

// memref.reshape: MLIR's verifier and messages.
func.func @reshape_shape_type(%m: memref<32xf32>, %s: memref<2xf32>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<2xf32>) -> memref<?x?xf32>
  func.return
}

// CHECK: operand #1 must be 1D memref of signless integer or index values, but got 'memref<2xf32>'

// -----

func.func @reshape_element_type(%m: memref<32xf32>, %s: memref<2xindex>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<2xindex>) -> memref<?x?xi32>
  func.return
}

// CHECK: element types of source and destination memref types should be the same

// -----

// strided<[8, 1]> is the identity layout's strides, but its map is
// d0 * 8 + d1, not the identity map MLIR asks for.
func.func @reshape_strided_source(%m: memref<4x8xf32, strided<[8, 1]>>, %s: memref<2xindex>) {
  %r = memref.reshape %m(%s) : (memref<4x8xf32, strided<[8, 1]>>, memref<2xindex>) -> memref<?x?xf32>
  func.return
}

// CHECK: source memref type should have identity affine map

// -----

func.func @reshape_strided_result(%m: memref<32xf32>, %s: memref<2xindex>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<2xindex>) -> memref<4x8xf32, strided<[8, 1]>>
  func.return
}

// CHECK: result memref type should have identity affine map

// -----

func.func @reshape_dynamic_length(%m: memref<32xf32>, %s: memref<?xindex>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<?xindex>) -> memref<?x?xf32>
  func.return
}

// CHECK: cannot use shape operand with dynamic length to reshape to statically-ranked memref type

// -----

func.func @reshape_length(%m: memref<32xf32>, %s: memref<3xindex>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<3xindex>) -> memref<?x?xf32>
  func.return
}

// CHECK: length of shape operand differs from the result's memref rank

// -----

// Stricter than MLIR, whose verifier does not compare memory spaces: a
// reshape is a view, and memplan's scopes are memory spaces.
func.func @reshape_memory_space(%m: memref<32xf32>, %s: memref<2xindex>) {
  %r = memref.reshape %m(%s) : (memref<32xf32>, memref<2xindex>) -> memref<?x?xf32, "global.vtcm">
  func.return
}

// CHECK: expected source memref<32xf32> and result memref<?x?xf32, "global.vtcm"> in one memory space: a reshape is a view of the same memory

// -----

// MLIR checks a get_global against its global (xDSL checks nothing).
func.func @get_global_missing() {
  %g = memref.get_global @nosuch : memref<2xf32>
  func.return
}

// CHECK: 'nosuch' does not reference a valid global memref

// -----

func.func @not_a_global() {
  %g = memref.get_global @not_a_global : memref<2xf32>
  func.return
}

// CHECK: 'not_a_global' does not reference a valid global memref

// -----

memref.global "private" constant @w : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
func.func @get_global_reshaped() {
  %g = memref.get_global @w : memref<4xf32>
  func.return
}

// CHECK: result type memref<4xf32> does not match type memref<2x2xf32> of the global memref @w

// -----

memref.global "private" @w : memref<4xf32> = uninitialized
func.func @get_global_other_space() {
  %g = memref.get_global @w : memref<4xf32, "global.vtcm">
  func.return
}

// CHECK: result type memref<4xf32, "global.vtcm"> does not match type memref<4xf32> of the global memref @w

// -----

// MLIR checks a reinterpret_cast's result type against its offset, sizes and
// strides (xDSL checks the sizes only).
func.func @reinterpret_stride(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [4096] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  func.return
}

// CHECK: expected result type with stride = 4096 instead of 1 in dim = 0

// -----

func.func @reinterpret_offset(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [3], sizes: [4], strides: [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  func.return
}

// CHECK: expected result type with offset = 3 instead of 2

// -----

func.func @reinterpret_identity_offset(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32> to memref<4xi32>
  func.return
}

// CHECK: expected result type with offset = 2 instead of 0

// -----

func.func @reinterpret_dynamic_stride(%b: memref<8xi32>, %n: index) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [%n] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  func.return
}

// CHECK: expected result type with stride = dynamic instead of 1 in dim = 0

// -----

func.func @reinterpret_dynamic_size(%b: memref<8xi32>, %n: index) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [%n], strides: [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  func.return
}

// CHECK: expected result type with size = dynamic instead of 4 in dim = 0

// -----

func.func @reinterpret_rank(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4, 1], strides: [1, 1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>>
  func.return
}

// CHECK: expected 1 size values, got 2

// -----

func.func @reinterpret_element(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32> to memref<4xf32, strided<[1], offset: 2>>
  func.return
}

// CHECK: source element type (i32) does not match result element type (f32)

// -----

func.func @reinterpret_space(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 2>, "global.vtcm">
  func.return
}

// CHECK: different memory spaces specified for source type memref<8xi32> and result memref type memref<4xi32, strided<[1], offset: 2>, "global.vtcm">

// -----

// What MLIR accepts stays accepted: a dynamic size, offset or stride in the
// result type stands for any, and xDSL's rejection of a static size under a
// dynamic result size is gone.
func.func @reinterpret_valid(%b: memref<8xi32>) {
  %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32> to memref<?xi32, strided<[?], offset: ?>>
  %s = memref.reinterpret_cast %b to offset: [7], sizes: [4], strides: [-1] : memref<8xi32> to memref<4xi32, strided<[-1], offset: 7>>
  func.return
}

// CHECK: %r = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32> to memref<?xi32, strided<[?], offset: ?>>
// CHECK: %s = memref.reinterpret_cast %b to offset: [7], sizes: [4], strides: [-1] : memref<8xi32> to memref<4xi32, strided<[-1], offset: 7>>

// -----

// MLIR infers extract_strided_metadata's result types (xDSL checks none).
func.func @metadata_base_type(%m: memref<2x2xi32>) {
  %base, %offset, %s:2, %t:2 = memref.extract_strided_metadata %m : memref<2x2xi32> -> memref<bf16>, index, index, index, index, index
  func.return
}

// CHECK: base buffer type memref<bf16> is not memref<i32>: expected a rank-0 memref of the source's element type and memory space

// -----

func.func @metadata_rank(%m: memref<2x2xi32>) {
  %base, %offset, %s, %t = memref.extract_strided_metadata %m : memref<2x2xi32> -> memref<i32>, index, index, index
  func.return
}

// CHECK: expected 2 size(s) and stride(s), one per dimension of memref<2x2xi32>, got 1

// -----

// The alignment of memref.alloc and alloca is an i64, as in MLIR; xDSL 0.74
// takes an integer of any type, and the passes planned with it.

func.func @alloc_alignment_i32() {
  %a = memref.alloc() {alignment = 64 : i32} : memref<4xf32>
  func.return
}

// CHECK: attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0, got 64 : i32

// -----

func.func @alloca_alignment_index() {
  %a = "memref.alloca"() <{alignment = 16 : index, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  func.return
}

// CHECK: attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0, got 16 : index

// -----

func.func @alloc_alignment_i64() {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %b = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
  func.return
}

// CHECK: %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: %b = memref.alloca() {alignment = 16 : i64} : memref<4xf32>

// -----

// An alloc takes one symbol operand per `?` of its strided layout (MLIR's
// verifier; xDSL 0.74 checks the dynamic sizes only).

func.func @alloc_layout_symbol_missing() {
  %a = memref.alloc() : memref<25xf32, strided<[?], offset: 1>>
  func.return
}

// CHECK: symbol operand count does not equal memref symbol count: expected 1, got 0 (layout strided<[?], offset: 1>)

// -----

func.func @alloca_layout_symbol_extra(%s: index) {
  %a = memref.alloca()[%s] : memref<25xf32, strided<[1]>>
  func.return
}

// CHECK: symbol operand count does not equal memref symbol count: expected 0, got 1 (layout strided<[1]>)

// -----

func.func @alloc_layout_symbols(%s: index) {
  %a = memref.alloc()[%s, %s] : memref<25xf32, strided<[?], offset: ?>>
  func.return
}

// CHECK: %a = memref.alloc()[%s, %s] : memref<25xf32, strided<[?], offset: ?>>

// -----

// memref.realloc takes a layout whose map is the identity, as MLIR's
// `isIdentity()` does: the rank-1 `strided<[1]>` (with offset 0) is one.

func.func @realloc_identity_strided(%m: memref<4xf32, strided<[1]>>) -> memref<8xf32, strided<[1], offset: 0>> {
  %r = memref.realloc %m : memref<4xf32, strided<[1]>> to memref<8xf32, strided<[1], offset: 0>>
  func.return %r : memref<8xf32, strided<[1], offset: 0>>
}

// CHECK: func.func @realloc_identity_strided
// CHECK-NEXT: memref.realloc %m : memref<4xf32, strided<[1]>> to memref<8xf32, strided<[1]>>

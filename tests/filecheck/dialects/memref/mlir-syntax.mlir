// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref ops that xDSL 0.74 reads only in generic form (cast,
// memory_space_cast, extract_aligned_pointer_as_index, atomic_rmw,
// alloca_scope) or not at all (transpose, realloc, prefetch, reshape), in the
// custom syntax mlir-opt prints.

func.func @casts(%m: memref<16xf32>, %d: memref<?xf32>, %u: memref<*xf32>, %s: memref<12x4xf32, strided<[4, 1], offset: 5>>, %row: memref<1x8xf32, strided<[40, 1]>>, %rows: memref<?x8xf32, strided<[40, 1]>>) {
  %dynamic = memref.cast %m : memref<16xf32> to memref<?xf32>
  %static = memref.cast %d {note = "asserts 16"} : memref<?xf32> to memref<16xf32>
  %unranked = memref.cast %m : memref<16xf32> to memref<*xf32>
  %ranked = memref.cast %u : memref<*xf32> to memref<4x?xf32>
  %strides = memref.cast %s : memref<12x4xf32, strided<[4, 1], offset: 5>> to memref<12x4xf32, strided<[?, ?], offset: ?>>
  %unit_stride = memref.cast %row : memref<1x8xf32, strided<[40, 1]>> to memref<1x8xf32>
  %unit_dest = memref.cast %rows : memref<?x8xf32, strided<[40, 1]>> to memref<1x8xf32, strided<[3, 1]>>
  %vtcm = memref.memory_space_cast %m : memref<16xf32> to memref<16xf32, "global.vtcm">
  %ddr = memref.memory_space_cast %vtcm : memref<16xf32, "global.vtcm"> to memref<16xf32>
  %space = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 3>
  %address = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
  %unranked_address = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index {note}
  return
}

// CHECK-LABEL: func.func @casts
// CHECK-NEXT:    %dynamic = memref.cast %m : memref<16xf32> to memref<?xf32>
// CHECK-NEXT:    %static = memref.cast %d {note = "asserts 16"} : memref<?xf32> to memref<16xf32>
// CHECK-NEXT:    %unranked = memref.cast %m : memref<16xf32> to memref<*xf32>
// CHECK-NEXT:    %ranked = memref.cast %u : memref<*xf32> to memref<4x?xf32>
// CHECK-NEXT:    %strides = memref.cast %s : memref<12x4xf32, strided<[4, 1], offset: 5>> to memref<12x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %unit_stride = memref.cast %row : memref<1x8xf32, strided<[40, 1]>> to memref<1x8xf32>
// CHECK-NEXT:    %unit_dest = memref.cast %rows : memref<?x8xf32, strided<[40, 1]>> to memref<1x8xf32, strided<[3, 1]>>
// CHECK-NEXT:    %vtcm = memref.memory_space_cast %m : memref<16xf32> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:    %ddr = memref.memory_space_cast %vtcm : memref<16xf32, "global.vtcm"> to memref<16xf32>
// CHECK-NEXT:    %space = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 3 : i64>
// CHECK-NEXT:    %address = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
// CHECK-NEXT:    %unranked_address = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index {note}

// GENERIC: %static = "memref.cast"(%d) {note = "asserts 16"} : (memref<?xf32>) -> memref<16xf32>
// GENERIC: %vtcm = "memref.memory_space_cast"(%m) : (memref<16xf32>) -> memref<16xf32, "global.vtcm">
// GENERIC: %address = "memref.extract_aligned_pointer_as_index"(%m) : (memref<16xf32>) -> index

func.func @access(%f: memref<?xf32>, %i: memref<4x4xi32>, %x: f32, %k: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %sum = memref.atomic_rmw addf %x, %f[%c0] : (f32, memref<?xf32>) -> f32
  %quoted = memref.atomic_rmw "maximumf" %x, %f[%n] : (f32, memref<?xf32>) -> f32
  %bits = memref.atomic_rmw xori %k, %i[%c0, %n] {note} : (i32, memref<4x4xi32>) -> i32
  %old = memref.atomic_rmw assign %k, %i[%n, %c0] : (i32, memref<4x4xi32>) -> i32
  memref.prefetch %f[%n], read, locality<3>, data : memref<?xf32>
  memref.prefetch %i[%c0, %n], write, locality<0>, instr : memref<4x4xi32>
  return
}

// CHECK-LABEL: func.func @access
// CHECK:         %sum = memref.atomic_rmw addf %x, %f[%c0] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    %quoted = memref.atomic_rmw maximumf %x, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT:    %bits = memref.atomic_rmw xori %k, %i[%c0, %n] {note} : (i32, memref<4x4xi32>) -> i32
// CHECK-NEXT:    %old = memref.atomic_rmw assign %k, %i[%n, %c0] : (i32, memref<4x4xi32>) -> i32
// CHECK-NEXT:    memref.prefetch %f[%n], read, locality<3>, data : memref<?xf32>
// CHECK-NEXT:    memref.prefetch %i[%c0, %n], write, locality<0>, instr : memref<4x4xi32>

// MLIR's numbering of the kinds (the one its generic form carries).
// GENERIC: %sum = "memref.atomic_rmw"(%x, %f, %c0) <{kind = 0 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %quoted = "memref.atomic_rmw"(%x, %f, %n) <{kind = 4 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %bits = "memref.atomic_rmw"(%k, %i, %c0, %n) <{kind = 15 : i64}> {note} : (i32, memref<4x4xi32>, index, index) -> i32
// GENERIC: %old = "memref.atomic_rmw"(%k, %i, %n, %c0) <{kind = 3 : i64}> : (i32, memref<4x4xi32>, index, index) -> i32
// GENERIC: "memref.prefetch"(%f, %n) <{isWrite = false, localityHint = 3 : i32, isDataCache = true}> : (memref<?xf32>, index) -> ()
// GENERIC: "memref.prefetch"(%i, %c0, %n) <{isWrite = true, localityHint = 0 : i32, isDataCache = false}> : (memref<4x4xi32>, index, index) -> ()

func.func @views(%m: memref<4x8xf32>, %d: memref<?x?xf32>, %s: memref<2x3x4xf32, strided<[24, 4, 1], offset: 7>>, %shape: memref<3xi64>, %sizes: memref<?xindex>, %flat: memref<8xf32, strided<[1]>>) {
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  %back = memref.transpose %t (d0, d1) -> (d1, d0) {note} : memref<8x4xf32, strided<[1, 8]>> to memref<4x8xf32>
  %dynamic = memref.transpose %d (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
  %three = memref.transpose %s (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32, strided<[24, 4, 1], offset: 7>> to memref<4x2x3xf32, strided<[1, 24, 4], offset: 7>>
  %reshaped = memref.reshape %d(%shape) : (memref<?x?xf32>, memref<3xi64>) -> memref<?x?x4xf32>
  %unranked = memref.reshape %m(%sizes) {note} : (memref<4x8xf32>, memref<?xindex>) -> memref<*xf32>
  %from_unit = memref.reshape %flat(%shape) : (memref<8xf32, strided<[1]>>, memref<3xi64>) -> memref<2x2x2xf32>
  %c4 = arith.constant 4 : index
  %copied = memref.alloc(%c4) : memref<?x8xf32>
  memref.copy %m, %copied : memref<4x8xf32> to memref<?x8xf32>
  return
}

// CHECK-LABEL: func.func @views
// CHECK-NEXT:    %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
// CHECK-NEXT:    %back = memref.transpose %t (d0, d1) -> (d1, d0) {note} : memref<8x4xf32, strided<[1, 8]>> to memref<4x8xf32>
// CHECK-NEXT:    %dynamic = memref.transpose %d (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32, strided<[1, ?]>>
// CHECK-NEXT:    %three = memref.transpose %s (d0, d1, d2) -> (d2, d0, d1) : memref<2x3x4xf32, strided<[24, 4, 1], offset: 7>> to memref<4x2x3xf32, strided<[1, 24, 4], offset: 7>>
// CHECK-NEXT:    %reshaped = memref.reshape %d(%shape) : (memref<?x?xf32>, memref<3xi64>) -> memref<?x?x4xf32>
// CHECK-NEXT:    %unranked = memref.reshape %m(%sizes) {note} : (memref<4x8xf32>, memref<?xindex>) -> memref<*xf32>
// CHECK-NEXT:    %from_unit = memref.reshape %flat(%shape) : (memref<8xf32, strided<[1]>>, memref<3xi64>) -> memref<2x2x2xf32>
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %copied = memref.alloc(%c4) : memref<?x8xf32>
// CHECK-NEXT:    memref.copy %m, %copied : memref<4x8xf32> to memref<?x8xf32>

// GENERIC: %t = "memref.transpose"(%m) <{permutation = affine_map<(d0, d1) -> (d1, d0)>}> : (memref<4x8xf32>) -> memref<8x4xf32, strided<[1, 8]>>
// GENERIC: %reshaped = "memref.reshape"(%d, %shape) : (memref<?x?xf32>, memref<3xi64>) -> memref<?x?x4xf32>

func.func @allocation(%d: memref<?xf32>, %n: index) -> (memref<?xf32>, f32) {
  %grown = memref.realloc %d : memref<?xf32> to memref<32xf32>
  %sized = memref.realloc %grown(%n) {alignment = 64 : i64} : memref<32xf32> to memref<?xf32>
  memref.alloca_scope {
    %tmp = memref.alloca() : memref<4xf32>
  }
  %v = memref.alloca_scope -> (f32) {
    %c0 = arith.constant 0 : index
    %tmp = memref.alloca() : memref<4xf32>
    %x = memref.load %tmp[%c0] : memref<4xf32>
    memref.alloca_scope.return %x : f32
  } {note}
  return %sized, %v : memref<?xf32>, f32
}

// CHECK-LABEL: func.func @allocation
// CHECK-NEXT:    %grown = memref.realloc %d : memref<?xf32> to memref<32xf32>
// CHECK-NEXT:    %sized = memref.realloc %grown(%n) {alignment = 64 : i64} : memref<32xf32> to memref<?xf32>
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      %tmp = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %v = memref.alloca_scope -> (f32) {
// CHECK:           memref.alloca_scope.return %x : f32
// CHECK-NEXT:    } {note}

// The return of a scope without results is implicit, not left out.
// GENERIC:      %sized = "memref.realloc"(%grown, %n) <{alignment = 64 : i64}> : (memref<32xf32>, index) -> memref<?xf32>
// GENERIC:      "memref.alloca_scope"() ({
// GENERIC-NEXT:   %tmp = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC-NEXT:   "memref.alloca_scope.return"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC:        "memref.alloca_scope.return"(%x) : (f32) -> ()
// GENERIC-NEXT: }) {note} : () -> f32

// RUN: xdsl-opt %s -p memory-manifest --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-manifest{target=hexagon-v65}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-manifest{target=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TARGET

// TARGET: memory-manifest: unknown target 'nope'; expected one of: hexagon-v65, hexagon-v66, hexagon-v68, hexagon-v69, hexagon-v73, hexagon-v75

// CHECK-LABEL: func.func @static_global() -> memref<4x8xf32> {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<4x8xf32>
// CHECK-NEXT:    func.return %[[T]] : memref<4x8xf32>

func.func @static_global() -> memref<4x8xf32> {
  %a = memref.alloc() : memref<4x8xf32>
  func.return %a : memref<4x8xf32>
}

// -----

// The scope's default alignment comes from the target (VTCM: 2048 bytes on
// Hexagon); an `alignment` attribute wins, and the tensor keeps it as a
// request that later passes honour when they move it.  Index elements take
// 8 bytes.
// CHECK-LABEL: func.func @vtcm_default_and_explicit_alignment() {
// CHECK-NEXT:    %[[V:.*]] = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %[[VT:.*]] = memory.alloc_tensor %[[V]][0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
// CHECK-NEXT:    %[[W:.*]] = memory.alloc_storage [3] align 128 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %[[WT:.*]] = memory.alloc_tensor %[[W]][0] align 128 : !memory.storage<"global.vtcm"> to memref<3xi8, "global.vtcm">
// CHECK-NEXT:    %[[G:.*]] = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[GT:.*]] = memory.alloc_tensor %[[G]][0] : !memory.storage<"global"> to memref<2xindex, "global">
// CHECK-NEXT:    "test.op"(%[[VT]], %[[WT]], %[[GT]])

func.func @vtcm_default_and_explicit_alignment() {
  %v = memref.alloc() : memref<16xi32, "global.vtcm">
  %w = memref.alloc() {alignment = 128 : i64} : memref<3xi8, "global.vtcm">
  %g = memref.alloc() : memref<2xindex, "global">
  "test.op"(%v, %w, %g) : (memref<16xi32, "global.vtcm">, memref<3xi8, "global.vtcm">, memref<2xindex, "global">) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @dealloc_kills_tensor_then_storage() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [32] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %[[T]] : memref<8xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return

func.func @dealloc_kills_tensor_then_storage() {
  %a = memref.alloc() : memref<8xf32, "global.vtcm">
  memref.dealloc %a : memref<8xf32, "global.vtcm">
  func.return
}

// -----

// The byte size is the static part (4 x 4 bytes) times each dynamic size.
// The tensor keeps the alloc's name; the byte count and the storage are named
// after it.
// CHECK-LABEL: func.func @dynamic_sizes(%m: index, %n: index) {
// CHECK-NEXT:    %a_bytes = arith.constant 16 : index
// CHECK-NEXT:    %a_bytes_1 = arith.muli %a_bytes, %m : index
// CHECK-NEXT:    %a_bytes_2 = arith.muli %a_bytes_1, %n : index
// CHECK-NEXT:    %a_storage = memory.alloc_storage [%a_bytes_2] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %a_storage[0][%m, %n] : !memory.storage<"global"> to memref<?x4x?xf32>
// CHECK-NEXT:    memory.kill %a : memref<?x4x?xf32>
// CHECK-NEXT:    memory.kill %a_storage : !memory.storage<"global">

func.func @dynamic_sizes(%m: index, %n: index) {
  %a = memref.alloc(%m, %n) : memref<?x4x?xf32>
  memref.dealloc %a : memref<?x4x?xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @nested_regions(%c: i1) {
// CHECK:         scf.if %c {
// CHECK-NEXT:      %[[A:.*]] = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:      %[[AT:.*]] = memory.alloc_tensor %[[A]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      memory.kill %[[AT]] : memref<4xf32>
// CHECK-NEXT:      memory.kill %[[A]] : !memory.storage<"global">
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %i = %lb to %ub step %st {
// CHECK-NEXT:      %[[B:.*]] = memory.alloc_storage [8] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      %[[BT:.*]] = memory.alloc_tensor %[[B]][0] : !memory.storage<"global.vtcm"> to memref<2xi32, "global.vtcm">
// CHECK-NEXT:      memory.kill %[[BT]] : memref<2xi32, "global.vtcm">
// CHECK-NEXT:      memory.kill %[[B]] : !memory.storage<"global.vtcm">
// CHECK-NEXT:    }

func.func @nested_regions(%c: i1) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  scf.if %c {
    %a = memref.alloc() : memref<4xf32>
    memref.dealloc %a : memref<4xf32>
  }
  scf.for %i = %lb to %ub step %st {
    %b = memref.alloc() : memref<2xi32, "global.vtcm">
    memref.dealloc %b : memref<2xi32, "global.vtcm">
  }
  func.return
}

// -----

// Each dealloc kills the tensor and the storage where it was.
// CHECK-LABEL: func.func @dealloc_in_branch(%c: i1) {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      memory.kill %[[T]] : memref<4xf32>
// CHECK-NEXT:      memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memory.kill %[[T]] : memref<4xf32>
// CHECK-NEXT:      memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    }

func.func @dealloc_in_branch(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  scf.if %c {
    memref.dealloc %a : memref<4xf32>
  } else {
    memref.dealloc %a : memref<4xf32>
  }
  func.return
}

// -----

// Stack memory is freed by its scope: nothing to manifest.
// CHECK-LABEL: func.func @alloca_is_left_alone() {
// CHECK-NEXT:    %a = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    func.return

func.func @alloca_is_left_alone() {
  %a = memref.alloca() : memref<4xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @nothing_to_do(%x: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT:    func.return %x : memref<4xf32>

func.func @nothing_to_do(%x: memref<4xf32>) -> memref<4xf32> {
  func.return %x : memref<4xf32>
}

// -----

// bufferization.clone (the deallocation pipeline clones each argument a
// function returns) becomes memref.alloc + memref.copy, as MLIR lowers it,
// and then a tensor like any other: a dealloc of it is a kill, and a dynamic
// size comes from the source.
// CHECK-LABEL: func.func @clone(%x: memref<4xf32>, %y: memref<?x2xi8>) -> memref<?x2xi8> {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    memref.copy %x, %[[T]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    memory.kill %[[T]] : memref<4xf32>
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    %[[I:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %y, %[[I]] : memref<?x2xi8>
// CHECK:         %[[DS:.*]] = memory.alloc_storage [%{{.*}}] : !memory.storage<"global">
// CHECK-NEXT:    %[[DT:.*]] = memory.alloc_tensor %[[DS]][0][%[[D]]] : !memory.storage<"global"> to memref<?x2xi8>
// CHECK-NEXT:    memref.copy %y, %[[DT]] : memref<?x2xi8> to memref<?x2xi8>
// CHECK-NEXT:    func.return %[[DT]] : memref<?x2xi8>

func.func @clone(%x: memref<4xf32>, %y: memref<?x2xi8>) -> memref<?x2xi8> {
  %c = "bufferization.clone"(%x) : (memref<4xf32>) -> memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  %d = "bufferization.clone"(%y) : (memref<?x2xi8>) -> memref<?x2xi8>
  func.return %d : memref<?x2xi8>
}

// -----

// CHECK: bufferization.clone of memref<4xf32, strided<[2]>>: expected a memref with the identity layout, the only one a tensor at a byte offset has

func.func @clone_strided(%x: memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[2]>> {
  %c = "bufferization.clone"(%x) : (memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[2]>>
  func.return %c : memref<4xf32, strided<[2]>>
}

// -----

// CHECK: memref.alloc of memref<4x4xf32, strided<[8, 1]>> has the layout strided<[8, 1]>: expected the identity layout, the only one a tensor at a byte offset has

func.func @strided_layout() {
  %a = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  func.return
}

// -----

// CHECK: memref.dealloc of memref<4xf32> frees a value not produced by memref.alloc in this function: expected the result of a memref.alloc, whose storage the dealloc can kill

func.func @dealloc_of_argument(%x: memref<4xf32>) {
  memref.dealloc %x : memref<4xf32>
  func.return
}

// -----

// CHECK: memref.alloc of memref<4xcomplex<f32>>: element type complex<f32> has no size in bytes: expected an integer, float or index type

func.func @element_without_byte_size() {
  %a = memref.alloc() : memref<4xcomplex<f32>>
  func.return
}

// -----

// CHECK: memref.alloc of memref<4xf32, 1 : i64>: memory space 1 : i64 is not a scope: expected a string such as "global" or "global.vtcm"

func.func @memory_space_not_a_scope() {
  %a = memref.alloc() : memref<4xf32, 1 : i64>
  func.return
}

// -----

// Tensors passed to calls and carried through loops keep their type.
// CHECK-LABEL: func.func @calls_and_while(%n: index) {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:    func.call @use(%[[T]]) : (memref<16xf32, "global.vtcm">) -> ()
// CHECK:         scf.while
// CHECK-NEXT:      %[[W:.*]] = memory.alloc_storage [8] : !memory.storage<"global">
// CHECK-NEXT:      %[[WT:.*]] = memory.alloc_tensor %[[W]][0] : !memory.storage<"global"> to memref<2xi32>
// CHECK-NEXT:      memory.kill %[[WT]] : memref<2xi32>
// CHECK-NEXT:      memory.kill %[[W]] : !memory.storage<"global">
// CHECK:         memory.kill %[[T]] : memref<16xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global.vtcm">

func.func private @use(memref<16xf32, "global.vtcm">)

func.func @calls_and_while(%n: index) {
  %a = memref.alloc() : memref<16xf32, "global.vtcm">
  func.call @use(%a) : (memref<16xf32, "global.vtcm">) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%j = %c0) : (index) -> index {
    %w = memref.alloc() : memref<2xi32>
    memref.dealloc %w : memref<2xi32>
    %more = arith.cmpi slt, %j, %n : index
    scf.condition(%more) %j : index
  } do {
  ^bb0(%k: index):
    %next = arith.addi %k, %c1 : index
    scf.yield %next : index
  }
  memref.dealloc %a : memref<16xf32, "global.vtcm">
  func.return
}

// -----

// CHECK: memref.dealloc of memref<4xf32> frees a tensor whose storage holds other tensors: expected a memref.alloc result, alone in its storage, so that killing the storage frees only it

func.func @dealloc_of_a_shared_storage_tensor() {
  %s = memory.alloc_storage [32] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %b = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  "test.op"(%b) : (memref<4xf32>) -> ()
  func.return
}

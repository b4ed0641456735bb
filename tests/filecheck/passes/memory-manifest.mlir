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
// CHECK-NEXT:    "memref.copy"(%x, %[[T]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memory.kill %[[T]] : memref<4xf32>
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    %[[I:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %y, %[[I]] : memref<?x2xi8>
// CHECK:         %[[DS:.*]] = memory.alloc_storage [%{{.*}}] : !memory.storage<"global">
// CHECK-NEXT:    %[[DT:.*]] = memory.alloc_tensor %[[DS]][0][%[[D]]] : !memory.storage<"global"> to memref<?x2xi8>
// CHECK-NEXT:    "memref.copy"(%y, %[[DT]]) : (memref<?x2xi8>, memref<?x2xi8>) -> ()
// CHECK-NEXT:    func.return %[[DT]] : memref<?x2xi8>

func.func @clone(%x: memref<4xf32>, %y: memref<?x2xi8>) -> memref<?x2xi8> {
  %c = "bufferization.clone"(%x) : (memref<4xf32>) -> memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  %d = "bufferization.clone"(%y) : (memref<?x2xi8>) -> memref<?x2xi8>
  func.return %d : memref<?x2xi8>
}

// -----

// A clone of a view (a torch export bufferized without identity layouts at
// function boundaries returns one) is an identity-layout alloc, as MLIR
// lowers it, cast to the clone's type; a dealloc of the clone frees the alloc.
// CHECK-LABEL: func.func @clone_of_view(%x: memref<4x4xf32>, %n: index) -> memref<2x?xf32, strided<[?, ?], offset: ?>> {
// CHECK-NEXT:    %v = memref.subview %x[0, 0] [2, 2] [2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 2]>>
// CHECK-NEXT:    %u = "memref.cast"(%v) : (memref<2x2xf32, strided<[8, 2]>>) -> memref<2x2xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<2x2xf32>
// CHECK-NEXT:    "memref.copy"(%u, %[[T]]) : (memref<2x2xf32, strided<[?, ?], offset: ?>>, memref<2x2xf32>) -> ()
// CHECK-NEXT:    %[[C:.*]] = "memref.cast"(%[[T]]) : (memref<2x2xf32>) -> memref<2x2xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    "test.op"(%[[C]]) : (memref<2x2xf32, strided<[?, ?], offset: ?>>) -> ()
// CHECK-NEXT:    memory.kill %[[T]] : memref<2x2xf32>
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    %w = memref.subview %x[0, 1] [2, %n] [2, 1] : memref<4x4xf32> to memref<2x?xf32, strided<[8, 1], offset: 1>>
// CHECK-NEXT:    %wu = "memref.cast"(%w) : (memref<2x?xf32, strided<[8, 1], offset: 1>>) -> memref<2x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[I:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %wu, %[[I]] : memref<2x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[DT:.*]] = memory.alloc_tensor %{{.*}}[0][%[[D]]] : !memory.storage<"global"> to memref<2x?xf32>
// CHECK-NEXT:    "memref.copy"(%wu, %[[DT]]) : (memref<2x?xf32, strided<[?, ?], offset: ?>>, memref<2x?xf32>) -> ()
// CHECK-NEXT:    %[[DC:.*]] = "memref.cast"(%[[DT]]) : (memref<2x?xf32>) -> memref<2x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    func.return %[[DC]] : memref<2x?xf32, strided<[?, ?], offset: ?>>

func.func @clone_of_view(%x: memref<4x4xf32>, %n: index) -> memref<2x?xf32, strided<[?, ?], offset: ?>> {
  %v = memref.subview %x[0, 0] [2, 2] [2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 2]>>
  %u = "memref.cast"(%v) : (memref<2x2xf32, strided<[8, 2]>>) -> memref<2x2xf32, strided<[?, ?], offset: ?>>
  %c = bufferization.clone %u : memref<2x2xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  "test.op"(%c) : (memref<2x2xf32, strided<[?, ?], offset: ?>>) -> ()
  memref.dealloc %c : memref<2x2xf32, strided<[?, ?], offset: ?>>
  %w = memref.subview %x[0, 1] [2, %n] [2, 1] : memref<4x4xf32> to memref<2x?xf32, strided<[8, 1], offset: 1>>
  %wu = "memref.cast"(%w) : (memref<2x?xf32, strided<[8, 1], offset: 1>>) -> memref<2x?xf32, strided<[?, ?], offset: ?>>
  %d = bufferization.clone %wu : memref<2x?xf32, strided<[?, ?], offset: ?>> to memref<2x?xf32, strided<[?, ?], offset: ?>>
  func.return %d : memref<2x?xf32, strided<[?, ?], offset: ?>>
}

// -----

// A new buffer has the identity layout; MLIR does not lower a clone to a
// layout the identity layout does not cast to (a static stride of 2).
// CHECK: bufferization.clone of memref<4xf32, strided<[2]>> to memref<4xf32, strided<[2]>>: expected a result layout the identity layout casts to, as a new buffer has it (memref<4xf32>)

func.func @clone_strided(%x: memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[2]>> {
  %c = "bufferization.clone"(%x) : (memref<4xf32, strided<[2]>>) -> memref<4xf32, strided<[2]>>
  func.return %c : memref<4xf32, strided<[2]>>
}

// -----

// A clone of an unranked memref has no shape to allocate.
// CHECK: bufferization.clone of memref<*xf32> to memref<*xf32>: expected a ranked memref result

func.func @clone_unranked(%x: memref<*xf32>) -> memref<*xf32> {
  %c = bufferization.clone %x : memref<*xf32> to memref<*xf32>
  func.return %c : memref<*xf32>
}

// -----

// CHECK: memref.alloc of memref<4x4xf32, strided<[8, 1]>> has the layout strided<[8, 1]>: expected the identity layout, the only one a tensor at a byte offset has

func.func @strided_layout() {
  %a = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  func.return
}

// -----

// A dealloc of an argument frees what the caller allocated: it stays.
// CHECK-LABEL: func.func @dealloc_of_argument(%x: memref<4xf32>) {
// CHECK-NEXT:    memref.dealloc %x : memref<4xf32>

func.func @dealloc_of_argument(%x: memref<4xf32>) {
  memref.dealloc %x : memref<4xf32>
  func.return
}

// -----

// CHECK: memref.alloc of memref<4xcomplex<f32>>: element type complex<f32> is not supported: expected an integer, float or index type

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

// -----

// A returned alloc that a caller frees (here with a memref.dealloc of the
// result of a call to @forward, which returns what @make returns) belongs to
// the caller: it stays as it is, while the temporary the caller frees itself
// becomes a tensor.  (A returned alloc that no caller in the module frees
// becomes a tensor, as in @static_global.)
// CHECK-LABEL: func.func @make() -> memref<16xf32> {
// CHECK-NEXT:    %a = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    func.return %a : memref<16xf32>
// CHECK-LABEL: func.func @caller() {
// CHECK-NEXT:    %a = func.call @forward() : () -> memref<16xf32>
// CHECK-NEXT:    %t_storage = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%a, %t) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %t : memref<16xf32>
// CHECK-NEXT:    memory.kill %t_storage : !memory.storage<"global">
// CHECK-NEXT:    memref.dealloc %a : memref<16xf32>

func.func @make() -> memref<16xf32> {
  %a = memref.alloc() : memref<16xf32>
  func.return %a : memref<16xf32>
}

func.func @forward() -> memref<16xf32> {
  %a = func.call @make() : () -> memref<16xf32>
  func.return %a : memref<16xf32>
}

func.func @caller() {
  %a = func.call @forward() : () -> memref<16xf32>
  %t = memref.alloc() : memref<16xf32>
  "test.op"(%a, %t) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %t : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  func.return
}

// -----

// MLIR's buffer-deallocation-pipeline frees a buffer yielded out of an scf.if
// through the base buffer of its result, under a run-time condition: both
// allocs that may be that buffer stay, with the deallocs.
// CHECK-LABEL: func.func @yielded_out_of_if(%c: i1) {
// CHECK-NEXT:    %a = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %r = scf.if %c -> (memref<4xf32>) {
// CHECK-NEXT:      %b = memref.alloc() : memref<4xf32>
// CHECK:         memref.extract_strided_metadata %r
// CHECK:           memref.dealloc %base : memref<f32>
// CHECK:           memref.dealloc %a : memref<4xf32>

func.func @yielded_out_of_if(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %r = scf.if %c -> (memref<4xf32>) {
    %b = memref.alloc() : memref<4xf32>
    "test.op"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %b : memref<4xf32>
  } else {
    scf.yield %a : memref<4xf32>
  }
  "test.op"(%r) : (memref<4xf32>) -> ()
  %base, %offset, %size, %stride = "memref.extract_strided_metadata"(%r) : (memref<4xf32>) -> (memref<f32>, index, index, index)
  scf.if %c {
    memref.dealloc %base : memref<f32>
  } else {
    memref.dealloc %a : memref<4xf32>
  }
  func.return
}

// -----

// A loop-carried buffer is freed through the iter_arg in the next iteration
// and through the loop's result after it: it stays.  The temporary freed in
// its own iteration becomes a tensor.
// CHECK-LABEL: func.func @loop_carried(%x: memref<4xf32>) {
// CHECK:         scf.for
// CHECK-NEXT:      %t_storage = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %next = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      "test.op"(%acc, %t, %next)
// CHECK-NEXT:      memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      memory.kill %t : memref<4xf32>
// CHECK-NEXT:      memory.kill %t_storage : !memory.storage<"global">
// CHECK:         memref.dealloc %r : memref<4xf32>

func.func @loop_carried(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %first) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %first) -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    %next = memref.alloc() : memref<4xf32>
    "test.op"(%acc, %t, %next) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %acc : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
    scf.yield %next : memref<4xf32>
  }
  memref.dealloc %r : memref<4xf32>
  func.return
}

// -----

// A buffer passed from the before region of an scf.while to the after region
// and freed there stays; so does one freed through a cast of it.
// CHECK-LABEL: func.func @while_and_cast(%c: i1) {
// CHECK-NEXT:    %a = memref.alloc() : memref<4xf32>
// CHECK:           %t = memref.alloc() : memref<4xf32>
// CHECK:           memref.dealloc %tt : memref<4xf32>
// CHECK:         memref.dealloc %view : memref<?xf32>

func.func @while_and_cast(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %r = scf.while () : () -> memref<4xf32> {
    %t = memref.alloc() : memref<4xf32>
    scf.condition(%c) %t : memref<4xf32>
  } do {
  ^bb0(%tt: memref<4xf32>):
    memref.dealloc %tt : memref<4xf32>
    scf.yield
  }
  %view = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  memref.dealloc %view : memref<?xf32>
  func.return
}

// -----

// A callee that frees its argument, directly or through a call, owns what
// it is given: the caller's allocs stay.  A call's result aliases an
// argument only if the callee may return it, so freeing the result of
// @fresh does not free %y, which becomes a tensor.
// CHECK-LABEL: func.func @frees_arguments() {
// CHECK-NEXT:    %x = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    func.call @wrap(%x) : (memref<4xf32>) -> ()
// CHECK-NEXT:    %y_storage = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %y = memory.alloc_tensor %y_storage[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %z = func.call @fresh(%y) : (memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT:    memref.dealloc %z : memref<4xf32>
// CHECK-NEXT:    memory.kill %y : memref<4xf32>

func.func @free(%a: memref<4xf32>) {
  memref.dealloc %a : memref<4xf32>
  func.return
}

func.func @wrap(%a: memref<4xf32>) {
  func.call @free(%a) : (memref<4xf32>) -> ()
  func.return
}

func.func @fresh(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return %b : memref<4xf32>
}

func.func @frees_arguments() {
  %x = memref.alloc() : memref<4xf32>
  func.call @wrap(%x) : (memref<4xf32>) -> ()
  %y = memref.alloc() : memref<4xf32>
  %z = func.call @fresh(%y) : (memref<4xf32>) -> memref<4xf32>
  memref.dealloc %z : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  func.return
}

// -----

// A call's result aliases only the arguments its callee may return as that
// result: @pair returns %a as its first result and a fresh buffer as its
// second, so freeing the second does not free %y, which becomes a tensor.
// CHECK-LABEL: func.func @frees_another_result() {
// CHECK-NEXT:    %y_storage = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %y = memory.alloc_tensor %y_storage[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %s, %t = func.call @pair(%y) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
// CHECK-NEXT:    "test.op"(%s) : (memref<4xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    memory.kill %y : memref<4xf32>

func.func @pair(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %b = memref.alloc() : memref<4xf32>
  "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return %a, %b : memref<4xf32>, memref<4xf32>
}

func.func @frees_another_result() {
  %y = memref.alloc() : memref<4xf32>
  %s, %t = func.call @pair(%y) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
  "test.op"(%s) : (memref<4xf32>) -> ()
  memref.dealloc %t : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  func.return
}

// -----

// A buffer passed to another block by a branch and freed there stays.
// CHECK-LABEL: func.func @freed_after_a_branch() {
// CHECK-NEXT:    %a = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    cf.br ^bb1(%a : memref<4xf32>)
// CHECK-NEXT:  ^bb1(%b: memref<4xf32>):
// CHECK-NEXT:    memref.dealloc %b : memref<4xf32>

func.func @freed_after_a_branch() {
  %a = memref.alloc() : memref<4xf32>
  cf.br ^bb1(%a : memref<4xf32>)
^bb1(%b : memref<4xf32>):
  memref.dealloc %b : memref<4xf32>
  func.return
}

// -----

// A dealloc in one branch and a use in the other never run both.
// CHECK-LABEL: func.func @dealloc_and_use_in_other_branches(%c: i1) {
// CHECK-NEXT:    %a_storage = memory.alloc_storage [16] : !memory.storage<"global">

func.func @dealloc_and_use_in_other_branches(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  scf.if %c {
    memref.dealloc %a : memref<4xf32>
  } else {
    "test.op"(%a) : (memref<4xf32>) -> ()
    memref.dealloc %a : memref<4xf32>
  }
  func.return
}

// -----

// CHECK: memory-manifest: in @use_after_dealloc, test.op uses %a after memref.dealloc freed %a (undefined behaviour): expected every use of a buffer and of its views before it is freed

func.func @use_after_dealloc() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  "test.op"(%a) : (memref<4xf32>) -> ()
  func.return
}

// -----

// A use of a view, nested in a later loop, surely runs after the free.
// CHECK: memory-manifest: in @view_used_in_a_later_loop, memref.load uses %v (a view of %a) after memref.dealloc freed %a (undefined behaviour): expected every use of a buffer and of its views before it is freed

func.func @view_used_in_a_later_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %v = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  memref.dealloc %a : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %v[%i] : memref<?xf32>
  }
  func.return
}

// -----

// CHECK: memory-manifest: in @freed_twice, memref.dealloc uses %a after memref.dealloc freed %a (undefined behaviour): expected every use of a buffer and of its views before it is freed

func.func @freed_twice() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  func.return
}


// -----

// An alloc that a store writes to memory (a memref of memrefs) can be loaded
// back and freed through the loaded value: memplan cannot see who frees it,
// so it stays as it is.
// CHECK-LABEL: func.func @stored_to_memory(%box: memref<1xmemref<16xf32>>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %a = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    memref.store %a, %box[%c0] : memref<1xmemref<16xf32>>
// CHECK-NEXT:    %l = memref.load %box[%c0] : memref<1xmemref<16xf32>>
// CHECK-NEXT:    "test.op"(%l) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %l : memref<16xf32>

func.func @stored_to_memory(%box: memref<1xmemref<16xf32>>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  memref.store %a, %box[%c0] : memref<1xmemref<16xf32>>
  %l = memref.load %box[%c0] : memref<1xmemref<16xf32>>
  "test.op"(%l) : (memref<16xf32>) -> ()
  memref.dealloc %l : memref<16xf32>
  func.return
}

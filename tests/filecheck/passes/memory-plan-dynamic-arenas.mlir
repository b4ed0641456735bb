// RUN: xdsl-opt %s -p 'memory-plan{dynamic-arenas=true},memory-verify' --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: xdsl-opt %s -p 'memory-plan{dynamic-arenas=true tensor-alignment=128}' --split-input-file --allow-unregistered-dialect | filecheck %s --check-prefix=TALIGN
// RUN: xdsl-opt %s -p memory-plan --split-input-file --allow-unregistered-dialect | filecheck %s --check-prefix=DEFAULT

// memory-plan{dynamic-arenas=true}: tensors of dynamic shape whose bytes are
// constant multiples of one unit (the product of their dynamic sizes) share
// an arena of that unit, packed in units (memplan/passes/dynamic_arenas.py).

// Disjoint lifetimes of one unit share bytes: %a and %b, both live with %c,
// are both at offset 0 of one arena of 17 units (%b's 16 and %c's 1 byte per
// unit); the sizes of the storages they leave are erased with them.
// CHECK-LABEL: func.func @disjoint(%n: index) {
// CHECK-NEXT:    %[[H:.*]] = arith.constant 17 : index
// CHECK-NEXT:    %arena_bytes = arith.muli %[[H]], %n : index
// CHECK-NEXT:    %arena = memory.alloc_storage [%arena_bytes] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0][%n] : !memory.storage<"global"> to memref<?x2xf32>
// CHECK-NEXT:    %[[O:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[O]], %n : index
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[%[[OFF]]][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    "test.op"(%a, %c) : (memref<?x2xf32>, memref<?xi8>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<?x2xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0][%n] : !memory.storage<"global"> to memref<?x4xf32>
// CHECK-NEXT:    "test.op"(%b, %c) : (memref<?x4xf32>, memref<?xi8>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<?xi8>
// CHECK-NEXT:    memory.kill %b : memref<?x4xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return

// Without the option (the default), dynamic-size storages keep their own
// bytes and are only killed after their tensor's last use.
// DEFAULT-LABEL: func.func @disjoint(%n: index) {
// DEFAULT-NOT:     %arena
// DEFAULT:         %s0 = memory.alloc_storage [%as] : !memory.storage<"global">
// DEFAULT:         %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
// DEFAULT:         %s1 = memory.alloc_storage [%bs] : !memory.storage<"global">

func.func @disjoint(%n: index) {
  %c8 = arith.constant 8 : index
  %as = arith.muli %c8, %n : index
  %s0 = memory.alloc_storage [%as] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?x2xf32>
  %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%a, %c) : (memref<?x2xf32>, memref<?xi8>) -> ()
  %c16 = arith.constant 16 : index
  %bs = arith.muli %c16, %n : index
  %s1 = memory.alloc_storage [%bs] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?x4xf32>
  "test.op"(%b, %c) : (memref<?x4xf32>, memref<?xi8>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s1 : !memory.storage<"global">
  memory.kill %s2 : !memory.storage<"global">
  func.return
}

// -----

// Overlapping lifetimes get distinct offsets.  Two memref.dim of one memref
// at one constant index are one unit, whichever constant op gives the index:
// the arena is sized by the first, which is defined before the run.
// CHECK-LABEL: func.func @overlapping(%x: memref<?x3xf32>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %n = memref.dim %x, %c0 : memref<?x3xf32>
// CHECK-NEXT:    %[[H:.*]] = arith.constant 9 : index
// CHECK-NEXT:    %arena_bytes = arith.muli %[[H]], %n : index
// CHECK-NEXT:    %arena = memory.alloc_storage [%arena_bytes] : !memory.storage<"global">
// CHECK-NEXT:    %[[O:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[O]], %n : index
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[%[[OFF]]][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %zero = arith.constant 0 : index
// CHECK-NEXT:    %m = memref.dim %x, %zero : memref<?x3xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0][%m] : !memory.storage<"global"> to memref<?x2xf32>
// CHECK-NEXT:    "test.op"(%a, %b) : (memref<?xi8>, memref<?x2xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<?xi8>
// CHECK-NEXT:    memory.kill %b : memref<?x2xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return

func.func @overlapping(%x: memref<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %zero = arith.constant 0 : index
  %m = memref.dim %x, %zero : memref<?x3xf32>
  %s1 = memory.alloc_storage [%m] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%m] : !memory.storage<"global"> to memref<?x2xf32>
  "test.op"(%a, %b) : (memref<?xi8>, memref<?x2xf32>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s1 : !memory.storage<"global">
  func.return
}

// -----

// Different units stay apart: one arena of %n bytes per unit, one of %m.
// CHECK-LABEL: func.func @different_units(%n: index, %m: index) {
// CHECK-NEXT:    %[[H:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %arena_bytes = arith.muli %[[H]], %n : index
// CHECK-NEXT:    %arena = memory.alloc_storage [%arena_bytes] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %[[H1:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %arena_bytes_1 = arith.muli %[[H1]], %m : index
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [%arena_bytes_1] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0][%m] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[O]], %n : index
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[%[[OFF]]][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %[[O1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OFF1:.*]] = arith.muli %[[O1]], %m : index
// CHECK-NEXT:    %d = memory.alloc_tensor %arena_1[%[[OFF1]]][%m] : !memory.storage<"global"> to memref<?xi8>

func.func @different_units(%n: index, %m: index) {
  %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %s1 = memory.alloc_storage [%m] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%m] : !memory.storage<"global"> to memref<?xi8>
  %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %s3 = memory.alloc_storage [%m] : !memory.storage<"global">
  %d = memory.alloc_tensor %s3[0][%m] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%a, %b, %c, %d) : (memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s1 : !memory.storage<"global">
  memory.kill %s2 : !memory.storage<"global">
  memory.kill %s3 : !memory.storage<"global">
  func.return
}

// -----

// A unit of several factors is their product, in any order: %n x %m and
// %m x %n are one unit.
// CHECK-LABEL: func.func @two_factors(%n: index, %m: index) {
// CHECK-NEXT:    %[[U:.*]] = arith.muli %n, %m : index
// CHECK-NEXT:    %[[H:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %arena_bytes = arith.muli %[[H]], %[[U]] : index
// CHECK-NEXT:    %arena = memory.alloc_storage [%arena_bytes] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0][%n, %m] : !memory.storage<"global"> to memref<?x?xi8>
// CHECK-NEXT:    %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[O]], %[[U]] : index
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[%[[OFF]]][%m, %n] : !memory.storage<"global"> to memref<?x?xi8>

func.func @two_factors(%n: index, %m: index) {
  %nm = arith.muli %n, %m : index
  %s0 = memory.alloc_storage [%nm] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n, %m] : !memory.storage<"global"> to memref<?x?xi8>
  %s1 = memory.alloc_storage [%nm] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%m, %n] : !memory.storage<"global"> to memref<?x?xi8>
  "test.op"(%a, %b) : (memref<?x?xi8>, memref<?x?xi8>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s1 : !memory.storage<"global">
  func.return
}

// -----

// Offsets in units are multiples of each tensor's alignment, so the bytes
// are aligned for every unit: %a (align 64, 12 bytes a unit) at 64 units,
// not 12; the arena is as aligned as the storages and tensors it replaces.
// CHECK-LABEL: func.func @alignment(%n: index) {
// CHECK-NEXT:    %[[H:.*]] = arith.constant 76 : index
// CHECK-NEXT:    %arena_bytes = arith.muli %[[H]], %n : index
// CHECK-NEXT:    %arena = memory.alloc_storage [%arena_bytes] align 128 : !memory.storage<"global">
// CHECK-NEXT:    %[[O:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[O]], %n : index
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[%[[OFF]]][%n] align 64 : !memory.storage<"global"> to memref<1x?x3xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0][%n] align 128 : !memory.storage<"global"> to memref<1x?x3xf32>

// TALIGN-LABEL: func.func @alignment(%n: index) {
// TALIGN-NEXT:    %[[H:.*]] = arith.constant 256 : index
// TALIGN:         %[[O:.*]] = arith.constant 128 : index

func.func @alignment(%n: index) {
  %c12 = arith.constant 12 : index
  %as = arith.muli %c12, %n : index
  %s0 = memory.alloc_storage [%as] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] align 64 : !memory.storage<"global"> to memref<1x?x3xf32>
  %s1 = memory.alloc_storage [%as] align 128 : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%n] align 128 : !memory.storage<"global"> to memref<1x?x3xf32>
  "test.op"(%a, %b) : (memref<1x?x3xf32>, memref<1x?x3xf32>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s1 : !memory.storage<"global">
  func.return
}

// -----

// A unit defined in the loop that allocates the tensors cannot size an arena
// before the loop: the storages stay, killed after their last use.
// CHECK-LABEL: func.func @unit_defined_in_loop(%n: index) {
// CHECK-NOT:     %arena
// CHECK:         %s0 = memory.alloc_storage [%k] : !memory.storage<"global">
// CHECK:         %s1 = memory.alloc_storage [%k] : !memory.storage<"global">
// CHECK:         func.return

func.func @unit_defined_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %c1 : index
    %s0 = memory.alloc_storage [%k] : !memory.storage<"global">
    %a = memory.alloc_tensor %s0[0][%k] : !memory.storage<"global"> to memref<?xi8>
    %s1 = memory.alloc_storage [%k] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0][%k] : !memory.storage<"global"> to memref<?xi8>
    "test.op"(%a, %b) : (memref<?xi8>, memref<?xi8>) -> ()
    memory.kill %s0 : !memory.storage<"global">
    memory.kill %s1 : !memory.storage<"global">
  }
  func.return
}

// -----

// Left alone: a returned tensor, a storage of two tensors, and so a run of
// one tensor (an arena of one would only rename its storage).
// CHECK-LABEL: func.func @left_alone(%n: index) -> memref<?xi8> {
// CHECK-NEXT:    %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %s2 = memory.alloc_storage [%n] : !memory.storage<"global">

func.func @left_alone(%n: index) -> memref<?xi8> {
  %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %d = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%a, %b, %c, %d) : (memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s2 : !memory.storage<"global">
  func.return %b : memref<?xi8>
}

// -----

// Code that may not run plans its own memory: the branch's tensors share an
// arena allocated in the branch.
// CHECK-LABEL: func.func @in_a_branch(%n: index, %p: i1) {
// CHECK-NEXT:    scf.if %p {
// CHECK-NEXT:      %[[H:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %arena_bytes = arith.muli %[[H]], %n : index
// CHECK-NEXT:      %arena = memory.alloc_storage [%arena_bytes] : !memory.storage<"global">
// CHECK-NEXT:      %a = memory.alloc_tensor %arena[0][%n] : !memory.storage<"global"> to memref<?xi8>

func.func @in_a_branch(%n: index, %p: i1) {
  scf.if %p {
    %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
    %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
    %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xi8>
    "test.op"(%a, %b) : (memref<?xi8>, memref<?xi8>) -> ()
    memory.kill %s0 : !memory.storage<"global">
    memory.kill %s1 : !memory.storage<"global">
  }
  func.return
}

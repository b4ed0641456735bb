// RUN: xdsl-opt %s -p convert-memory-to-memref --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-run %S/Inputs/reinterpret-cast.mlir | filecheck %s --check-prefix=EXEC
// RUN: xdsl-opt %S/Inputs/reinterpret-cast.mlir -p memory-manifest,memory-plan,convert-memory-to-memref | memplan-run - | filecheck %s --check-prefix=EXEC
// RUN: xdsl-opt %S/Inputs/reinterpret-cast.mlir -p memory-manifest,memory-coalesce,convert-memory-to-memref | memplan-run - | filecheck %s --check-prefix=EXEC

// A reinterpret_cast of a tensor counts its offset from the tensor's first
// byte before and after lowering: after lowering the tensor is a memref.view
// into the arena, whose base pointer (as in MLIR) is the arena's plus the
// byte shift.  Counting from the arena's start read another tensor's bytes.
// EXEC: result: array([2, 2, 2, 2], dtype=int32)

// Scope "global" is no memory space; tensors are views at their byte shift;
// tensor kills vanish, storage kills free the bytes, copies stay copies.
// CHECK-LABEL: func.func @storages_tensors_kills() -> memref<4xf32> {
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<80xi8>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[S]][%[[Z]]][] : memref<80xi8> to memref<4xf32>
// CHECK-NEXT:    %[[SIXTYFOUR:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[S]][%[[SIXTYFOUR]]][] : memref<80xi8> to memref<2x2xi32>
// CHECK-NEXT:    %[[V:.*]] = memref.alloc() {alignment = 2048 : i64} : memref<4096xi8, "global.vtcm">
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 2048 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[V]][%[[SHIFT]]][] : memref<4096xi8, "global.vtcm"> to memref<4xf32, "global.vtcm">
// CHECK-NEXT:    "memref.copy"(%[[A]], %[[C]]) : (memref<4xf32>, memref<4xf32, "global.vtcm">) -> ()
// CHECK-NEXT:    memref.dealloc %[[V]] : memref<4096xi8, "global.vtcm">
// CHECK-NEXT:    "test.op"(%[[B]])
// CHECK-NEXT:    func.return %[[A]] : memref<4xf32>

func.func @storages_tensors_kills() -> memref<4xf32> {
  %s = memory.alloc_storage [80] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %b = memory.alloc_tensor %s[64] : !memory.storage<"global"> to memref<2x2xi32>
  %v = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %c = memory.alloc_tensor %v[2048] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
  memory.copy %a, %c : memref<4xf32> to memref<4xf32, "global.vtcm">
  memory.kill %c : memref<4xf32, "global.vtcm">
  memory.kill %v : !memory.storage<"global.vtcm">
  "test.op"(%b) : (memref<2x2xi32>) -> ()
  func.return %a : memref<4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_size_and_offset(%n: index, %off: index) {
// CHECK-NEXT:    %[[S:.*]] = memref.alloc(%n) {alignment = 64 : i64} : memref<?xi8, "global.vtcm">
// CHECK-NEXT:    %[[T:.*]] = memref.view %[[S]][%off][%n] : memref<?xi8, "global.vtcm"> to memref<?xi8, "global.vtcm">
// CHECK-NEXT:    "test.op"(%[[T]])
// CHECK-NEXT:    memref.dealloc %[[S]] : memref<?xi8, "global.vtcm">
// CHECK-NEXT:    func.return

func.func @dynamic_size_and_offset(%n: index, %off: index) {
  %s = memory.alloc_storage [%n] device 0 : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[%off][%n] : !memory.storage<"global.vtcm"> to memref<?xi8, "global.vtcm">
  "test.op"(%t) : (memref<?xi8, "global.vtcm">) -> ()
  memory.kill %t : memref<?xi8, "global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// memref.view keeps the buffer's memory space: a buffer whose tensors all
// spell scope "global" as a memory space spells it too, so no cast is needed
// (memplan-run could not run the memory_space_cast this used to produce).
// CHECK-LABEL: func.func @global_spelled_as_memory_space() {
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xi8, "global">
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T:.*]] = memref.view %[[S]][%[[Z]]][] : memref<16xi8, "global"> to memref<4xf32, "global">
// CHECK-NEXT:    "test.op"(%[[T]])

func.func @global_spelled_as_memory_space() {
  %s = memory.alloc_storage [16] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32, "global">
  "test.op"(%t) : (memref<4xf32, "global">) -> ()
  func.return
}

// -----

// Both spellings of "global" in one storage: the buffer has no memory space
// and the tensor spelled "global" is a view plus a memref.memory_space_cast.
// CHECK-LABEL: func.func @both_spellings_in_one_storage() {
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32xi8>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[S]][%[[Z]]][] : memref<32xi8> to memref<4xf32>
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[V:.*]] = memref.view %[[S]][%[[SHIFT]]][] : memref<32xi8> to memref<4xf32>
// CHECK-NEXT:    %[[B:.*]] = "memref.memory_space_cast"(%[[V]]) : (memref<4xf32>) -> memref<4xf32, "global">
// CHECK-NEXT:    "test.op"(%[[A]], %[[B]])

func.func @both_spellings_in_one_storage() {
  %s = memory.alloc_storage [32] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %b = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<4xf32, "global">
  "test.op"(%a, %b) : (memref<4xf32>, memref<4xf32, "global">) -> ()
  func.return
}

// -----

// An alignment request of a tensor holds after lowering through its buffer's
// alignment and its byte shift (a multiple of it); memref.view has no
// alignment of its own.
// CHECK-LABEL: func.func @aligned_tensor() {
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 256 : i64} : memref<512xi8>
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[T:.*]] = memref.view %[[S]][%[[SHIFT]]][] : memref<512xi8> to memref<4xf32>

func.func @aligned_tensor() {
  %s = memory.alloc_storage [512] align 256 : !memory.storage<"global">
  %t = memory.alloc_tensor %s[256] align 256 : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%t) : (memref<4xf32>) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @nested_regions(%c: i1) {
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xi8>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[T:.*]] = memref.view %[[S]][%[[Z]]][] : memref<16xi8> to memref<4xf32>
// CHECK-NEXT:      "test.op"(%[[T]])
// CHECK-NEXT:      memref.dealloc %[[S]] : memref<16xi8>
// CHECK-NEXT:    }

func.func @nested_regions(%c: i1) {
  scf.if %c {
    %s = memory.alloc_storage [16] : !memory.storage<"global">
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
    "test.op"(%t) : (memref<4xf32>) -> ()
    memory.kill %s : !memory.storage<"global">
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @nothing_to_do(%x: memref<4xf32>) -> memref<4xf32> {
// CHECK-NEXT:    func.return %x : memref<4xf32>

func.func @nothing_to_do(%x: memref<4xf32>) -> memref<4xf32> {
  func.return %x : memref<4xf32>
}

// -----

// CHECK: memory.alloc_discontiguous_tensor has no memref equivalent: its blocks are reached through a pointer table, which no memref layout expresses; expected only contiguous memory.alloc_tensor

func.func @discontiguous() {
  %table = memory.alloc_storage [8] : !memory.storage<"global.vtcm">
  %data = memory.alloc_storage [32] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %table[0], blocks %data[16, 0] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<2x4xf32, #memory.discontiguous, "global.vtcm">
  func.return
}

// -----

// CHECK: func.func has a block argument of type !memory.storage<"global">: expected storages to come from memory.alloc_storage only

func.func @storage_argument(%s: !memory.storage<"global">) {
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  func.return
}

// -----

// CHECK: func.call uses or yields a !memory.storage<"global"> value: expected storages to be used only by memory.alloc_tensor and memory.kill, which the lowering can rewrite

func.func private @consume(!memory.storage<"global">)

func.func @storage_passed_to_call() {
  %s = memory.alloc_storage [16] : !memory.storage<"global">
  func.call @consume(%s) : (!memory.storage<"global">) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @loops_and_calls(%n: index) {
// CHECK:         scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %[[S:.*]] = memref.alloc() {alignment = 2048 : i64} : memref<64xi8, "global.vtcm">
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[T:.*]] = memref.view %[[S]][%[[Z]]][] : memref<64xi8, "global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:      func.call @use(%[[T]]) : (memref<16xf32, "global.vtcm">) -> ()
// CHECK-NEXT:      memref.dealloc %[[S]] : memref<64xi8, "global.vtcm">
// CHECK-NEXT:    }
// CHECK:         scf.while
// CHECK-NEXT:      %[[W:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xi8>
// CHECK-NEXT:      memref.dealloc %[[W]] : memref<8xi8>

func.func private @use(memref<16xf32, "global.vtcm">)

func.func @loops_and_calls(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    func.call @use(%t) : (memref<16xf32, "global.vtcm">) -> ()
    memory.kill %t : memref<16xf32, "global.vtcm">
    memory.kill %s : !memory.storage<"global.vtcm">
  }
  %r = scf.while (%j = %c0) : (index) -> index {
    %w = memory.alloc_storage [8] : !memory.storage<"global">
    memory.kill %w : !memory.storage<"global">
    %more = arith.cmpi slt, %j, %n : index
    scf.condition(%more) %j : index
  } do {
  ^bb0(%k: index):
    %next = arith.addi %k, %c1 : index
    scf.yield %next : index
  }
  func.return
}

// -----

// CHECK: memory.alloc_storage on device 1 has no memref equivalent: memref.alloc has no device; expected device 0

func.func @other_device() {
  %s = memory.alloc_storage [16] device 1 : !memory.storage<"global">
  func.return
}

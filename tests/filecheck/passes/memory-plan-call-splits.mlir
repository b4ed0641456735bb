// RUN: memplan-opt %s -p 'memory-verify{capacity=6144}' --split-input-file | filecheck %s --check-prefix=INPUT
// RUN: memplan-opt %s -p 'memory-plan{capacity=6144}' --split-input-file | filecheck %s
// RUN: memplan-opt %s -p 'memory-plan{capacity=6144 arenas=function}' --split-input-file | filecheck %s --check-prefix=FUNCTION

// Where a run's arena, held across calls to a function holding VTCM of its
// own, leaves the callee too little room, memory-plan splits the run (see
// memory-plan-calls.mlir), coarsest first: the tensors live across those
// calls apart from the others; then the tensors live across different
// calls apart; then each tensor live across such a call in an arena of its
// own; last, every tensor in an arena of its own.  It keeps the first split
// whose arenas leave a call room and fit together.  Each input here is one
// memory-verify accepts at 6144 bytes.

// %a is live across the first call, %b across the second: one arena of
// both (6144 bytes) leaves @scratch no room at either.  Tensors live
// across different calls get arenas of their own, so each call sees only
// the tensor live across it.  With arenas=function, the function's arena
// splits the same way.
// INPUT-LABEL: func.func @different_calls(
// CHECK-LABEL: func.func @different_calls(
// CHECK:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0]
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    func.call @scratch(%r)
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0]
// CHECK:         memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.call @scratch(%r)
// CHECK:         memory.kill %arena_1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// FUNCTION-LABEL: func.func @different_calls(
// FUNCTION:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %a = memory.alloc_tensor %arena[0]
// FUNCTION-NEXT:    linalg.copy
// FUNCTION-NEXT:    func.call @scratch(%r)
// FUNCTION-NEXT:    %arena_1 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION:         memory.kill %arena : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    func.call @scratch(%r)

func.func @different_calls(%r: memref<512xf32>) {
  %sa = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%a : memref<512xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  %sb = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  %vb = memref.subview %b[0] [512] [1] : memref<1024xf32, "global.vtcm"> to memref<512xf32, strided<[1]>, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%vb : memref<512xf32, strided<[1]>, "global.vtcm">)
  linalg.copy ins(%a : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  linalg.copy ins(%vb : memref<512xf32, strided<[1]>, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// -----

// %t3 and %t4 are live across the call, %t1 and %t2 not.  One arena of all
// four (6144 bytes) leaves @scratch no room.  %t3 and %t4 in one arena
// beside one of %t1 and %t2 would leave it room at the call, but the two
// arenas (4096 bytes each) do not fit together where %t1, %t2 and %t3 are
// live: %t3 and %t4 get an arena each, and %t4's is allocated only once
// %t1's and %t2's is killed.
// INPUT-LABEL: func.func @late_tensor(
// CHECK-LABEL: func.func @late_tensor(
// CHECK:         %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %t1 = memory.alloc_tensor %arena[0]
// CHECK:         %t2 = memory.alloc_tensor %arena[2048]
// CHECK:         %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %t3 = memory.alloc_tensor %arena_1[0]
// CHECK:         memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %t4 = memory.alloc_tensor %arena_2[0]
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    func.call @scratch(%r)
// FUNCTION-LABEL: func.func @late_tensor(
// FUNCTION:         %arena_2 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %t4 = memory.alloc_tensor %arena_2[0]

func.func @late_tensor(%r: memref<512xf32>) {
  %s1 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t1 = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%t1 : memref<512xf32, "global.vtcm">)
  %s2 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t2 = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%t2 : memref<512xf32, "global.vtcm">)
  %s3 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t3 = memory.alloc_tensor %s3[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.add ins(%t1, %t2 : memref<512xf32, "global.vtcm">, memref<512xf32, "global.vtcm">) outs(%t3 : memref<512xf32, "global.vtcm">)
  memory.kill %s1 : !memory.storage<"global.vtcm">
  memory.kill %s2 : !memory.storage<"global.vtcm">
  %s4 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t4 = memory.alloc_tensor %s4[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%t3 : memref<512xf32, "global.vtcm">) outs(%t4 : memref<512xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  linalg.add ins(%t3, %t4 : memref<512xf32, "global.vtcm">, memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %s3 : !memory.storage<"global.vtcm">
  memory.kill %s4 : !memory.storage<"global.vtcm">
  func.return
}

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// -----

// With arenas=function, the function's one arena (from entry) would be held
// across the first call too, where no tensor is live.  Split, the tensors
// of the stretch before that call keep an arena from function entry, killed
// before it; those live across the later calls are split as above.
// INPUT-LABEL: func.func @workspace(
// FUNCTION-LABEL: func.func @workspace(
// FUNCTION-NEXT:    %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %x = memory.alloc_tensor %arena[0]
// FUNCTION:         memory.kill %arena : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    func.call @scratch(%r)
// FUNCTION-NEXT:    %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %a = memory.alloc_tensor %arena_1[0]
// FUNCTION-NEXT:    linalg.copy
// FUNCTION-NEXT:    func.call @scratch(%r)
// FUNCTION-NEXT:    %arena_2 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-LABEL: func.func @workspace(

func.func @workspace(%r: memref<512xf32>) {
  %sx = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %x = memory.alloc_tensor %sx[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%x : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%x : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sx : !memory.storage<"global.vtcm">
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  %sa = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%a : memref<512xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  %sb = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  %vb = memref.subview %b[0] [512] [1] : memref<1024xf32, "global.vtcm"> to memref<512xf32, strided<[1]>, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%vb : memref<512xf32, strided<[1]>, "global.vtcm">)
  linalg.copy ins(%a : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  linalg.copy ins(%vb : memref<512xf32, strided<[1]>, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// -----

// %t4 and %t5 are live across the call, %t0 and %t1 after it.  Apart, the
// arena of %t4 and %t5 (2560 bytes, 4096 from an aligned address) leaves
// @scratch room, but beside the arena of %t0 and %t1 (3072 bytes) it does
// not fit where %t0 is allocated, nor do the arenas of %t4 and %t5 alone:
// every tensor gets an arena of its own, as in the input.
// INPUT-LABEL: func.func @all_alone(
// CHECK-LABEL: func.func @all_alone(
// CHECK-COUNT-4: memory.alloc_storage
// CHECK-NOT:     memory.alloc_storage
// CHECK:         func.return
// FUNCTION-LABEL: func.func @all_alone(
// FUNCTION-COUNT-4: memory.alloc_storage
// FUNCTION-NOT:     memory.alloc_storage
// FUNCTION:         func.return

func.func @all_alone(%r: memref<512xf32>) {
  %st4 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t4 = memory.alloc_tensor %st4[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  %vt4 = memref.subview %r[0] [512] [1] : memref<512xf32> to memref<512xf32, strided<[1]>>
  linalg.copy ins(%vt4 : memref<512xf32, strided<[1]>>) outs(%t4 : memref<512xf32, "global.vtcm">)
  %st5 = memory.alloc_storage [512] : !memory.storage<"global.vtcm">
  %t5 = memory.alloc_tensor %st5[0] : !memory.storage<"global.vtcm"> to memref<128xf32, "global.vtcm">
  %vt5 = memref.subview %r[0] [128] [1] : memref<512xf32> to memref<128xf32, strided<[1]>>
  linalg.copy ins(%vt5 : memref<128xf32, strided<[1]>>) outs(%t5 : memref<128xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  %st0 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t0 = memory.alloc_tensor %st0[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  %vt0 = memref.subview %r[0] [512] [1] : memref<512xf32> to memref<512xf32, strided<[1]>>
  linalg.copy ins(%vt0 : memref<512xf32, strided<[1]>>) outs(%t0 : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%t5 : memref<128xf32, "global.vtcm">) outs(%vt5 : memref<128xf32, strided<[1]>>)
  memory.kill %st5 : !memory.storage<"global.vtcm">
  %st1 = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t1 = memory.alloc_tensor %st1[0] : !memory.storage<"global.vtcm"> to memref<256xf32, "global.vtcm">
  %vt1 = memref.subview %r[0] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1]>>
  linalg.copy ins(%vt1 : memref<256xf32, strided<[1]>>) outs(%t1 : memref<256xf32, "global.vtcm">)
  linalg.copy ins(%t0 : memref<512xf32, "global.vtcm">) outs(%vt0 : memref<512xf32, strided<[1]>>)
  memory.kill %st0 : !memory.storage<"global.vtcm">
  linalg.copy ins(%t1 : memref<256xf32, "global.vtcm">) outs(%vt1 : memref<256xf32, strided<[1]>>)
  memory.kill %st1 : !memory.storage<"global.vtcm">
  linalg.copy ins(%t4 : memref<512xf32, "global.vtcm">) outs(%vt4 : memref<512xf32, strided<[1]>>)
  memory.kill %st4 : !memory.storage<"global.vtcm">
  func.return
}

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// RUN: memplan-opt %s -p 'memory-plan{capacity=4096}' --split-input-file | filecheck %s
// RUN: memplan-opt %s -p 'memory-plan{capacity=8192}' --split-input-file | filecheck %s --check-prefix=ROOMY
// RUN: memplan-opt %s -p 'memory-plan{capacity=4096 arenas=function}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=FUNCTION

// An arena whose run spans a call to a function holding VTCM of its own is
// held during the call; where the two do not fit together, memory-plan
// splits the run: the tensors live across the call form arenas of their
// own, the others arenas cut by the call.  Functions are planned callees
// first, so a caller sees each callee's planned peak.

// %a is live across the call, %b only after it: memory-verify{capacity=4096}
// accepts the input (%sa and @scratch's 2048 bytes at the call, %sa and %sb
// after it).  One arena of %a and %b (4096 bytes) would hold 6144 bytes at
// the call; the split holds %a's arena there only.  With room for both
// (ROOMY), the run stays one arena.  With arenas=function the function's
// arena, its static workspace, splits the same way.
// CHECK-LABEL: func.func @main(
// CHECK:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0]
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    func.call @scratch(%r)
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0]
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    memory.kill %a
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    memory.kill %b
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// ROOMY-LABEL: func.func @main(
// ROOMY:         %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// ROOMY-NEXT:    %a = memory.alloc_tensor %arena[0]
// ROOMY:         func.call @scratch(%r)
// ROOMY-NEXT:    %b = memory.alloc_tensor %arena[2048]
// ROOMY-NOT:     memory.alloc_storage
// ROOMY:         memory.kill %arena : !memory.storage<"global.vtcm">
// ROOMY-NEXT:    func.return
// FUNCTION-LABEL: func.func @main(
// FUNCTION:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %a = memory.alloc_tensor %arena[0]
// FUNCTION-NEXT:    linalg.copy
// FUNCTION-NEXT:    func.call @scratch(%r)
// FUNCTION-NEXT:    %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FUNCTION-NEXT:    %b = memory.alloc_tensor %arena_1[0]

func.func @main(%r: memref<512xf32>) {
  %sa = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%a : memref<512xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<512xf32>) -> ()
  %sb = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.add ins(%a, %r : memref<512xf32, "global.vtcm">, memref<512xf32>) outs(%b : memref<512xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  linalg.copy ins(%b : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

// The callee comes after its caller: planned first all the same.
func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A branch arena nested in the arena that is split: %t nests in the arena
// of %a and %b (at %b's offset, free during the scf.if), which would hold
// 4096 bytes at the call in the branch.  Split, %a's arena (live across the
// scf.if) has no room left for %t without growing: %t's arena is the
// branch's own, killed before the call.  With arenas=function, %t is a
// tensor of the function's arena, held over the whole scf.if at the level
// of the function's body, so over the call in it: %a and %t are both live
// across it there, and no split leaves @scratch room; the final check
// refuses it (with the default arenas, %t's arena is the branch's own).
// CHECK-LABEL: func.func @branch(
// CHECK:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0]
// CHECK:         scf.if %c {
// CHECK-NEXT:      %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      %t = memory.alloc_tensor %arena_1[0]
// CHECK:           memory.kill %arena_1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      func.call @scratch(%r)
// CHECK-NEXT:    }
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_2[0]
// CHECK:         memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK:         memory.kill %arena_2 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// ROOMY-LABEL: func.func @branch(
// ROOMY:         %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// ROOMY:           %t = memory.alloc_tensor %arena[2048]
// ROOMY:         %b = memory.alloc_tensor %arena[2048]
// ROOMY-NOT:     memory.alloc_storage
// ROOMY:         func.return
// FUNCTION: memory-plan: in @branch, after planning, scope "global.vtcm" holds 6144 bytes at func.call @scratch (held: %arena, func.call @scratch (2048 bytes)), over its capacity of 4096 bytes

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

func.func @branch(%r: memref<512xf32>, %c: i1) {
  %sa = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%a : memref<512xf32, "global.vtcm">)
  scf.if %c {
    %st = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
    %t = memory.alloc_tensor %st[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
    linalg.copy ins(%a : memref<512xf32, "global.vtcm">) outs(%t : memref<512xf32, "global.vtcm">)
    linalg.copy ins(%t : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
    memory.kill %st : !memory.storage<"global.vtcm">
    func.call @scratch(%r) : (memref<512xf32>) -> ()
  }
  %sb = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.add ins(%a, %r : memref<512xf32, "global.vtcm">, memref<512xf32>) outs(%b : memref<512xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  linalg.copy ins(%b : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

// RUN: memplan-opt %s -p 'memory-manifest,memory-plan{capacity=14336}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %s -p 'memory-manifest,memory-plan{discontiguous=auto capacity=14336},memory-verify{capacity=14336}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=AUTO
// RUN: memplan-opt %s -p 'memory-manifest,memory-plan{capacity=2100}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=SMALL

// A branch arena takes what its enclosing arena leaves of the window: %z
// (2048 bytes) is live across the scf.if, so the branch's tensors have
// 12288 bytes, which no contiguous plan fits (it needs 14336) but 2 KiB
// blocks do.
// CHECK: memory-plan: in @branch, the "global.vtcm" arena needs 14336 bytes with the best plan of 10 tensors (at least 12288 bytes are live at once), over the scope capacity of 14336 bytes, of which 2048 are held while the arena is live: an enclosing arena of 2048 bytes
// AUTO-LABEL: func.func @branch
// AUTO:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// AUTO:         scf.if %cond {
// AUTO-NEXT:      %arena_1 = memory.alloc_storage [12288] align 2048 : !memory.storage<"global.vtcm">
// AUTO-NOT:     memory-verify

func.func @branch(%cond: i1) {
  %v = arith.constant 1.0 : f32
  %z = memref.alloc() : memref<512xf32, "global.vtcm">
  linalg.fill ins(%v : f32) outs(%z : memref<512xf32, "global.vtcm">)
  scf.if %cond {
    %a = memref.alloc() : memref<4x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%a : memref<4x512xf32, "global.vtcm">)
    %b = memref.alloc() : memref<2x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%b : memref<2x512xf32, "global.vtcm">)
    linalg.fill ins(%v : f32) outs(%a : memref<4x512xf32, "global.vtcm">)
    memref.dealloc %a : memref<4x512xf32, "global.vtcm">
    %c = memref.alloc() : memref<2x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%c : memref<2x512xf32, "global.vtcm">)
    %d = memref.alloc() : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%d : memref<1x512xf32, "global.vtcm">)
    %e = memref.alloc() : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%e : memref<1x512xf32, "global.vtcm">)
    memref.dealloc %e : memref<1x512xf32, "global.vtcm">
    %f = memref.alloc() : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%f : memref<1x512xf32, "global.vtcm">)
    linalg.fill ins(%v : f32) outs(%b : memref<2x512xf32, "global.vtcm">)
    memref.dealloc %b : memref<2x512xf32, "global.vtcm">
    %g = memref.alloc() : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%g : memref<1x512xf32, "global.vtcm">)
    %h = memref.alloc() : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%h : memref<1x512xf32, "global.vtcm">)
    linalg.fill ins(%v : f32) outs(%c : memref<2x512xf32, "global.vtcm">)
    memref.dealloc %c : memref<2x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%f : memref<1x512xf32, "global.vtcm">)
    memref.dealloc %f : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%h : memref<1x512xf32, "global.vtcm">)
    memref.dealloc %h : memref<1x512xf32, "global.vtcm">
    %i = memref.alloc() : memref<4x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%i : memref<4x512xf32, "global.vtcm">)
    linalg.fill ins(%v : f32) outs(%d : memref<1x512xf32, "global.vtcm">)
    memref.dealloc %d : memref<1x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%g : memref<1x512xf32, "global.vtcm">)
    memref.dealloc %g : memref<1x512xf32, "global.vtcm">
    %j = memref.alloc() : memref<2x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%j : memref<2x512xf32, "global.vtcm">)
    linalg.fill ins(%v : f32) outs(%i : memref<4x512xf32, "global.vtcm">)
    memref.dealloc %i : memref<4x512xf32, "global.vtcm">
    linalg.fill ins(%v : f32) outs(%j : memref<2x512xf32, "global.vtcm">)
    memref.dealloc %j : memref<2x512xf32, "global.vtcm">
  }
  linalg.fill ins(%v : f32) outs(%z : memref<512xf32, "global.vtcm">)
  memref.dealloc %z : memref<512xf32, "global.vtcm">
  func.return
}

// -----

// A storage memory-plan leaves alone (returned) takes its aligned range of
// the window: 2048 bytes of 2100 are gone before the arena of %t.  The
// message says why the pass leaves it.
// SMALL: memory-plan: in @unplanned, the "global.vtcm" arena needs 100 bytes with the best plan of 1 tensors (at least 100 bytes are live at once), over the scope capacity of 2100 bytes, of which 2048 are held while the arena is live: memory.alloc_storage %r_storage (100 bytes, 2048 with its alignment padding; memory-plan leaves it: it holds %r, which escapes (returned, or its address taken))

func.func @unplanned() -> memref<25xf32, "global.vtcm"> {
  %r = memref.alloc() : memref<25xf32, "global.vtcm">
  %t = memref.alloc() : memref<25xf32, "global.vtcm">
  "test.op"(%t, %r) : (memref<25xf32, "global.vtcm">, memref<25xf32, "global.vtcm">) -> ()
  memref.dealloc %t : memref<25xf32, "global.vtcm">
  func.return %r : memref<25xf32, "global.vtcm">
}

// -----

// So does a memref.alloca, up to the return that frees it: 2048 bytes are
// gone before the arena of %t.
// SMALL: memory-plan: in @alloca_held, the "global.vtcm" arena needs 100 bytes with the best plan of 1 tensors (at least 100 bytes are live at once), over the scope capacity of 2100 bytes, of which 2048 are held while the arena is live: memref.alloca %r (100 bytes, 2048 with its alignment padding)

func.func @alloca_held() {
  %r = memref.alloca() : memref<25xf32, "global.vtcm">
  %t = memref.alloc() : memref<25xf32, "global.vtcm">
  "test.op"(%t, %r) : (memref<25xf32, "global.vtcm">, memref<25xf32, "global.vtcm">) -> ()
  memref.dealloc %t : memref<25xf32, "global.vtcm">
  func.return
}

// -----

// And the new buffer of a memref.realloc, from the realloc to its dealloc
// (the old one is freed at the realloc).
// SMALL: memory-plan: in @realloc_held, the "global.vtcm" arena needs 100 bytes with the best plan of 1 tensors (at least 100 bytes are live at once), over the scope capacity of 2100 bytes, of which 2048 are held while the arena is live: memref.realloc %r (100 bytes, 2048 with its alignment padding)

func.func @realloc_held() {
  %p = memref.alloc() : memref<10xf32, "global.vtcm">
  %r = memref.realloc %p : memref<10xf32, "global.vtcm"> to memref<25xf32, "global.vtcm">
  %t = memref.alloc() : memref<25xf32, "global.vtcm">
  "test.op"(%t, %r) : (memref<25xf32, "global.vtcm">, memref<25xf32, "global.vtcm">) -> ()
  memref.dealloc %t : memref<25xf32, "global.vtcm">
  memref.dealloc %r : memref<25xf32, "global.vtcm">
  func.return
}

// -----

// An scf.for frees the allocas of each iteration where it ends (an automatic
// allocation scope, as in MLIR): seven iterations hold one copy of %r at a
// time, beside the arena of %t, not seven.
// CHECK-LABEL: func.func @alloca_copies_held()
// CHECK:         %arena = memory.alloc_storage [100] align 2048 : !memory.storage<"global.vtcm">
// AUTO-LABEL: func.func @alloca_copies_held()
// AUTO:         %arena = memory.alloc_storage [100] align 2048 : !memory.storage<"global.vtcm">
// SMALL: memory-plan: in @alloca_copies_held, the "global.vtcm" arena needs 100 bytes with the best plan of 1 tensors (at least 100 bytes are live at once), over the scope capacity of 2100 bytes, of which 2048 are held while the arena is live: memref.alloca %r (100 bytes, 2048 with its alignment padding)

func.func @alloca_copies_held() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c0 to %c7 step %c1 {
    %r = memref.alloca() : memref<25xf32, "global.vtcm">
    "test.op"(%r) : (memref<25xf32, "global.vtcm">) -> ()
    %t = memref.alloc() : memref<25xf32, "global.vtcm">
    "test.op"(%t) : (memref<25xf32, "global.vtcm">) -> ()
    memref.dealloc %t : memref<25xf32, "global.vtcm">
  }
  func.return
}

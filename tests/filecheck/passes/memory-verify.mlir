// RUN: xdsl-opt %s -p memory-verify --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-verify{alignment=128}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALIGN
// RUN: xdsl-opt %s -p 'memory-verify{capacity=1536}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=CAP
// RUN: xdsl-opt %s -p 'memory-verify{target=hexagon-v65}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=V65
// RUN: xdsl-opt %s -p 'memory-verify{alignment=3}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADALIGN
// RUN: xdsl-opt %s -p 'memory-verify{capacity=-5}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADCAP
// RUN: xdsl-opt %s -p 'memory-verify{target=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TARGET
// RUN: xdsl-opt %examples/three_big_vtcm.mlir -p memory-manifest,memory-coalesce,memory-verify --verify-diagnostics | filecheck %s --check-prefix=UNNAMED

// BADCAP: memory-verify: capacity must be >= 0 bytes, got -5
// BADALIGN: memory-verify: alignment 3 is not a positive power of two
// TARGET: memory-verify: unknown target 'nope'; expected one of: hexagon-v65, hexagon-v66, hexagon-v68, hexagon-v69, hexagon-v73, hexagon-v75

// A planned module that reuses bytes only between tensors that are never
// live together is left unchanged.
// CHECK-LABEL: func.func @clean() {
// CHECK-NEXT:    %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memory.kill %a : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%b, %c) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memory.kill %b : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    memory.kill %c : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @clean() {
  %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %b = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  memory.kill %a : memref<256xi32, "global.vtcm">
  %c = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%b, %c) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  memory.kill %b : memref<256xi32, "global.vtcm">
  memory.kill %c : memref<256xi32, "global.vtcm">
  memory.kill %arena : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A kill is not a use: a is dead after the first test.op, so c may take its
// bytes even though a is killed only at the end.
// CHECK-LABEL: func.func @kill_is_not_a_use() {
// CHECK-NEXT:    %s = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:    %c = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%c) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %s : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @kill_is_not_a_use() {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%a) : (memref<16xf32>) -> ()
  %c = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  memory.kill %a : memref<16xf32>
  memory.kill %c : memref<16xf32>
  memory.kill %s : !memory.storage<"global">
  func.return
}

// -----

// CHECK: memory-verify: in @overlap, memory.alloc_tensor %c (bytes [512, 1536) of %vtcm) overlaps %a (bytes [0, 1024) of %vtcm) while both are live: expected disjoint bytes or disjoint live ranges

func.func @overlap() {
  %vtcm = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %vtcm[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %c = memory.alloc_tensor %vtcm[512] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a, %c) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  memory.kill %vtcm : !memory.storage<"global.vtcm">
  func.return
}

// -----

// a is used in the loop, so it lives through all of it: t, allocated in the
// body on a's bytes, overlaps a in the second iteration.
// CHECK: memory-verify: in @loop, memory.alloc_tensor %t (bytes [0, 64) of %s) overlaps %a (bytes [0, 64) of %s) while both are live: expected disjoint bytes or disjoint live ranges

func.func @loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    "test.op"(%a) : (memref<16xf32>) -> ()
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
  }
  func.return
}

// -----

// affine.yield passes t out of the loop as r, which is read after u is
// placed on t's bytes: t lives to that read.
// CHECK: memory-verify: in @affine_yield, memory.alloc_tensor %u (bytes [0, 64) of %s) overlaps %t (bytes [0, 64) of %s) while both are live: expected disjoint bytes or disjoint live ranges

func.func @affine_yield(%init: memref<16xf32>) {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %r = affine.for %i = 0 to 2 iter_args(%prev = %init) -> (memref<16xf32>) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%prev, %t) : (memref<16xf32>, memref<16xf32>) -> ()
    affine.yield %t : memref<16xf32>
  }
  %u = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%u) : (memref<16xf32>) -> ()
  "test.op"(%r) : (memref<16xf32>) -> ()
  func.return
}

// -----

// The iterations of an scf.parallel may run at once: a tensor allocated in
// the body from a storage outside it would be shared by all of them.  One
// from a storage allocated in the body (u) is each iteration's own.
// CHECK: memory-verify: in @parallel_iterations_share_a_slot, memory.alloc_tensor %t (bytes [0, 64) of %s) is allocated in each iteration of an scf.parallel, whose iterations may run at once, from a storage allocated outside it: the iterations would share these bytes; expected a storage allocated inside the scf.parallel

func.func @parallel_iterations_share_a_slot() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    "test.op"(%t) : (memref<16xf32, "global.vtcm">) -> ()
    %own = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
    %u = memory.alloc_tensor %own[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    "test.op"(%u) : (memref<16xf32, "global.vtcm">) -> ()
    memory.kill %own : !memory.storage<"global.vtcm">
    scf.reduce
  }) : (index, index, index) -> ()
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A tensor used in a branch lives to the end of the scf.if, so b may not take
// a's bytes (branches are not told apart: conservative); c, after it, may.
// CHECK: memory-verify: in @branch, memory.alloc_tensor %b (bytes [0, 64) of %s) overlaps %a (bytes [0, 64) of %s) while both are live: expected disjoint bytes or disjoint live ranges
// CHECK-NOT: in @branch, memory.alloc_tensor %c

func.func @branch(%cond: i1) {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  scf.if %cond {
    %b = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%b) : (memref<16xf32>) -> ()
  } else {
    "test.op"(%a) : (memref<16xf32>) -> ()
  }
  %c = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  func.return
}

// -----

// Aliases keep their tensor alive: the subview of a is used after c exists.
// CHECK: memory-verify: in @alias, memory.alloc_tensor %c (bytes [0, 64) of %s) overlaps %a (bytes [0, 64) of %s) while both are live: expected disjoint bytes or disjoint live ranges

func.func @alias(%x: memref<4xf32>) {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  %v = memref.subview %a[0] [4] [1] : memref<16xf32> to memref<4xf32>
  %c = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  memory.copy %v, %x : memref<4xf32> to memref<4xf32>
  func.return
}

// -----

// Blocks of a discontiguous tensor are checked like tensors.
// CHECK: memory-verify: in @discontiguous, memory.alloc_discontiguous_tensor %d (block 2, bytes [768, 1024) of %vtcm) overlaps %a (bytes [0, 1024) of %vtcm) while both are live: expected disjoint bytes or disjoint live ranges

func.func @discontiguous() {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %vtcm[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %d = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[1024, 2048, 768, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  "test.op"(%a, %d) : (memref<256xi32, "global.vtcm">, memref<4x64xi32, #memory.discontiguous, "global.vtcm">) -> ()
  func.return
}

// -----

// Blocks of N elements: the table of %q, in the storage of the blocks,
// overlaps block 0 of %p, and the partial last block of %p (block 1, 88
// bytes) shares bytes with block 0 of %q while both are live; %r, dead by
// then, may use those bytes before them.
// CHECK: memory-verify: in @blocks_of_n, memory.alloc_discontiguous_tensor %q (pointer table, bytes [0, 8) of %vtcm) overlaps %p (block 0, bytes [0, 512) of %vtcm) while both are live: expected disjoint bytes or disjoint live ranges
// CHECK: memory-verify: in @blocks_of_n, memory.alloc_discontiguous_tensor %q (block 0, bytes [2128, 2640) of %vtcm) overlaps %p (block 1, bytes [2048, 2136) of %vtcm) while both are live: expected disjoint bytes or disjoint live ranges
// CHECK-NOT: in @blocks_of_n
// ALIGN: memory-verify: in @blocks_of_n, memory.alloc_discontiguous_tensor %q (block 0, bytes [2128, 2640) of %vtcm, storage aligned to 2048) is only 16-byte aligned: expected a multiple of 128 bytes

func.func @blocks_of_n() {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %r = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[2048, 2560] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<150xi32, #memory.discontiguous<128>, "global.vtcm">
  "test.op"(%r) : (memref<150xi32, #memory.discontiguous<128>, "global.vtcm">) -> ()
  %p = memory.alloc_discontiguous_tensor table %tables[8], blocks %vtcm[0, 2048] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">
  %q = memory.alloc_discontiguous_tensor table %vtcm[0], blocks %vtcm[2128, 3072] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">
  "test.op"(%p, %q) : (memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">, memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">) -> ()
  func.return
}

// -----

// Storages are held from their allocation to their kill; never killed, to
// the end of the function.  hexagon-v65 has 256 KiB of VTCM: even one is
// too many.
// V65: memory-verify: in @over_capacity, scope "global.vtcm" holds 4194304 bytes at memory.alloc_storage %s0 (held: %s0), over its capacity of 262144 bytes
// CHECK: memory-verify: in @over_capacity, scope "global.vtcm" holds 12582912 bytes at memory.alloc_storage %s3 (held: %s1, %s2, %s3), over its capacity of 8388608 bytes

func.func @over_capacity() {
  %s0 = memory.alloc_storage [4194304] align 2048 : !memory.storage<"global.vtcm">
  memory.kill %s0 : !memory.storage<"global.vtcm">
  %s1 = memory.alloc_storage [4194304] align 2048 : !memory.storage<"global.vtcm">
  %s2 = memory.alloc_storage [4194304] align 2048 : !memory.storage<"global.vtcm">
  %s3 = memory.alloc_storage [4194304] align 2048 : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A kill inside a branch frees the storage on one path only: it is held to
// the end of the function, over a 1536-byte VTCM.
// CAP: memory-verify: in @kill_in_branch, scope "global.vtcm" holds 2048 bytes at memory.alloc_storage %s1 (held: %s0, %s1), over its capacity of 1536 bytes
// A storage without a name hint is named as the printer numbers it.
// UNNAMED: memory-verify: in @main, scope "global.vtcm" holds 9437184 bytes at memory.alloc_storage %0 (held: %0), over its capacity of 8388608 bytes
// CHECK-LABEL: func.func @kill_in_branch(%cond: i1) {
// CHECK-NEXT:    %s0 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      memory.kill %s0 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    }
// CHECK-NEXT:    %s1 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    memory.kill %s1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @kill_in_branch(%cond: i1) {
  %s0 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  scf.if %cond {
    memory.kill %s0 : !memory.storage<"global.vtcm">
  }
  %s1 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  memory.kill %s1 : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A memref.alloc holds bytes of its scope as a storage does (memplan-run
// allocates it in the same window), from the alloc to the memref.dealloc of
// it or of a view of it in its block: a memory.kill ends its tensor, not its
// allocation.  Over a 1536-byte VTCM, %p and %s are held together in
// @alloc_killed; in @alloc_freed_through_view the dealloc of the cast frees
// %p before %s.
// CAP: memory-verify: in @alloc_killed, scope "global.vtcm" holds 2048 bytes at memory.alloc_storage %s (held: memref.alloc %p (1024 bytes), %s), over its capacity of 1536 bytes
// CAP-NOT: in @alloc_freed_through_view
// CHECK-LABEL: func.func @alloc_killed() {
// CHECK-LABEL: func.func @alloc_freed_through_view() {

func.func @alloc_killed() {
  %p = memref.alloc() : memref<256xf32, "global.vtcm">
  %c = "memref.cast"(%p) : (memref<256xf32, "global.vtcm">) -> memref<?xf32, "global.vtcm">
  "test.op"(%p) : (memref<256xf32, "global.vtcm">) -> ()
  memory.kill %p : memref<256xf32, "global.vtcm">
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  memref.dealloc %c : memref<?xf32, "global.vtcm">
  func.return
}

func.func @alloc_freed_through_view() {
  %p = memref.alloc() : memref<256xf32, "global.vtcm">
  %c = "memref.cast"(%p) : (memref<256xf32, "global.vtcm">) -> memref<?xf32, "global.vtcm">
  "test.op"(%c) : (memref<?xf32, "global.vtcm">) -> ()
  memref.dealloc %c : memref<?xf32, "global.vtcm">
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// HVX wants 128-byte aligned vectors: alignment=128 checks every tensor
// address (storage alignment and offset together).
// ALIGN-NOT: in @alignment, memory.alloc_tensor %c
// ALIGN: memory-verify: in @alignment, memory.alloc_tensor %a (bytes [64, 128) of %vtcm, storage aligned to 2048) is only 64-byte aligned: expected a multiple of 128 bytes
// ALIGN-NEXT: memory-verify: in @alignment, memory.alloc_tensor %b (bytes [0, 64) of %ddr, storage aligned to 64) is only 64-byte aligned: expected a multiple of 128 bytes
// ALIGN-NOT: in @alignment, memory.alloc_tensor %c
// CHECK-LABEL: func.func @alignment() {
// CHECK-NEXT:    %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %vtcm[64] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
// CHECK-NEXT:    %ddr = memory.alloc_storage [4096] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %ddr[0] : !memory.storage<"global"> to memref<16xi32>
// CHECK-NEXT:    %c = memory.alloc_tensor %vtcm[128] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%a, %b, %c) : (memref<16xi32, "global.vtcm">, memref<16xi32>, memref<16xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @alignment() {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %vtcm[64] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %ddr = memory.alloc_storage [4096] : !memory.storage<"global">
  %b = memory.alloc_tensor %ddr[0] : !memory.storage<"global"> to memref<16xi32>
  %c = memory.alloc_tensor %vtcm[128] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  "test.op"(%a, %b, %c) : (memref<16xi32, "global.vtcm">, memref<16xi32>, memref<16xi32, "global.vtcm">) -> ()
  func.return
}

// -----

// A killed tensor used again, a second kill, and a tensor used after its
// storage was killed.
// CHECK: memory-verify: in @use_after_kill, %a is used by test.op after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @use_after_kill, %a is killed again after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @use_after_kill, %b is used by test.op after the memory.kill that ended its life: expected no use after a kill

func.func @use_after_kill() {
  %s = memory.alloc_storage [2048] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<256xi32>
  %b = memory.alloc_tensor %s[1024] : !memory.storage<"global"> to memref<256xi32>
  memory.kill %a : memref<256xi32>
  scf.execute_region {
    "test.op"(%a) : (memref<256xi32>) -> ()
    scf.yield
  }
  memory.kill %a : memref<256xi32>
  memory.kill %s : !memory.storage<"global">
  "test.op"(%b) : (memref<256xi32>) -> ()
  func.return
}

// -----

// A view stands for the tensor it views: a kill through a subview ends %a,
// and a kill of %a and then of its cast kills it twice (found by random
// programs: both were caught only at run time).
// CHECK: memory-verify: in @kill_through_views, %a is used by test.op after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @kill_through_views, %c (a view of %b) is killed again after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @kill_through_views, %bv (a view of %b) is used by test.op after the memory.kill that ended its life: expected no use after a kill

func.func @kill_through_views() {
  %s = memory.alloc_storage [128] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  %b = memory.alloc_tensor %s[64] : !memory.storage<"global"> to memref<16xf32>
  %v = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32>
  memory.kill %v : memref<8xf32>
  "test.op"(%a) : (memref<16xf32>) -> ()
  %c = "memref.cast"(%b) : (memref<16xf32>) -> memref<?xf32>
  %bv = memref.subview %b[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  memory.kill %b : memref<16xf32>
  memory.kill %c : memref<?xf32>
  "test.op"(%bv) : (memref<8xf32, strided<[1], offset: 8>>) -> ()
  func.return
}

// A dealloc ends what it frees as a kill does: a plain buffer, or the whole
// storage of a tensor placed in one (as the dealloc of the memref.view it
// lowers to frees the base buffer), with the other tensors in it.
// CHECK: memory-verify: in @use_after_dealloc, %m is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @use_after_dealloc, %b is used by test.op after the memref.dealloc that ended its life: expected no use after a kill

func.func @use_after_dealloc() {
  %m = memref.alloc() : memref<4xi32>
  memref.dealloc %m : memref<4xi32>
  "test.op"(%m) : (memref<4xi32>) -> ()
  %s = memory.alloc_storage [2048] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<256xi32>
  %b = memory.alloc_tensor %s[1024] : !memory.storage<"global"> to memref<256xi32>
  memref.dealloc %a : memref<256xi32>
  "test.op"(%b) : (memref<256xi32>) -> ()
  func.return
}

// -----

// A loop or branch result may be the tensor it carries: using it after the
// kill of that tensor, or of its storage, uses the tensor.
// CHECK: memory-verify: in @results_used_after_kill, %r (which may be %t) is used by test.op after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @results_used_after_kill, %l (which may be %u) is used by test.op after the memory.kill that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @results_used_after_kill, %f (which may be %v) is used by test.op after the memory.kill that ended its life: expected no use after a kill

func.func @results_used_after_kill(%x: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memory.alloc_storage [192] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[128] : !memory.storage<"global"> to memref<16xf32>
  %r = scf.if %c -> (memref<16xf32>) {
    scf.yield %t : memref<16xf32>
  } else {
    scf.yield %x : memref<16xf32>
  }
  memory.kill %t : memref<16xf32>
  "test.op"(%r) : (memref<16xf32>) -> ()
  %l = affine.for %i = 0 to 2 iter_args(%acc = %x) -> (memref<16xf32>) {
    "test.op"(%acc) : (memref<16xf32>) -> ()
    %u = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%u) : (memref<16xf32>) -> ()
    affine.yield %u : memref<16xf32>
  }
  %f = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (memref<16xf32>) {
    "test.op"(%acc) : (memref<16xf32>) -> ()
    %v = memory.alloc_tensor %s[64] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%v) : (memref<16xf32>) -> ()
    scf.yield %v : memref<16xf32>
  }
  memory.kill %s : !memory.storage<"global">
  "test.op"(%l) : (memref<16xf32>) -> ()
  "test.op"(%f) : (memref<16xf32>) -> ()
  func.return
}

// -----

// A loop that runs at least once (constant bounds) gives as its result what
// its body yields, never its init: here a fresh buffer, so the kill of the
// init does not end the result.  A loop whose trip count is not known may run
// no trip and hand its init on.
// CHECK-NOT: %l (which may be %t)
// CHECK: memory-verify: in @result_of_a_loop_that_runs, %z (which may be %t) is used by test.op after the memory.kill that ended its life: expected no use after a kill

func.func @result_of_a_loop_that_runs(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  %l = affine.for %i = 0 to 2 iter_args(%acc = %t) -> (memref<16xf32>) {
    %u = memref.alloc() : memref<16xf32>
    "test.op"(%acc, %u) : (memref<16xf32>, memref<16xf32>) -> ()
    affine.yield %u : memref<16xf32>
  }
  %z = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (memref<16xf32>) {
    %u = memref.alloc() : memref<16xf32>
    "test.op"(%acc, %u) : (memref<16xf32>, memref<16xf32>) -> ()
    scf.yield %u : memref<16xf32>
  }
  memory.kill %s : !memory.storage<"global">
  "test.op"(%l) : (memref<16xf32>) -> ()
  "test.op"(%z) : (memref<16xf32>) -> ()
  func.return
}

// -----

// t is carried to the next iteration through the iter_arg, which that
// iteration reads after placing its own t on the same bytes of s, allocated
// outside the loop: the new t overwrites the one still read.  Also when t is
// allocated in an inner loop (any of its iterations but the first comes
// after the read) or read in the next iteration only through a result of an
// scf.if.
// CHECK: memory-verify: in @carried_over_its_own_bytes, memory.alloc_tensor %t (bytes [0, 64) of %s) is carried to the next iteration of an scf.for, which allocates it again on the same bytes of a storage allocated outside the loop while the carried one is still used: expected a storage allocated inside the scf.for, or no use of the carried tensor from the allocation on
// CHECK-NEXT: memory-verify: in @carried_over_its_own_bytes, memory.alloc_tensor %n (bytes [64, 128) of %s) is carried to the next iteration of an affine.for, which allocates it again on the same bytes of a storage allocated outside the loop while the carried one is still used: expected a storage allocated inside the affine.for, or no use of the carried tensor from the allocation on
// CHECK-NEXT: memory-verify: in @carried_over_its_own_bytes, memory.alloc_tensor %b (bytes [128, 192) of %s) is carried to the next iteration of an scf.for, which allocates it again on the same bytes of a storage allocated outside the loop while the carried one is still used: expected a storage allocated inside the scf.for, or no use of the carried tensor from the allocation on

func.func @carried_over_its_own_bytes(%x: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memory.alloc_storage [192] : !memory.storage<"global">
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (memref<16xf32>) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%acc, %t) : (memref<16xf32>, memref<16xf32>) -> ()
    scf.yield %t : memref<16xf32>
  }
  %o = affine.for %i = 0 to 4 iter_args(%prev = %x) -> (memref<16xf32>) {
    %in = affine.for %j = 0 to 2 iter_args(%last = %x) -> (memref<16xf32>) {
      "test.op"(%prev) : (memref<16xf32>) -> ()
      %n = memory.alloc_tensor %s[64] : !memory.storage<"global"> to memref<16xf32>
      "test.op"(%n) : (memref<16xf32>) -> ()
      affine.yield %n : memref<16xf32>
    }
    affine.yield %in : memref<16xf32>
  }
  %w = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (memref<16xf32>) {
    %b = memory.alloc_tensor %s[128] : !memory.storage<"global"> to memref<16xf32>
    %pick = scf.if %c -> (memref<16xf32>) {
      scf.yield %b : memref<16xf32>
    } else {
      scf.yield %acc : memref<16xf32>
    }
    "test.op"(%pick) : (memref<16xf32>) -> ()
    scf.yield %pick : memref<16xf32>
  }
  "test.op"(%r, %o, %w) : (memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()
  func.return
}

// -----

// Correct loop-carried tensors: the iteration is done with the carried one
// before it places its own on the same bytes (also across the regions of an
// scf.while, and through an inner loop's iter_arg), or each iteration has a
// storage of its own.
// CHECK-LABEL: func.func @carried_correctly
// CHECK:         func.return %r, %own, %wh, %nest

func.func @carried_correctly(%x: memref<16xf32>, %c: i1) -> (memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (memref<16xf32>) {
    "test.op"(%acc) : (memref<16xf32>) -> ()
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    scf.yield %t : memref<16xf32>
  }
  %own = affine.for %i = 0 to 4 iter_args(%acc = %x) -> (memref<16xf32>) {
    %mine = memory.alloc_storage [64] : !memory.storage<"global">
    %t = memory.alloc_tensor %mine[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%acc, %t) : (memref<16xf32>, memref<16xf32>) -> ()
    affine.yield %t : memref<16xf32>
  }
  %p = memory.alloc_storage [64] : !memory.storage<"global">
  %wh = scf.while (%a = %x) : (memref<16xf32>) -> memref<16xf32> {
    "test.op"(%a) : (memref<16xf32>) -> ()
    scf.condition(%c) %a : memref<16xf32>
  } do {
  ^bb0(%b: memref<16xf32>):
    "test.op"(%b) : (memref<16xf32>) -> ()
    %t = memory.alloc_tensor %p[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    scf.yield %t : memref<16xf32>
  }
  %q = memory.alloc_storage [64] : !memory.storage<"global">
  %nest = affine.for %i = 0 to 4 iter_args(%prev = %x) -> (memref<16xf32>) {
    %in = affine.for %j = 0 to 2 iter_args(%last = %prev) -> (memref<16xf32>) {
      "test.op"(%last) : (memref<16xf32>) -> ()
      %n = memory.alloc_tensor %q[0] : !memory.storage<"global"> to memref<16xf32>
      "test.op"(%n) : (memref<16xf32>) -> ()
      affine.yield %n : memref<16xf32>
    }
    affine.yield %in : memref<16xf32>
  }
  func.return %r, %own, %wh, %nest : memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>
}

// -----

// The pointer table of a discontiguous tensor on its own block 0.
// CHECK: memory-verify: in @table_on_its_own_block, memory.alloc_discontiguous_tensor %t (block 0, bytes [0, 16) of %v) overlaps its own pointer table (bytes [0, 8) of %v): expected its pointer table and blocks on disjoint bytes

func.func @table_on_its_own_block() {
  %v = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %v[0], blocks %v[0, 32] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<2x4xf32, #memory.discontiguous, "global.vtcm">
  "test.op"(%t) : (memref<2x4xf32, #memory.discontiguous, "global.vtcm">) -> ()
  func.return
}

// -----

// A function of several blocks (cf branches): a use in another block counts
// at its op in block order (approximate, not a crash).
// CHECK: memory-verify: in @several_blocks, memory.alloc_tensor %b (bytes [512, 1536) of %s) overlaps %a (bytes [0, 1024) of %s) while both are live: expected disjoint bytes or disjoint live ranges

func.func @several_blocks(%c: i1) {
  %s = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memory.alloc_tensor %s[512] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  cf.br ^bb2
^bb2:
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  func.return
}

// -----

// A call runs its callee's storages in the window that holds the caller's:
// they fit the default VTCM, not 1536 bytes, where two storages cannot both
// start on a 2048-byte boundary: @middle's %m0 and @leaf's %l, @caller's %s
// and @middle's %m0.  The check replays the calls (straight-line code), so
// the messages name the callee's storage.
// CAP: memory-verify: in @middle, scope "global.vtcm" has no room for the 512 bytes of memory.alloc_storage %l (in @leaf) (held: %m0, %l (in @leaf)): first fit in its 1536-byte window finds no free range that holds them at a 2048-byte aligned address (1024 bytes free in total, the largest free range has 1024 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them
// CAP: memory-verify: in @caller, scope "global.vtcm" has no room for the 512 bytes of memory.alloc_storage %m0 (in @middle) (held: %s, %m0 (in @middle)): first fit in its 1536-byte window finds no free range that holds them at a 2048-byte aligned address (512 bytes free in total, the largest free range has 512 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them
// CAP-NOT: in @leaf
// CHECK-LABEL: func.func @caller()

func.func @leaf() {
  %l = memory.alloc_storage [512] : !memory.storage<"global.vtcm">
  memory.kill %l : !memory.storage<"global.vtcm">
  func.return
}
func.func @middle() {
  %m0 = memory.alloc_storage [512] : !memory.storage<"global.vtcm">
  func.call @leaf() : () -> ()
  memory.kill %m0 : !memory.storage<"global.vtcm">
  %m1 = memory.alloc_storage [768] : !memory.storage<"global.vtcm">
  memory.kill %m1 : !memory.storage<"global.vtcm">
  func.return
}
func.func @caller() {
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  func.call @middle() : () -> ()
  memory.kill %s : !memory.storage<"global.vtcm">
  func.call @middle() : () -> ()
  func.call @external() : () -> ()
  func.return
}
func.func private @external()

// -----

// A storage held across a recursive call is added once per level: no
// capacity bounds it.  Recursion that holds nothing across its calls is fine,
// and its functions share the peak of the cycle.
// CHECK: memory-verify: in @even, func.call @odd recurses while 256 bytes of scope "global.vtcm" are held (held: %e): every level of the recursion adds them, so no capacity bounds the total; expected no storage of a bounded scope held across a recursive call
// CHECK-NOT: in @odd
// CHECK-NOT: in @quiet
// CHECK-NOT: in @user
// CAP: memory-verify: in @user, scope "global.vtcm" holds 1792 bytes at func.call @quiet (held: %u, func.call @quiet (768 bytes)), over its capacity of 1536 bytes

func.func @even(%n: index) {
  %e = memory.alloc_storage [256] : !memory.storage<"global.vtcm">
  func.call @odd(%n) : (index) -> ()
  memory.kill %e : !memory.storage<"global.vtcm">
  func.return
}
func.func @odd(%n: index) {
  func.call @even(%n) : (index) -> ()
  func.return
}
func.func @quiet(%n: index) {
  %q = memory.alloc_storage [768] : !memory.storage<"global.vtcm">
  memory.kill %q : !memory.storage<"global.vtcm">
  func.call @quiet(%n) : (index) -> ()
  func.return
}
func.func @user(%n: index) {
  %u = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  func.call @quiet(%n) : (index) -> ()
  memory.kill %u : !memory.storage<"global.vtcm">
  func.return
}

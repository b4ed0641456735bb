// RUN: memplan-opt %s -p 'memory-verify{capacity=6144}' --split-input-file --verify-diagnostics | filecheck %s

// VTCM is an address window where every storage starts on a 2048-byte
// boundary, as in memplan-run: padding and fragmentation count, not only
// the bytes held.  In straight-line code the check replays the run's
// first-fit allocator, so its figures are memplan-run's.  (memplan-opt
// parses memref.realloc and the custom form of memref.alloca_scope, as
// memplan-run does; stock xdsl-opt does not.)

// Four 100-byte storages hold 400 bytes but need 3 * 2048 + 100.
// CHECK: memory-verify: in @padding, scope "global.vtcm" has no room for the 100 bytes of memory.alloc_storage %d (held: %a, %b, %c, %d): first fit in its 6144-byte window finds no free range that holds them at a 2048-byte aligned address (5844 bytes free in total, the largest free range has 1948 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them

func.func @padding() {
  %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  func.return
}

// -----

// 2048 + 4096 bytes fit 6144 in some layout, but first fit put %b in the
// middle: the 4096 free bytes are two holes.
// CHECK: memory-verify: in @fragmented, scope "global.vtcm" has no room for the 4096 bytes of memory.alloc_storage %d (held: %b, %d): first fit in its 6144-byte window finds no free range that holds them at a 2048-byte aligned address (4096 bytes free in total, the largest free range has 2048 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them

func.func @fragmented() {
  %a = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  memory.kill %a : !memory.storage<"global.vtcm">
  memory.kill %c : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  func.return
}

// -----

// In a branch (or a loop) the check uses the alignment-aware lower bound of
// memplan.planning on the storages held at once: 3 * 2048 + 100 bytes.
// CHECK: memory-verify: in @in_branch, scope "global.vtcm" needs at least 6244 bytes of its window at memory.alloc_storage %d (held: %a, %b, %c, %d): 400 bytes, each starting at an address of its alignment, over its capacity of 6144 bytes

func.func @in_branch(%cond: i1) {
  scf.if %cond {
    %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  }
  func.return
}

// -----

// A callee's storage it never kills stays in the window after the call, as
// in the run: the second call has no room for it.
// CHECK: memory-verify: in @calls_twice, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %k (in @keeps) (held: %k (in @keeps), %k (in @keeps)), over its capacity of 6144 bytes

func.func @keeps() {
  %k = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  func.return
}
func.func @calls_twice() {
  func.call @keeps() : () -> ()
  func.call @keeps() : () -> ()
  func.return
}

// -----

// %d takes the range %b freed: 2 * 2048 + 100 bytes of the window fit.
// CHECK-LABEL: func.func @fits()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @fits() {
  %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  memory.kill %b : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A memref.alloca takes its range of the window as a storage does (its
// alignment attribute or 1, raised to the scope's), until its function
// returns: memplan-run frees it there.  %a leaves no 4096-byte range for %s.
// CHECK: memory-verify: in @alloca_held, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %s (held: memref.alloca %a (4096 bytes), %s), over its capacity of 6144 bytes

func.func @alloca_held() {
  %a = memref.alloca() : memref<1024xf32, "global.vtcm">
  "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// The return of @stack frees its alloca (a memory.kill of it ends its
// tensor, not its bytes), so each call and then %s find 4096 free bytes.
// CHECK-LABEL: func.func @calls_stack_twice()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @stack() {
  %a = memref.alloca() : memref<1024xf32, "global.vtcm">
  "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  memory.kill %a : memref<1024xf32, "global.vtcm">
  func.return
}
func.func @calls_stack_twice() {
  func.call @stack() : () -> ()
  func.call @stack() : () -> ()
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// An alloca in a memref.alloca_scope is freed where the scope's block ends;
// one in an iteration of an scf.parallel, where the iteration ends.  %s and
// %u fit after them; %t does not fit beside the alloca of its iteration.
// CHECK: memory-verify: in @alloca_scopes, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %t (held: memref.alloca %p (4096 bytes), %t), over its capacity of 6144 bytes

func.func @alloca_scopes(%n: index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  memref.alloca_scope {
    %a = memref.alloca() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  }
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  scf.parallel (%i) = (%zero) to (%n) step (%one) {
    %p = memref.alloca() : memref<1024xf32, "global.vtcm">
    "test.op"(%p) : (memref<1024xf32, "global.vtcm">) -> ()
    %t = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
    memory.kill %t : !memory.storage<"global.vtcm">
    scf.reduce
  }
  %u = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %u : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A memref.realloc allocates its new buffer, copies, then frees the old
// one, as memplan-run does: at the realloc both are held, beside %s.
// CHECK: memory-verify: in @realloc_holds_both, scope "global.vtcm" holds 8192 bytes at memref.realloc %b (held: %s, memref.alloc %a (2048 bytes), memref.realloc %b (4096 bytes)), over its capacity of 6144 bytes

func.func @realloc_holds_both() {
  %s = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memref.alloc() : memref<512xf32, "global.vtcm">
  %b = memref.realloc %a : memref<512xf32, "global.vtcm"> to memref<1024xf32, "global.vtcm">
  memref.dealloc %b : memref<1024xf32, "global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// After the realloc only its new buffer is held, up to its dealloc.
// CHECK: memory-verify: in @realloc_holds_new, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %s (held: memref.realloc %b (4096 bytes), %s), over its capacity of 6144 bytes

func.func @realloc_holds_new() {
  %a = memref.alloc() : memref<512xf32, "global.vtcm">
  %b = memref.realloc %a : memref<512xf32, "global.vtcm"> to memref<1024xf32, "global.vtcm">
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  memref.dealloc %b : memref<1024xf32, "global.vtcm">
  func.return
}

// -----

// A bufferization.clone allocates a buffer of its result's shape, as a
// memref.alloc does, while its operand is held.
// CHECK: memory-verify: in @clone_held, scope "global.vtcm" holds 8192 bytes at bufferization.clone %b (held: memref.alloc %a (4096 bytes), bufferization.clone %b (4096 bytes)), over its capacity of 6144 bytes

func.func @clone_held() {
  %a = memref.alloc() : memref<1024xf32, "global.vtcm">
  "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  %b = bufferization.clone %a : memref<1024xf32, "global.vtcm"> to memref<1024xf32, "global.vtcm">
  memref.dealloc %a : memref<1024xf32, "global.vtcm">
  memref.dealloc %b : memref<1024xf32, "global.vtcm">
  func.return
}

// -----

// An scf.for or affine.for frees the allocas of each iteration where it
// ends (an automatic allocation scope, as in MLIR, where memplan-run frees
// them): 100 iterations of a 4096-byte %a hold one copy at a time, and so
// do the nested loops of %b.
// CHECK-LABEL: func.func @alloca_per_iteration()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @alloca_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %c100 step %c1 {
    %a = memref.alloca() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  }
  scf.for %i = %c0 to %c100 step %c1 {
    affine.for %j = 0 to 100 {
      %b = memref.alloca() : memref<1024xf32, "global.vtcm">
      "test.op"(%b) : (memref<1024xf32, "global.vtcm">) -> ()
    }
  }
  func.return
}

// -----

// An scf.if is no allocation scope: its alloca is held to the end of the
// iteration around it, where %t does not fit beside it.
// CHECK: memory-verify: in @alloca_in_branch, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %t (held: memref.alloca %a (4096 bytes), %t), over its capacity of 6144 bytes

func.func @alloca_in_branch(%c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.if %c {
      %a = memref.alloca() : memref<1024xf32, "global.vtcm">
      "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
    }
    %t = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
    memory.kill %t : !memory.storage<"global.vtcm">
  }
  func.return
}

// -----

// A loop that runs zero times holds nothing: %s has the whole window.
// CHECK-LABEL: func.func @alloca_zero_trips()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @alloca_zero_trips() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c0 step %c1 {
    %a = memref.alloca() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  }
  %s = memory.alloc_storage [6144] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A memref.alloca_scope in the loop frees its alloca in every iteration:
// one copy at a time.
// CHECK-LABEL: func.func @alloca_scope_per_iteration()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @alloca_scope_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.alloca_scope {
      %a = memref.alloca() : memref<1024xf32, "global.vtcm">
      "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
    }
  }
  func.return
}

// -----

// An scf.while, which is no allocation scope, runs its alloca an unknown
// number of times: no capacity bounds the copies.  An scf.for with bounds
// known only at run time frees its alloca in every iteration: one copy.
// CHECK: memory-verify: in @alloca_unknown_trips, memref.alloca %a allocates 64 bytes of scope "global.vtcm" in each iteration of an scf.while, whose trip count is not known: the scope's use cannot be bounded; expected the alloca outside the loop or in a memref.alloca_scope inside it
// CHECK-NOT: memory-verify: in @alloca_unknown_trips

func.func @alloca_unknown_trips(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%x = %c0) : (index) -> index {
    %more = arith.cmpi slt, %x, %n : index
    scf.condition(%more) %x : index
  } do {
  ^bb0(%y: index):
    %a = memref.alloca() : memref<16xf32, "global.vtcm">
    "test.op"(%a) : (memref<16xf32, "global.vtcm">) -> ()
    %next = arith.addi %y, %c1 : index
    scf.yield %next : index
  }
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloca() : memref<16xf32, "global.vtcm">
    "test.op"(%b) : (memref<16xf32, "global.vtcm">) -> ()
  }
  func.return
}

// -----

// A memref.alloc in a loop that does not free it allocates a new buffer in
// every iteration, none freed: memplan-run holds both copies of %a at once.
// CHECK: memory-verify: in @alloc_per_iteration, scope "global.vtcm" holds 8192 bytes at memref.alloc %a (held: memref.alloc %a (2 copies of 4096 bytes, one per iteration of its loops)), over its capacity of 6144 bytes

func.func @alloc_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.alloc() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
  }
  func.return
}

// -----

// A memref.dealloc in the loop body frees %a in every iteration: one copy
// at a time, beside %s.
// CHECK-LABEL: func.func @alloc_freed_per_iteration()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @alloc_freed_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.alloc() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
    memref.dealloc %a : memref<1024xf32, "global.vtcm">
  }
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// Each iteration reallocs the buffer the previous one yielded, freeing it:
// one copy of %b at a time (three would not fit beside %a).
// CHECK-LABEL: func.func @realloc_of_iter_arg()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @realloc_of_iter_arg() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<256xf32, "global.vtcm">
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%buf = %a) -> (memref<256xf32, "global.vtcm">) {
    %b = memref.realloc %buf : memref<256xf32, "global.vtcm"> to memref<256xf32, "global.vtcm">
    scf.yield %b : memref<256xf32, "global.vtcm">
  }
  memref.dealloc %r : memref<256xf32, "global.vtcm">
  func.return
}

// -----

// An scf.while runs a memref.alloc it does not free an unknown number of
// times: no capacity bounds the copies.
// CHECK: memory-verify: in @alloc_unknown_trips, memref.alloc %a allocates 64 bytes of scope "global.vtcm" in each iteration of an scf.while, whose trip count is not known, and the loop does not free it: the scope's use cannot be bounded; expected a memref.dealloc of it in the loop body

func.func @alloc_unknown_trips(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%x = %c0) : (index) -> index {
    %more = arith.cmpi slt, %x, %n : index
    scf.condition(%more) %x : index
  } do {
  ^bb0(%y: index):
    %a = memref.alloc() : memref<16xf32, "global.vtcm">
    "test.op"(%a) : (memref<16xf32, "global.vtcm">) -> ()
    %next = arith.addi %y, %c1 : index
    scf.yield %next : index
  }
  func.return
}

// -----

// A storage in a loop that does not kill it (what memory-manifest makes of
// an alloc its loop does not free) is allocated in every iteration, none
// freed: memplan-run holds both copies of %s at once.
// CHECK: memory-verify: in @storage_per_iteration, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %s (held: %s (2 copies of 4096 bytes, one per iteration of its loops)), over its capacity of 6144 bytes

func.func @storage_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
    "test.op"(%t) : (memref<1024xf32, "global.vtcm">) -> ()
  }
  func.return
}

// -----

// A memory.kill of the storage in the loop body frees it in every
// iteration: one copy at a time, beside %u (a kill of its tensor alone
// would free nothing).
// CHECK-LABEL: func.func @storage_killed_per_iteration()
// CHECK-NOT: memory-verify
// CHECK: // -----

func.func @storage_killed_per_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
    "test.op"(%t) : (memref<1024xf32, "global.vtcm">) -> ()
    memory.kill %t : memref<1024xf32, "global.vtcm">
    memory.kill %s : !memory.storage<"global.vtcm">
  }
  %u = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  memory.kill %u : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A storage in a loop of unknown trip count that does not kill it: its
// copies cannot be counted.
// CHECK: memory-verify: in @storage_unknown_trips, memory.alloc_storage %s allocates 64 bytes of scope "global.vtcm" in each iteration of an scf.for, whose trip count is not known, and the loop does not free it: the scope's use cannot be bounded; expected a memory.kill of it in the loop body

func.func @storage_unknown_trips(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
    "test.op"(%s) : (!memory.storage<"global.vtcm">) -> ()
  }
  func.return
}

// -----

// A memory.kill of the storage in a branch of the loop body may free it in
// every iteration: counted once (a lower bound, as for a conditional
// memref.dealloc), held to the end of the function.
// CHECK-LABEL: func.func @storage_maybe_killed_per_iteration(%cond: i1)
// CHECK-NOT: memory-verify

func.func @storage_maybe_killed_per_iteration(%cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
    "test.op"(%s) : (!memory.storage<"global.vtcm">) -> ()
    scf.if %cond {
      memory.kill %s : !memory.storage<"global.vtcm">
    }
  }
  func.return
}

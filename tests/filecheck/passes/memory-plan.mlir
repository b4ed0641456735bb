// RUN: xdsl-opt %s -p memory-plan --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=greedy}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GREEDY
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=token}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TOKEN
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=best budget=20000}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BEST
// RUN: xdsl-opt %s -p 'memory-plan{insert-kills=false}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOKILL
// RUN: xdsl-opt %s -p 'memory-plan{tensor-alignment=128 alignment=1024}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALIGN
// RUN: xdsl-opt %s -p 'memory-plan{capacity=1536}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=CAP
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALGO
// RUN: xdsl-opt %s -p 'memory-plan{alignment=48}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADALIGN
// RUN: xdsl-opt %s -p 'memory-plan{tensor-alignment=9223372036854775808}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=HUGEALIGN
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=greedy budget=100}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GREEDYBUDGET
// RUN: xdsl-opt %s -p 'memory-plan{algorithm=token time-limit=1}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TOKENTIME
// RUN: xdsl-opt %s -p 'memory-plan{time-limit=-1}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADTIME
// RUN: xdsl-opt %s -p 'memory-plan{arenas=function}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=FUNC
// RUN: xdsl-opt %s -p 'memory-plan{arenas=block}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADARENAS
// RUN: xdsl-opt %s -p 'memory-plan{capacity=-5}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADCAP
// RUN: xdsl-opt %s -p 'memory-plan{target=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TARGET
// RUN: xdsl-opt %examples/seed_naive.mlir -p memory-manifest,memory-plan,memory-verify | filecheck %s --check-prefix=SEED
// RUN: xdsl-opt %examples/seed_naive.mlir -p memory-plan 2>&1 >/dev/null | filecheck %s --check-prefix=UNMANIFESTED
// RUN: xdsl-opt %examples/seed_naive.mlir -p memory-manifest,memory-plan 2>&1 >/dev/null | filecheck %s --check-prefix=MANIFESTED --allow-empty
// RUN: xdsl-opt %S/inputs/plan-several-blocks.mlir -p memory-manifest,memory-plan 2>&1 >/dev/null | filecheck %s --check-prefix=SEVERAL
// RUN: xdsl-opt %examples/three_big_vtcm.mlir -p memory-manifest,memory-plan,memory-verify | memplan-run --target hexagon-v73 2>&1 | filecheck %s --check-prefix=THREE
// RUN: memplan-opt %S/inputs/plan-coalesced.mlir -p 'memory-manifest,memory-coalesce,memory-plan{capacity=4096},memory-verify{capacity=4096}' | filecheck %s --check-prefix=COALESCED
// RUN: memplan-opt %S/inputs/plan-coalesced.mlir -p 'memory-manifest,memory-coalesce,memory-plan{capacity=4096}' | memplan-run - --vtcm-size 4096 2>&1 | filecheck %s --check-prefix=COALESCED-RESULT
// RUN: not memplan-opt %S/inputs/plan-coalesced.mlir -p 'memory-manifest,memory-coalesce,memory-plan{capacity=2048}' 2>&1 | filecheck %s --check-prefix=COALESCED-TIGHT

// ALGO: memory-plan: unknown algorithm 'nope', expected one of: token, greedy, best
// BADCAP: memory-plan: capacity must be >= 0 bytes, got -5
// BADALIGN: memory-plan: alignment 48 is not a positive power of two
// HUGEALIGN: memory-plan: tensor-alignment 9223372036854775808 does not fit in 64 bits (the largest power of two that does is 4611686018427387904)
// BADTIME: memory-plan: time-limit must be >= 0 seconds, got -1
// GREEDYBUDGET: memory-plan: option budget has no effect with algorithm=greedy: it applies with algorithm=best
// TOKENTIME: memory-plan: option time-limit has no effect with algorithm=token: it applies with algorithm=best
// BADARENAS: memory-plan: unknown arenas 'block', expected one of: run, function
// The seed's five 1024-byte VTCM tensors: at most three are live at once.
// SEED-LABEL: func.func private @seed(
// SEED-NEXT:    %arena = memory.alloc_storage [3072] align 2048 : !memory.storage<"global.vtcm">
// SEED-NOT:     memory.alloc_storage
// SEED-LABEL: func.func private @fill_affine(

// Three 3 MiB VTCM tensors, two live at once, run in 6 MiB of the 8 MiB.
// THREE: peak bytes global=3145728, global.vtcm=6291456

// A storage memory-coalesce merged holds %a, returned as a tensor, beside
// the plannable %b and %d: they move into the arena, and the storage
// shrinks to %a, now at offset 0 (inputs/plan-coalesced.mlir), so the
// pipeline fits the 4096 bytes memory-plan alone needs.
// COALESCED:       %0 = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
// COALESCED-NEXT:  %arena = memory.alloc_storage [128] align 2048 : !memory.storage<"global.vtcm">
// COALESCED-NEXT:  %b = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// COALESCED:       %a = memory.alloc_tensor %0[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// COALESCED:       %d = memory.alloc_tensor %arena[64] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// COALESCED:       memory.kill %arena : !memory.storage<"global.vtcm">
// COALESCED-NOT:   memory.kill %0
// COALESCED-RESULT:  array([12., 12.,
// COALESCED-RESULT:  array([2., 2.,
// COALESCED-RESULT:  peak bytes global=64, global.vtcm=192; peak extent global=64, global.vtcm=2176;
// In 2048 bytes neither pipeline fits (%a and the arena take 2048 each):
// the refusal counts the merged storage at its new size and says what it
// holds.
// COALESCED-TIGHT: memory-plan: in @main, the "global.vtcm" arena needs 128 bytes with the best plan of 2 tensors (at least 128 bytes are live at once), over the scope capacity of 2048 bytes, of which 2048 are held while the arena is live: memory.alloc_storage %0 (64 bytes, 2048 with its alignment padding; memory-plan leaves it: it holds %a, which escapes (returned, or its address taken))

// Without memory-manifest the seed's memref.allocs stay as they are; the
// pass says so on stderr instead of silently doing nothing.
// UNMANIFESTED: memory-plan: remark: 9 memref.alloc op(s) left unplanned: memory-plan places memory.alloc_tensor ops; run memory-manifest first (-p memory-manifest,memory-plan) to plan them
// MANIFESTED-NOT: remark

// A function of several blocks keeps its storages, and the pass says so.
// SEVERAL: memory-plan: remark: in @main, 1 memory.alloc_storage op(s) left unplanned: the function has 3 blocks, and memory-plan plans only functions whose body is one block

// TARGET: memory-plan: unknown target 'nope'; expected one of: hexagon-v65, hexagon-v66, hexagon-v68, hexagon-v69, hexagon-v73, hexagon-v75

// Straight line: a and b die at the call, so c reuses a's bytes.
// Without insert-kills only the arena is killed, after the last use.
// NOKILL-LABEL: func.func @straight_line() {
// NOKILL-NOT:     memory.kill %a
// NOKILL:         "test.op"(%b, %c)
// NOKILL-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// NOKILL-NEXT:    func.return
// A 1536-byte VTCM cannot hold the two tensors live at once.
// CAP: memory-plan: in @straight_line, the "global.vtcm" arena needs 2048 bytes with the best plan of 3 tensors (at least 2048 bytes are live at once), over the scope capacity of 1536 bytes
// CHECK-LABEL: func.func @straight_line() {
// CHECK-NEXT:    %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memory.kill %a : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%b, %c) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memory.kill %b : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    memory.kill %c : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @straight_line() {
  %s0 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %s1 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  %s2 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%b, %c) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  memory.kill %a : memref<256xi32, "global.vtcm">
  memory.kill %s0 : !memory.storage<"global.vtcm">
  memory.kill %b : memref<256xi32, "global.vtcm">
  memory.kill %s1 : !memory.storage<"global.vtcm">
  memory.kill %c : memref<256xi32, "global.vtcm">
  memory.kill %s2 : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A tensor used in a branch lives to the end of the scf.if.  b, allocated
// in the then branch, is planned in that branch's own arena.  No tensor of
// the function's unit is live between a's death and c: the function's run of
// tensors ends there, so c gets a new arena (one arena per run of chained
// live ranges, allocated before its first op, killed after its last).
// CHECK-LABEL: func.func @branch(%cond: i1) {
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%b) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %b : memref<16xf32>
// CHECK-NEXT:      memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena_2[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%c) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_2 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// arenas=function: one arena at function entry, killed after the last use;
// b shares it with a (both live in the then branch), c reuses a's bytes.
// FUNC-LABEL: func.func @branch(%cond: i1) {
// FUNC-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// FUNC-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// FUNC-NEXT:    scf.if %cond {
// FUNC-NEXT:      %b = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// FUNC:         %c = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// FUNC-NEXT:    "test.op"(%c) : (memref<16xf32>) -> ()
// FUNC-NEXT:    memory.kill %c : memref<16xf32>
// FUNC-NEXT:    memory.kill %arena : !memory.storage<"global">
// FUNC-NEXT:    func.return

func.func @branch(%cond: i1) {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  scf.if %cond {
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%b) : (memref<16xf32>) -> ()
  } else {
    "test.op"(%a) : (memref<16xf32>) -> ()
  }
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  func.return
}

// -----

// affine.if is a branch like scf.if, not a loop: b, allocated in its then
// block, gets that block's own arena (as a loop whose iterations may run at
// once, it used to be left unplanned).
// CHECK-LABEL: func.func @affine_branch(%n: index) {
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "affine.if"(%n) <{condition = affine_set<(d0) : ((d0 + -2) >= 0)>}> ({
// CHECK-NEXT:      %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%b) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %b : memref<16xf32>
// CHECK-NEXT:      memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:      affine.yield
// CHECK-NEXT:    }, {
// CHECK-NEXT:      "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:      affine.yield
// CHECK-NEXT:    }) : (index) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [64] : !memory.storage<"global">

func.func @affine_branch(%n: index) {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  "affine.if"(%n) <{condition = affine_set<(d0) : (d0 - 2 >= 0)>}> ({
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%b) : (memref<16xf32>) -> ()
    "affine.yield"() : () -> ()
  }, {
    "test.op"(%a) : (memref<16xf32>) -> ()
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  func.return
}

// -----

// A tensor defined before a loop and used in it lives through the whole
// loop; one allocated in the body lives within an iteration.  d, after a
// died, starts a new run and so a new arena.
// CHECK-LABEL: func.func @loop(%n: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:      %t = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %t : memref<16xf32>
// CHECK-NEXT:      %u = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%u) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %u : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %d = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%d) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %d : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    "test.op"(%a) : (memref<16xf32>) -> ()
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %t = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    %s2 = memory.alloc_storage [64] : !memory.storage<"global">
    %u = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%u) : (memref<16xf32>) -> ()
    memory.kill %s1 : !memory.storage<"global">
    memory.kill %s2 : !memory.storage<"global">
  }
  %s3 = memory.alloc_storage [64] : !memory.storage<"global">
  %d = memory.alloc_tensor %s3[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%d) : (memref<16xf32>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %s3 : !memory.storage<"global">
  func.return
}

// -----

// scf.while: a tensor used in the before region lives through the loop.
// b, after a died, starts a new arena.
// CHECK-LABEL: func.func @while_loop(%n: index) {
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %r = scf.while (%arg = %n) : (index) -> index {
// CHECK-NEXT:      %cond = "test.op"(%a, %arg) : (memref<16xf32>, index) -> i1
// CHECK-NEXT:      scf.condition(%cond) %arg : index
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg2: index):
// CHECK-NEXT:      scf.yield %arg2 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%b) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %b : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @while_loop(%n: index) {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %r = scf.while (%arg = %n) : (index) -> index {
    %cond = "test.op"(%a, %arg) : (memref<16xf32>, index) -> i1
    scf.condition(%cond) %arg : index
  } do {
  ^bb0(%arg2: index):
    scf.yield %arg2 : index
  }
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%b) : (memref<16xf32>) -> ()
  func.return
}

// -----

// Nested regions: a use in a loop inside a branch extends a to the end of
// the scf.if, the op of a's block that holds the use; b starts a new arena.
// CHECK-LABEL: func.func @nested(%cond: i1, %n: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:        "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%b) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %b : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @nested(%cond: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  scf.if %cond {
    scf.for %i = %c0 to %n step %c1 {
      "test.op"(%a) : (memref<16xf32>) -> ()
    }
  }
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%b) : (memref<16xf32>) -> ()
  func.return
}

// -----

// Tensors yielded out of a branch live on through the scf.if result, so
// they belong to the enclosing unit (the function), whose arena holds them;
// they get no kill of their own (the arena's kill follows the last use).
// CHECK-LABEL: func.func @yielded_from_branch(%cond: i1) {
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %r = scf.if %cond -> (memref<16xf32>) {
// CHECK-NEXT:      %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      scf.yield %a : memref<16xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %b = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      scf.yield %b : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.op"(%r) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%c) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @yielded_from_branch(%cond: i1) {
  %r = scf.if %cond -> (memref<16xf32>) {
    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
    scf.yield %a : memref<16xf32>
  } else {
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    scf.yield %b : memref<16xf32>
  }
  "test.op"(%r) : (memref<16xf32>) -> ()
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  func.return
}

// -----

// A tensor yielded to the next iteration is loop-carried: the next iteration
// allocates a new one while it is live, so no single offset fits it and its
// storage is left alone; u, within one iteration, is planned.
// CHECK-LABEL: func.func @loop_carried(%n: index, %init: memref<16xf32>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<16xf32>) {
// CHECK-NEXT:      "test.op"(%prev) : (memref<16xf32>) -> ()
// CHECK-NEXT:      %s0 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      %u = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%u) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %u : memref<16xf32>
// CHECK-NEXT:      scf.yield %t : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @loop_carried(%n: index, %init: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<16xf32>) {
    "test.op"(%prev) : (memref<16xf32>) -> ()
    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
    %t = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %u = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%u) : (memref<16xf32>) -> ()
    scf.yield %t : memref<16xf32>
  }
  func.return
}

// -----

// The same through affine.yield: %t is carried to the next iteration and
// out of the loop as %r, read after it, so it keeps its storage (in the
// arena, killed after the loop, %r would be read after its bytes were freed).
// CHECK-LABEL: func.func @affine_loop_carried(%init: memref<16xf32>) {
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %r = affine.for %i = 0 to 2 iter_args(%prev = %init) -> (memref<16xf32>) {
// CHECK-NEXT:      "test.op"(%prev) : (memref<16xf32>) -> ()
// CHECK-NEXT:      %s0 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      %u = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%u) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %u : memref<16xf32>
// CHECK-NEXT:      affine.yield %t : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %v = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%r, %v) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %v : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @affine_loop_carried(%init: memref<16xf32>) {
  %r = affine.for %i = 0 to 2 iter_args(%prev = %init) -> (memref<16xf32>) {
    "test.op"(%prev) : (memref<16xf32>) -> ()
    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
    %t = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    %s1 = memory.alloc_storage [64] : !memory.storage<"global">
    %u = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%u) : (memref<16xf32>) -> ()
    affine.yield %t : memref<16xf32>
  }
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %v = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%r, %v) : (memref<16xf32>, memref<16xf32>) -> ()
  func.return
}

// -----

// The iterations of an scf.parallel may run at once, so a tensor allocated in
// its body needs bytes of its own in each: its storage stays in the body.
// CHECK-LABEL: func.func @parallel_loop(%n: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^bb0(%i: index):
// CHECK-NEXT:      %s = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %t : memref<16xf32>
// CHECK-NEXT:      memory.kill %s : !memory.storage<"global">
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }) : (index, index, index) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @parallel_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %s = memory.alloc_storage [64] : !memory.storage<"global">
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    memory.kill %t : memref<16xf32>
    memory.kill %s : !memory.storage<"global">
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// Branches between the blocks of a region may loop back: a tensor allocated
// there may be allocated again while the one passed along a cf.br is live,
// so each keeps a storage of its own (they used to share one arena slot).
// CHECK-LABEL: func.func @branch_loop() {
// CHECK:         scf.execute_region {
// CHECK-NEXT:      %a_storage = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %a = memory.alloc_tensor %a_storage[0]
// CHECK:         ^bb1(%prev: memref<16xf32>):
// CHECK-NEXT:      %b_storage = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %b = memory.alloc_tensor %b_storage[0]

func.func @branch_loop() {
  "scf.execute_region"() ({
    %a_storage = memory.alloc_storage [64] : !memory.storage<"global">
    %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%a) : (memref<16xf32>) -> ()
    cf.br ^bb1(%a : memref<16xf32>)
  ^bb1(%prev: memref<16xf32>):
    %b_storage = memory.alloc_storage [64] : !memory.storage<"global">
    %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%prev, %b) : (memref<16xf32>, memref<16xf32>) -> ()
    %more = "test.op"() : () -> i1
    cf.cond_br %more, ^bb1(%b : memref<16xf32>), ^bb2
  ^bb2:
    scf.yield
  }) : () -> ()
  func.return
}

// -----

// Calls and views are uses; a call's memref result may alias its argument.
// CHECK-LABEL: func.func @calls_and_views() {
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %r = func.call @callee(%a) : (memref<16xf32>) -> memref<4xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %v = memref.subview %b[0] [4] [1] : memref<16xf32> to memref<4xf32>
// CHECK-NEXT:    "test.op"(%r) : (memref<4xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%v, %c) : (memref<4xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %b : memref<16xf32>
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func private @callee(memref<16xf32>) -> memref<4xf32>

func.func @calls_and_views() {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %r = func.call @callee(%a) : (memref<16xf32>) -> memref<4xf32>
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  %v = memref.subview %b[0] [4] [1] : memref<16xf32> to memref<4xf32>
  "test.op"(%r) : (memref<4xf32>) -> ()
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%v, %c) : (memref<4xf32>, memref<16xf32>) -> ()
  func.return
}

// -----

// A value made from a tensor that may still reach its memory keeps the tensor
// alive: a bufferization.to_tensor result (a tensor reading the same bytes),
// a pointer cast from it. A memref.dim result (an index, data) does not.
// CHECK-LABEL: func.func @non_memref_aliases() -> tensor<16xf32> {
// CHECK-NEXT:    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %t = bufferization.to_tensor %a restrict : memref<16xf32> to tensor<16xf32>
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %p = builtin.unrealized_conversion_cast %b : memref<16xf32> to !llvm.ptr
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %n = memref.dim %c, %c0 : memref<16xf32>
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    %d = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%d, %p, %n) : (memref<16xf32>, !llvm.ptr, index) -> ()
// CHECK-NEXT:    memory.kill %b : memref<16xf32>
// CHECK-NEXT:    memory.kill %d : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return %t : tensor<16xf32>
// CHECK-NEXT:  }

func.func @non_memref_aliases() -> tensor<16xf32> {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %t = bufferization.to_tensor %a restrict : memref<16xf32> to tensor<16xf32>
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  %p = builtin.unrealized_conversion_cast %b : memref<16xf32> to !llvm.ptr
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %c, %c0 : memref<16xf32>
  %s3 = memory.alloc_storage [64] : !memory.storage<"global">
  %d = memory.alloc_tensor %s3[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%d, %p, %n) : (memref<16xf32>, !llvm.ptr, index) -> ()
  func.return %t : tensor<16xf32>
}

// -----

// A tensor a store writes to memory (a memref of memrefs) escapes: a load may
// read it back at any later point, so memory-plan leaves it alone.
// CHECK-LABEL: func.func @stored_to_memory(%box: memref<1xmemref<16xf32>>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    memref.store %a, %box[%c0] : memref<1xmemref<16xf32>>
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %l = memref.load %box[%c0] : memref<1xmemref<16xf32>>
// CHECK-NEXT:    "test.op"(%b, %l) : (memref<16xf32>, memref<16xf32>) -> ()

func.func @stored_to_memory(%box: memref<1xmemref<16xf32>>) {
  %c0 = arith.constant 0 : index
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  memref.store %a, %box[%c0] : memref<1xmemref<16xf32>>
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  %l = memref.load %box[%c0] : memref<1xmemref<16xf32>>
  "test.op"(%b, %l) : (memref<16xf32>, memref<16xf32>) -> ()
  func.return
}

// -----

// Returned tensors (also through a cast) and dynamic sizes are left alone.
// CHECK-LABEL: func.func @escaping_and_dynamic(%n: index) -> memref<?xf32> {
// CHECK-NEXT:    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %cast = "memref.cast"(%a) : (memref<16xf32>) -> memref<?xf32>
// CHECK-NEXT:    %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xf32>
// CHECK-NEXT:    "test.op"(%b) : (memref<?xf32>) -> ()
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%c) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return %cast : memref<?xf32>
// CHECK-NEXT:  }

func.func @escaping_and_dynamic(%n: index) -> memref<?xf32> {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %cast = "memref.cast"(%a) : (memref<16xf32>) -> memref<?xf32>
  %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xf32>
  "test.op"(%b) : (memref<?xf32>) -> ()
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%c) : (memref<16xf32>) -> ()
  func.return %cast : memref<?xf32>
}

// -----

// A dynamic-size storage stays where it is (no static offset in an arena),
// but is killed right after the last use of its tensor, through any alias
// (here a subview, and a loop): MLIR's deallocation pipeline frees at the
// end of the function. A storage with two tensors, or not killed at all, or
// whose tensor is returned, keeps its kills.
// CHECK-LABEL: func.func @dynamic_killed_after_last_use(%n: index) -> memref<?xi8> {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %v = memref.subview %a[0] [%n] [1] : memref<?xi8> to memref<?xi8, strided<[1]>>
// CHECK-NEXT:    "test.op"(%v) : (memref<?xi8, strided<[1]>>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<?xi8>
// CHECK-NEXT:    memory.kill %s0 : !memory.storage<"global">
// CHECK-NEXT:    %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      "test.op"(%b) : (memref<?xi8>) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %b : memref<?xi8>
// CHECK-NEXT:    memory.kill %s1 : !memory.storage<"global">
// CHECK-NEXT:    %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %d = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    "test.op"(%c, %d) : (memref<?xi8>, memref<?xi8>) -> ()
// CHECK-NEXT:    %s3 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %e = memory.alloc_tensor %s3[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    "test.op"(%e) : (memref<?xi8>) -> ()
// CHECK-NEXT:    %s4 = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %f = memory.alloc_tensor %s4[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    "test.op"(%f) : (memref<?xi8>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<?xi8>
// CHECK-NEXT:    memory.kill %d : memref<?xi8>
// CHECK-NEXT:    memory.kill %s2 : !memory.storage<"global">
// CHECK-NEXT:    memory.kill %f : memref<?xi8>
// CHECK-NEXT:    memory.kill %s4 : !memory.storage<"global">
// CHECK-NEXT:    func.return %f : memref<?xi8>
// CHECK-NEXT:  }

// NOKILL-LABEL: func.func @dynamic_killed_after_last_use(%n: index) -> memref<?xi8> {
// NOKILL:         "test.op"(%f) : (memref<?xi8>) -> ()
// NOKILL-NEXT:    memory.kill %v : memref<?xi8, strided<[1]>>
// NOKILL-NEXT:    memory.kill %s0 : !memory.storage<"global">
// NOKILL-NEXT:    memory.kill %b : memref<?xi8>
// NOKILL-NEXT:    memory.kill %s1 : !memory.storage<"global">

func.func @dynamic_killed_after_last_use(%n: index) -> memref<?xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = memory.alloc_storage [%n] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %v = memref.subview %a[0] [%n] [1] : memref<?xi8> to memref<?xi8, strided<[1]>>
  "test.op"(%v) : (memref<?xi8, strided<[1]>>) -> ()
  %s1 = memory.alloc_storage [%n] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0][%n] : !memory.storage<"global"> to memref<?xi8>
  scf.for %i = %c0 to %n step %c1 {
    "test.op"(%b) : (memref<?xi8>) -> ()
  }
  %s2 = memory.alloc_storage [%n] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %d = memory.alloc_tensor %s2[0][%n] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%c, %d) : (memref<?xi8>, memref<?xi8>) -> ()
  %s3 = memory.alloc_storage [%n] : !memory.storage<"global">
  %e = memory.alloc_tensor %s3[0][%n] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%e) : (memref<?xi8>) -> ()
  %s4 = memory.alloc_storage [%n] : !memory.storage<"global">
  %f = memory.alloc_tensor %s4[0][%n] : !memory.storage<"global"> to memref<?xi8>
  "test.op"(%f) : (memref<?xi8>) -> ()
  memory.kill %v : memref<?xi8, strided<[1]>>
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %b : memref<?xi8>
  memory.kill %s1 : !memory.storage<"global">
  memory.kill %c : memref<?xi8>
  memory.kill %d : memref<?xi8>
  memory.kill %s2 : !memory.storage<"global">
  memory.kill %f : memref<?xi8>
  memory.kill %s4 : !memory.storage<"global">
  func.return %f : memref<?xi8>
}

// -----

// One arena per scope and device, each allocated where its first tensor is.
// CHECK-LABEL: func.func @scopes() {
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [64] device 1 : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena_2[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%a, %b, %c) : (memref<16xf32>, memref<16xf32, "global.vtcm">, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    memory.kill %b : memref<16xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_2 : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @scopes() {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %s1 = memory.alloc_storage [64] align 2048 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
  %s2 = memory.alloc_storage [64] device 1 : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%a, %b, %c) : (memref<16xf32>, memref<16xf32, "global.vtcm">, memref<16xf32>) -> ()
  func.return
}

// -----

// Nothing to plan (a storage without tensors, a function argument): the
// module is unchanged.
// CHECK-LABEL: func.func @nothing(%x: memref<16xf32>) {
// CHECK-NEXT:    %s = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    "test.op"(%x) : (memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %s : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @nothing(%x: memref<16xf32>) {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  "test.op"(%x) : (memref<16xf32>) -> ()
  memory.kill %s : !memory.storage<"global">
  func.return
}

// -----

// Each algorithm on one trace: TVM token reuse 160 bytes, greedy 128, best 112
// (the max-live lower bound).
// TOKEN-LABEL: func.func @algorithms() {
// TOKEN-NEXT:    %arena = memory.alloc_storage [160] : !memory.storage<"global">
// GREEDY-LABEL: func.func @algorithms() {
// GREEDY-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// BEST-LABEL: func.func @algorithms() {
// BEST-NEXT:    %arena = memory.alloc_storage [112] : !memory.storage<"global">
// CHECK-LABEL: func.func @algorithms() {
// CHECK-NEXT:    %arena = memory.alloc_storage [112] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[80] : !memory.storage<"global"> to memref<8xf32>
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    "test.op"(%a, %b, %c) : (memref<16xf32>, memref<8xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    "test.op"(%b, %c) : (memref<8xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    %d = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    "test.op"(%b, %c, %d) : (memref<8xf32>, memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memory.kill %c : memref<4xf32>
// CHECK-NEXT:    %e = memory.alloc_tensor %arena[16] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%b, %d, %e) : (memref<8xf32>, memref<4xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %b : memref<8xf32>
// CHECK-NEXT:    memory.kill %e : memref<16xf32>
// CHECK-NEXT:    "test.op"(%d) : (memref<4xf32>) -> ()
// CHECK-NEXT:    memory.kill %d : memref<4xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @algorithms() {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%a) : (memref<16xf32>) -> ()
  %s1 = memory.alloc_storage [32] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<8xf32>
  %s2 = memory.alloc_storage [16] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%a, %b, %c) : (memref<16xf32>, memref<8xf32>, memref<4xf32>) -> ()
  "test.op"(%b, %c) : (memref<8xf32>, memref<4xf32>) -> ()
  %s3 = memory.alloc_storage [16] : !memory.storage<"global">
  %d = memory.alloc_tensor %s3[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%b, %c, %d) : (memref<8xf32>, memref<4xf32>, memref<4xf32>) -> ()
  %s4 = memory.alloc_storage [64] : !memory.storage<"global">
  %e = memory.alloc_tensor %s4[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%b, %d, %e) : (memref<8xf32>, memref<4xf32>, memref<16xf32>) -> ()
  "test.op"(%d) : (memref<4xf32>) -> ()
  func.return
}

// -----

// Live together, three 3 MiB VTCM tensors cannot fit the 8 MiB of hexagon-v73.
// CHECK: memory-plan: in @over_capacity, the "global.vtcm" arena needs 9437184 bytes with the best plan of 3 tensors (at least 9437184 bytes are live at once), over the scope capacity of 8388608 bytes

func.func @over_capacity() {
  %s0 = memory.alloc_storage [3145728] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global.vtcm"> to memref<786432xi32, "global.vtcm">
  %s1 = memory.alloc_storage [3145728] align 2048 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<786432xi32, "global.vtcm">
  %s2 = memory.alloc_storage [3145728] align 2048 : !memory.storage<"global.vtcm">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<786432xi32, "global.vtcm">
  "test.op"(%a, %b, %c) : (memref<786432xi32, "global.vtcm">, memref<786432xi32, "global.vtcm">, memref<786432xi32, "global.vtcm">) -> ()
  func.return
}

// -----

// Several tensors of one storage (as memory-coalesce leaves them) are
// planned one by one; the arena keeps the storage's larger alignment.
// Tensors inside the arena are aligned to their element size only, unless
// tensor-alignment asks for more (sizes round up to it too).
// ALIGN-LABEL: func.func @coalesced_storage() {
// ALIGN-NEXT:    %arena = memory.alloc_storage [256] align 1024 : !memory.storage<"global">
// ALIGN-NEXT:    %a = memory.alloc_tensor %arena[128] : !memory.storage<"global"> to memref<16xi8>
// ALIGN-NEXT:    %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xi8>
// CHECK-LABEL: func.func @coalesced_storage() {
// CHECK-NEXT:    %arena = memory.alloc_storage [32] align 256 : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[16] : !memory.storage<"global"> to memref<16xi8>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xi8>
// CHECK-NEXT:    "test.op"(%a) : (memref<16xi8>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xi8>
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[16] : !memory.storage<"global"> to memref<16xi8>
// CHECK-NEXT:    "test.op"(%b, %c) : (memref<16xi8>, memref<16xi8>) -> ()
// CHECK-NEXT:    memory.kill %b : memref<16xi8>
// CHECK-NEXT:    memory.kill %c : memref<16xi8>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @coalesced_storage() {
  %s = memory.alloc_storage [48] align 256 : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xi8>
  %b = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<16xi8>
  "test.op"(%a) : (memref<16xi8>) -> ()
  %c = memory.alloc_tensor %s[32] : !memory.storage<"global"> to memref<16xi8>
  "test.op"(%b, %c) : (memref<16xi8>, memref<16xi8>) -> ()
  memory.kill %s : !memory.storage<"global">
  func.return
}

// -----

// Each branch is a planning unit with its own arena, allocated at the start
// of the branch and killed after the branch's last use: a branch that does
// not run allocates nothing.  A loop in a branch is planned in the branch's
// arena (b, within one iteration); the nested scf.if has an arena of its own.
// CHECK-LABEL: func.func @branch_arenas(%cond: i1, %inner: i1, %n: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:      "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:      scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:        %b = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:        "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:        memory.kill %b : memref<256xi32, "global.vtcm">
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.if %inner {
// CHECK-NEXT:        %arena_1 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:        %c = memory.alloc_tensor %arena_1[0] : !memory.storage<"global.vtcm"> to memref<512xi32, "global.vtcm">
// CHECK-NEXT:        "test.op"(%a, %c) : (memref<256xi32, "global.vtcm">, memref<512xi32, "global.vtcm">) -> ()
// CHECK-NEXT:        memory.kill %c : memref<512xi32, "global.vtcm">
// CHECK-NEXT:        memory.kill %arena_1 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      }
// CHECK-NEXT:      memory.kill %a : memref<256xi32, "global.vtcm">
// CHECK-NEXT:      memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %arena_2 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:      %d = memory.alloc_tensor %arena_2[0] : !memory.storage<"global.vtcm"> to memref<1024xi32, "global.vtcm">
// CHECK-NEXT:      "test.op"(%d) : (memref<1024xi32, "global.vtcm">) -> ()
// CHECK-NEXT:      memory.kill %d : memref<1024xi32, "global.vtcm">
// CHECK-NEXT:      memory.kill %arena_2 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @branch_arenas(%cond: i1, %inner: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %cond {
    %s0 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
    "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %s1 = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
      %b = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
      "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
      memory.kill %s1 : !memory.storage<"global.vtcm">
    }
    scf.if %inner {
      %s2 = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
      %c = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<512xi32, "global.vtcm">
      "test.op"(%a, %c) : (memref<256xi32, "global.vtcm">, memref<512xi32, "global.vtcm">) -> ()
      memory.kill %s2 : !memory.storage<"global.vtcm">
    }
    memory.kill %s0 : !memory.storage<"global.vtcm">
  } else {
    %s3 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
    %d = memory.alloc_tensor %s3[0] : !memory.storage<"global.vtcm"> to memref<1024xi32, "global.vtcm">
    "test.op"(%d) : (memref<1024xi32, "global.vtcm">) -> ()
    memory.kill %s3 : !memory.storage<"global.vtcm">
  }
  func.return
}

// -----

// An scf.if in a loop; a, allocated in the loop, is in the function's arena
// (loops are not units).  The enclosing arena is live across the branch and
// has room there (a is dead by then), so the branch's arena nests in it at
// no cost: b shares a's bytes and the branch allocates nothing.  Without
// room (see @branch_arenas, c), a branch keeps an arena of its own.
// CHECK-LABEL: func.func @branch_in_loop(%n: index, %x: memref<16xf32>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      %cond = "test.op"(%a) : (memref<16xf32>) -> i1
// CHECK-NEXT:      memory.kill %a : memref<16xf32>
// CHECK-NEXT:      scf.if %cond {
// CHECK-NEXT:        %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:        "test.op"(%b, %x) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:        memory.kill %b : memref<16xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @branch_in_loop(%n: index, %x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
    %cond = "test.op"(%a) : (memref<16xf32>) -> i1
    scf.if %cond {
      %s1 = memory.alloc_storage [64] : !memory.storage<"global">
      %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
      "test.op"(%b, %x) : (memref<16xf32>, memref<16xf32>) -> ()
    }
  }
  func.return
}

// -----

// scf.index_switch: each case is a planning unit too.
// CHECK-LABEL: func.func @switch_cases(%k: index) {
// CHECK-NEXT:    scf.index_switch %k
// CHECK-NEXT:    case 0 {
// CHECK-NEXT:      %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%a) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %a : memref<16xf32>
// CHECK-NEXT:      memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      %arena_1 = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:      %b = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<32xf32>
// CHECK-NEXT:      "test.op"(%b) : (memref<32xf32>) -> ()
// CHECK-NEXT:      memory.kill %b : memref<32xf32>
// CHECK-NEXT:      memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @switch_cases(%k: index) {
  scf.index_switch %k
  case 0 {
    %s0 = memory.alloc_storage [64] : !memory.storage<"global">
    %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
    "test.op"(%a) : (memref<16xf32>) -> ()
    scf.yield
  }
  default {
    %s1 = memory.alloc_storage [128] : !memory.storage<"global">
    %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<32xf32>
    "test.op"(%b) : (memref<32xf32>) -> ()
    scf.yield
  }
  func.return
}

// -----

// A kill made through an alias (here a memref.cast of %a) ends %a: the pass
// erases it with the other kills of planned tensors and places its own, so
// %a is killed once (found by random programs: the planned program killed
// %a twice, with any algorithm, with insert-kills=false too).
// CHECK-LABEL: func.func @kill_through_an_alias() {
// CHECK-NEXT:    %arena = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    %c = {{"?}}memref.cast{{"?}}{{.*}}%a
// CHECK-NEXT:    "test.op"(%c) : (memref<?xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memory.kill %a : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// CHECK-NEXT:    func.return
// NOKILL-LABEL: func.func @kill_through_an_alias() {
// NOKILL-NOT:     memory.kill %
// NOKILL:         "test.op"(%c)
// NOKILL-NEXT:    memory.kill %arena : !memory.storage<"global.vtcm">
// NOKILL-NEXT:    func.return

func.func @kill_through_an_alias() {
  %s = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %c = "memref.cast"(%a) : (memref<256xi32, "global.vtcm">) -> memref<?xi32, "global.vtcm">
  "test.op"(%c) : (memref<?xi32, "global.vtcm">) -> ()
  memory.kill %c : memref<?xi32, "global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// memref.dealloc of a tensor frees its storage: after planning it would free
// the arena, so such a storage keeps its place.
// CHECK-LABEL: func.func @tensor_freed_by_dealloc() {
// CHECK-NEXT:    %s = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
// CHECK-NEXT:    "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
// CHECK-NEXT:    memref.dealloc %a : memref<256xi32, "global.vtcm">
// CHECK-NEXT:    func.return

func.func @tensor_freed_by_dealloc() {
  %s = memory.alloc_storage [1024] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  memref.dealloc %a : memref<256xi32, "global.vtcm">
  func.return
}

// -----

// An alignment request (memref.alloc {alignment = 256}, kept by
// memory-manifest as `align 256` on the tensor) survives planning: %b's
// offset is a multiple of 256, though its elements need only 4 bytes (found
// by random programs: %b landed at a 32-byte offset).  Sizes are not
// rounded up to it.
// CHECK-LABEL: func.func @alignment_request() {
// CHECK-NEXT:    %arena = memory.alloc_storage [96] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[32] : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0] align 256 : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena[64] : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
// GREEDY-LABEL: func.func @alignment_request() {
// GREEDY:         %b = memory.alloc_tensor %arena[{{0|256|512}}] align 256
// TOKEN-LABEL: func.func @alignment_request() {
// TOKEN:          %b = memory.alloc_tensor %arena[{{0|256|512}}] align 256

func.func @alignment_request() {
  %s0 = memory.alloc_storage [32] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
  %s1 = memory.alloc_storage [32] align 256 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s1[0] align 256 : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
  %s2 = memory.alloc_storage [32] align 2048 : !memory.storage<"global.vtcm">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<8xi32, "global.vtcm">
  "test.op"(%a, %b, %c) : (memref<8xi32, "global.vtcm">, memref<8xi32, "global.vtcm">, memref<8xi32, "global.vtcm">) -> ()
  func.return
}

// -----

// A call's result is its argument only where the callee may return it:
// %a, which @same16 returns, lives on through %r, so %b takes bytes of its
// own; @copy16 returns a fresh buffer, so %c dies at the call and %d reuses
// its bytes.
// CHECK-LABEL: func.func @call_results() {
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %r = func.call @same16(%a) : (memref<16xf32>) -> memref<16xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%r, %b) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %a : memref<16xf32>
// CHECK-NEXT:    memory.kill %b : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena : !memory.storage<"global">
// CHECK-NEXT:    %arena_1 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %c = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    %q = func.call @copy16(%c) : (memref<16xf32>) -> memref<16xf32>
// CHECK-NEXT:    memory.kill %c : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_1 : !memory.storage<"global">
// CHECK-NEXT:    %arena_2 = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %d = memory.alloc_tensor %arena_2[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:    "test.op"(%q, %d) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memory.kill %d : memref<16xf32>
// CHECK-NEXT:    memory.kill %arena_2 : !memory.storage<"global">
// CHECK-NEXT:    memref.dealloc %q : memref<16xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @same16(%a: memref<16xf32>) -> memref<16xf32> {
  func.return %a : memref<16xf32>
}
func.func @copy16(%a: memref<16xf32>) -> memref<16xf32> {
  %b = memref.alloc() : memref<16xf32>
  "memref.copy"(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  func.return %b : memref<16xf32>
}
func.func @call_results() {
  %s0 = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<16xf32>
  %r = func.call @same16(%a) : (memref<16xf32>) -> memref<16xf32>
  %s1 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%r, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  %q = func.call @copy16(%c) : (memref<16xf32>) -> memref<16xf32>
  %s3 = memory.alloc_storage [64] : !memory.storage<"global">
  %d = memory.alloc_tensor %s3[0] : !memory.storage<"global"> to memref<16xf32>
  "test.op"(%q, %d) : (memref<16xf32>, memref<16xf32>) -> ()
  memory.kill %a : memref<16xf32>
  memory.kill %s0 : !memory.storage<"global">
  memory.kill %b : memref<16xf32>
  memory.kill %s1 : !memory.storage<"global">
  memory.kill %c : memref<16xf32>
  memory.kill %s2 : !memory.storage<"global">
  memory.kill %d : memref<16xf32>
  memory.kill %s3 : !memory.storage<"global">
  memref.dealloc %q : memref<16xf32>
  func.return
}

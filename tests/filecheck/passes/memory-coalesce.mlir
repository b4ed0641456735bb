// RUN: xdsl-opt %s -p memory-coalesce --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'memory-coalesce{alignment=8}' --split-input-file | filecheck %s --check-prefix=ALIGN8
// RUN: xdsl-opt %s -p 'memory-coalesce{alignment=512 target=hexagon-v68}' --split-input-file | filecheck %s --check-prefix=ALIGN512
// RUN: xdsl-opt %s -p 'memory-coalesce{alignment=3}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOT-POW2
// RUN: xdsl-opt %s -p 'memory-coalesce{target=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TARGET

// NOT-POW2: memory-coalesce: alignment 3 is not a positive power of two
// TARGET: memory-coalesce: unknown target 'nope'; expected one of: hexagon-v65, hexagon-v66, hexagon-v68, hexagon-v69, hexagon-v73, hexagon-v75

// Offsets are running sums rounded up to each storage's alignment (and the
// target's 64 bytes for DDR); the merged storage takes the largest alignment,
// sits where the first storage was, and is killed after the last kill.
// CHECK-LABEL: func.func @straight_line() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [264] align 128 : !memory.storage<"global">
// CHECK-NEXT:    %t0 = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %t1 = memory.alloc_tensor %[[S]][132] : !memory.storage<"global"> to memref<3xi32>
// CHECK-NEXT:    %t2 = memory.alloc_tensor %[[S]][192] : !memory.storage<"global"> to memref<2xf32>
// CHECK-NEXT:    %t3 = memory.alloc_tensor %[[S]][256] : !memory.storage<"global"> to memref<2xf32>
// CHECK-NEXT:    "test.op"(%t1, %t2, %t3)
// CHECK-NEXT:    memory.kill %t1 : memref<3xi32>
// CHECK-NEXT:    "test.op"(%t0)
// CHECK-NEXT:    memory.kill %[[S]] : !memory.storage<"global">
// CHECK-NEXT:    func.return

func.func @straight_line() {
  %s0 = memory.alloc_storage [16] : !memory.storage<"global">
  %t0 = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<4xf32>
  %s1 = memory.alloc_storage [100] align 128 : !memory.storage<"global">
  %t1 = memory.alloc_tensor %s1[4] : !memory.storage<"global"> to memref<3xi32>
  %t2 = memory.alloc_tensor %s1[64] : !memory.storage<"global"> to memref<2xf32>
  %s2 = memory.alloc_storage [8] : !memory.storage<"global">
  %t3 = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<2xf32>
  "test.op"(%t1, %t2, %t3) : (memref<3xi32>, memref<2xf32>, memref<2xf32>) -> ()
  memory.kill %t1 : memref<3xi32>
  memory.kill %s1 : !memory.storage<"global">
  memory.kill %s2 : !memory.storage<"global">
  "test.op"(%t0) : (memref<4xf32>) -> ()
  memory.kill %s0 : !memory.storage<"global">
  func.return
}

// -----

// A kill of the merged storage would free %t1's bytes: no kill at all.
// CHECK-LABEL: func.func @one_storage_never_killed() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    %t0 = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %t1 = memory.alloc_tensor %[[S]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    "test.op"(%t1)
// CHECK-NEXT:    func.return

func.func @one_storage_never_killed() {
  %s0 = memory.alloc_storage [16] : !memory.storage<"global">
  %t0 = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<4xf32>
  %s1 = memory.alloc_storage [16] : !memory.storage<"global">
  %t1 = memory.alloc_tensor %s1[0] : !memory.storage<"global"> to memref<4xf32>
  memory.kill %s0 : !memory.storage<"global">
  "test.op"(%t1) : (memref<4xf32>) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @several_scopes() {
// CHECK-NEXT:    %[[G:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    %[[V:.*]] = memory.alloc_storage [2148] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %[[G]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %[[V]][0] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
// CHECK-NEXT:    %c = memory.alloc_tensor %[[G]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %d = memory.alloc_tensor %[[V]][2048] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">

func.func @several_scopes() {
  %g0 = memory.alloc_storage [16] : !memory.storage<"global">
  %v0 = memory.alloc_storage [100] align 2048 : !memory.storage<"global.vtcm">
  %g1 = memory.alloc_storage [16] : !memory.storage<"global">
  %v1 = memory.alloc_storage [100] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %g0[0] : !memory.storage<"global"> to memref<4xf32>
  %b = memory.alloc_tensor %v0[0] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
  %c = memory.alloc_tensor %g1[0] : !memory.storage<"global"> to memref<4xf32>
  %d = memory.alloc_tensor %v1[0] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
  "test.op"(%a, %b, %c, %d) : (memref<4xf32>, memref<4xf32, "global.vtcm">, memref<4xf32>, memref<4xf32, "global.vtcm">) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @several_devices() {
// CHECK-NEXT:    %a = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[D1:.*]] = memory.alloc_storage [80] device 1 : !memory.storage<"global">
// CHECK-NEXT:    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %tb = memory.alloc_tensor %[[D1]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %tc = memory.alloc_tensor %[[D1]][64] : !memory.storage<"global"> to memref<4xf32>

func.func @several_devices() {
  %a = memory.alloc_storage [16] : !memory.storage<"global">
  %b = memory.alloc_storage [16] device 1 : !memory.storage<"global">
  %c = memory.alloc_storage [16] device 1 : !memory.storage<"global">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
  %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
  %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%ta, %tb, %tc) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// -----

// Each branch is its own region; %s and %t escape into "test.op".
// CHECK-LABEL: func.func @scf_if(%cond: i1) {
// CHECK-NEXT:    %s = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      %[[T:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:      %ta = memory.alloc_tensor %[[T]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %tb = memory.alloc_tensor %[[T]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      "test.op"(%ta, %tb)
// CHECK-NEXT:      memory.kill %[[T]] : !memory.storage<"global">
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %c = memory.alloc_storage [8] : !memory.storage<"global">
// CHECK-NEXT:      %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<2xf32>
// CHECK-NEXT:      "test.op"(%tc)
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = memory.alloc_storage [16] : !memory.storage<"global">

func.func @scf_if(%cond: i1) {
  %s = memory.alloc_storage [16] : !memory.storage<"global">
  scf.if %cond {
    %a = memory.alloc_storage [16] : !memory.storage<"global">
    %b = memory.alloc_storage [16] : !memory.storage<"global">
    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
    %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
    "test.op"(%ta, %tb) : (memref<4xf32>, memref<4xf32>) -> ()
    memory.kill %a : !memory.storage<"global">
    memory.kill %b : !memory.storage<"global">
  } else {
    %c = memory.alloc_storage [8] : !memory.storage<"global">
    %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<2xf32>
    "test.op"(%tc) : (memref<2xf32>) -> ()
  }
  %t = memory.alloc_storage [16] : !memory.storage<"global">
  "test.op"(%s, %t) : (!memory.storage<"global">, !memory.storage<"global">) -> ()
  func.return
}

// -----

// The loop body is a region; a tensor in the body may use an outer storage,
// which merges with the storage after the loop (hoisted: its size is constant).
// CHECK-LABEL: func.func @scf_for(%lb: index, %ub: index, %step: index) {
// CHECK-NEXT:    %[[O:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    %to = memory.alloc_tensor %[[O]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    scf.for %i = %lb to %ub step %step {
// CHECK-NEXT:      %[[B:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:      %ta = memory.alloc_tensor %[[B]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %tb = memory.alloc_tensor %[[B]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %inner_of_outer = memory.alloc_tensor %[[O]][8] : !memory.storage<"global"> to memref<2xf32>
// CHECK-NEXT:      "test.op"(%ta, %tb, %inner_of_outer)
// CHECK-NEXT:      memory.kill %[[B]] : !memory.storage<"global">
// CHECK-NEXT:    }
// CHECK-NEXT:    %tl = memory.alloc_tensor %[[O]][64] : !memory.storage<"global"> to memref<4xf32>

func.func @scf_for(%lb: index, %ub: index, %step: index) {
  %outer = memory.alloc_storage [16] : !memory.storage<"global">
  %to = memory.alloc_tensor %outer[0] : !memory.storage<"global"> to memref<4xf32>
  scf.for %i = %lb to %ub step %step {
    %a = memory.alloc_storage [16] : !memory.storage<"global">
    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
    %b = memory.alloc_storage [16] : !memory.storage<"global">
    %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
    %inner_of_outer = memory.alloc_tensor %outer[8] : !memory.storage<"global"> to memref<2xf32>
    "test.op"(%ta, %tb, %inner_of_outer) : (memref<4xf32>, memref<4xf32>, memref<2xf32>) -> ()
    memory.kill %a : !memory.storage<"global">
    memory.kill %b : !memory.storage<"global">
  }
  %last = memory.alloc_storage [16] : !memory.storage<"global">
  %tl = memory.alloc_tensor %last[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%to, %tl) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @scf_while(%n: index) {
// CHECK:         scf.while
// CHECK-NEXT:      %[[B:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:      %ta = memory.alloc_tensor %[[B]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %tb = memory.alloc_tensor %[[B]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      "test.op"(%ta, %tb)
// CHECK-NEXT:      memory.kill %[[B]] : !memory.storage<"global">
// CHECK:         } do {
// CHECK-NEXT:    ^{{.*}}(%j: index):
// CHECK-NEXT:      %[[D:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:      %tc = memory.alloc_tensor %[[D]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:      %td = memory.alloc_tensor %[[D]][64] : !memory.storage<"global"> to memref<4xf32>

func.func @scf_while(%n: index) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %a = memory.alloc_storage [16] : !memory.storage<"global">
    %b = memory.alloc_storage [16] : !memory.storage<"global">
    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
    %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
    "test.op"(%ta, %tb) : (memref<4xf32>, memref<4xf32>) -> ()
    memory.kill %a : !memory.storage<"global">
    memory.kill %b : !memory.storage<"global">
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %c = memory.alloc_storage [16] : !memory.storage<"global">
    %d = memory.alloc_storage [16] : !memory.storage<"global">
    %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<4xf32>
    %td = memory.alloc_tensor %d[0] : !memory.storage<"global"> to memref<4xf32>
    "test.op"(%tc, %td) : (memref<4xf32>, memref<4xf32>) -> ()
    %c1 = arith.constant 1 : index
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  func.return
}

// -----

// %a is killed in a branch: it is left alone.
// CHECK-LABEL: func.func @killed_in_a_nested_region(%cond: i1) {
// CHECK-NEXT:    %a = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[BC:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %tb = memory.alloc_tensor %[[BC]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %tc = memory.alloc_tensor %[[BC]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK:         scf.if %cond {
// CHECK-NEXT:      memory.kill %a : !memory.storage<"global">
// CHECK-NEXT:    }
// CHECK-NEXT:    memory.kill %[[BC]] : !memory.storage<"global">
// CHECK-NEXT:    func.return

func.func @killed_in_a_nested_region(%cond: i1) {
  %a = memory.alloc_storage [16] : !memory.storage<"global">
  %b = memory.alloc_storage [16] : !memory.storage<"global">
  %c = memory.alloc_storage [16] : !memory.storage<"global">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
  %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
  %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%ta, %tb, %tc) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  scf.if %cond {
    memory.kill %a : !memory.storage<"global">
  }
  memory.kill %b : !memory.storage<"global">
  memory.kill %c : !memory.storage<"global">
  func.return
}

// -----

// Storages passed to a call or returned escape; tensors passed to a call do not.
// CHECK-LABEL: func.func @escaping_values() -> !memory.storage<"global"> {
// CHECK-NEXT:    %passed = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %returned = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %[[AB:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    func.call @consume(%passed)
// CHECK-NEXT:    %ta = memory.alloc_tensor %[[AB]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %tb = memory.alloc_tensor %[[AB]][64] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    func.call @use(%ta, %tb)
// CHECK-NEXT:    func.return %returned : !memory.storage<"global">

func.func private @consume(!memory.storage<"global">)

func.func @escaping_values() -> !memory.storage<"global"> {
  %passed = memory.alloc_storage [16] : !memory.storage<"global">
  %returned = memory.alloc_storage [16] : !memory.storage<"global">
  %a = memory.alloc_storage [16] : !memory.storage<"global">
  %b = memory.alloc_storage [16] : !memory.storage<"global">
  func.call @consume(%passed) : (!memory.storage<"global">) -> ()
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
  %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<4xf32>
  func.call @use(%ta, %tb) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return %returned : !memory.storage<"global">
}

func.func private @use(memref<4xf32>, memref<4xf32>)

// -----

// A dynamic-size storage stays alone; the constant ones around it still merge.
// A dynamic offset gets the base added.
// CHECK-LABEL: func.func @dynamic_sizes(%n: index, %off: index) {
// CHECK-NEXT:    %[[AB:.*]] = memory.alloc_storage [80] : !memory.storage<"global">
// CHECK-NEXT:    %dyn = memory.alloc_storage [%n] : !memory.storage<"global">
// CHECK-NEXT:    %ta = memory.alloc_tensor %[[AB]][0] : !memory.storage<"global"> to memref<4xf32>
// CHECK-NEXT:    %td = memory.alloc_tensor %dyn[0][%n] : !memory.storage<"global"> to memref<?xi8>
// CHECK-NEXT:    %[[BASE:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %off, %[[BASE]] : index
// CHECK-NEXT:    %[[TB:.*]] = memory.alloc_tensor %[[AB]][%[[OFF]]] : !memory.storage<"global"> to memref<2xf32>
// CHECK-NEXT:    "test.op"(%ta, %td, %[[TB]])

func.func @dynamic_sizes(%n: index, %off: index) {
  %a = memory.alloc_storage [16] : !memory.storage<"global">
  %dyn = memory.alloc_storage [%n] : !memory.storage<"global">
  %b = memory.alloc_storage [16] : !memory.storage<"global">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
  %td = memory.alloc_tensor %dyn[0][%n] : !memory.storage<"global"> to memref<?xi8>
  %tb = memory.alloc_tensor %b[%off] : !memory.storage<"global"> to memref<2xf32>
  "test.op"(%ta, %td, %tb) : (memref<4xf32>, memref<?xi8>, memref<2xf32>) -> ()
  func.return
}

// -----

// The pointer table and the blocks both move.
// CHECK-LABEL: func.func @discontiguous_tensor() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [2080] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %t = memory.alloc_discontiguous_tensor table %[[S]][0], blocks %[[S]][2064, 2048] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<2x4xf32, #memory.discontiguous, "global.vtcm">

func.func @discontiguous_tensor() {
  %table = memory.alloc_storage [8] : !memory.storage<"global.vtcm">
  %data = memory.alloc_storage [32] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %table[0], blocks %data[16, 0] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<2x4xf32, #memory.discontiguous, "global.vtcm">
  "test.op"(%t) : (memref<2x4xf32, #memory.discontiguous, "global.vtcm">) -> ()
  func.return
}

// -----

// CHECK-LABEL: func.func @nothing_to_do() {
// CHECK-NEXT:    %a = memory.alloc_storage [16] : !memory.storage<"global">
// CHECK-NEXT:    %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>

func.func @nothing_to_do() {
  %a = memory.alloc_storage [16] : !memory.storage<"global">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%ta) : (memref<4xf32>) -> ()
  func.return
}

// -----

// By default offsets round up to the target's scope alignment (64 for DDR);
// `alignment` replaces it, and a storage's own alignment always wins.
// CHECK-LABEL: func.func @options() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [260] align 256 : !memory.storage<"global">
// CHECK-NEXT:    %ta = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<3xf32>
// CHECK-NEXT:    %tb = memory.alloc_tensor %[[S]][64] : !memory.storage<"global"> to memref<1xf32>
// CHECK-NEXT:    %tc = memory.alloc_tensor %[[S]][256] : !memory.storage<"global"> to memref<1xf32>

// ALIGN8-LABEL: func.func @options() {
// ALIGN8-NEXT:    %[[S:.*]] = memory.alloc_storage [260] align 256 : !memory.storage<"global">
// ALIGN8-NEXT:    %ta = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<3xf32>
// ALIGN8-NEXT:    %tb = memory.alloc_tensor %[[S]][16] : !memory.storage<"global"> to memref<1xf32>
// ALIGN8-NEXT:    %tc = memory.alloc_tensor %[[S]][256] : !memory.storage<"global"> to memref<1xf32>

// ALIGN512-LABEL: func.func @options() {
// ALIGN512-NEXT:    %[[S:.*]] = memory.alloc_storage [1028] align 512 : !memory.storage<"global">
// ALIGN512-NEXT:    %ta = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<3xf32>
// ALIGN512-NEXT:    %tb = memory.alloc_tensor %[[S]][512] : !memory.storage<"global"> to memref<1xf32>
// ALIGN512-NEXT:    %tc = memory.alloc_tensor %[[S]][1024] : !memory.storage<"global"> to memref<1xf32>

func.func @options() {
  %a = memory.alloc_storage [12] align 8 : !memory.storage<"global">
  %b = memory.alloc_storage [4] align 8 : !memory.storage<"global">
  %c = memory.alloc_storage [4] align 256 : !memory.storage<"global">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global"> to memref<3xf32>
  %tb = memory.alloc_tensor %b[0] : !memory.storage<"global"> to memref<1xf32>
  %tc = memory.alloc_tensor %c[0] : !memory.storage<"global"> to memref<1xf32>
  "test.op"(%ta, %tb, %tc) : (memref<3xf32>, memref<1xf32>, memref<1xf32>) -> ()
  func.return
}

// -----

// A tensor's alignment request moves with it: its storage (aligned as the
// request asks, as memory-manifest makes it) is placed on a multiple of its
// own alignment, so the tensor's address stays 256-byte aligned even with
// alignment=8.
// CHECK-LABEL: func.func @tensor_alignment_kept() {
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [272] align 256 : !memory.storage<"global">
// CHECK-NEXT:    %a = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<3xf32>
// CHECK-NEXT:    %b = memory.alloc_tensor %[[S]][256] align 256 : !memory.storage<"global"> to memref<4xf32>
// ALIGN8-LABEL: func.func @tensor_alignment_kept() {
// ALIGN8-NEXT:    %[[S:.*]] = memory.alloc_storage [272] align 256 : !memory.storage<"global">
// ALIGN8-NEXT:    %a = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<3xf32>
// ALIGN8-NEXT:    %b = memory.alloc_tensor %[[S]][256] align 256 : !memory.storage<"global"> to memref<4xf32>

func.func @tensor_alignment_kept() {
  %s0 = memory.alloc_storage [12] : !memory.storage<"global">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global"> to memref<3xf32>
  %s1 = memory.alloc_storage [16] align 256 : !memory.storage<"global">
  %b = memory.alloc_tensor %s1[0] align 256 : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%a, %b) : (memref<3xf32>, memref<4xf32>) -> ()
  func.return
}

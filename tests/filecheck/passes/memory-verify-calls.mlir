// RUN: xdsl-opt %s -p memory-verify --split-input-file --verify-diagnostics | filecheck %s

// memory-verify across calls: a callee that places tensors in a storage it is
// passed writes the caller's bytes, so the caller's tensors live during the
// call must not share them.

// A tensor live during the call shares bytes [32, 64) with the callee's.
// CHECK: memory-verify: in @main, memory.alloc_tensor %a (bytes [32, 96) of %s) is live during func.call @scratch, which passes %s as argument 0 and places memory.alloc_tensor %t (bytes [0, 64) of argument 0 of @scratch) over its bytes: expected disjoint bytes or disjoint live ranges

func.func @scratch(%s: !memory.storage<"global">) {
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xi32>
  "test.op"(%t) : (memref<16xi32>) -> ()
  memory.kill %t : memref<16xi32>
  func.return
}
func.func @main() {
  %s = memory.alloc_storage [128] align 64 : !memory.storage<"global">
  %a = memory.alloc_tensor %s[32] : !memory.storage<"global"> to memref<16xi32>
  func.call @scratch(%s) : (!memory.storage<"global">) -> ()
  "test.op"(%a) : (memref<16xi32>) -> ()
  memory.kill %a : memref<16xi32>
  memory.kill %s : !memory.storage<"global">
  func.return
}

// -----

// Disjoint bytes, a tensor dead before the call, one allocated after it and
// an external callee are all fine: the module prints unchanged.
// CHECK-LABEL: func.func @main_fine()

func.func @scratch_low(%s: !memory.storage<"global">) {
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xi32>
  "test.op"(%t) : (memref<16xi32>) -> ()
  func.return
}
func.func private @external(!memory.storage<"global">)
func.func @main_fine() {
  %s = memory.alloc_storage [128] align 64 : !memory.storage<"global">
  %high = memory.alloc_tensor %s[64] : !memory.storage<"global"> to memref<16xi32>
  %dead = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xi32>
  "test.op"(%dead) : (memref<16xi32>) -> ()
  memory.kill %dead : memref<16xi32>
  func.call @scratch_low(%s) : (!memory.storage<"global">) -> ()
  func.call @external(%s) : (!memory.storage<"global">) -> ()
  %after = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xi32>
  "test.op"(%high, %after) : (memref<16xi32>, memref<16xi32>) -> ()
  memory.kill %s : !memory.storage<"global">
  func.return
}

// -----

// A tensor passed to the call is live during it; the callee places its own
// tensor through a function it passes the storage on to, and a function that
// is itself handed the storage is checked against its callees too.
// CHECK: memory-verify: in @middle, memory.alloc_tensor %m (bytes [0, 16) of %s) is live during func.call @leaf, which passes %s as argument 1 and places memory.alloc_tensor %l (bytes [8, 24) of argument 1 of @leaf) over its bytes: expected disjoint bytes or disjoint live ranges
// CHECK-NEXT: memory-verify: in @top, memory.alloc_tensor %x (bytes [16, 32) of %s) is live during func.call @middle, which passes %s as argument 0 and places memory.alloc_tensor %l (bytes [8, 24) of argument 1 of @leaf) over its bytes: expected disjoint bytes or disjoint live ranges

func.func @leaf(%n: index, %s: !memory.storage<"global">, %in: memref<4xf32>) {
  %l = memory.alloc_tensor %s[8] : !memory.storage<"global"> to memref<4xf32>
  "test.op"(%in, %l) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
func.func @middle(%s: !memory.storage<"global">) {
  %m = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %n = arith.constant 0 : index
  func.call @leaf(%n, %s, %m) : (index, !memory.storage<"global">, memref<4xf32>) -> ()
  func.return
}
func.func @top() {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %x = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<4xf32>
  func.call @middle(%s) : (!memory.storage<"global">) -> ()
  "test.op"(%x) : (memref<4xf32>) -> ()
  func.return
}

// -----

// Recursion that places a tensor in the storage it passes to itself puts the
// next level's tensor over the live one.
// CHECK: memory-verify: in @walk, memory.alloc_tensor %w (bytes [0, 16) of %s) is live during func.call @walk, which passes %s as argument 0 and places memory.alloc_tensor %w (bytes [0, 16) of argument 0 of @walk) over its bytes: expected disjoint bytes or disjoint live ranges

func.func @walk(%s: !memory.storage<"global">) {
  %w = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  func.call @walk(%s) : (!memory.storage<"global">) -> ()
  "test.op"(%w) : (memref<4xf32>) -> ()
  func.return
}

// -----

// A call in a loop meets the tensors live in the iteration around it; one
// allocated later in the iteration is dead again when the next call runs.
// CHECK: memory-verify: in @looped, memory.alloc_tensor %before (bytes [0, 16) of %s) is live during func.call @scratch4, which passes %s as argument 0 and places memory.alloc_tensor %t (bytes [0, 32) of argument 0 of @scratch4) over its bytes: expected disjoint bytes or disjoint live ranges
// CHECK-NOT: %later

func.func @scratch4(%s: !memory.storage<"global">) {
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<8xf32>
  "test.op"(%t) : (memref<8xf32>) -> ()
  func.return
}
func.func @looped(%n: index) {
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %before = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @scratch4(%s) : (!memory.storage<"global">) -> ()
    %later = memory.alloc_tensor %s[16] : !memory.storage<"global"> to memref<4xf32>
    "test.op"(%later) : (memref<4xf32>) -> ()
    memory.kill %later : memref<4xf32>
  }
  "test.op"(%before) : (memref<4xf32>) -> ()
  func.return
}

// -----

// A call's result is an argument only if the callee may return it as that
// result: a fresh buffer the callee returns (itself, through a call or a
// recursion) is none of them, so it is used after the argument's dealloc.
// CHECK-LABEL: func.func @fresh_results(

func.func @copy_of(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return %b : memref<4xf32>
}
func.func @same_and_copy(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %b = func.call @copy_of(%a) : (memref<4xf32>) -> memref<4xf32>
  func.return %a, %b : memref<4xf32>, memref<4xf32>
}
func.func @copy_after(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    %b = func.call @copy_of(%a) : (memref<4xf32>) -> memref<4xf32>
    scf.yield %b : memref<4xf32>
  } else {
    %b = func.call @copy_after(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  func.return %r : memref<4xf32>
}
func.func @fresh_results(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %r = func.call @copy_of(%a) : (memref<4xf32>) -> memref<4xf32>
  %s, %t = func.call @same_and_copy(%a) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
  %u = func.call @copy_after(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
  "test.op"(%s) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  "test.op"(%r, %t, %u) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %r : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  memref.dealloc %u : memref<4xf32>
  func.return
}

// -----

// A callee that may return its argument (as it is, through a cast, an
// scf.if, another call, a recursion, memory it stored it to, or a
// declaration it passed it to, which may keep it and hand it back) or an
// external one makes the call's result that argument.
// CHECK: memory-verify: in @returned_arguments, %r1 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r2 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r3 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r4 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r5 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r6 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r7 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill
// CHECK-NEXT: memory-verify: in @returned_arguments, %r8 (which may be %a) is used by test.op after the memref.dealloc that ended its life: expected no use after a kill

func.func @same(%a: memref<4xf32>) -> memref<4xf32> {
  func.return %a : memref<4xf32>
}
func.func @view(%a: memref<4xf32>) -> memref<?xf32> {
  %v = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  func.return %v : memref<?xf32>
}
func.func @either(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  func.return %r : memref<4xf32>
}
func.func @through(%a: memref<4xf32>) -> memref<4xf32> {
  %r = func.call @same(%a) : (memref<4xf32>) -> memref<4xf32>
  func.return %r : memref<4xf32>
}
func.func @ping(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    %p = func.call @pong(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
    scf.yield %p : memref<4xf32>
  }
  func.return %r : memref<4xf32>
}
func.func @pong(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = func.call @ping(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
  func.return %r : memref<4xf32>
}
func.func @stored(%a: memref<4xf32>, %box: memref<1xmemref<4xf32>>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  %l = memref.load %box[%c0] : memref<1xmemref<4xf32>>
  func.return %l : memref<4xf32>
}
func.func private @external(memref<4xf32>) -> memref<4xf32>
func.func private @keep(memref<4xf32>)
func.func private @kept() -> memref<4xf32>
func.func @stashed(%a: memref<4xf32>) -> memref<4xf32> {
  func.call @keep(%a) : (memref<4xf32>) -> ()
  %k = func.call @kept() : () -> memref<4xf32>
  func.return %k : memref<4xf32>
}
func.func @returned_arguments(%c: i1, %box: memref<1xmemref<4xf32>>) {
  %a = memref.alloc() : memref<4xf32>
  %r1 = func.call @same(%a) : (memref<4xf32>) -> memref<4xf32>
  %r2 = func.call @view(%a) : (memref<4xf32>) -> memref<?xf32>
  %r3 = func.call @either(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
  %r4 = func.call @through(%a) : (memref<4xf32>) -> memref<4xf32>
  %r5 = func.call @pong(%a, %c) : (memref<4xf32>, i1) -> memref<4xf32>
  %r6 = func.call @stored(%a, %box) : (memref<4xf32>, memref<1xmemref<4xf32>>) -> memref<4xf32>
  %r7 = func.call @external(%a) : (memref<4xf32>) -> memref<4xf32>
  %r8 = func.call @stashed(%a) : (memref<4xf32>) -> memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  "test.op"(%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8) : (memref<4xf32>, memref<?xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

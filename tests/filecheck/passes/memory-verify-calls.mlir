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

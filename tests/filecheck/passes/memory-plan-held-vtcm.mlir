// RUN: memplan-opt %s -p 'memory-plan{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %s -p 'memory-plan{target=hexagon-v65 capacity=12288 discontiguous=auto}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=AUTO
// RUN: memplan-opt %S/inputs/held-vtcm-dynamic.mlir -p 'memory-plan{target=hexagon-v65 capacity=12288}' 2>&1 >/dev/null | filecheck %s --check-prefix=DYNAMIC

// A global in VTCM holds its bytes for the whole run, and an argument in
// VTCM of a function called from outside the module holds them over the
// call: an arena gets only the capacity they leave (as memory-place,
// memory-verify and memplan-run count them).

// A VTCM argument of a dynamic size cannot be counted before the run: the
// pass says so and checks the static part (memplan-run counts it).
// DYNAMIC: memory-plan: remark: in @entry, the capacity check does not count argument 1 of @entry (memref<?xf32, "global.vtcm">, callers outside the module hold it in VTCM): its size is dynamic, so only the VTCM of static size is checked; memplan-run counts it at run time

// Two 4 KiB tensors live at once need 8 KiB; @lut leaves 4 KiB of the 12.
// CHECK: memory-plan: in @main, the "global.vtcm" arena needs 8192 bytes with the best plan of 2 tensors (at least 8192 bytes are live at once), over the scope capacity of 12288 bytes, of which 8192 are held while the arena is live: memref.global @lut of 8192 bytes (in VTCM for the whole run)
// AUTO: memory-plan: in @main, the "global.vtcm" arena needs 8192 bytes with 0 of its 2 tensors in blocks of 2048 bytes (at least 8192 bytes are live at once), over the scope capacity of 12288 bytes, of which 8192 are held while the arena is live: memref.global @lut of 8192 bytes (in VTCM for the whole run)

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @main() {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  %sb = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32, "global.vtcm">)
  linalg.add ins(%a, %b : memref<1024xf32, "global.vtcm">, memref<1024xf32, "global.vtcm">) outs(%a : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A public function's VTCM argument and a global, each leaving room for the
// arena, do not together.
// CHECK: memory-plan: in @entry, the "global.vtcm" arena needs 4096 bytes with the best plan of 1 tensors (at least 4096 bytes are live at once), over the scope capacity of 12288 bytes, of which 10240 are held while the arena is live: memref.global @lut of 2048 bytes (in VTCM for the whole run); argument 0 of @entry of 8192 bytes (callers outside the module hold it in VTCM)

memref.global "private" @lut : memref<16xf32, "global.vtcm"> = dense<1.0>

func.func @entry(%x: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

// -----

// Held memory alone over the capacity: the arena has no room at all.
// CHECK: memory-plan: in @main, the "global.vtcm" arena needs 4096 bytes with the best plan of 1 tensors (at least 4096 bytes are live at once), over the scope capacity of 12288 bytes, of which 16384 are held while the arena is live: memref.global @lut of 16384 bytes (in VTCM for the whole run)

memref.global "private" @lut : memref<4096xf32, "global.vtcm"> = dense<1.0>

func.func @main() {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

// -----

// Within what is left: @lut's 4 KiB and the 8 KiB arena fill the 12 KiB. The
// VTCM argument of a private function called in the module is its caller's
// memory, not held all through it: @caller holds it (its callers outside
// the module do) at the call, with @callee's 4 KiB arena at its peak.
// CHECK-LABEL: func.func @fits()
// CHECK-NEXT:    %one = arith.constant
// CHECK-NEXT:    %arena = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK-LABEL: func.func private @callee(
// CHECK-NEXT:    %one = arith.constant
// CHECK-NEXT:    %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NOT:     memory-plan
// CHECK:         // -----

memref.global "private" @lut : memref<1024xf32, "global.vtcm"> = dense<1.0>

func.func @fits() {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  %sb = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  linalg.fill ins(%one : f32) outs(%b : memref<1024xf32, "global.vtcm">)
  linalg.add ins(%a, %b : memref<1024xf32, "global.vtcm">, memref<1024xf32, "global.vtcm">) outs(%a : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

func.func private @callee(%x: memref<1024xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  linalg.add ins(%a, %x : memref<1024xf32, "global.vtcm">, memref<1024xf32, "global.vtcm">) outs(%x : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

func.func @caller(%x: memref<1024xf32, "global.vtcm">) {
  func.call @callee(%x) : (memref<1024xf32, "global.vtcm">) -> ()
  func.return
}

// -----

// An 8 KiB arena in @callee fits beside @lut in @callee, but not at the
// call, where @caller's argument is held too: the check of the planned
// module (as memory-verify's) finds it.
// CHECK: memory-plan: in @caller, after planning, scope "global.vtcm" holds 16384 bytes at memory.alloc_storage %arena (in @callee) (held: memref.global @lut (4096 bytes), argument 0 of @caller (4096 bytes), %arena (in @callee)), over its capacity of 12288 bytes

memref.global "private" @lut : memref<1024xf32, "global.vtcm"> = dense<1.0>

func.func private @callee(%x: memref<1024xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  %sb = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  linalg.add ins(%a, %x : memref<1024xf32, "global.vtcm">, memref<1024xf32, "global.vtcm">) outs(%b : memref<1024xf32, "global.vtcm">)
  linalg.add ins(%a, %b : memref<1024xf32, "global.vtcm">, memref<1024xf32, "global.vtcm">) outs(%x : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

func.func @caller(%x: memref<1024xf32, "global.vtcm">) {
  func.call @callee(%x) : (memref<1024xf32, "global.vtcm">) -> ()
  func.return
}

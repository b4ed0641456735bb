// RUN: memplan-opt %s -p 'memory-verify{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s

// A global in VTCM and the VTCM arguments of a function called from outside
// the module are in VTCM all through the function: the capacity check
// counts them (as memory-place and memplan-run do).

// CHECK: memory-verify: in @main, scope "global.vtcm" holds 16384 bytes at memory.alloc_storage %s (held: memref.global @lut (8192 bytes), %s), over its capacity of 12288 bytes

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @main() {
  %s = memory.alloc_storage [8192] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// -----

// CHECK: memory-verify: in @entry, scope "global.vtcm" holds 16384 bytes before the function runs (held: memref.global @lut (8192 bytes), argument 0 of @entry (8192 bytes)), over its capacity of 12288 bytes

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @entry(%x: memref<2048xf32, "global.vtcm">) {
  func.return
}

// -----

// Within the capacity: no error.
// CHECK-LABEL: func.func @fits
// CHECK-NOT:   memory-verify

memref.global "private" @lut : memref<1024xf32, "global.vtcm"> = dense<1.0>

func.func @fits() {
  %s = memory.alloc_storage [8192] : !memory.storage<"global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

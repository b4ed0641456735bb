// RUN: memplan-opt %s -p 'memory-verify{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %S/inputs/held-vtcm-dynamic.mlir -p 'memory-verify{target=hexagon-v65 capacity=12288}' 2>&1 >/dev/null | filecheck %s --check-prefix=DYNAMIC

// A global in VTCM and the VTCM arguments of a function called from outside
// the module are in VTCM all through the function: the capacity check
// counts them (as memory-place and memplan-run do).

// A VTCM argument of a dynamic size cannot be counted before the run: the
// pass says so and checks the static part (memplan-run counts it).
// DYNAMIC: memory-verify: remark: in @entry, the capacity check does not count argument 1 of @entry (memref<?xf32, "global.vtcm">, callers outside the module hold it in VTCM): its size is dynamic, so only the VTCM of static size is checked; memplan-run counts it at run time

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

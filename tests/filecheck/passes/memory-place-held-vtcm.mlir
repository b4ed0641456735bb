// RUN: memplan-opt %s -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %S/inputs/held-vtcm-dynamic.mlir -p 'memory-place{target=hexagon-v65 capacity=12288}' 2>&1 >/dev/null | filecheck %s --check-prefix=DYNAMIC

// A global in VTCM holds its bytes for the whole run, and an argument in
// VTCM of a function called from outside the module holds them over the
// call: memory-place cannot move either, so both take their bytes from the
// capacity (memplan-run counts them in the VTCM window too).

// A VTCM argument of a dynamic size cannot be counted before the run: the
// pass says so and checks the static part (memplan-run counts it).
// DYNAMIC: memory-place: remark: in @entry, the capacity check does not count argument 1 of @entry (memref<?xf32, "global.vtcm">, callers outside the module hold it in VTCM): its size is dynamic, so only the VTCM of static size is checked; memplan-run counts it at run time

// With @lut's 8 KiB, only one of the two 4 KiB tensors fits in the 12 KiB
// (without it, both and a copy of %x do).
// CHECK-LABEL: func.func @main(
// CHECK:         %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<1024xf32>
// CHECK-NOT:     memory.copy

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @main(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  func.return
}

// -----

// CHECK: memory-place: in @main, memory that must stay in "global.vtcm" needs 16384 bytes, over the capacity of 12288 bytes: memref.global @lut of 16384 bytes (in VTCM for the whole run)

memref.global "private" constant @lut : memref<4096xf32, "global.vtcm"> = dense<1.0>

func.func @main() {
  func.return
}

// -----

// A public function's VTCM argument and a global, each within the capacity,
// are over it together.
// CHECK: memory-place: in @entry, memory that must stay in "global.vtcm" needs 16384 bytes, over the capacity of 12288 bytes: memref.global @lut of 8192 bytes (in VTCM for the whole run); argument 1 of @entry of 8192 bytes (callers outside the module hold it in VTCM)

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @entry(%n: index, %x: memref<2048xf32, "global.vtcm">) {
  func.return
}

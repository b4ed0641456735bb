// RUN: memplan-opt %s -p 'memory-plan{capacity=2048}' --split-input-file --verify-diagnostics | filecheck %s

// Each device has its own VTCM window, in memory-plan's room for an arena
// and in its final capacity check as in memory-verify and memplan-run.

// @main's arena is held across the call of @scratch, whose arena is on
// device 1: each takes a 2048-byte aligned range of its own device's window.
// CHECK-LABEL: func.func private @scratch(
// CHECK:         %arena = memory.alloc_storage [32] align 2048 device 1 : !memory.storage<"global.vtcm">
// CHECK-LABEL: func.func @main(
// CHECK:         %arena = memory.alloc_storage [32] align 2048 : !memory.storage<"global.vtcm">

func.func private @scratch(%in: memref<8xf32>) {
  %ss = memory.alloc_storage [32] device 1 : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
  linalg.copy ins(%in : memref<8xf32>) outs(%s : memref<8xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<8xf32, "global.vtcm">) outs(%in : memref<8xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

func.func @main(%r: memref<8xf32>) {
  %sa = memory.alloc_storage [32] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
  linalg.copy ins(%r : memref<8xf32>) outs(%a : memref<8xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<8xf32>) -> ()
  linalg.add ins(%a, %a : memref<8xf32, "global.vtcm">, memref<8xf32, "global.vtcm">) outs(%r : memref<8xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

// -----

// Both arenas on device 1 do not fit its window; the message names the device.
// CHECK: memory-plan: in @main, after planning, scope "global.vtcm" of device 1 has no room for the 32 bytes of memory.alloc_storage %arena (in @scratch) (held: %arena, %arena (in @scratch)): first fit in its 2048-byte window finds no free range that holds them at a 2048-byte aligned address (2016 bytes free in total, the largest free range has 2016 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them

func.func private @scratch(%in: memref<8xf32>) {
  %ss = memory.alloc_storage [32] device 1 : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
  linalg.copy ins(%in : memref<8xf32>) outs(%s : memref<8xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<8xf32, "global.vtcm">) outs(%in : memref<8xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

func.func @main(%r: memref<8xf32>) {
  %sa = memory.alloc_storage [32] device 1 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
  linalg.copy ins(%r : memref<8xf32>) outs(%a : memref<8xf32, "global.vtcm">)
  func.call @scratch(%r) : (memref<8xf32>) -> ()
  linalg.add ins(%a, %a : memref<8xf32, "global.vtcm">, memref<8xf32, "global.vtcm">) outs(%r : memref<8xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A VTCM global is device 0's: it fills device 0's window, not device 1's,
// where the arena goes.
// CHECK-LABEL: func.func @beside_a_global(
// CHECK:         %arena = memory.alloc_storage [32] align 2048 device 1 : !memory.storage<"global.vtcm">

memref.global "private" @lut : memref<512xf32, "global.vtcm">

func.func @beside_a_global(%r: memref<8xf32>) {
  %sa = memory.alloc_storage [32] device 1 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<8xf32, "global.vtcm">
  linalg.copy ins(%r : memref<8xf32>) outs(%a : memref<8xf32, "global.vtcm">)
  linalg.copy ins(%a : memref<8xf32, "global.vtcm">) outs(%r : memref<8xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A callee's peak on device 1 does not press a device 0 arena held across
// the call: the run of %a and %b stays one arena, which fills device 0's
// window while @scratch fills device 1's.
// CHECK-LABEL: func.func @one_run(
// CHECK:         %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %arena[0]
// CHECK:         func.call @scratch(%q)
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[1024]
// CHECK-NOT:     memory.alloc_storage
// CHECK-LABEL: func.func private @scratch(
// CHECK:         %arena = memory.alloc_storage [2048] align 2048 device 1 : !memory.storage<"global.vtcm">

func.func @one_run(%r: memref<256xf32>, %q: memref<512xf32>) {
  %sa = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<256xf32, "global.vtcm">
  linalg.copy ins(%r : memref<256xf32>) outs(%a : memref<256xf32, "global.vtcm">)
  func.call @scratch(%q) : (memref<512xf32>) -> ()
  %sb = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<256xf32, "global.vtcm">
  linalg.add ins(%a, %r : memref<256xf32, "global.vtcm">, memref<256xf32>) outs(%b : memref<256xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  linalg.copy ins(%b : memref<256xf32, "global.vtcm">) outs(%r : memref<256xf32>)
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

func.func private @scratch(%in: memref<512xf32>) {
  %ss = memory.alloc_storage [2048] device 1 : !memory.storage<"global.vtcm">
  %s = memory.alloc_tensor %ss[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%in : memref<512xf32>) outs(%s : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%s : memref<512xf32, "global.vtcm">) outs(%in : memref<512xf32>)
  memory.kill %ss : !memory.storage<"global.vtcm">
  func.return
}

// -----

// An arena over the capacity of its own device's window is named with it.
// CHECK: memory-plan: in @too_big, the "global.vtcm" arena of device 1 needs 4096 bytes with the best plan of 2 tensors (at least 4096 bytes are live at once), over the scope capacity of 2048 bytes

func.func @too_big(%r: memref<512xf32>) {
  %sa = memory.alloc_storage [2048] device 1 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  %sb = memory.alloc_storage [2048] device 1 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %sb[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
  linalg.copy ins(%r : memref<512xf32>) outs(%a : memref<512xf32, "global.vtcm">)
  linalg.add ins(%a, %r : memref<512xf32, "global.vtcm">, memref<512xf32>) outs(%b : memref<512xf32, "global.vtcm">)
  linalg.copy ins(%b : memref<512xf32, "global.vtcm">) outs(%r : memref<512xf32>)
  memory.kill %sa : !memory.storage<"global.vtcm">
  memory.kill %sb : !memory.storage<"global.vtcm">
  func.return
}

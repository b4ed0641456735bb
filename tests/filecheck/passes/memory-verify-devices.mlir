// RUN: memplan-opt %s -p 'memory-verify{capacity=8388608}' --split-input-file --verify-diagnostics | filecheck %s

// Each device has its own VTCM window, as in memplan-run: 6 MiB on device 0
// and 6 MiB on device 1 fit an 8 MiB VTCM, each in its own window.
// CHECK: func.func @two_devices()

func.func @two_devices() {
  %a = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  memory.kill %a : !memory.storage<"global.vtcm">
  memory.kill %b : !memory.storage<"global.vtcm">
  func.return
}

// -----

// Twice 6 MiB on device 1 do not fit its window; the message names the device.
// CHECK: memory-verify: in @one_device, scope "global.vtcm" of device 1 holds 12582912 bytes at memory.alloc_storage %b (held: %a, %b), over its capacity of 8388608 bytes

func.func @one_device() {
  %a = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  func.return
}

// -----

// In a branch the bound (not the replay) counts per device too.
// CHECK: memory-verify: in @in_branch, scope "global.vtcm" of device 1 holds 12582912 bytes at memory.alloc_storage %c (held: %b, %c), over its capacity of 8388608 bytes

func.func @in_branch(%cond: i1) {
  scf.if %cond {
    %a = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
    %b = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
    %c = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  }
  func.return
}

// -----

// VTCM globals are device 0's: they leave device 1's window whole.
// CHECK: func.func @beside_a_global()

memref.global "private" @lut : memref<1572864xf32, "global.vtcm">

func.func @beside_a_global() {
  %a = memory.alloc_storage [8388608] device 1 : !memory.storage<"global.vtcm">
  memory.kill %a : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A callee's storages count in their device's window: its 6 MiB on device 1
// do not fit beside the caller's, its 6 MiB on device 0 do.
// CHECK: memory-verify: in @caller, scope "global.vtcm" of device 1 holds 12582912 bytes at memory.alloc_storage %c (in @callee) (held: %a, %c (in @callee)), over its capacity of 8388608 bytes
// CHECK-NEXT: // -----

func.func @callee() {
  %c = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  memory.kill %c : !memory.storage<"global.vtcm">
  memory.kill %d : !memory.storage<"global.vtcm">
  func.return
}

func.func @caller() {
  %a = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  func.call @callee() : () -> ()
  memory.kill %a : !memory.storage<"global.vtcm">
  func.return
}

// -----

// A call in a branch holds its callee's peak in each window, per device.
// CHECK-NEXT: memory-verify: in @branch_caller, scope "global.vtcm" of device 1 holds 12582912 bytes at func.call @branch_callee (held: %a, func.call @branch_callee (6291456 bytes)), over its capacity of 8388608 bytes

func.func @branch_callee() {
  %c = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  memory.kill %c : !memory.storage<"global.vtcm">
  memory.kill %d : !memory.storage<"global.vtcm">
  func.return
}

func.func @branch_caller(%cond: i1) {
  %a = memory.alloc_storage [6291456] device 1 : !memory.storage<"global.vtcm">
  scf.if %cond {
    func.call @branch_callee() : () -> ()
  }
  memory.kill %a : !memory.storage<"global.vtcm">
  func.return
}

// RUN: xdsl-opt %s -p 'memory-verify{capacity=6144}' --split-input-file --verify-diagnostics | filecheck %s

// VTCM is an address window where every storage starts on a 2048-byte
// boundary, as in memplan-run: padding and fragmentation count, not only
// the bytes held.  In straight-line code the check replays the run's
// first-fit allocator, so its figures are memplan-run's.

// Four 100-byte storages hold 400 bytes but need 3 * 2048 + 100.
// CHECK: memory-verify: in @padding, scope "global.vtcm" has no room for the 100 bytes of memory.alloc_storage %d (held: %a, %b, %c, %d): first fit in its 6144-byte window finds no free range that holds them at a 2048-byte aligned address (5844 bytes free in total, the largest free range has 1948 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them

func.func @padding() {
  %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  func.return
}

// -----

// 2048 + 4096 bytes fit 6144 in some layout, but first fit put %b in the
// middle: the 4096 free bytes are two holes.
// CHECK: memory-verify: in @fragmented, scope "global.vtcm" has no room for the 4096 bytes of memory.alloc_storage %d (held: %b, %d): first fit in its 6144-byte window finds no free range that holds them at a 2048-byte aligned address (4096 bytes free in total, the largest free range has 2048 bytes), as memplan-run would; expected storages that fit with their alignment padding and the holes between them

func.func @fragmented() {
  %a = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  memory.kill %a : !memory.storage<"global.vtcm">
  memory.kill %c : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  func.return
}

// -----

// In a branch (or a loop) the check uses the alignment-aware lower bound of
// memplan.planning on the storages held at once: 3 * 2048 + 100 bytes.
// CHECK: memory-verify: in @in_branch, scope "global.vtcm" needs at least 6244 bytes of its window at memory.alloc_storage %d (held: %a, %b, %c, %d): 400 bytes, each starting at an address of its alignment, over its capacity of 6144 bytes

func.func @in_branch(%cond: i1) {
  scf.if %cond {
    %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
    %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  }
  func.return
}

// -----

// A callee's storage it never kills stays in the window after the call, as
// in the run: the second call has no room for it.
// CHECK: memory-verify: in @calls_twice, scope "global.vtcm" holds 8192 bytes at memory.alloc_storage %k (in @keeps) (held: %k (in @keeps), %k (in @keeps)), over its capacity of 6144 bytes

func.func @keeps() {
  %k = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  func.return
}
func.func @calls_twice() {
  func.call @keeps() : () -> ()
  func.call @keeps() : () -> ()
  func.return
}

// -----

// %d takes the range %b freed: 2 * 2048 + 100 bytes of the window fit.
// CHECK-LABEL: func.func @fits()
// CHECK-NOT: memory-verify

func.func @fits() {
  %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  memory.kill %b : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  func.return
}

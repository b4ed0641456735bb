// RUN: not memplan-run %s --vtcm-size 8KiB 2>&1 | filecheck %s
// RUN: memplan-run %s --vtcm-size 12KiB 2>&1 | filecheck %s --check-prefix=ROOMY

// Live bytes fit, first-fit addresses do not: after %a and %c are killed, 4 KiB
// of the 8 KiB window are free, but in two 2 KiB holes, and %e needs 4 KiB in
// one piece.  With 12 KiB, 4 KiB are free above %d.
func.func @main() {
  %a = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  memory.kill %a : !memory.storage<"global.vtcm">
  memory.kill %c : !memory.storage<"global.vtcm">
  %e = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}first-fit-fragmentation.mlir:14:3: memory.alloc_storage %e (in @main): cannot allocate 4096 bytes in "global.vtcm": no free range of its 8192-byte window holds them at a 2048-byte aligned address (4096 bytes free in total, the largest free range has 2048 bytes){{$}}

// ROOMY: peak bytes global.vtcm=8192; peak extent global.vtcm=12288; storages global.vtcm=5

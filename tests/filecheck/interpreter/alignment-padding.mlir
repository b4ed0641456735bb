// RUN: not memplan-run %s --vtcm-size 8KiB 2>&1 | filecheck %s
// RUN: memplan-run %s --vtcm-size 10KiB 2>&1 | filecheck %s --check-prefix=ROOMY

// VTCM storages start at 2048-byte aligned addresses, so five storages of 100
// bytes (500 live bytes) need five 2 KiB slots: the padding counts.
func.func @main() {
  %a = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %c = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %d = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  %e = memory.alloc_storage [100] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}alignment-padding.mlir:11:3: memory.alloc_storage %e (in @main): cannot allocate 100 bytes in "global.vtcm": no free range of its 8192-byte window holds them at a 2048-byte aligned address (7792 bytes free in total, the largest free range has 1948 bytes){{$}}

// ROOMY: peak bytes global.vtcm=500; peak extent global.vtcm=8292; storages global.vtcm=5

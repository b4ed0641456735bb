// RUN: not memplan-run %s 2>&1 | filecheck %s
// RUN: not memplan-run %s --vtcm-size 4MiB 2>&1 | filecheck %s --check-prefix=SMALL

// Two VTCM storages of 6 MiB and 3 MiB do not fit in the 8 MiB of hexagon-v73.
func.func @main() {
  %big = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  %more = memory.alloc_storage [3145728] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}capacity-exhausted.mlir:7:3: memory.alloc_storage %more (in @main): cannot allocate 3145728 bytes in "global.vtcm": no free range of its 8388608-byte window holds them at a 2048-byte aligned address (2097152 bytes free in total, the largest free range has 2097152 bytes)
// SMALL: memplan-run: error: {{.*}}capacity-exhausted.mlir:6:3: memory.alloc_storage %big (in @main): cannot allocate 6291456 bytes in "global.vtcm": no free range of its 4194304-byte window holds them at a 2048-byte aligned address (4194304 bytes free in total, the largest free range has 4194304 bytes)

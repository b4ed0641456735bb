// RUN: not memplan-run %s 2>&1 | filecheck %s
// RUN: not memplan-run %s --vtcm-size 4MiB 2>&1 | filecheck %s --check-prefix=SMALL

// Two VTCM storages of 6 MiB and 3 MiB do not fit in the 8 MiB of hexagon-v73.
func.func @main() {
  %big = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  %more = memory.alloc_storage [3145728] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK: memplan-run: error: memory.alloc_storage: cannot allocate 3145728 bytes in "global.vtcm": 6291456 of 8388608 bytes in use (in @main)
// SMALL: memplan-run: error: memory.alloc_storage: cannot allocate 6291456 bytes in "global.vtcm": 0 of 4194304 bytes in use (in @main)

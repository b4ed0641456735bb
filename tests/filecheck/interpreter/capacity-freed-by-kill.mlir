// RUN: memplan-run %s 2>&1 | filecheck %s

// Killing a storage gives its bytes back: 6 MiB + 3 MiB fit one after the other.
func.func @main() {
  %big = memory.alloc_storage [6291456] : !memory.storage<"global.vtcm">
  memory.kill %big : !memory.storage<"global.vtcm">
  %more = memory.alloc_storage [3145728] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK-NOT: result
// CHECK: peak bytes global.vtcm=6291456; peak extent global.vtcm=6291456; storages global.vtcm=2

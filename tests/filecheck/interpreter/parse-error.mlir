// RUN: not memplan-run %s 2>&1 | filecheck %s

func.func @main() {
  %x = memory.alloc_storage [64 : !memory.storage<"global">
  func.return
}

// CHECK: memplan-run: error:
// CHECK-NOT: Traceback

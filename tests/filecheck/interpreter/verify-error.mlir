// RUN: not memplan-run %s 2>&1 | filecheck %s

// The static offset 1026 is not a multiple of 4: the verifier rejects it before running.
func.func @main() {
  %s = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[1026] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}verify-error.mlir:6:3: memory.alloc_tensor %t (in @main): offset 1026 is not aligned to the element size: expected a multiple of 4 bytes{{$}}
// CHECK-NOT: Traceback

// RUN: not memplan-run %s 2>&1 | filecheck %s

// A dynamic offset of 2 bytes cannot hold an i32 tensor.
func.func @main() {
  %c2 = arith.constant 2 : index
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[%c2] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}misaligned-tensor.mlir:7:3: memory.alloc_tensor %t (in @main): tensor offset 2 is misaligned: address 0xd8000002 is not a multiple of the element size 4{{$}}

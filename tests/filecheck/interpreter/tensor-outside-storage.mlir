// RUN: not memplan-run %s 2>&1 | filecheck %s

// A dynamic offset that puts the tensor past the end of its storage.
func.func @main() {
  %c512 = arith.constant 512 : index
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[%c512] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}tensor-outside-storage.mlir:7:3: memory.alloc_tensor %t (in @main): tensor of 1024 bytes at offset 512 does not fit in its 1024-byte "global.vtcm" storage allocated by memory.alloc_storage %s (line 6, in @main){{$}}

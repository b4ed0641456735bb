// RUN: not memplan-run %s 2>&1 | filecheck %s

// %b is placed over the second half of %a while %a is live; reading %a then fails.
func.func @main() -> memref<64xi32, "global.vtcm"> {
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<64xi32, "global.vtcm">
  %b = memory.alloc_tensor %s[128] : !memory.storage<"global.vtcm"> to memref<64xi32, "global.vtcm">
  linalg.add ins(%a, %a : memref<64xi32, "global.vtcm">, memref<64xi32, "global.vtcm">) outs(%b : memref<64xi32, "global.vtcm">)
  func.return %b : memref<64xi32, "global.vtcm">
}

// CHECK: memplan-run: error: {{.*}}overwrite-live-tensor.mlir:8:3: linalg.add (in @main): uses the tensor allocated by memory.alloc_tensor %a (line 6, in @main), but memory.alloc_tensor %b (line 7, in @main) was placed over its bytes [128, 256) of the "global.vtcm" storage allocated by memory.alloc_storage %s (line 5, in @main) while it was still live{{$}}

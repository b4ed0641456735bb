// RUN: memplan-run %s 2>&1 | filecheck %s

// %b reuses the bytes of %a, which is never used again: that is reuse, not an error.
func.func @main() -> memref<4xi32, "global.vtcm"> {
  %c7 = arith.constant 7 : i32
  %s = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  linalg.fill ins(%c7 : i32) outs(%a : memref<4xi32, "global.vtcm">)
  %b = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  linalg.add ins(%b, %b : memref<4xi32, "global.vtcm">, memref<4xi32, "global.vtcm">) outs(%b : memref<4xi32, "global.vtcm">)
  func.return %b : memref<4xi32, "global.vtcm">
}

// The bytes are shared, so %b starts with %a's values.
// CHECK: result: array([14, 14, 14, 14], dtype=int32)

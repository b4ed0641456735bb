// RUN: memplan-run %s 2>&1 | filecheck %s --check-prefix=UNCHECKED
// RUN: not memplan-run %s --check-uninitialized 2>&1 | filecheck %s

// %b takes the bytes %a was killed on, and @main adds %b before writing it:
// the sum depends on what the plan left there (here %a's sevens).  Without
// the check that goes unnoticed; with it the read is an error.
func.func @main() -> memref<4xi32, "global.vtcm"> {
  %s = memory.alloc_storage [16] : !memory.storage<"global.vtcm">
  %seven = arith.constant 7 : i32
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  linalg.fill ins(%seven : i32) outs(%a : memref<4xi32, "global.vtcm">)
  memory.kill %a : memref<4xi32, "global.vtcm">
  %b = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  linalg.add ins(%b, %b : memref<4xi32, "global.vtcm">, memref<4xi32, "global.vtcm">) outs(%b : memref<4xi32, "global.vtcm">)
  func.return %b : memref<4xi32, "global.vtcm">
}

// UNCHECKED: result: array([14, 14, 14, 14], dtype=int32)
// CHECK: memplan-run: error: {{.*}}uninitialized-read.mlir:14:3: linalg.add (in @main): operand 0 reads bytes never written since the tensor allocated by memory.alloc_tensor %b (line 13, in @main) was allocated: 16 of the 16 bytes it reads, the first at byte 0 of the "global.vtcm" storage allocated by memory.alloc_storage %s (line 8, in @main){{$}}

// An entry function's VTCM argument of a dynamic size: no pass can count it
// against the capacity before the run (see the DYNAMIC RUN lines of
// memory-place-held-vtcm.mlir, memory-plan-held-vtcm.mlir and
// memory-verify-held-vtcm.mlir).
memref.global "private" @lut : memref<1024xf32, "global.vtcm"> = dense<1.0>

func.func @entry(%n: index, %x: memref<?xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  %sa = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
  memory.kill %sa : !memory.storage<"global.vtcm">
  func.return
}

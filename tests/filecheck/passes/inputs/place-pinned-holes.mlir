// The second case of memory-plan-verified-capacity.mlir with %a in DDR:
// %s1, %s2 and %s3 are pinned (handed to @use, a declaration), and freeing
// %s1 and %s3 leaves two 2 KiB holes around %s2 in first fit's window.
// @holes_at_call has the same holes when it calls @work, whose %w may move
// to VTCM.
func.func private @use(!memory.storage<"global.vtcm">)

func.func @holes(%x: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %s1 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s2 = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %s3 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  func.call @use(%s1) : (!memory.storage<"global.vtcm">) -> ()
  func.call @use(%s2) : (!memory.storage<"global.vtcm">) -> ()
  func.call @use(%s3) : (!memory.storage<"global.vtcm">) -> ()
  memory.kill %s1 : !memory.storage<"global.vtcm">
  memory.kill %s3 : !memory.storage<"global.vtcm">
  %sa = memory.alloc_storage [4096] : !memory.storage<"global">
  %a = memory.alloc_tensor %sa[0] : !memory.storage<"global"> to memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%x : memref<1024xf32>)
  memory.kill %a : memref<1024xf32>
  memory.kill %sa : !memory.storage<"global">
  memory.kill %s2 : !memory.storage<"global.vtcm">
  func.return
}

func.func private @work(%x: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %sw = memory.alloc_storage [4096] : !memory.storage<"global">
  %w = memory.alloc_tensor %sw[0] : !memory.storage<"global"> to memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%w : memref<1024xf32>)
  linalg.add ins(%w, %w : memref<1024xf32>, memref<1024xf32>) outs(%w : memref<1024xf32>)
  linalg.add ins(%w, %w : memref<1024xf32>, memref<1024xf32>) outs(%w : memref<1024xf32>)
  linalg.add ins(%w, %w : memref<1024xf32>, memref<1024xf32>) outs(%x : memref<1024xf32>)
  memory.kill %w : memref<1024xf32>
  memory.kill %sw : !memory.storage<"global">
  func.return
}

func.func @holes_at_call(%x: memref<1024xf32>) {
  %s1 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %s2 = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %s3 = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  func.call @use(%s1) : (!memory.storage<"global.vtcm">) -> ()
  func.call @use(%s2) : (!memory.storage<"global.vtcm">) -> ()
  func.call @use(%s3) : (!memory.storage<"global.vtcm">) -> ()
  memory.kill %s1 : !memory.storage<"global.vtcm">
  memory.kill %s3 : !memory.storage<"global.vtcm">
  func.call @work(%x) : (memref<1024xf32>) -> ()
  memory.kill %s2 : !memory.storage<"global.vtcm">
  func.return
}

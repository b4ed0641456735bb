// @killed_not_freed of memory-place.mlir, as @main: %p (8 KiB, pinned by the
// public @use) is killed early but freed only by the dealloc of its cast.
func.func @use(%p: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%p : memref<2048xf32, "global.vtcm">)
  func.return
}

func.func @main(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %p = memref.alloc() : memref<2048xf32, "global.vtcm">
  %c = "memref.cast"(%p) : (memref<2048xf32, "global.vtcm">) -> memref<?xf32, "global.vtcm">
  func.call @use(%p) : (memref<2048xf32, "global.vtcm">) -> ()
  memory.kill %p : memref<2048xf32, "global.vtcm">
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<?xf32, "global.vtcm">
  func.return
}

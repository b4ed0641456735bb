// For memory-place.mlir: %q, the 8 KiB a memref.realloc of %p allocates
// (both pinned: memory-place does not change a realloc's types), is held
// from the realloc to its dealloc at the end, beside %a and %b.
func.func @main(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<1024xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%p : memref<1024xf32, "global.vtcm">)
  %q = memref.realloc %p : memref<1024xf32, "global.vtcm"> to memref<2048xf32, "global.vtcm">
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %q : memref<2048xf32, "global.vtcm">
  func.return
}

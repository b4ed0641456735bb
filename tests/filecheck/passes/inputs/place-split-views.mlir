// With room for one VTCM tensor at a time, memory-place splits %t: it stays
// in VTCM while %w (a view of it) is read, and its last write, after %b
// took the VTCM, goes to a new DDR tensor.  %t's kills must follow the read
// through %w, not its last direct use (the view), and the kill of %t_ddr
// the program made through the cast %k must not come on top of the kill
// memory-place gives it.
func.func @main() -> memref<256xf32> {
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<256xf32>
  %ts = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %ts[0] : !memory.storage<"global.vtcm"> to memref<256xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%t : memref<256xf32, "global.vtcm">)
  %w = memref.reinterpret_cast %t to offset: [0], sizes: [256], strides: [1] : memref<256xf32, "global.vtcm"> to memref<256xf32, strided<[1]>, "global.vtcm">
  %a = memref.alloc() : memref<256xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<256xf32, "global.vtcm">)
  linalg.add ins(%a, %a : memref<256xf32, "global.vtcm">, memref<256xf32, "global.vtcm">) outs(%a : memref<256xf32, "global.vtcm">)
  linalg.add ins(%w, %a : memref<256xf32, strided<[1]>, "global.vtcm">, memref<256xf32, "global.vtcm">) outs(%out : memref<256xf32>)
  memref.dealloc %a : memref<256xf32, "global.vtcm">
  %b = memref.alloc() : memref<256xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%b : memref<256xf32, "global.vtcm">)
  linalg.add ins(%b, %b : memref<256xf32, "global.vtcm">, memref<256xf32, "global.vtcm">) outs(%b : memref<256xf32, "global.vtcm">)
  linalg.add ins(%b, %out : memref<256xf32, "global.vtcm">, memref<256xf32>) outs(%out : memref<256xf32>)
  linalg.copy ins(%out : memref<256xf32>) outs(%t : memref<256xf32, "global.vtcm">)
  linalg.add ins(%b, %out : memref<256xf32, "global.vtcm">, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %b : memref<256xf32, "global.vtcm">
  %k = memref.cast %t : memref<256xf32, "global.vtcm"> to memref<?xf32, "global.vtcm">
  memory.kill %k : memref<?xf32, "global.vtcm">
  memory.kill %ts : !memory.storage<"global.vtcm">
  func.return %out : memref<256xf32>
}

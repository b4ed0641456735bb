func.func @main() -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4096xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<4096xf32, "global.vtcm">)
  %x = memref.load %a[%c0] : memref<4096xf32, "global.vtcm">
  memref.dealloc %a : memref<4096xf32, "global.vtcm">
  func.return %x : f32
}

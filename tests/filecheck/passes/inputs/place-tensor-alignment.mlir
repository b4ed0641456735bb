// Five 400-byte tensors live at once: packed by element size they fill
// 2000 bytes, but memory-plan{tensor-alignment=128} rounds each up to 512,
// 2560 bytes.
func.func @main() -> memref<100xf32> {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<100xf32>
  %b = memref.alloc() : memref<100xf32>
  %c = memref.alloc() : memref<100xf32>
  %d = memref.alloc() : memref<100xf32>
  %e = memref.alloc() : memref<100xf32>
  %out = memref.alloc() : memref<100xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<100xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<100xf32>)
  linalg.fill ins(%one : f32) outs(%c : memref<100xf32>)
  linalg.fill ins(%one : f32) outs(%d : memref<100xf32>)
  linalg.fill ins(%one : f32) outs(%e : memref<100xf32>)
  linalg.add ins(%a, %b : memref<100xf32>, memref<100xf32>) outs(%c : memref<100xf32>)
  linalg.add ins(%c, %d : memref<100xf32>, memref<100xf32>) outs(%e : memref<100xf32>)
  linalg.copy ins(%e : memref<100xf32>) outs(%out : memref<100xf32>)
  memref.dealloc %a : memref<100xf32>
  memref.dealloc %b : memref<100xf32>
  memref.dealloc %c : memref<100xf32>
  memref.dealloc %d : memref<100xf32>
  memref.dealloc %e : memref<100xf32>
  func.return %out : memref<100xf32>
}

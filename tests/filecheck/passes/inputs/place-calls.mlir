// @main passes %a to a public function and %b to a private one, each of
// which doubles its argument eight times in a loop.
func.func @public_callee(%a: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    linalg.add ins(%a, %a : memref<256xf32>, memref<256xf32>) outs(%a : memref<256xf32>)
  }
  func.return
}
func.func private @private_callee(%a: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    linalg.add ins(%a, %a : memref<256xf32>, memref<256xf32>) outs(%a : memref<256xf32>)
  }
  func.return
}
func.func @main() -> memref<256xf32> {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<256xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<256xf32>)
  func.call @public_callee(%a) : (memref<256xf32>) -> ()
  func.call @private_callee(%b) : (memref<256xf32>) -> ()
  linalg.add ins(%a, %b : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  func.return %out : memref<256xf32>
}

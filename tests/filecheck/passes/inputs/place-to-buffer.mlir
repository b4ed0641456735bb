// @main returns %out (so it stays in DDR), and a loop reads it three times
// into %acc: a VTCM copy of %out could stand in for it, but the loop also
// writes %out through %buf, a memref made back from a tensor of it.  The
// copy would miss those writes: memory-place makes none.
func.func @main() -> (memref<256xf32>, memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%out : memref<256xf32>)
  %acc = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%acc : memref<256xf32>)
  %t = bufferization.to_tensor %out : memref<256xf32> to tensor<256xf32>
  %buf = bufferization.to_buffer %t : tensor<256xf32> to memref<256xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    linalg.add ins(%out, %acc : memref<256xf32>, memref<256xf32>) outs(%acc : memref<256xf32>)
    linalg.add ins(%acc, %acc : memref<256xf32>, memref<256xf32>) outs(%buf : memref<256xf32>)
  }
  func.return %out, %acc : memref<256xf32>, memref<256xf32>
}

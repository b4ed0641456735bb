// @main's %a moves to VTCM; a loop reads it through %u, a memref made back
// from a tensor of it that an scf.for hands on.  %u is the same memory, so
// it moves with %a (without that it kept the DDR type: the run priced reads
// of VTCM bytes as DDR reads, and MLIR's to_buffer(to_tensor) folding would
// cast between memory spaces).  @unranked's tensor moves with its unranked
// cast (memory-place once stopped on an assertion there).
func.func @main() -> memref<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %r = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%r : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<256xf32>)
  %t = bufferization.to_tensor %a : memref<256xf32> to tensor<256xf32>
  %held = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %t) -> (tensor<256xf32>) {
    scf.yield %x : tensor<256xf32>
  }
  %u = bufferization.to_buffer %held : tensor<256xf32> to memref<256xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    linalg.add ins(%a, %r : memref<256xf32>, memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.add ins(%u, %u : memref<256xf32>, memref<256xf32>) outs(%r : memref<256xf32>)
  }
  memref.dealloc %a : memref<256xf32>
  func.return %r : memref<256xf32>
}

func.func @unranked() -> memref<16xf32> {
  %one = arith.constant 1.0 : f32
  %r = memref.alloc() : memref<16xf32>
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %any = memref.cast %a : memref<16xf32> to memref<*xf32>
  %b = memref.cast %any : memref<*xf32> to memref<16xf32>
  linalg.add ins(%b, %b : memref<16xf32>, memref<16xf32>) outs(%r : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  func.return %r : memref<16xf32>
}

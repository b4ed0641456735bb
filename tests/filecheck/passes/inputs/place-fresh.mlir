// @main returns %out, which a loop of memref.store fills before another loop
// reads and updates it; a subview of it is read afterwards.  Nothing wrote
// %out before the first loop, so its VTCM copy needs no copy in (one would
// read never-written bytes), but the data must be back in DDR before the
// subview reads it.
func.func @main() -> (memref<64xf32>, memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<512xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %out[%i] : memref<512xf32>
  }
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c512 step %c1 {
      %a = memref.load %out[%i] : memref<512xf32>
      %s = arith.addf %a, %one : f32
      memref.store %s, %out[%i] : memref<512xf32>
    }
  }
  %head = memref.subview %out[0] [64] [1] : memref<512xf32> to memref<64xf32, strided<[1]>>
  %sum = memref.alloc() : memref<64xf32>
  linalg.add ins(%head, %head : memref<64xf32, strided<[1]>>, memref<64xf32, strided<[1]>>) outs(%sum : memref<64xf32>)
  func.return %sum, %out : memref<64xf32>, memref<512xf32>
}

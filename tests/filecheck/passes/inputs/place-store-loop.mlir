// @main returns %out, which a loop of memref.store fills before another loop
// reads and updates it: a fresh tensor nothing wrote before the first loop,
// so its VTCM copy needs no copy in (the copy would read never-written bytes).
func.func @main() -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<64xf32>)
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %zero, %out[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %out[%i] : memref<64xf32>
    %b = memref.load %x[%i] : memref<64xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<64xf32>
  }
  memref.dealloc %x : memref<64xf32>
  func.return %out : memref<64xf32>
}

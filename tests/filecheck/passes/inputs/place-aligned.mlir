// Three 680-byte tensors live at once, each asking for a 64-byte aligned
// address (as bufferized allocs do): packed by element size they would fill
// 2040 bytes, but memory-plan puts them at 0, 704 and 1408, 2088 bytes.
func.func @main() -> memref<170xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<170xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<170xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<170xf32>
  %out = memref.alloc() : memref<170xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<170xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<170xf32>)
  scf.for %i = %c0 to %c3 step %c1 {
    linalg.add ins(%a, %b : memref<170xf32>, memref<170xf32>) outs(%c : memref<170xf32>)
    linalg.mul ins(%c, %b : memref<170xf32>, memref<170xf32>) outs(%a : memref<170xf32>)
  }
  linalg.copy ins(%a : memref<170xf32>) outs(%out : memref<170xf32>)
  memref.dealloc %a : memref<170xf32>
  memref.dealloc %b : memref<170xf32>
  memref.dealloc %c : memref<170xf32>
  func.return %out : memref<170xf32>
}

// A function of several blocks (memory-plan leaves it as it is; see the SEVERAL RUN line of memory-plan.mlir).
func.func @main(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^b1, ^b2
^b1:
  cf.br ^b2
^b2:
  memref.dealloc %a : memref<4xf32>
  func.return
}

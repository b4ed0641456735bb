// Pinned VTCM allocated outside the entry block of a function memory-place
// does not place is checked against the capacity one allocation at a time,
// and the pass says so (see the REMARK RUN line of
// memory-place-unplaced.mlir): here 16 KiB on the ^big path, over 12 KiB,
// which memory-verify and memplan-run catch.
func.func private @use(memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">)

func.func @main(%c: i1) {
  cf.cond_br %c, ^big, ^small
^big:
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  func.call @use(%a, %b) : (memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) -> ()
  func.return
^small:
  func.return
}

// After memory-coalesce, one VTCM storage holds %b, %a and %d, each at a
// 2048-byte boundary (4160 bytes).  %a is returned as a tensor, so it needs
// storage of its own; %b and %d are plannable.  memory-plan moves %b and
// %d into an arena and shrinks the merged storage to %a alone, at offset 0
// (still 2048-aligned): with the loop's arena, 4096 bytes of VTCM, as
// memory-plan alone needs.  It once left the whole merged storage alone, and
// refused a capacity of 4096: "the "global.vtcm" arena needs 64 bytes ...,
// of which 6144 are held while the arena is live: memory.alloc_storage %0
// (4160 bytes, 6144 with its alignment padding)".
func.func @main() -> (memref<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %r = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32, "global.vtcm">)
  %a = memref.alloc() : memref<16xf32, "global.vtcm">
  linalg.add ins(%b, %b : memref<16xf32, "global.vtcm">, memref<16xf32, "global.vtcm">) outs(%a : memref<16xf32, "global.vtcm">)
  %d = memref.alloc() : memref<16xf32, "global.vtcm">
  linalg.add ins(%a, %b : memref<16xf32, "global.vtcm">, memref<16xf32, "global.vtcm">) outs(%d : memref<16xf32, "global.vtcm">)
  linalg.copy ins(%d : memref<16xf32, "global.vtcm">) outs(%r : memref<16xf32>)
  memref.dealloc %b : memref<16xf32, "global.vtcm">
  memref.dealloc %d : memref<16xf32, "global.vtcm">
  scf.for %i = %c0 to %c2 step %c1 {
    %c = memref.alloc() : memref<16xf32, "global.vtcm">
    linalg.add ins(%r, %r : memref<16xf32>, memref<16xf32>) outs(%c : memref<16xf32, "global.vtcm">)
    linalg.copy ins(%c : memref<16xf32, "global.vtcm">) outs(%r : memref<16xf32>)
    memref.dealloc %c : memref<16xf32, "global.vtcm">
  }
  %t = bufferization.to_tensor %a : memref<16xf32, "global.vtcm"> to tensor<16xf32>
  func.return %r, %t : memref<16xf32>, tensor<16xf32>
}

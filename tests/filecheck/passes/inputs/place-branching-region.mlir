// %m is allocated in the body of a loop made of blocks (cf branches in an
// scf.execute_region), and the function returns what the loop carries, so
// %m stays in DDR.  A VTCM copy of it for the loop nest that writes it would
// be a tensor of that region too, which keeps a storage of its own (its
// 2048-byte alignment) that memory-plan does not pack: with %v's arena held
// across the region, a 2048-byte VTCM has no room for it.  memory-place
// makes no such copy, so memory-plan fits the capacity it promised.
func.func @main() -> (memref<8xf32>, memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%out : memref<8xf32>)
  %v = memref.alloc() : memref<8xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%v : memref<8xf32, "global.vtcm">)
  %r = scf.execute_region -> memref<8xf32> {
    cf.br ^bb1(%c0, %out : index, memref<8xf32>)
  ^bb1(%i: index, %acc: memref<8xf32>):
    %go = arith.cmpi slt, %i, %c2 : index
    cf.cond_br %go, ^bb2, ^bb3
  ^bb2:
    %m = memref.alloc() : memref<8xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      %e = arith.index_cast %j : index to i32
      %f = arith.sitofp %e : i32 to f32
      memref.store %f, %m[%j] : memref<8xf32>
    }
    linalg.add ins(%acc, %v : memref<8xf32>, memref<8xf32, "global.vtcm">) outs(%m : memref<8xf32>)
    %n = arith.addi %i, %c1 : index
    cf.br ^bb1(%n, %m : index, memref<8xf32>)
  ^bb3:
    scf.yield %acc : memref<8xf32>
  }
  %w = memref.alloc() : memref<8xf32, "global.vtcm">
  linalg.add ins(%v, %v : memref<8xf32, "global.vtcm">, memref<8xf32, "global.vtcm">) outs(%w : memref<8xf32, "global.vtcm">)
  linalg.add ins(%w, %out : memref<8xf32, "global.vtcm">, memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %w : memref<8xf32, "global.vtcm">
  memref.dealloc %v : memref<8xf32, "global.vtcm">
  func.return %out, %r : memref<8xf32>, memref<8xf32>
}

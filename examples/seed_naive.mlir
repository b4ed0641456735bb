// The seed program of examples/seed_vtcm_offsets.mlir before any planning:
// five 4x64xi32 VTCM tensors, each its own memref.alloc, all freed at the end
// (what naive bufferization produces).  Unplanned it holds 5 x 1024 bytes of
// VTCM at once.  `memory-manifest,memory-plan` packs it into one 3072-byte
// VTCM storage: at most three tensors (a, b, c, then c, d, e) are live at once.
//
// @main builds the inputs x[i][j] = 64*i + j, y = 2x + 1, z = 3x + 2 in DDR,
// runs @seed and returns (x + y) * z.

#map = affine_map<(d0, d1) -> (d0, d1)>

func.func private @compute_add_in_vtcm(%a: memref<4x64xi32, "global.vtcm">, %b: memref<4x64xi32, "global.vtcm">, %c: memref<4x64xi32, "global.vtcm">) {
  linalg.add ins(%a, %b : memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">) outs(%c : memref<4x64xi32, "global.vtcm">)
  func.return
}

func.func private @compute_mul_in_vtcm(%c: memref<4x64xi32, "global.vtcm">, %d: memref<4x64xi32, "global.vtcm">, %e: memref<4x64xi32, "global.vtcm">) {
  linalg.mul ins(%c, %d : memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">) outs(%e : memref<4x64xi32, "global.vtcm">)
  func.return
}

func.func private @seed(%x: memref<4x64xi32>, %y: memref<4x64xi32>, %z: memref<4x64xi32>, %out: memref<4x64xi32>) {
  %a = memref.alloc() : memref<4x64xi32, "global.vtcm">
  memory.copy %x, %a : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
  %b = memref.alloc() : memref<4x64xi32, "global.vtcm">
  memory.copy %y, %b : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
  %c = memref.alloc() : memref<4x64xi32, "global.vtcm">
  func.call @compute_add_in_vtcm(%a, %b, %c) : (memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">) -> ()
  %d = memref.alloc() : memref<4x64xi32, "global.vtcm">
  memory.copy %z, %d : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
  %e = memref.alloc() : memref<4x64xi32, "global.vtcm">
  func.call @compute_mul_in_vtcm(%c, %d, %e) : (memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">, memref<4x64xi32, "global.vtcm">) -> ()
  memory.copy %e, %out : memref<4x64xi32, "global.vtcm"> to memref<4x64xi32>
  memref.dealloc %a : memref<4x64xi32, "global.vtcm">
  memref.dealloc %b : memref<4x64xi32, "global.vtcm">
  memref.dealloc %c : memref<4x64xi32, "global.vtcm">
  memref.dealloc %d : memref<4x64xi32, "global.vtcm">
  memref.dealloc %e : memref<4x64xi32, "global.vtcm">
  func.return
}

// Fills %m with scale * (64 * i + j) + bias.
func.func private @fill_affine(%m: memref<4x64xi32>, %scale: i32, %bias: i32) {
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%m : memref<4x64xi32>) {
  ^bb0(%unused: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %i, %c64 : index
    %flat = arith.addi %row, %j : index
    %v = arith.index_cast %flat : index to i32
    %scaled = arith.muli %v, %scale : i32
    %r = arith.addi %scaled, %bias : i32
    linalg.yield %r : i32
  }
  func.return
}

func.func @main() -> memref<4x64xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %x = memref.alloc() : memref<4x64xi32>
  %y = memref.alloc() : memref<4x64xi32>
  %z = memref.alloc() : memref<4x64xi32>
  %out = memref.alloc() : memref<4x64xi32>
  func.call @fill_affine(%x, %c1, %c0) : (memref<4x64xi32>, i32, i32) -> ()
  func.call @fill_affine(%y, %c2, %c1) : (memref<4x64xi32>, i32, i32) -> ()
  func.call @fill_affine(%z, %c3, %c2) : (memref<4x64xi32>, i32, i32) -> ()
  func.call @seed(%x, %y, %z, %out) : (memref<4x64xi32>, memref<4x64xi32>, memref<4x64xi32>, memref<4x64xi32>) -> ()
  memref.dealloc %x : memref<4x64xi32>
  memref.dealloc %y : memref<4x64xi32>
  memref.dealloc %z : memref<4x64xi32>
  func.return %out : memref<4x64xi32>
}

// The second program of seed 000: three discontiguous 4x64xi32 tensors whose
// pointer tables sit at offsets 0, 16 and 32 of one 64-byte DDR storage and
// whose 256-byte blocks are scattered over one 4096-byte VTCM storage, in the
// order the seed gives them. a and b are live together with c, yet all three
// share the same two storages.
//
// @main builds x[i][j] = 64*i + j and y = 2x + 1 in DDR and returns x + y.

#map = affine_map<(d0, d1) -> (d0, d1)>

func.func private @compute_add_in_vtcm(%a: memref<4x64xi32, #memory.discontiguous, "global.vtcm">, %b: memref<4x64xi32, #memory.discontiguous, "global.vtcm">, %c: memref<4x64xi32, #memory.discontiguous, "global.vtcm">) {
  linalg.add ins(%a, %b : memref<4x64xi32, #memory.discontiguous, "global.vtcm">, memref<4x64xi32, #memory.discontiguous, "global.vtcm">) outs(%c : memref<4x64xi32, #memory.discontiguous, "global.vtcm">)
  func.return
}

func.func private @seed(%x: memref<4x64xi32>, %y: memref<4x64xi32>, %out: memref<4x64xi32>) {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[768, 256, 2304, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.copy %x, %a : memref<4x64xi32> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  %b = memory.alloc_discontiguous_tensor table %tables[16], blocks %vtcm[1536, 1280, 3328, 2560] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.copy %y, %b : memref<4x64xi32> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  %c = memory.alloc_discontiguous_tensor table %tables[32], blocks %vtcm[512, 0, 2048, 3840] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  func.call @compute_add_in_vtcm(%a, %b, %c) : (memref<4x64xi32, #memory.discontiguous, "global.vtcm">, memref<4x64xi32, #memory.discontiguous, "global.vtcm">, memref<4x64xi32, #memory.discontiguous, "global.vtcm">) -> ()
  memory.copy %c, %out : memref<4x64xi32, #memory.discontiguous, "global.vtcm"> to memref<4x64xi32>
  memory.kill %a : memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.kill %b : memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.kill %c : memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.kill %vtcm : !memory.storage<"global.vtcm">
  memory.kill %tables : !memory.storage<"global">
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
  %x = memref.alloc() : memref<4x64xi32>
  %y = memref.alloc() : memref<4x64xi32>
  %out = memref.alloc() : memref<4x64xi32>
  func.call @fill_affine(%x, %c1, %c0) : (memref<4x64xi32>, i32, i32) -> ()
  func.call @fill_affine(%y, %c2, %c1) : (memref<4x64xi32>, i32, i32) -> ()
  func.call @seed(%x, %y, %out) : (memref<4x64xi32>, memref<4x64xi32>, memref<4x64xi32>) -> ()
  memref.dealloc %x : memref<4x64xi32>
  memref.dealloc %y : memref<4x64xi32>
  func.return %out : memref<4x64xi32>
}

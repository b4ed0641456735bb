// Found by test_placed_programs_keep_results_fit_and_cost_no_more (Hypothesis):
// placed with capacity=4096 tensor-alignment=1024, the tensors of the scf.if
// went to VTCM, each in an arena of its own allocated on every trip, while
// all-DDR memory-plan put them into the function's arena.
func.func @main() -> (memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m1 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m1 : memref<8xf32>) {
  ^bb0(%out: f32):
    %i2 = linalg.index 0 : index
    %k3 = arith.constant 1 : index
    %t4 = arith.muli %i2, %k3 : index
    %k5 = arith.constant 0 : index
    %s6 = arith.addi %k5, %t4 : index
    %e7 = arith.index_cast %s6 : index to i32
    %f8 = arith.sitofp %e7 : i32 to f32
    linalg.yield %f8 : f32
  }
  %m9 = memref.alloc() : memref<8xf32>
  %v10 = arith.constant 0.0 : f32
  linalg.fill ins(%v10 : f32) outs(%m9 : memref<8xf32>)
  linalg.copy ins(%m9 : memref<8xf32>) outs(%m1 : memref<8xf32>)
  %m11 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m11 : memref<8xf32>) {
  ^bb0(%out: f32):
    %i12 = linalg.index 0 : index
    %k13 = arith.constant 1 : index
    %t14 = arith.muli %i12, %k13 : index
    %k15 = arith.constant 0 : index
    %s16 = arith.addi %k15, %t14 : index
    %e17 = arith.index_cast %s16 : index to i32
    %f18 = arith.sitofp %e17 : i32 to f32
    linalg.yield %f18 : f32
  }
  %m19 = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m19 : memref<8xf32>) {
  ^bb0(%out: f32):
    %i20 = linalg.index 0 : index
    %k21 = arith.constant 3 : index
    %t22 = arith.muli %i20, %k21 : index
    %k23 = arith.constant 0 : index
    %s24 = arith.addi %k23, %t22 : index
    %e25 = arith.index_cast %s24 : index to i32
    %f26 = arith.sitofp %e25 : i32 to f32
    linalg.yield %f26 : f32
  }
  linalg.add ins(%m11, %m19 : memref<8xf32>, memref<8xf32>) outs(%m1 : memref<8xf32>)
  memref.dealloc %m19 : memref<8xf32>
  scf.for %iv60 = %c0 to %c2 step %c1 {
    linalg.add ins(%m9, %m9 : memref<8xf32>, memref<8xf32>) outs(%m1 : memref<8xf32>)
    linalg.add ins(%m9, %m9 : memref<8xf32>, memref<8xf32>) outs(%m1 : memref<8xf32>)
    %cond27 = arith.constant true
    scf.if %cond27 {
      %m28 = memref.alloc() : memref<8xf32>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m28 : memref<8xf32>) {
      ^bb0(%out: f32):
        %i29 = linalg.index 0 : index
        %k30 = arith.constant 1 : index
        %t31 = arith.muli %i29, %k30 : index
        %k32 = arith.constant 0 : index
        %s33 = arith.addi %k32, %t31 : index
        %e34 = arith.index_cast %s33 : index to i32
        %f35 = arith.sitofp %e34 : i32 to f32
        linalg.yield %f35 : f32
      }
      memref.dealloc %m28 : memref<8xf32>
      %m36 = memref.alloc() : memref<8xf32>
      %v37 = arith.constant 0.0 : f32
      linalg.fill ins(%v37 : f32) outs(%m36 : memref<8xf32>)
      memref.dealloc %m36 : memref<8xf32>
      %m38 = memref.alloc() : memref<8xf32>
      %v39 = arith.constant 0.0 : f32
      linalg.fill ins(%v39 : f32) outs(%m38 : memref<8xf32>)
      memref.dealloc %m38 : memref<8xf32>
    } else {
      %m40 = memref.alloc() : memref<2x4xf32>
      %v41 = arith.constant 0.0 : f32
      linalg.fill ins(%v41 : f32) outs(%m40 : memref<2x4xf32>)
      %m42 = memref.alloc() : memref<2x4xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%m42 : memref<2x4xf32>) {
      ^bb0(%out: f32):
        %i43 = linalg.index 0 : index
        %k44 = arith.constant 1 : index
        %t45 = arith.muli %i43, %k44 : index
        %i46 = linalg.index 1 : index
        %k47 = arith.constant 0 : index
        %t48 = arith.muli %i46, %k47 : index
        %k49 = arith.constant 0 : index
        %s50 = arith.addi %k49, %t45 : index
        %s51 = arith.addi %s50, %t48 : index
        %e52 = arith.index_cast %s51 : index to i32
        %f53 = arith.sitofp %e52 : i32 to f32
        linalg.yield %f53 : f32
      }
      %m54 = memref.alloc() : memref<4x4xf32>
      %v55 = arith.constant 0.0 : f32
      linalg.fill ins(%v55 : f32) outs(%m54 : memref<4x4xf32>)
      linalg.matmul ins(%m42, %m54 : memref<2x4xf32>, memref<4x4xf32>) outs(%m40 : memref<2x4xf32>)
      memref.dealloc %m54 : memref<4x4xf32>
      memref.dealloc %m42 : memref<2x4xf32>
      memref.dealloc %m40 : memref<2x4xf32>
      %m56 = memref.alloc() : memref<8xf32>
      %v57 = arith.constant 0.0 : f32
      linalg.fill ins(%v57 : f32) outs(%m56 : memref<8xf32>)
      linalg.add ins(%m56, %m9 : memref<8xf32>, memref<8xf32>) outs(%m1 : memref<8xf32>)
      memref.dealloc %m56 : memref<8xf32>
    }
    %m58 = memref.alloc() : memref<8xf32>
    %v59 = arith.constant 0.0 : f32
    linalg.fill ins(%v59 : f32) outs(%m58 : memref<8xf32>)
    linalg.add ins(%m11, %m58 : memref<8xf32>, memref<8xf32>) outs(%m1 : memref<8xf32>)
    memref.dealloc %m58 : memref<8xf32>
  }
  memref.dealloc %m11 : memref<8xf32>
  memref.dealloc %m9 : memref<8xf32>
  func.return %m1 : memref<8xf32>
}

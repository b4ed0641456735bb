// memplan-run --sequential-sums folds float sums in MLIR's loop order: 1e8,
// thirty 1s and -1e8 then sum to 0 (each 1 is lost against 1e8), as the
// lowered loops compute; by default the sums reassociate (numpy's pairwise
// reduce, BLAS) and keep some of the 1s.

// RUN: memplan-run %s --sequential-sums 2>&1 | filecheck %s --check-prefix=SEQ
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --sequential-sums 2>&1 | filecheck %s --check-prefix=SEQ
// RUN: memplan-run %s 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: not memplan-run %s --sequential-sums=yes 2>&1 | filecheck %s --check-prefix=BAD

// SEQ:      result: (
// SEQ-NEXT:     array([ 0., 32.], dtype=float32),
// SEQ-NEXT:     array([[ 0.,  0.],
// SEQ-NEXT:        [32., 32.]], dtype=float32)
// SEQ-NEXT: )

// DEFAULT:      result: (
// DEFAULT-NEXT:     array([16., 32.], dtype=float32),

// BAD: usage: memplan-run
// BAD: memplan-run: error: argument --sequential-sums: ignored explicit argument 'yes'

memref.global "private" constant @x : memref<2x32xf32> = dense<[[1.0e8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0e8], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]>
memref.global "private" constant @w : memref<32x2xf32> = dense<1.0>
func.func @main() -> (memref<2xf32>, memref<2x2xf32>) {
  %x = memref.get_global @x : memref<2x32xf32>
  %w = memref.get_global @w : memref<32x2xf32>
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() : memref<2xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2xf32>)
  linalg.reduce ins(%x : memref<2x32xf32>) outs(%sum : memref<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %prod = memref.alloc() : memref<2x2xf32>
  linalg.fill ins(%zero : f32) outs(%prod : memref<2x2xf32>)
  linalg.matmul ins(%x, %w : memref<2x32xf32>, memref<32x2xf32>) outs(%prod : memref<2x2xf32>)
  func.return %sum, %prod : memref<2xf32>, memref<2x2xf32>
}

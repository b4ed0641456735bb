// memplan-run --libm-math computes math functions as MLIR's compiled code
// does: expm1 and log1p as MLIR's lowering expands them, exp(x) - 1 and
// log(1 + x), which give 0 for a tiny x (exp and log of the C library give
// exactly 1 and 0 there); by default memplan computes them accurately.

// RUN: memplan-run %s --libm-math --no-stats | filecheck %s --check-prefix=LIBM
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --libm-math --no-stats | filecheck %s --check-prefix=LIBM
// RUN: memplan-run %s --no-stats | filecheck %s --check-prefix=DEFAULT
// RUN: not memplan-run %s --libm-math=yes 2>&1 | filecheck %s --check-prefix=BAD

// LIBM:      result: (
// LIBM-NEXT:     array([0., 0.], dtype=float32),
// LIBM-NEXT:     array([0., 0.], dtype=float32)
// LIBM-NEXT: )

// DEFAULT:      result: (
// DEFAULT-NEXT:     array([1.e-10, 1.e-20], dtype=float32),
// DEFAULT-NEXT:     array([1.e-10, 1.e-20], dtype=float32)
// DEFAULT-NEXT: )

// BAD: usage: memplan-run
// BAD: memplan-run: error: argument --libm-math: ignored explicit argument 'yes'

memref.global "private" constant @x : memref<2xf32> = dense<[1.0e-10, 1.0e-20]>
func.func @main() -> (memref<2xf32>, memref<2xf32>) {
  %x = memref.get_global @x : memref<2xf32>
  %e = memref.alloc() : memref<2xf32>
  %l = memref.alloc() : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %x[%i] : memref<2xf32>
    %em1 = math.expm1 %v : f32
    memref.store %em1, %e[%i] : memref<2xf32>
    %lp1 = math.log1p %v : f32
    memref.store %lp1, %l[%i] : memref<2xf32>
  }
  func.return %e, %l : memref<2xf32>, memref<2xf32>
}

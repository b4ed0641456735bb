// affine.parallel runs as the scf.parallel MLIR's -lower-affine makes of it:
// iterations one after another in row-major order, each bound the largest
// (lower) or smallest (upper) of its group, each reduction folded from its
// identity with its arith op; the memory model checks the iterations as if
// they ran at once.

// RUN: memplan-run %s --symbol sums 2>&1 | filecheck %s --check-prefix SUMS
// RUN: memplan-run %s --symbol empty 2>&1 | filecheck %s --check-prefix EMPTY
// RUN: memplan-run %s --symbol alloca 2>&1 | filecheck %s --check-prefix ALLOCA
// RUN: not memplan-run %s --symbol shared 2>&1 | filecheck %s --check-prefix SHARED
// RUN: not memplan-run %s --symbol negative_step 2>&1 | filecheck %s --check-prefix STEP
// RUN: not memplan-run %s --symbol assign 2>&1 | filecheck %s --check-prefix ASSIGN

// i in {0, 2, 4} (min(6, 5) bounds it), j in {1, 2, 3} (max(1, 0)):
// sum and product of 10 * i + j, and the largest of them.
func.func @sums() -> (i64, i64, f32) {
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %r:3 = affine.parallel (%i, %j) = (0, max(1, %c0)) to (min(6, %c5), 4) step (2, 1) reduce ("addi", "muli", "maxnumf") -> (i64, i64, f32) {
    %ten = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1)>(%i, %j)
    %v = arith.index_cast %ten : index to i64
    %f = arith.sitofp %v : i64 to f32
    affine.yield %v, %v, %f : i64, i64, f32
  }
  func.return %r#0, %r#1, %r#2 : i64, i64, f32
}

// SUMS:      result: (
// SUMS-NEXT:     198,
// SUMS-NEXT:     4720876776,
// SUMS-NEXT:     43.0
// SUMS-NEXT: )

// No iteration: each result is its reduction's identity, a negative NaN
// (0xFFC00000) for maxnumf, -inf for maximumf, -1 for andi.
func.func @empty() -> (i32, f32, i32) {
  %r:3 = affine.parallel (%i) = (4) to (2) reduce ("maxnumf", "maximumf", "andi") -> (f32, f32, i32) {
    %f = arith.constant 1.0 : f32
    %c = arith.constant 1 : i32
    affine.yield %f, %f, %c : f32, f32, i32
  }
  %bits = arith.bitcast %r#0 : f32 to i32
  func.return %bits, %r#1, %r#2 : i32, f32, i32
}

// EMPTY:      result: (
// EMPTY-NEXT:     -4194304,
// EMPTY-NEXT:     -inf,
// EMPTY-NEXT:     -1
// EMPTY-NEXT: )

// As in MLIR, affine.parallel is an automatic allocation scope: each
// iteration's alloca is freed when the iteration ends.
func.func @alloca() {
  %one = arith.constant 1 : i32
  affine.parallel (%i) = (0) to (4) {
    %t = memref.alloca() : memref<16xi32, "global.vtcm">
    linalg.fill ins(%one : i32) outs(%t : memref<16xi32, "global.vtcm">)
  }
  func.return
}

// ALLOCA: memplan-run: {{.*}}peak bytes global.vtcm=64;{{.*}}storages global.vtcm=4;

// Every iteration's tensor on the same bytes of a storage made outside.
func.func @shared() {
  %one = arith.constant 1 : i32
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  affine.parallel (%i, %j) = (0, 0) to (2, 2) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
    linalg.fill ins(%one : i32) outs(%t : memref<16xi32, "global.vtcm">)
    memory.kill %t : memref<16xi32, "global.vtcm">
  }
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// SHARED: memplan-run: error: {{.*}}run-affine-parallel.mlir:70:5: memory.alloc_tensor %t (in @shared): in iteration [0, 1] of affine.parallel (line 69, in @shared), places its tensor on bytes [0, 64) of the "global.vtcm" storage allocated by memory.alloc_storage %s (line 68, in @shared), which iteration [0, 0] gave to the tensor allocated by memory.alloc_tensor %t (line 70, in @shared); iterations of a parallel loop may run at once: expected bytes of its own for each iteration's tensor{{$}}

// MLIR's verifier takes any step; a run refuses one that is not positive.
func.func @negative_step() {
  affine.parallel (%i) = (0) to (4) step (-1) {
  }
  func.return
}

// STEP: memplan-run: error: {{.*}}run-affine-parallel.mlir:82:3: affine.parallel (in @negative_step): step -1 of induction variable 0 is not positive: expected a step above 0{{$}}

func.func @assign() -> i32 {
  %r = affine.parallel (%i) = (0) to (4) reduce ("assign") -> i32 {
    %c = arith.constant 1 : i32
    affine.yield %c : i32
  }
  func.return %r : i32
}

// ASSIGN: memplan-run: error: {{.*}}run-affine-parallel.mlir:90:3: affine.parallel %r (in @assign): reduction "assign" of affine.parallel is not run: MLIR's -lower-affine lowers only addf, mulf, maximumf, minimumf, maxnumf, minnumf, addi, muli, andi, ori, xori (it leaves the loop as it is){{$}}

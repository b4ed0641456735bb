// scf.parallel runs its iterations one after another in row-major order of
// the induction variables and folds scf.reduce in that order; the memory
// model sees one iteration at a time, and a run fails when iterations share
// what they could not share if they ran at once.

// RUN: memplan-run %s --symbol order 2>&1 | filecheck %s --check-prefix ORDER
// RUN: memplan-run %s --symbol rows --args "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>" 2>&1 | filecheck %s --check-prefix ROWS
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --symbol rows --args "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>" 2>&1 | filecheck %s --check-prefix ROWS
// RUN: memplan-run %s --symbol alloca 2>&1 | filecheck %s --check-prefix ALLOCA
// RUN: memplan-run %s --symbol disjoint 2>&1 | filecheck %s --check-prefix DISJOINT
// RUN: not memplan-run %s --symbol shared 2>&1 | filecheck %s --check-prefix SHARED
// RUN: not memplan-run %s --symbol kill_outside 2>&1 | filecheck %s --check-prefix KILL
// RUN: memplan-run %s --symbol once 2>&1 | filecheck %s --check-prefix ONCE
// RUN: not memplan-run %s --symbol zero_step 2>&1 | filecheck %s --check-prefix STEP

// acc * 10 + (3 * i + j + 1) over a 2x3 space, from 0: the digits are the
// iterations in the order they ran.
func.func @order() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %ten = arith.constant 10 : i64
  %r = "scf.parallel"(%c0, %c0, %c2, %c3, %c1, %c1, %zero) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %row = arith.muli %i, %c3 : index
    %flat = arith.addi %row, %j : index
    %next = arith.addi %flat, %c1 : index
    %v = arith.index_cast %next : index to i64
    "scf.reduce"(%v) ({
    ^bb1(%acc: i64, %new: i64):
      %shifted = arith.muli %acc, %ten : i64
      %sum = arith.addi %shifted, %new : i64
      "scf.reduce.return"(%sum) : (i64) -> ()
    }) : (i64) -> ()
  }) : (index, index, index, index, index, index, i64) -> i64
  func.return %r : i64
}

// ORDER: result: 123456{{$}}

// Each iteration allocates a VTCM temporary: the peak is one temporary, as
// the iterations run one after another (three at once would need three).
func.func @rows(%x: memref<3x2xf32>) -> (memref<3xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<3xf32>
  %max = "scf.parallel"(%c0, %c3, %c1, %zero) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %t = memref.alloc() : memref<2xf32, "global.vtcm">
    %row = memref.subview %x[%i, 0] [1, 2] [1, 1] : memref<3x2xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.add ins(%row, %row : memref<2xf32, strided<[1], offset: ?>>, memref<2xf32, strided<[1], offset: ?>>) outs(%t : memref<2xf32, "global.vtcm">)
    %a = memref.load %t[%c0] : memref<2xf32, "global.vtcm">
    %b = memref.load %t[%c1] : memref<2xf32, "global.vtcm">
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<3xf32>
    memref.dealloc %t : memref<2xf32, "global.vtcm">
    "scf.reduce"(%s) ({
    ^bb1(%acc: f32, %new: f32):
      %m = arith.maximumf %acc, %new : f32
      "scf.reduce.return"(%m) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  func.return %out, %max : memref<3xf32>, f32
}

// ROWS:      result: (
// ROWS-NEXT:     array({{\[}} 6., 14., 22.], dtype=float32),
// ROWS-NEXT:     22.0
// ROWS-NEXT: )
// ROWS-NEXT: memplan-run: {{.*}}peak bytes global=12, global.vtcm=8;{{.*}}storages global=1, global.vtcm=3;

// As in MLIR, an scf.parallel is an automatic allocation scope: each
// iteration's alloca is freed when the iteration ends.
func.func @alloca() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %t = memref.alloca() : memref<16xi32, "global.vtcm">
    linalg.fill ins(%one : i32) outs(%t : memref<16xi32, "global.vtcm">)
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// ALLOCA: memplan-run: {{.*}}peak bytes global.vtcm=64;{{.*}}storages global.vtcm=4;

// Each iteration places its tensor at its own offset of a storage allocated
// outside the loop: they could run at once.
func.func @disjoint() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %s = memory.alloc_storage [256] : !memory.storage<"global.vtcm">
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %offset = arith.muli %i, %c64 : index
    %t = memory.alloc_tensor %s[%offset] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
    linalg.fill ins(%one : i32) outs(%t : memref<16xi32, "global.vtcm">)
    memory.kill %t : memref<16xi32, "global.vtcm">
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// DISJOINT: memplan-run: {{.*}}peak bytes global.vtcm=256;

// The plan memory-plan made before it knew parallel loops: one slot of a
// storage outside the loop for every iteration's temporary. Run one after
// another the iterations are fine; at once they overwrite each other.
func.func @shared() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y = memref.alloc() : memref<4x16xf32>
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    %row = memref.subview %y[%i, 0] [1, 16] [1, 1] : memref<4x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    linalg.fill ins(%f : f32) outs(%t : memref<16xf32, "global.vtcm">)
    linalg.add ins(%t, %t : memref<16xf32, "global.vtcm">, memref<16xf32, "global.vtcm">) outs(%row : memref<16xf32, strided<[1], offset: ?>>)
    memory.kill %t : memref<16xf32, "global.vtcm">
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// SHARED: memplan-run: error: {{.*}}run-scf-parallel.mlir:128:5: memory.alloc_tensor %t (in @shared): in iteration [1] of scf.parallel (line 126, in @shared), places its tensor on bytes [0, 64) of the "global.vtcm" storage allocated by memory.alloc_storage %s (line 125, in @shared), which iteration [0] gave to the tensor allocated by memory.alloc_tensor %t (line 128, in @shared); iterations of a parallel loop may run at once: expected bytes of its own for each iteration's tensor{{$}}

// Freeing in one iteration what every iteration uses.
func.func @kill_outside() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %m = memref.alloc() : memref<4xi32>
  "scf.parallel"(%c0, %c2, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %one, %m[%i] : memref<4xi32>
    memref.dealloc %m : memref<4xi32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// KILL: memplan-run: error: {{.*}}run-scf-parallel.mlir:153:5: memref.dealloc (in @kill_outside): kills the storage allocated by memref.alloc %m (line 149, in @kill_outside) in iteration [0] of scf.parallel (line 150, in @kill_outside), but it was made outside the loop; iterations of a parallel loop may run at once: expected it killed after the loop, when no iteration uses it{{$}}

// A loop of one iteration runs nothing at once: it may free what it got.
func.func @once() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<4xi32>
  "scf.parallel"(%c0, %c1, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.dealloc %m : memref<4xi32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// ONCE: memplan-run: {{.*}}storages global=1;

func.func @zero_step() {
  %c1 = arith.constant 1 : index
  %c0 = arith.subi %c1, %c1 : index
  "scf.parallel"(%c0, %c1, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// A step computed at run time (a constant step of 0 does not verify):
// STEP: memplan-run: error: {{.*}}run-scf-parallel.mlir:179:3: scf.parallel (in @zero_step): step 0 of induction variable 0 is not positive: expected a step above 0{{$}}

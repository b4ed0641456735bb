// scf.forall (its memref form, as bufferization leaves it: no shared_outs,
// an empty scf.forall.in_parallel) runs its iterations one after another in
// row-major order; the memory model checks them as if they ran at once.

// RUN: memplan-run %s --symbol rows --args "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>" 2>&1 | filecheck %s --check-prefix ROWS
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --symbol rows --args "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>" 2>&1 | filecheck %s --check-prefix ROWS
// RUN: memplan-run %s --symbol strided 2>&1 | filecheck %s --check-prefix STRIDED
// RUN: not memplan-run %s --symbol shared 2>&1 | filecheck %s --check-prefix SHARED
// RUN: not memplan-run %s --symbol kill_outside 2>&1 | filecheck %s --check-prefix KILL
// RUN: not memplan-run %s --symbol zero_step 2>&1 | filecheck %s --check-prefix STEP
// RUN: not memplan-run %s --symbol tensors --args "dense<[1.0, 2.0]> : tensor<2xf32>" 2>&1 | filecheck %s --check-prefix TENSORS

// Each iteration allocates a VTCM temporary: the peak is one temporary, as
// the iterations run one after another.
func.func @rows(%x: memref<3x2xf32>) -> memref<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = memref.alloc() : memref<3xf32>
  scf.forall (%i) in (3) {
    %t = memref.alloc() : memref<2xf32, "global.vtcm">
    %row = memref.subview %x[%i, 0] [1, 2] [1, 1] : memref<3x2xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.add ins(%row, %row : memref<2xf32, strided<[1], offset: ?>>, memref<2xf32, strided<[1], offset: ?>>) outs(%t : memref<2xf32, "global.vtcm">)
    %a = memref.load %t[%c0] : memref<2xf32, "global.vtcm">
    %b = memref.load %t[%c1] : memref<2xf32, "global.vtcm">
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<3xf32>
    memref.dealloc %t : memref<2xf32, "global.vtcm">
  }
  func.return %out : memref<3xf32>
}

// ROWS:      result: array({{\[}} 6., 14., 22.], dtype=float32)
// ROWS-NEXT: memplan-run: {{.*}}peak bytes global=12, global.vtcm=8;{{.*}}storages global=1, global.vtcm=3;

// Bounds and steps given as operands and constants: i in {1, 3}, j in {0, 3}.
func.func @strided() -> memref<4x6xi32> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %m = memref.alloc() : memref<4x6xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%m : memref<4x6xi32>)
  scf.forall (%i, %j) = (%c1, 0) to (4, 6) step (2, %c3) {
    memref.store %one, %m[%i, %j] : memref<4x6xi32>
  }
  func.return %m : memref<4x6xi32>
}

// STRIDED:      result: array({{\[}}[0, 0, 0, 0, 0, 0],
// STRIDED-NEXT:        [1, 0, 0, 1, 0, 0],
// STRIDED-NEXT:        [0, 0, 0, 0, 0, 0],
// STRIDED-NEXT:        [1, 0, 0, 1, 0, 0]], dtype=int32)

func.func @shared() {
  %one = arith.constant 1 : i32
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  scf.forall (%i) in (4) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
    linalg.fill ins(%one : i32) outs(%t : memref<16xi32, "global.vtcm">)
    memory.kill %t : memref<16xi32, "global.vtcm">
  }
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// SHARED: memplan-run: error: {{.*}}run-scf-forall.mlir:58:5: memory.alloc_tensor %t (in @shared): in iteration [1] of scf.forall (line 57, in @shared), places its tensor on bytes [0, 64) of the "global.vtcm" storage allocated by memory.alloc_storage %s (line 56, in @shared), which iteration [0] gave to the tensor allocated by memory.alloc_tensor %t (line 58, in @shared); iterations of a parallel loop may run at once: expected bytes of its own for each iteration's tensor{{$}}

func.func @kill_outside() {
  %one = arith.constant 1 : i32
  %m = memref.alloc() : memref<4xi32>
  scf.forall (%i) in (2) {
    memref.store %one, %m[%i] : memref<4xi32>
    memref.dealloc %m : memref<4xi32>
  }
  func.return
}

// KILL: memplan-run: error: {{.*}}run-scf-forall.mlir:73:5: memref.dealloc (in @kill_outside): kills the storage allocated by memref.alloc %m (line 70, in @kill_outside) in iteration [0] of scf.forall (line 71, in @kill_outside), but it was made outside the loop; iterations of a parallel loop may run at once: expected it killed after the loop, when no iteration uses it{{$}}

func.func @zero_step() {
  scf.forall (%i) = (0) to (4) step (0) {
  }
  func.return
}

// STEP: memplan-run: error: {{.*}}run-scf-forall.mlir:81:3: scf.forall (in @zero_step): step 0 of induction variable 0 is not positive: expected a step above 0{{$}}

func.func @tensors(%t: tensor<2xf32>) -> tensor<2xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %t) -> (tensor<2xf32>) {
  }
  func.return %r : tensor<2xf32>
}

// TENSORS: memplan-run: error: {{.*}}run-scf-forall.mlir:89:3: scf.forall %r (in @tensors): shared_outs of tensors are not run: memplan-run runs bufferized code, expected the memref form of scf.forall (no shared_outs, an empty scf.forall.in_parallel){{$}}

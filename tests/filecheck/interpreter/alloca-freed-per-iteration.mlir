// RUN: memplan-run %s --vtcm-size 8KiB 2>&1 | filecheck %s
// RUN: env MEMPLAN_SCALAR_LOOPS=1 memplan-run %s --vtcm-size 8KiB 2>&1 | filecheck %s
// RUN: memplan-run %s --symbol while_holds --vtcm-size 8KiB 2>&1 | filecheck %s --check-prefix=WHILE
// RUN: not memplan-run %s --symbol alloca_after_iteration 2>&1 | filecheck %s --check-prefix=AFTER

// Each iteration of an scf.for or affine.for is an automatic allocation
// scope, as in MLIR: the memref.allocas it makes are freed when it ends.
// 100 iterations of each loop hold one 4096-byte alloca at a time, in an
// 8 KiB VTCM; the allocas of an scf.while's body (no scope) are held until
// the function returns.
func.func @main() -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sum = scf.for %i = %c0 to %c100 step %c1 iter_args(%s = %zero) -> (f32) {
    %a = memref.alloca() : memref<1024xf32, "global.vtcm">
    memref.store %one, %a[%c0] : memref<1024xf32, "global.vtcm">
    %v = memref.load %a[%c0] : memref<1024xf32, "global.vtcm">
    %t = arith.addf %s, %v : f32
    scf.yield %t : f32
  }
  affine.for %j = 0 to 100 {
    %b = memref.alloca() : memref<1024xf32, "global.vtcm">
    affine.store %one, %b[0] : memref<1024xf32, "global.vtcm">
  }
  func.return %sum : f32
}

// CHECK: result: 100.0
// CHECK: peak bytes global.vtcm=4096; peak extent global.vtcm=4096; storages global.vtcm=200

func.func @while_holds() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.while (%x = %c0) : (index) -> index {
    %more = arith.cmpi slt, %x, %c2 : index
    scf.condition(%more) %x : index
  } do {
  ^bb0(%y: index):
    %a = memref.alloca() : memref<1024xf32, "global.vtcm">
    %one = arith.constant 1.0 : f32
    memref.store %one, %a[%c0] : memref<1024xf32, "global.vtcm">
    %next = arith.addi %y, %c1 : index
    scf.yield %next : index
  }
  func.return
}

// WHILE: peak bytes global.vtcm=8192; peak extent global.vtcm=8192; storages global.vtcm=2

// A memref.alloca used after its iteration ended (yielded out of the loop)
// was freed there.
func.func @alloca_after_iteration() -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %init = memref.alloc() : memref<1xf32>
  memref.store %zero, %init[%c0] : memref<1xf32>
  %last = scf.for %i = %c0 to %c3 step %c1 iter_args(%m = %init) -> (memref<1xf32>) {
    %a = memref.alloca() : memref<1xf32>
    memref.store %zero, %a[%c0] : memref<1xf32>
    scf.yield %a : memref<1xf32>
  }
  %v = memref.load %last[%c0] : memref<1xf32>
  func.return %v : f32
}

// AFTER: memplan-run: error: {{.*}}:68:3: memref.load %v (in @alloca_after_iteration): uses the tensor allocated by memref.alloca %a (line 64, in @alloca_after_iteration) after it was killed by the end of iteration [2] of scf.for %last (line 63, in @alloca_after_iteration), which killed its storage

// RUN: xdsl-opt %s -p memory-verify | filecheck %s
// RUN: memplan-run %s 2>&1 | filecheck %s --check-prefix=STATS
// RUN: xdsl-opt %s -p memory-manifest,memory-verify | filecheck %s --check-prefix=MANIFEST

// A memory.kill of a memref.alloc result ends the tensor's life; the
// memref.dealloc after it gives back the allocation: not a second kill, for
// memory-verify as for memplan-run.  memory-manifest kills the tensor once.
func.func @main() {
  %a = memref.alloc() : memref<512xi32, "global.vtcm">
  %c = arith.constant 7 : i32
  linalg.fill ins(%c : i32) outs(%a : memref<512xi32, "global.vtcm">)
  memory.kill %a : memref<512xi32, "global.vtcm">
  memref.dealloc %a : memref<512xi32, "global.vtcm">
  func.return
}

// CHECK:      memory.kill %a : memref<512xi32, "global.vtcm">
// CHECK-NEXT: memref.dealloc %a : memref<512xi32, "global.vtcm">
// STATS: memplan-run: target hexagon-v73: peak bytes global.vtcm=2048
// MANIFEST:      memory.kill %a : memref<512xi32, "global.vtcm">
// MANIFEST-NEXT: memory.kill %a_storage : !memory.storage<"global.vtcm">
// MANIFEST-NEXT: func.return

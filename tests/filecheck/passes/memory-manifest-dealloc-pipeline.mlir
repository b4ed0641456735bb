// MLIR's buffer-deallocation-pipeline output (tests/fixtures/dealloc_pipeline/
// if_tensors.mlir, from upstream MLIR): the two buffers an scf.if may yield
// are freed through its result's base buffer or under a flag that
// @dealloc_helper computes at run time.  They stay memref.allocs with their
// deallocs; the result (returned to no caller in the module) and the lists
// of the lowered bufferization.dealloc become tensors, and plan, verify and
// lowering take the mix without a remark.

// RUN: memplan-opt -p memory-manifest %S/../../fixtures/dealloc_pipeline/if_tensors.mlir | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,memory-verify,convert-memory-to-memref %S/../../fixtures/dealloc_pipeline/if_tensors.mlir 2>&1 | filecheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @main
// CHECK:         %[[EXP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
// CHECK:         %[[IF:.*]] = scf.if
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<64xf32>
// CHECK:         %[[RESULT:.*]] = memory.alloc_tensor {{.*}} align 64 : !memory.storage<"global"> to memref<64xf32>
// CHECK:         %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[IF]]
// CHECK-NEXT:    memory.alloc_storage [16]
// CHECK-NEXT:    memory.alloc_tensor {{.*}} to memref<2xindex>
// CHECK-NOT:     memref.alloc
// CHECK:         func.call @dealloc_helper
// CHECK:           memref.dealloc %[[EXP]] : memref<64xf32>
// CHECK:           memref.dealloc %[[BASE]] : memref<f32>
// CHECK:         memory.kill
// CHECK:         func.return %[[RESULT]] : memref<64xf32>

// LOWERED-NOT:   remark
// LOWERED-NOT:   memory.
// LOWERED:       func.func @main
// LOWERED:         memref.alloc() {alignment = 64 : i64} : memref<64xf32>
// LOWERED:         memref.view
// LOWERED:       func.func private @dealloc_helper

// RUN: xdsl-opt %s -p 'memory-manifest,memory-plan,memory-verify{capacity=4096}' --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-manifest,memory-plan' | filecheck %s --check-prefix=PRINTED

// memory-plan names both arenas %arena; the printer spells the second
// %arena_1, and so do the messages.
// CHECK: memory-verify: in @main, scope "global.vtcm" holds 6144 bytes at memory.alloc_storage %arena_1 (held: %arena, %arena_1), over its capacity of 4096 bytes
// PRINTED: %arena = memory.alloc_storage [2048]
// PRINTED: %arena_1 = memory.alloc_storage [4096]

func.func @main(%cond: i1) {
  %z = memref.alloc() : memref<512xf32, "global.vtcm">
  "test.op"(%z) : (memref<512xf32, "global.vtcm">) -> ()
  scf.if %cond {
    %a = memref.alloc() : memref<1024xf32, "global.vtcm">
    "test.op"(%a) : (memref<1024xf32, "global.vtcm">) -> ()
    memref.dealloc %a : memref<1024xf32, "global.vtcm">
  }
  "test.op"(%z) : (memref<512xf32, "global.vtcm">) -> ()
  memref.dealloc %z : memref<512xf32, "global.vtcm">
  func.return
}

// RUN: not memplan-run %s 2>&1 | filecheck %s

// Two blocks of one discontiguous tensor may not share bytes.
func.func @main() {
  %c128 = arith.constant 128 : index
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[0, %c128] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}overlapping-blocks.mlir:8:3: memory.alloc_discontiguous_tensor %t (in @main): block 1 at bytes [128, 384) overlaps block 0 at bytes [0, 256){{$}}

// RUN: not memplan-run %s 2>&1 | filecheck %s

// A pointer table must start at a multiple of the pointer width (4 bytes).
func.func @main() {
  %c6 = arith.constant 6 : index
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[%c6], blocks %data[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}misaligned-table.mlir:8:3: memory.alloc_discontiguous_tensor %t (in @main): table offset 6 is misaligned: address 0x10000006 is not a multiple of the pointer width 4{{$}}

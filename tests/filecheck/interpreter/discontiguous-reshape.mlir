// RUN: not memplan-run %s 2>&1 | filecheck %s

// Blocks have no single address: a reshape (or subview, reinterpret_cast)
// of a discontiguous tensor is refused, naming the op.
func.func @main() {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">
  %flat = "memref.collapse_shape"(%t) <{reassociation = [[0, 1]]}> : (memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">) -> memref<150xi32, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}discontiguous-reshape.mlir:9:3: memref.collapse_shape %flat (in @main): reshaping a discontiguous tensor is not supported{{$}}

// RUN: not memplan-run %s 2>&1 | filecheck %s
// RUN: not memplan-run %s --symbol metadata 2>&1 | filecheck %s --check-prefix METADATA
// RUN: not memplan-run %s --symbol pointer 2>&1 | filecheck %s --check-prefix POINTER

// Blocks have no single address: a reshape (or subview, reinterpret_cast)
// of a discontiguous tensor is refused, naming the op.
func.func @main() {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">
  %flat = "memref.collapse_shape"(%t) <{reassociation = [[0, 1]]}> : (memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">) -> memref<150xi32, "global.vtcm">
  func.return
}

// CHECK: memplan-run: error: {{.*}}discontiguous-reshape.mlir:11:3: memref.collapse_shape %flat (in @main): reshaping a discontiguous tensor is not supported{{$}}

// Nor has it one base pointer or one set of strides.
func.func @metadata() {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %t : memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm"> -> memref<i32, "global.vtcm">, index, index, index, index, index
  func.return
}

// METADATA: memplan-run: error: {{.*}}discontiguous-reshape.mlir:22:3: memref.extract_strided_metadata %base, %offset, %sizes, %strides (in @metadata): extracting the metadata of a discontiguous tensor is not supported{{$}}

func.func @pointer() -> index {
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">
  %p = "memref.extract_aligned_pointer_as_index"(%t) : (memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">) -> index
  func.return %p : index
}

// POINTER: memplan-run: error: {{.*}}discontiguous-reshape.mlir:32:3: memref.extract_aligned_pointer_as_index %p (in @pointer): the pointer of a discontiguous tensor is not supported{{$}}

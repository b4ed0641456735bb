// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @storages(%n: index) {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %ddr = memory.alloc_storage [64] : !memory.storage<"global">
  %dyn = memory.alloc_storage [%n] device 1 : !memory.storage<"global">
  %other = memory.alloc_storage [0] align 1 : !memory.storage<"my.sram">
  func.return
}

// CHECK-LABEL:  func.func @storages(%n: index) {
// CHECK-NEXT:     %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:     %ddr = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:     %dyn = memory.alloc_storage [%n] device 1 : !memory.storage<"global">
// CHECK-NEXT:     %other = memory.alloc_storage [0] align 1 : !memory.storage<"my.sram">

// GENERIC:      "memory.alloc_storage"() <{static_size = array<i64: 4096>, alignment = 2048 : index, device = 0 : index}> : () -> !memory.storage<"global.vtcm">
// GENERIC-NEXT: "memory.alloc_storage"() <{static_size = array<i64: 64>, alignment = 64 : index, device = 0 : index}> : () -> !memory.storage<"global">
// GENERIC-NEXT: "memory.alloc_storage"(%n) <{static_size = array<i64: -9223372036854775808>, device = 1 : index, alignment = 64 : index}> : (index) -> !memory.storage<"global">

func.func @tensors(%off: index, %rows: index) {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %vtcm[1024] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
  %b = memory.alloc_tensor %vtcm[%off] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
  %ddr = memory.alloc_storage [%rows] : !memory.storage<"global">
  %c = memory.alloc_tensor %ddr[0][%rows] : !memory.storage<"global"> to memref<?x8xf16>
  %d = memory.alloc_tensor %ddr[%off][%rows, %rows] : !memory.storage<"global"> to memref<?x?xi8, "global">
  %e = memory.alloc_tensor %vtcm[2048] align 256 : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
  %f = memory.alloc_tensor %ddr[%off][%rows] align 128 : !memory.storage<"global"> to memref<?x8xf16>
  func.return
}

// CHECK-LABEL:  func.func @tensors(%off: index, %rows: index) {
// CHECK:          %a = memory.alloc_tensor %vtcm[1024] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
// CHECK-NEXT:     %b = memory.alloc_tensor %vtcm[%off] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:     %ddr = memory.alloc_storage [%rows] : !memory.storage<"global">
// CHECK-NEXT:     %c = memory.alloc_tensor %ddr[0][%rows] : !memory.storage<"global"> to memref<?x8xf16>
// CHECK-NEXT:     %d = memory.alloc_tensor %ddr[%off][%rows, %rows] : !memory.storage<"global"> to memref<?x?xi8, "global">
// CHECK-NEXT:     %e = memory.alloc_tensor %vtcm[2048] align 256 : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
// CHECK-NEXT:     %f = memory.alloc_tensor %ddr[%off][%rows] align 128 : !memory.storage<"global"> to memref<?x8xf16>

// GENERIC:      "memory.alloc_tensor"(%vtcm) <{static_offset = array<i64: 1024>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!memory.storage<"global.vtcm">) -> memref<4x64xi32, "global.vtcm">
// GENERIC-NEXT: "memory.alloc_tensor"(%vtcm, %off) <{static_offset = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC:      "memory.alloc_tensor"(%vtcm) <{static_offset = array<i64: 2048>, alignment = 256 : index, operandSegmentSizes = array<i32: 1, 0, 0>}>

func.func @discontiguous(%off: index) {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[768, 256, 2304, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  %b = memory.alloc_discontiguous_tensor table %tables[%off], blocks %vtcm[%off, 1024] pointer_width 8 : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x4x8xf32, #memory.discontiguous, "global.vtcm">
  func.return
}

// CHECK-LABEL:  func.func @discontiguous(%off: index) {
// CHECK:          %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[768, 256, 2304, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
// CHECK-NEXT:     %b = memory.alloc_discontiguous_tensor table %tables[%off], blocks %vtcm[%off, 1024] pointer_width 8 : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x4x8xf32, #memory.discontiguous, "global.vtcm">

// GENERIC:      "memory.alloc_discontiguous_tensor"(%tables, %vtcm) <{static_table_offset = array<i64: 0>, static_block_offsets = array<i64: 768, 256, 2304, 3072>, operandSegmentSizes = array<i32: 1, 0, 1, 0>, pointer_width = 4 : index}>

func.func @discontiguous_blocks() {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %a = memory.alloc_discontiguous_tensor table %tables[8], blocks %vtcm[2048, 0, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<1x7x50xf32, #memory.discontiguous<128>, "global.vtcm">
  %b = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<100xi8, #memory.discontiguous<1024>, "global.vtcm">
  func.return
}

// CHECK-LABEL:  func.func @discontiguous_blocks() {
// CHECK:          %a = memory.alloc_discontiguous_tensor table %tables[8], blocks %vtcm[2048, 0, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<1x7x50xf32, #memory.discontiguous<128>, "global.vtcm">
// CHECK-NEXT:     %b = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<100xi8, #memory.discontiguous<1024>, "global.vtcm">

// GENERIC:      "memory.alloc_discontiguous_tensor"(%tables, %vtcm) <{static_table_offset = array<i64: 8>, static_block_offsets = array<i64: 2048, 0, 1024>, operandSegmentSizes = array<i32: 1, 0, 1, 0>, pointer_width = 4 : index}> : (!memory.storage<"global">, !memory.storage<"global.vtcm">) -> memref<1x7x50xf32, #memory.discontiguous<128>, "global.vtcm">

func.func @kill_and_copy(%x: memref<4x64xi32>) {
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %vtcm[0] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
  memory.copy %x, %a : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
  %tables = memory.alloc_storage [16] : !memory.storage<"global">
  %b = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[2048, 1024, 3072, 1280] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.copy %a, %b : memref<4x64xi32, "global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.copy %b, %x : memref<4x64xi32, #memory.discontiguous, "global.vtcm"> to memref<4x64xi32>
  memory.kill %a : memref<4x64xi32, "global.vtcm">
  memory.kill %b : memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  memory.kill %tables : !memory.storage<"global">
  memory.kill %vtcm : !memory.storage<"global.vtcm">
  func.return
}

// CHECK-LABEL:  func.func @kill_and_copy(%x: memref<4x64xi32>) {
// CHECK:          memory.copy %x, %a : memref<4x64xi32> to memref<4x64xi32, "global.vtcm">
// CHECK:          memory.copy %a, %b : memref<4x64xi32, "global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
// CHECK-NEXT:     memory.copy %b, %x : memref<4x64xi32, #memory.discontiguous, "global.vtcm"> to memref<4x64xi32>
// CHECK-NEXT:     memory.kill %a : memref<4x64xi32, "global.vtcm">
// CHECK-NEXT:     memory.kill %b : memref<4x64xi32, #memory.discontiguous, "global.vtcm">
// CHECK-NEXT:     memory.kill %tables : !memory.storage<"global">
// CHECK-NEXT:     memory.kill %vtcm : !memory.storage<"global.vtcm">

// GENERIC:      "memory.copy"(%x, %a) : (memref<4x64xi32>, memref<4x64xi32, "global.vtcm">) -> ()
// GENERIC:      "memory.kill"(%vtcm) : (!memory.storage<"global.vtcm">) -> ()

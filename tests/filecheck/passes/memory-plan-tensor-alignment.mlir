// RUN: xdsl-opt %s -p 'memory-plan{tensor-alignment=1},memory-verify' --allow-unregistered-dialect | filecheck %s
// RUN: xdsl-opt %s -p 'memory-plan{tensor-alignment=128},memory-verify{alignment=128}' --allow-unregistered-dialect | filecheck %s --check-prefix=HVX

// A tensor-alignment above the scope's alignment (DDR: 64) raises the arena's
// own alignment to it: offsets that are multiples of 128 in a 64-aligned
// arena would leave the tensors only 64-byte aligned.
// HVX-LABEL: func.func @small_tensor_alignment
// HVX-NEXT:  %arena = memory.alloc_storage [256] align 128 : !memory.storage<"global">
// HVX-LABEL: func.func @odd_width_elements
// HVX-NEXT:  %arena = memory.alloc_storage [256] align 128 : !memory.storage<"global">

// A tensor-alignment below the element size does not misalign elements:
// the f32 tensor is at a multiple of 4 bytes (memory-verify checks it), not
// right after the 5 bytes of i8.
// CHECK:       %arena = memory.alloc_storage [9] : !memory.storage<"global">
// CHECK-NEXT:  %a = memory.alloc_tensor %arena[4] : !memory.storage<"global"> to memref<5xi8>
// CHECK-NEXT:  %b = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<1xf32>

func.func @small_tensor_alignment() {
  %s = memory.alloc_storage [5] align 64 : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<5xi8>
  %t = memory.alloc_storage [4] align 64 : !memory.storage<"global">
  %b = memory.alloc_tensor %t[0] : !memory.storage<"global"> to memref<1xf32>
  "test.op"(%a, %b) : (memref<5xi8>, memref<1xf32>) -> ()
  func.return
}

// An element takes its whole bytes rounded up to a power of two, as MLIR's
// LLVM lowering steps through it: an i24 takes 4 bytes, so memref<4xi24>
// needs 16 (at 3 bytes an element, %d would start at byte 12, inside %c
// once lowered).
// CHECK-LABEL: func.func @odd_width_elements
// CHECK-NEXT:  %arena = memory.alloc_storage [32] : !memory.storage<"global">
// CHECK-NEXT:  %c = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<4xi24>
// CHECK-NEXT:  %d = memory.alloc_tensor %arena[16] : !memory.storage<"global"> to memref<4xi24>

func.func @odd_width_elements() {
  %s = memory.alloc_storage [16] : !memory.storage<"global">
  %c = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xi24>
  %t = memory.alloc_storage [16] : !memory.storage<"global">
  %d = memory.alloc_tensor %t[0] : !memory.storage<"global"> to memref<4xi24>
  "test.op"(%c, %d) : (memref<4xi24>, memref<4xi24>) -> ()
  func.return
}

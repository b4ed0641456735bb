// RUN: xdsl-opt %s -p 'memory-plan{tensor-alignment=1},memory-verify' --allow-unregistered-dialect | filecheck %s

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

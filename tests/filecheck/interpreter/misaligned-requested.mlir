// RUN: not memplan-run %s --args '64 : index' 2>&1 | filecheck %s
// RUN: memplan-run %s --args '256 : index' 2>&1 | filecheck %s --check-prefix=ALIGNED

// The `align` of a tensor at a dynamic offset is checked when the op runs:
// offset 64 of a 64-aligned DDR storage is no 256-byte aligned address.
func.func @main(%off: index) {
  %s = memory.alloc_storage [4096] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[%off] align 256 : !memory.storage<"global"> to memref<4xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<4xf32>)
  func.return
}

// CHECK: memplan-run: error: {{.*}}misaligned-requested.mlir:8:3: memory.alloc_tensor %a (in @main): tensor offset 64 is misaligned: address 0x10000040 is not a multiple of the requested alignment 256{{$}}
// ALIGNED: memplan-run: target hexagon-v73: peak bytes global=4096

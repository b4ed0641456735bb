// RUN: not memplan-opt %s -p 'memory-plan{discontiguous=always block-size=1}' 2>&1 | filecheck %s

// Blocks so small that the tensors would make more than 2**24 of them fail
// at once, naming the option, instead of exhausting memory.
// CHECK-NOT: Traceback
// CHECK: memplan-opt: error: memory-plan: in @tiny_blocks, the "global.vtcm" arena cannot take blocks: blocks of 1 bytes cut the buffers into 16,777,217 blocks, more than the 16,777,216 a plan may hold: use larger blocks (option block-size)

func.func @tiny_blocks(%c: i8) {
  %s = memory.alloc_storage [16777217] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16777217xi8, "global.vtcm">
  linalg.fill ins(%c : i8) outs(%a : memref<16777217xi8, "global.vtcm">)
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// RUN: not memplan-run %s 2>&1 | filecheck %s

// @release kills the tensor; the verifier cannot see that @main fills it afterwards.
func.func @release(%t: memref<4xi32, "global.vtcm">) {
  memory.kill %t : memref<4xi32, "global.vtcm">
  func.return
}

func.func @main() {
  %c1 = arith.constant 1 : i32
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  func.call @release(%a) : (memref<4xi32, "global.vtcm">) -> ()
  linalg.fill ins(%c1 : i32) outs(%a : memref<4xi32, "global.vtcm">)
  func.return
}

// CHECK: memplan-run: error: {{.*}}use-after-kill.mlir:14:3: linalg.fill (in @main): uses the tensor allocated by memory.alloc_tensor %a (line 12, in @main) after it was killed by memory.kill (line 5, in @release){{$}}

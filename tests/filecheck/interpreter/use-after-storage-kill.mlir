// RUN: not memplan-run %s 2>&1 | filecheck %s

// Killing a storage kills the tensors inside it.
func.func @release(%s: !memory.storage<"global.vtcm">) {
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  func.call @release(%s) : (!memory.storage<"global.vtcm">) -> ()
  %v = memref.load %a[%c0] : memref<4xi32, "global.vtcm">
  func.return %v : i32
}

// CHECK: memplan-run: error: {{.*}}use-after-storage-kill.mlir:14:3: memref.load %v (in @main): uses the tensor allocated by memory.alloc_tensor %a (line 12, in @main) after it was killed by memory.kill (line 5, in @release), which killed its storage{{$}}

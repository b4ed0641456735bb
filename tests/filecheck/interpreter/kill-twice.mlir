// RUN: not memplan-run %s 2>&1 | filecheck %s

func.func @release(%s: !memory.storage<"global.vtcm">) {
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

func.func @main() {
  %s = memory.alloc_storage [1024] : !memory.storage<"global.vtcm">
  func.call @release(%s) : (!memory.storage<"global.vtcm">) -> ()
  func.call @release(%s) : (!memory.storage<"global.vtcm">) -> ()
  func.return
}

// CHECK: memplan-run: error: {{.*}}kill-twice.mlir:4:3: memory.kill (in @release): storage allocated by memory.alloc_storage %s (line 9, in @main) was already killed by memory.kill (line 4, in @release){{$}}

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

// CHECK: memplan-run: error: memory.kill: storage allocated by memory.alloc_storage %s (in @main) was already killed by memory.kill (in @release) (in @release)

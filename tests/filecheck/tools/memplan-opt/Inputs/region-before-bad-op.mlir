func.func @f(%c: i1) {
  scf.if %c {
    %x = arith.constant 0 : index
  }
  %s = memory.alloc_storage [16] align 3 : !memory.storage<"global">
  func.return
}

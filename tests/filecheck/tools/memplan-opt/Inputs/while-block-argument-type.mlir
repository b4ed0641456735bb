func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%x = %c0) : (index) -> i64 {
    %more = arith.cmpi slt, %x, %n : index
    scf.condition(%more) %x : index
  } do {
  ^bb0(%y: index):
    scf.yield %y : index
  }
  func.return
}

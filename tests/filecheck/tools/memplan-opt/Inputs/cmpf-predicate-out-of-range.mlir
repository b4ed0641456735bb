func.func @f(%x: f32) -> i1 {
  %q = "arith.cmpf"(%x, %x) <{predicate = 16 : i64}> : (f32, f32) -> i1
  func.return %q : i1
}

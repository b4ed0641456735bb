func.func @f(%a: i32) -> i1 {
  %p = "arith.cmpi"(%a, %a) <{predicate = 10 : i64}> : (i32, i32) -> i1
  func.return %p : i1
}

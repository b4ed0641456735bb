func.func @f() {
  cf.br ^bb1
^bb1:
  cf.br ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  func.return
}

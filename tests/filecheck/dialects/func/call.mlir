// func.call is memplan's (its callee found through an index of the module's
// symbols, not a scan of the module per call), with xDSL's checks and
// messages: both tools print the same.

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @main(%a: i32) -> i32 {
  %r = func.call @later(%a) : (i32) -> i32
  %s = func.call @inner(%r) : (i32) -> i32
  func.return %s : i32
}

func.func private @later(i32) -> i32
func.func private @inner(i32) -> i32

builtin.module @nested {
  func.func private @inner(i64) -> i64
  func.func @caller(%x: i64) -> i64 {
    %y = func.call @inner(%x) : (i64) -> i64
    func.return %y : i64
  }
}

// CHECK:      func.func @main(%a: i32) -> i32 {
// CHECK-NEXT:   %r = func.call @later(%a) : (i32) -> i32
// CHECK-NEXT:   %s = func.call @inner(%r) : (i32) -> i32
// CHECK:      builtin.module @nested {
// CHECK:          %y = func.call @inner(%x) : (i64) -> i64

// -----

func.func @missing() {
  func.call @nowhere() : () -> ()
  func.return
}

// CHECK: '@nowhere' could not be found in symbol table

// -----

func.func private @outer()

builtin.module @nested {
  func.func @only_inner_symbols() {
    func.call @outer() : () -> ()
    func.return
  }
}

// CHECK: '@outer' could not be found in symbol table

// -----

"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<2xi32>, initial_value = dense<[1, 2]> : tensor<2xi32>, constant}> : () -> ()

func.func @not_a_function() {
  func.call @table() : () -> ()
  func.return
}

// CHECK: '@table' does not reference a valid function

// -----

func.func private @f(i32, i32)

func.func @operand_count(%a: i32) {
  func.call @f(%a) : (i32) -> ()
  func.return
}

// CHECK: incorrect number of operands for callee

// -----

func.func private @f() -> i32

func.func @result_count() {
  func.call @f() : () -> ()
  func.return
}

// CHECK: incorrect number of results for callee

// -----

func.func private @f(i32, i64)

func.func @operand_type(%a: i32) {
  func.call @f(%a, %a) : (i32, i32) -> ()
  func.return
}

// CHECK: operand type mismatch: expected operand type i64, but provided i32 for operand number 1

// -----

func.func private @f() -> f32

func.func @result_type() -> f64 {
  %r = func.call @f() : () -> f64
  func.return %r : f64
}

// CHECK: result type mismatch: expected result type f32, but provided f64 for result number 0

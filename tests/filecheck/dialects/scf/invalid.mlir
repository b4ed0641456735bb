// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @yield_type(%x: i64) {
  %r = "scf.execute_region"() ({
    "scf.yield"(%x) : (i64) -> ()
  }) : () -> i32
  return
}

// CHECK: scf.yield yields (i64): expected the op's result types (i32)

// -----

func.func @entry_arguments() {
  "scf.execute_region"() ({
  ^entry(%i: index):
    "scf.yield"() : () -> ()
  }) : () -> ()
  return
}

// CHECK: region cannot have any arguments, got 1

// -----

func.func @no_blocks() {
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// CHECK: region needs to have at least one block


// -----

func.func @parallel_without_induction_variables() {
  scf.parallel () = () to () step () {
    scf.reduce
  }
  return
}

// CHECK: needs at least one tuple element for lowerBound, upperBound and step

// -----

// A constant step of scf.parallel must be positive, as MLIR's verifier
// requires; a step that is not a constant is checked when the loop runs.

func.func @parallel_zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %zero) {
    scf.reduce
  }
  func.return
}

// CHECK: constant step operand must be positive, got 0

// -----

func.func @parallel_negative_step(%n: index) {
  %c0 = arith.constant 0 : index
  %minus = arith.constant -2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%minus) {
    scf.reduce
  }
  func.return
}

// CHECK: constant step operand must be positive, got -2

// -----

// scf.for takes a constant step of 0 or less: MLIR (torch-mlir 20261001)
// verifies it, and memplan-run refuses it when the loop runs.

func.func @for_zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c0 {
  }
  func.return
}

// CHECK: scf.for %i = %c0 to %n step %c0 {

// -----

// scf.while is verified as MLIR verifies the edges between its regions:
// what scf.condition hands on is the after region's arguments...
func.func @while_condition_to_after(%c: i1) {
  %r = scf.while () : () -> memref<4xf32> {
    %t = memref.alloc() : memref<0xf32>
    scf.condition(%c) %t : memref<0xf32>
  } do {
  ^bb0(%tt: memref<4xf32>):
    scf.yield
  }
  func.return
}

// CHECK: scf.condition hands on (memref<0xf32>), but the 'after' region's arguments are (memref<4xf32>): expected the same types

// -----

// ... and the op's results...
func.func @while_condition_to_results(%c: i1, %x: i32) {
  %r = scf.while () : () -> i64 {
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    scf.yield
  }
  func.return
}

// CHECK: scf.condition hands on (i32), but the op's results are (i64): expected the same types

// -----

// ... what scf.yield hands on is the before region's arguments...
func.func @while_yield_to_before(%c: i1, %x: i32, %z: i64) {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%y: i32):
    scf.yield %z : i64
  }
  func.return
}

// CHECK: scf.yield hands on (i64), but the 'before' region's arguments are (i32): expected the same types

// -----

// ... and the operands are the before region's arguments, by number too.
func.func @while_operands_to_before(%c: i1, %x: i32) {
  %r = "scf.while"(%x, %x) ({
  ^bb0(%a: i32):
    scf.condition(%c) %a : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }) : (i32, i32) -> i32
  func.return
}

// CHECK: the operands are (i32, i32), but the 'before' region's arguments are (i32): expected the same types

// -----

// Each region of an scf.while ends in its own terminator.
func.func @while_before_not_condition(%x: i32) {
  "scf.while"(%x) ({
  ^bb0(%a: i32):
    scf.yield %a : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }) : (i32) -> ()
  func.return
}

// CHECK: expects the 'before' region to terminate with 'scf.condition'

// -----

func.func @while_after_not_yield(%c: i1, %x: i32) {
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    scf.condition(%c) %a : i32
  }, {
  ^bb0(%y: i32):
    scf.condition(%c) %y : i32
  }) : (i32) -> i32
  func.return
}

// CHECK: expects the 'after' region to terminate with 'scf.yield'

// -----

// scf.if is verified as MLIR verifies the edges from its scf.yield ops to
// its results; xDSL checks neither count nor types.

func.func @if_yield_count(%c: i1, %x: i32) -> i32 {
  %r = "scf.if"(%c) ({
    "scf.yield"(%x) : (i32) -> ()
  }, {
    "scf.yield"(%x, %x) : (i32, i32) -> ()
  }) : (i1) -> i32
  func.return %r : i32
}

// CHECK: along control flow edge from Operation scf.yield to Operation scf.if: region branch point has 2 operands, but region successor needs 1 inputs

// -----

func.func @if_yield_without_results(%c: i1, %x: i32) {
  scf.if %c {
    scf.yield %x : i32
  }
  func.return
}

// CHECK: along control flow edge from Operation scf.yield to Operation scf.if: region branch point has 1 operands, but region successor needs 0 inputs

// -----

func.func @if_yield_type(%c: i1, %x: i32, %y: f32) -> i32 {
  %r = scf.if %c -> (i32) {
    scf.yield %y : f32
  } else {
    scf.yield %x : i32
  }
  func.return %r : i32
}

// CHECK: along control flow edge from Operation scf.yield to Operation scf.if: successor operand type #0 'f32' should match successor input type #0 'i32'

// -----

func.func @if_results_without_else(%c: i1, %x: i32) -> i32 {
  %r = "scf.if"(%c) ({
    "scf.yield"(%x) : (i32) -> ()
  }, {
  }) : (i1) -> i32
  func.return %r : i32
}

// CHECK: must have an else block if defining values

// -----

// memplan's scf.if, scf.execute_region and scf.while make xDSL's checks of
// their operands, results and regions too (their verifiers replaced the
// whole of xDSL's, so a second condition, an operand or a third region
// verified).

func.func @if_two_conditions(%c: i1) {
  "scf.if"(%c, %c) ({
    "scf.yield"() : () -> ()
  }, {
  }) : (i1, i1) -> ()
  func.return
}

// CHECK: Expected 1 operand, but got 2

// -----

func.func @execute_region_operand(%c: i1) {
  "scf.execute_region"(%c) ({
    "scf.yield"() : () -> ()
  }) : (i1) -> ()
  func.return
}

// CHECK: Expected 0 operands, but got 1

// -----

func.func @while_three_regions(%c: i1) {
  "scf.while"() ({
    "scf.condition"(%c) : (i1) -> ()
  }, {
    "scf.yield"() : () -> ()
  }, {
    "scf.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: Expected 2 regions, but got 3

// -----

// scf.for's results are its loop-carried values: one per value, of its type,
// as MLIR verifies the edge from the operands to the results (xDSL 0.74
// checks the block arguments and the yield, not the results).

func.func @for_result_type(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = "scf.for"(%c0, %n, %c1, %x) ({
  ^bb0(%i: index, %a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (index, index, index, f32) -> i32
  func.return
}

// CHECK: along control flow edge from parent to Operation scf.for: successor operand type #0 'f32' should match successor input type #0 'i32'

// -----

func.func @for_result_count(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = "scf.for"(%c0, %n, %c1, %x) ({
  ^bb0(%i: index, %a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (index, index, index, f32) -> (f32, f32)
  func.return
}

// CHECK: mismatch in number of loop-carried values and defined values: 1 loop-carried, 2 results

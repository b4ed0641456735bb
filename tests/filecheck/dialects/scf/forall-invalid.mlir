// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// scf.forall and scf.forall.in_parallel are checked as MLIR's verifier
// checks them, with its messages.

func.func @shared_out_memref(%m: memref<10xf32>) {
  %r = scf.forall (%i) in (10) shared_outs(%o = %m) -> (memref<10xf32>) {
  }
  func.return
}

// CHECK: operand #0 must be variadic of ranked tensor of any non-token type values, but got 'memref<10xf32>'

// -----

func.func @fewer_bounds_than_variables() {
  scf.forall (%i, %j) in (10) {
  }
  func.return
}

// CHECK: expected 2 upper bound values, got 1

// -----

// A mapping holds device mapping attributes (#gpu.thread<x>, ...), which
// xDSL does not define: only an empty one verifies.
func.func @mapping_of_strings() {
  scf.forall (%i) in (10) {
  } {mapping = ["x"]}
  func.return
}

// CHECK: attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute

// -----

func.func @more_lower_bounds_than_variables() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: region expects 2 arguments

// -----

func.func @missing_dynamic_bound() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected 1 dynamic upper bound values

// -----

func.func @induction_variable_not_index() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: i32):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expects 0-th block argument to be an index

// -----

func.func @ops_in_the_terminator() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
      %c = "arith.constant"() <{value = 1 : index}> : () -> index
    }) : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected only ParallelCombiningOpInterface ops

// -----

func.func @terminator_without_a_block() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    }) : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: region #0 ('region') failed to verify constraint: region with 1 blocks

// -----

func.func @body_ending_in_yield() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index):
    "scf.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// As in MLIR, the yield is refused first.
// CHECK: 'scf.yield' expects parent op to be one of

// -----

func.func @result_type_not_the_shared_out(%t: tensor<10xf32>) {
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index, %o: tensor<10xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (tensor<10xf32>) -> tensor<11xf32>
  func.return
}

// CHECK: expected type of operand #0 ('tensor<10xf32>') to match type of corresponding result ('tensor<11xf32>')

// -----

func.func @shared_out_without_result(%t: tensor<10xf32>) {
  "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index, %o: tensor<10xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (tensor<10xf32>) -> ()
  func.return
}

// CHECK: produces 0 results, but has only 1 outputs

// -----

func.func @block_argument_not_the_shared_out(%t: tensor<10xf32>) {
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 10>}> ({
  ^bb0(%i: index, %o: tensor<11xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (tensor<10xf32>) -> tensor<10xf32>
  func.return
}

// CHECK: type mismatch between 0-th output and corresponding block argument

// -----

func.func @insert_outside_the_terminator(%t: tensor<2xf32>, %o: tensor<4xf32>) {
  tensor.parallel_insert_slice %t into %o[0] [2] [1] : tensor<2xf32> into tensor<4xf32>
  func.return
}

// CHECK: expected InParallelOpInterface parent, got: func.func

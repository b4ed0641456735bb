// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// affine.parallel is checked as MLIR's verifier checks it, with its
// messages (MLIR prefixes them with 'affine.parallel' op).

func.func @reduction_of_the_wrong_type() -> f32 {
  %r = affine.parallel (%i) = (0) to (4) reduce ("addi") -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  func.return %r : f32
}

// CHECK: result type cannot match reduction attribute

// -----

// maxs/mins take a signed integer type (si32), maxu/minu an unsigned one:
// MLIR refuses them on the signless types arith computes with.
func.func @signed_maximum_of_signless() -> i32 {
  %r = affine.parallel (%i) = (0) to (4) reduce ("maxs") -> i32 {
    %c = arith.constant 1 : i32
    affine.yield %c : i32
  }
  func.return %r : i32
}

// CHECK: result type cannot match reduction attribute

// -----

func.func @result_without_reduction() -> f32 {
  %r = affine.parallel (%i) = (0) to (4) -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  func.return %r : f32
}

// CHECK: a reduction must be specified for each output

// -----

func.func @bounds_for_fewer_variables() {
  affine.parallel (%i, %j) = (0) to (4, 4) {
  }
  func.return
}

// CHECK: the number of region arguments (2) and the number of map groups for lower (1) and upper bound (2), and the number of steps (2) must all match

// -----

func.func @more_steps_than_variables() {
  affine.parallel (%i) = (0) to (4) step (1, 2) {
  }
  func.return
}

// CHECK: the number of region arguments (1) and the number of map groups for lower (1) and upper bound (1), and the number of steps (2) must all match

// -----

func.func @symbol_of_an_induction_variable() {
  affine.parallel (%i) = (0) to (4) {
    affine.parallel (%j) = (%i) to (symbol(%i)) {
    }
  }
  func.return
}

// CHECK: operand cannot be used as a symbol

// -----

func.func @yield_of_another_type() -> f32 {
  %r = affine.parallel (%i) = (0) to (4) reduce ("addf") -> f32 {
    %c = arith.constant 1 : i32
    affine.yield %c : i32
  }
  func.return %r : f32
}

// CHECK: types mismatch between yield op and its parent: affine.yield yields (i32), the op's results are (f32)

// -----

func.func @yield_of_nothing() -> f32 {
  %r = affine.parallel (%i) = (0) to (4) reduce ("addf") -> f32 {
    affine.yield
  }
  func.return %r : f32
}

// CHECK: parent of yield must have same number of results as the yield operands: affine.yield has 0, the op 1

// -----

func.func @group_sizes_not_the_maps() {
  "affine.parallel"() <{reductions = [], lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4, 5)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected upper bounds map to have 1 results

// -----

func.func @empty_group() {
  "affine.parallel"() <{reductions = [], lowerBoundsMap = affine_map<() -> ()>, lowerBoundsGroups = dense<0> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected lower bound map to have at least one result

// -----

func.func @unknown_reduction_kind() {
  "affine.parallel"() <{reductions = [16], lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: attribute 'reductions' failed to satisfy constraint: Reduction ops

// -----

// xDSL's affine.parallel reads reductions as strings; MLIR refuses them.
func.func @reduction_as_a_string() -> f32 {
  %r = "affine.parallel"() <{reductions = ["addf"], lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1]}> ({
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    "affine.yield"(%c) : (f32) -> ()
  }) : () -> f32
  func.return %r : f32
}

// CHECK: attribute 'reductions' failed to satisfy constraint: Reduction ops

// -----

func.func @operands_beyond_the_maps(%n: index) {
  "affine.parallel"(%n) <{reductions = [], lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  func.return
}

// CHECK: expected 0 operands, the inputs of the lower then the upper bounds map, got 1

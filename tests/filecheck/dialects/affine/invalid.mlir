// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// MLIR's verifier requires a positive affine.for step ("expected step to be a
// positive integer, got 0"); xDSL 0.74's verifies any step, and its custom
// syntax refuses only a negative one.

func.func @step_zero() {
  affine.for %i = 0 to 4 step 0 {
  }
  func.return
}

// CHECK: expected step to be a positive integer (1 to 9223372036854775807), got 0

// -----

func.func @generic_negative_step() {
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> (4)>, step = -2 : index, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected step to be a positive integer (1 to 9223372036854775807), got -2

// -----

func.func @step_over_64_bits() {
  affine.for %i = 0 to 4 step 9223372036854775808 {
  }
  func.return
}

// CHECK: expected step to be a positive integer (1 to 9223372036854775807), got 9223372036854775808

// -----

func.func @positive_step() {
  affine.for %i = 0 to 4 step 2 {
  }
  func.return
}

// CHECK-LABEL: func.func @positive_step()
// CHECK-NEXT:    affine.for %i = 0 to 4 step 2 {

// -----

// affine.if: MLIR's verifier ("operand count and condition integer set
// dimension and symbol count must match"); xDSL 0.74's has none.

func.func @if_operand_count(%i: index) {
  "affine.if"(%i, %i) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (index, index) -> ()
  func.return
}

// CHECK: operand count and condition integer set dimension and symbol count must match: the set takes 1 dimension(s) and 0 symbol(s), the op has 2 operand(s)

// -----

func.func @if_symbol_missing(%i: index) {
  affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i) {
  }
  func.return
}

// CHECK: operand count and condition integer set dimension and symbol count must match: the set takes 1 dimension(s) and 1 symbol(s), the op has 1 operand(s)

// -----

// Results need an else block: MLIR rejects the edge from the op to its
// results when the condition does not hold.

func.func @if_results_without_else(%i: index) -> f32 {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  func.return %r : f32
}

// CHECK: an op with results (1) needs an else region: expected an else block that yields them

// -----

func.func @if_yield_types(%i: index) -> f32 {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> f32 {
    %c = arith.constant 1 : i32
    affine.yield %c : i32
  } else {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  func.return %r : f32
}

// CHECK: affine.yield yields (i32): expected the op's result types (f32)

// -----

func.func @if_yield_count(%i: index) -> f32 {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  } else {
    affine.yield
  }
  func.return %r : f32
}

// CHECK: affine.yield yields (): expected the op's result types (f32)

// -----

func.func @if_empty_then() {
  "affine.if"() <{condition = affine_set<() : (0 == 0)>}> ({
  }, {
  }) : () -> ()
  func.return
}

// CHECK: expected a then region of one block, got none

// -----

func.func @if_region_arguments(%i: index) {
  "affine.if"(%i) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
  ^bb0(%x: index):
    "affine.yield"() : () -> ()
  }, {
  }) : (index) -> ()
  func.return
}

// CHECK: region cannot have any arguments, got 1

// -----

// An affine.for bound is a 64-bit affine constant, as in MLIR.
func.func @bound_too_large() {
  affine.for %i = 0 to 9223372036854775808 step 2 {
  }
  func.return
}

// CHECK: bound affine_map<() -> (9223372036854775808)>: constant too large for index: 9223372036854775808 is above 9223372036854775807

// -----

func.func @bound_too_small() {
  affine.for %i = -9223372036854775809 to 0 {
  }
  func.return
}

// CHECK: bound affine_map<() -> (-9223372036854775809)>: constant too large for index: -9223372036854775809 is below -9223372036854775808

// -----

// affine.for's bound maps have at least one result and its affine.yield
// hands on the result types, as MLIR requires; xDSL checks neither.

func.func @for_empty_lower_bound() {
  "affine.for"() <{lowerBoundMap = affine_map<() -> ()>, upperBoundMap = affine_map<() -> (4)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected lower bound map to have at least one result

// -----

func.func @for_empty_upper_bound() {
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> ()>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: expected upper bound map to have at least one result

// -----

func.func @for_yield_count() -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 4 iter_args(%a = %z) -> (f32) {
    affine.yield %a, %a : f32, f32
  }
  func.return %r : f32
}

// CHECK: parent of yield must have same number of results as the yield operands: affine.yield has 2, the op 1

// -----

func.func @for_yield_type() -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 4 iter_args(%a = %z) -> (f32) {
    %one = arith.constant 1 : i32
    affine.yield %one : i32
  }
  func.return %r : f32
}

// CHECK: types mismatch between yield op and its parent: affine.yield yields (i32), the op's results are (f32)

// -----

// The map of an affine access has one result per memref dimension and one
// input per index, as MLIR requires; xDSL checks neither.

func.func @load_map_rank(%m: memref<4x4xf32>, %i: index) -> f32 {
  %v = "affine.load"(%m, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<4x4xf32>, index) -> f32
  func.return %v : f32
}

// CHECK: affine map num results must equal memref rank: affine_map<(d0) -> (d0)> has 1, memref<4x4xf32> has rank 2

// -----

func.func @store_map_inputs(%m: memref<4xf32>, %i: index, %v: f32) {
  "affine.store"(%v, %m, %i, %i) <{map = affine_map<(d0) -> (d0)>}> : (f32, memref<4xf32>, index, index) -> ()
  func.return
}

// CHECK: expects as many subscripts as affine map inputs: affine_map<(d0) -> (d0)> takes 1, the op has 2

// -----

func.func @vector_load_map_rank(%m: memref<4xf32>, %i: index) -> vector<2xf32> {
  %v = "affine.vector_load"(%m, %i) <{map = affine_map<(d0) -> (d0, d0)>}> : (memref<4xf32>, index) -> vector<2xf32>
  func.return %v : vector<2xf32>
}

// CHECK: affine map num results must equal memref rank: affine_map<(d0) -> (d0, d0)> has 2, memref<4xf32> has rank 1

// -----

// memplan's affine.if makes xDSL's checks of its operands too (an f32 is no
// dimension; MLIR: operand cannot be used as a dimension id).

func.func @if_f32_operand(%x: f32) {
  "affine.if"(%x) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (f32) -> ()
  func.return
}

// CHECK: operand 'args' at position 0 does not verify
// CHECK: f32 should be of base attribute index

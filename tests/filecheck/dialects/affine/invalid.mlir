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

// -----

// The operands of affine ops must be valid affine dimensions and symbols, as
// MLIR's verifier requires (isValidDim / isValidSymbol); xDSL 0.74 checks
// none. A loop's induction variable is no symbol of the function's scope.

func.func @if_symbol_is_induction_variable(%m: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i)[%j] {
      }
    }
  }
  func.return
}

// CHECK: operand cannot be used as a symbol

// -----

// A loaded value is neither a dimension nor a symbol.

func.func @if_dimension_is_loaded(%m: memref<8xindex>, %n: index) {
  affine.for %i = 0 to 8 {
    %v = affine.load %m[%i] : memref<8xindex>
    affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%v)[%n] {
    }
  }
  func.return
}

// CHECK: operand cannot be used as a dimension id

// -----

// An scf.for's induction variable is not an affine one, and is no symbol
// of the function's scope either.

func.func @if_symbol_is_scf_induction_variable(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    affine.for %i = 0 to 8 {
      affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i)[%k] {
      }
    }
  }
  func.return
}

// CHECK: operand cannot be used as a symbol

// -----

func.func @for_bound_is_loaded(%m: memref<8xindex>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %m[%i] : memref<8xindex>
    affine.for %j = 0 to %v {
    }
  }
  func.return
}

// CHECK: operand cannot be used as a symbol

// -----

// MLIR's arith.remui is speculatable (pure) only by a constant non-zero
// divisor, so this one is no symbol inside the loop.

func.func @for_bound_is_remainder_by_a_variable(%n: index) {
  affine.for %i = 0 to 8 {
    %v = arith.remui %n, %n : index
    affine.for %j = 0 to %v {
    }
  }
  func.return
}

// CHECK: operand cannot be used as a symbol

// -----

func.func @load_index_is_loaded(%m: memref<8xindex>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %m[%i] : memref<8xindex>
    %w = affine.load %m[%v] : memref<8xindex>
  }
  func.return
}

// CHECK: operand cannot be used as a dimension id

// -----

func.func @apply_symbol_is_induction_variable() {
  affine.for %i = 0 to 8 {
    %v = affine.apply affine_map<()[s0] -> (s0)>()[%i]
  }
  func.return
}

// CHECK: dimensional operand cannot be used as a symbol

// -----

// Valid symbols MLIR accepts inside loops: a constant, a pure op of
// symbols (arith.addi; arith.divsi by a constant other than 0 and -1), a
// memref.dim of a function-level alloc, an affine.apply of symbols; and an
// affine.apply of induction variables as a dimension.

func.func @valid_dimensions_and_symbols(%n: index, %m: memref<8xindex>) {
  %a = memref.alloc(%n) : memref<?xf32>
  affine.for %i = 0 to 8 {
    %c = arith.constant 3 : index
    %s = arith.addi %n, %c : index
    %q = arith.divsi %n, %c : index
    %c0 = arith.constant 0 : index
    %d = memref.dim %a, %c0 : memref<?xf32>
    %p = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%s, %q]
    %x = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    affine.if affine_set<(d0)[s0, s1, s2, s3] : (d0 - s0 - s1 - s2 - s3 >= 0)>(%x)[%c, %d, %p, %n] {
      %v = affine.load %m[%x + symbol(%d)] : memref<8xindex>
    }
  }
  memref.dealloc %a : memref<?xf32>
  func.return
}

// CHECK: func.func @valid_dimensions_and_symbols
// CHECK: affine.if

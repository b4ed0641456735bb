// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @if_condition_not_a_set(%i: index) {
  affine.if affine_map<(d0) -> (d0)>(%i) {
  }
  func.return
}

// CHECK: expected an integer set (affine_set<...>), got affine_map<(d0) -> (d0)>

// -----

func.func @if_without_dimension_list(%i: index) {
  affine.if affine_set<(d0) : (d0 >= 0)> {
  }
  func.return
}

// CHECK: '(' expected

// -----

func.func @product_of_dimensions(%x: memref<8xf32>, %i: index, %j: index) {
  %v = affine.load %x[%i * (%j + 1)] : memref<8xf32>
  func.return
}

// CHECK: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

func.func @semi_affine_mod(%x: memref<8xf32>, %i: index, %n: index) {
  %v = affine.load %x[%i mod %n] : memref<8xf32>
  func.return
}

// CHECK: non-affine expression: right operand of mod has to be either a constant or symbolic

// -----

func.func @map_product_of_dimensions(%i: index, %j: index) -> index {
  %r = affine.apply affine_map<(d0, d1) -> (d0 * d1)>(%i, %j)
  func.return %r : index
}

// CHECK: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

func.func @map_division_by_a_dimension(%i: index, %n: index) -> index {
  %r = affine.apply affine_map<(d0)[s0] -> (s0 ceildiv d0)>(%i)[%n]
  func.return %r : index
}

// CHECK: non-affine expression: right operand of ceildiv has to be either a constant or symbolic

// -----

func.func @set_product_of_dimensions(%i: index, %j: index) {
  affine.if affine_set<(d0, d1) : (d0 * d1 >= 0)>(%i, %j) {
  }
  func.return
}

// CHECK: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

func.func @no_expression(%x: memref<8xf32>, %i: index) {
  affine.store %i, %x[%i + ] : memref<8xf32>
  func.return
}

// CHECK: expected an affine expression: an SSA value, symbol(%value), an integer or a parenthesized expression

// -----

func.func @not_a_memref(%x: tensor<8xf32>, %i: index) {
  %v = affine.load %x[%i] : tensor<8xf32>
  func.return
}

// CHECK: expected a memref type, got tensor<8xf32>

// -----

// MLIR's affine constants are 64-bit; xDSL kept any integer.
func.func @constant_too_large_in_access(%x: memref<8xf32>, %i: index) {
  %v = affine.load %x[%i + 9223372036854775808] : memref<8xf32>
  func.return
}

// CHECK: constant too large for index: 9223372036854775808 is above 9223372036854775807

// -----

#too_large = affine_map<(d0) -> (d0 mod 18446744073709551616)>

// CHECK: constant too large for index: 18446744073709551616 is above 9223372036854775807

// -----

// affine.yield ends an affine.for, affine.if or affine.parallel only, as in
// MLIR; xDSL checks no parent, so a function ending in one verified.
func.func @yield_ends_function(%n: index) -> index {
  "affine.yield"(%n) : (index) -> ()
}

// CHECK: affine.yield: only terminates affine.if/for/parallel regions, got func.func

// -----

// affine.apply's parenthesised operands are the map's dimensions, as MLIR's
// parser requires (xDSL took any split of the operands).

func.func @apply_symbols_as_dimensions(%i: index, %n: index) -> index {
  %r = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i, %n)
  func.return %r : index
}

// CHECK: dimension or symbol index mismatch: affine_map<(d0)[s0] -> ((d0 + s0))> takes 1 dimension(s) and 1 symbol(s), got 2 and 0

// -----

// affine.parallel
func.func @unknown_reduction_name() {
  %r = affine.parallel (%i) = (0) to (4) reduce ("foo") -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  func.return
}

// CHECK: invalid reduction value: "foo"

// -----

func.func @step_of_a_value(%n: index) {
  affine.parallel (%i) = (0) to (4) step (%n) {
  }
  func.return
}

// CHECK: steps must be constant integers

// -----

// An upper bound takes min(...), a lower bound max(...).
func.func @max_as_an_upper_bound(%n: index) {
  affine.parallel (%i) = (0) to (max(4, %n)) {
  }
  func.return
}

// CHECK: expected an affine expression

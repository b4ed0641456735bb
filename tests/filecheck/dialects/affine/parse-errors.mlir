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

func.func @semi_affine_product(%x: memref<8xf32>, %i: index, %n: index) {
  %v = affine.load %x[%i * symbol(%n)] : memref<8xf32>
  func.return
}

// CHECK: non-affine expression: at least one of the multiply operands has to be a constant

// -----

func.func @semi_affine_mod(%x: memref<8xf32>, %i: index, %n: index) {
  %v = affine.load %x[%i mod %n] : memref<8xf32>
  func.return
}

// CHECK: non-affine expression: right operand of mod has to be a constant

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

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

// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// scf.parallel and scf.reduce in MLIR's custom form (this file is what
// MLIR prints, names aside): xDSL 0.74 parses scf.parallel in generic form
// only, and prints the reduction regions of scf.reduce without the commas
// MLIR puts between them.

func.func @no_results(%n: index, %m: index, %buf: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    memref.store %zero, %buf[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  scf.parallel (%k) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %buf[%k, %k] : memref<?x?xf32>
  } {mapping = "x"}
  return
}

// CHECK-LABEL: func.func @no_results
// CHECK:         scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
// CHECK-NEXT:      memref.store %zero, %buf[%i, %j] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.parallel (%k) = (%c0) to (%n) step (%c1) {
// CHECK-NEXT:      memref.store %zero, %buf[%k, %k] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    } {mapping = "x"}

// GENERIC-LABEL: "func.func"() <{sym_name = "no_results"
// GENERIC:         "scf.parallel"(%c0, %c0, %n, %m, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// GENERIC-NEXT:    ^bb0(%i: index, %j: index):
// GENERIC:           "scf.reduce"() : () -> ()
// GENERIC:         "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// GENERIC:           "scf.reduce"() : () -> ()
// GENERIC-NEXT:    }) {mapping = "x"} : (index, index, index) -> ()

func.func @reductions(%n: index, %buf: memref<?xf32>) -> (f32, f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %zero_i32 = arith.constant 0 : i32
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %buf[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  %both:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero, %zero_i32) -> (f32, i32) {
    %v = memref.load %buf[%i] : memref<?xf32>
    %w = arith.fptosi %v : f32 to i32
    scf.reduce(%v, %w : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.maximumf %l, %r : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      scf.reduce.return %s : i32
    }
  }
  return %sum, %both#0, %both#1 : f32, f32, i32
}

// CHECK-LABEL: func.func @reductions
// CHECK:         %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
// CHECK-NEXT:      %v = memref.load %buf[%i] : memref<?xf32>
// CHECK-NEXT:      scf.reduce(%v : f32) {
// CHECK-NEXT:      ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:        %s = arith.addf %l, %r : f32
// CHECK-NEXT:        scf.reduce.return %s : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %both, %both_1 = scf.parallel (%i_1) = (%c0) to (%n) step (%c1) init (%zero, %zero_i32) -> (f32, i32) {
// CHECK:           scf.reduce(%v_1, %w : f32, i32) {
// CHECK-NEXT:      ^bb0(%l_1: f32, %r_1: f32):
// CHECK-NEXT:        %s_1 = arith.maximumf %l_1, %r_1 : f32
// CHECK-NEXT:        scf.reduce.return %s_1 : f32
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%l_2: i32, %r_2: i32):
// CHECK-NEXT:        %s_2 = arith.addi %l_2, %r_2 : i32
// CHECK-NEXT:        scf.reduce.return %s_2 : i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }

// GENERIC-LABEL: "func.func"() <{sym_name = "reductions"
// GENERIC:         %both, %both_1 = "scf.parallel"(%c0, %n, %c1, %zero, %zero_i32) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
// GENERIC:           "scf.reduce"(%v_1, %w) ({
// GENERIC:           }, {
// GENERIC:           }) : (f32, i32) -> ()
// GENERIC-NEXT:    }) : (index, index, index, f32, i32) -> (f32, i32)

// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// affine.parallel in MLIR's custom form (what MLIR prints, names aside) and
// its generic form: xDSL 0.74 parses the generic form only, and reads
// `reductions` as strings where MLIR writes arith.atomic_rmw kinds as
// integers (addf is 0, maxnumf 5, andi 2, muli 13).  Steps of 1 and the
// affine.yield of a loop without results are left out; a bound of several
// expressions is max(...) below and min(...) above; operands of the bounds
// are deduplicated, dimensions first, and a value is what it was first met
// as (symbol(%n) after %n is the dimension %n, as MLIR reads it).

func.func @bounds(%m: memref<10x20xf32>, %n: index) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (0, 0) to (10, min(20, %n)) step (2, 5) reduce ("addf", "maxnumf") -> (f32, f32) {
    %v = affine.load %m[%i, %j] : memref<10x20xf32>
    affine.yield %v, %v : f32, f32
  }
  affine.parallel (%k) = (max(0, %n - 1, symbol(%n) floordiv 2)) to (symbol(%n) + 3) {
    %v = affine.load %m[%k, %k] : memref<10x20xf32>
  } {tag = "x"}
  affine.parallel () = () to () {
  }
  return %r#0, %r#1 : f32, f32
}

// CHECK-LABEL: func.func @bounds
// CHECK:         %r, %r_1 = affine.parallel (%i, %j) = (0, 0) to (10, min(20, %n)) step (2, 5) reduce ("addf", "maxnumf") -> (f32, f32) {
// CHECK-NEXT:      %v = affine.load %m[%i, %j] : memref<10x20xf32>
// CHECK-NEXT:      affine.yield %v, %v : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.parallel (%k) = (max(0, %n + -1, %n floordiv 2)) to (symbol(%n) + 3) {
// CHECK-NEXT:      %v_1 = affine.load %m[%k, %k] : memref<10x20xf32>
// CHECK-NEXT:    } {tag = "x"}
// CHECK-NEXT:    affine.parallel () = () to () {
// CHECK-NEXT:    }

// GENERIC-LABEL: "func.func"() <{sym_name = "bounds"
// GENERIC:         %r, %r_1 = "affine.parallel"(%n) <{reductions = [0 : i64, 5 : i64], lowerBoundsMap = affine_map<() -> (0, 0)>, lowerBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = affine_map<(d0) -> (10, 20, d0)>, upperBoundsGroups = dense<[1, 2]> : tensor<2xi32>, steps = [2 : i64, 5 : i64]}> ({
// GENERIC-NEXT:    ^bb0(%i: index, %j: index):
// GENERIC:           "affine.yield"(%v, %v) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : (index) -> (f32, f32)
// GENERIC-NEXT:    "affine.parallel"(%n, %n) <{reductions = [], lowerBoundsMap = affine_map<(d0) -> (0, (d0 + -1), (d0 floordiv 2))>, lowerBoundsGroups = dense<3> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> ((s0 + 3))>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [1 : i64]}> ({
// GENERIC:           "affine.yield"() : () -> ()
// GENERIC-NEXT:    }) {tag = "x"} : (index, index) -> ()
// GENERIC-NEXT:    "affine.parallel"() <{reductions = [], lowerBoundsMap = affine_map<() -> ()>, lowerBoundsGroups = dense<> : tensor<0xi32>, upperBoundsMap = affine_map<() -> ()>, upperBoundsGroups = dense<> : tensor<0xi32>, steps = []}> ({
// GENERIC-NEXT:      "affine.yield"() : () -> ()
// GENERIC-NEXT:    }) : () -> ()

// What MLIR takes and memplan reads too: a step that is not positive (the
// verifier does not check it; memplan-run refuses it), a single bound
// written as max(...), reductions of integers, and `assign` of any type.
func.func @accepted(%m: memref<4xi32>) -> (i32, i32, memref<4xi32>) {
  affine.parallel (%i) = (max(0)) to (4) step (-1) {
  }
  %r:3 = affine.parallel (%i) = (0) to (4) reduce ("andi", "muli", "assign") -> (i32, i32, memref<4xi32>) {
    %v = affine.load %m[%i] : memref<4xi32>
    affine.yield %v, %v, %m : i32, i32, memref<4xi32>
  }
  return %r#0, %r#1, %r#2 : i32, i32, memref<4xi32>
}

// CHECK-LABEL: func.func @accepted
// CHECK:         affine.parallel (%i) = (0) to (4) step (-1) {
// CHECK-NEXT:    }
// CHECK-NEXT:    %r, %r_1, %r_2 = affine.parallel (%i_1) = (0) to (4) reduce ("andi", "muli", "assign") -> (i32, i32, memref<4xi32>) {

// GENERIC-LABEL: "func.func"() <{sym_name = "accepted"
// GENERIC:         "affine.parallel"() <{reductions = [], lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>, upperBoundsGroups = dense<1> : tensor<1xi32>, steps = [-1 : i64]}>
// GENERIC:         "affine.parallel"() <{reductions = [2 : i64, 13 : i64, 3 : i64],

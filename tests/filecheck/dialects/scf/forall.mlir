// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// scf.forall and scf.forall.in_parallel in MLIR's custom form (what MLIR
// prints, names aside) and generic form; xDSL 0.74 has neither op.  A loop
// from 0 by 1 prints `in (upper bounds)`, any other `= (...) to (...) step
// (...)`, each bound a constant or an operand.  The terminator is printed
// only when the loop has results (shared_outs); parsing adds an empty one
// to a body without it.  `mapping` is printed with the other attributes.

func.func @memref_form(%m: memref<10x20xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i, %j) in (10, %n) {
    %v = memref.load %m[%i, %j] : memref<10x20xf32>
  }
  scf.forall (%i, %j) = (0, %c1) to (10, %n) step (2, %c1) {
    %v = memref.load %m[%i, %j] : memref<10x20xf32>
    scf.forall.in_parallel {
    }
  } {tag = 1 : i64, mapping = []}
  scf.forall (%i) = (%c0) to (%n) step (%c1) {
  }
  scf.forall () in () {
  }
  return
}

// CHECK-LABEL: func.func @memref_form
// CHECK:         scf.forall (%i, %j) in (10, %n) {
// CHECK-NEXT:      %v = memref.load %m[%i, %j] : memref<10x20xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%i_1, %j_1) = (0, %c1) to (10, %n) step (2, %c1) {
// CHECK-NEXT:      %v_1 = memref.load %m[%i_1, %j_1] : memref<10x20xf32>
// CHECK-NEXT:    } {mapping = [], tag = 1 : i64}
// CHECK-NEXT:    scf.forall (%i_2) in (%n) {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall () in () {
// CHECK-NEXT:    }

// GENERIC-LABEL: "func.func"() <{sym_name = "memref_form"
// GENERIC:         "scf.forall"(%n) <{staticLowerBound = array<i64: 0, 0>, staticUpperBound = array<i64: 10, -9223372036854775808>, staticStep = array<i64: 1, 1>, operandSegmentSizes = array<i32: 0, 1, 0, 0>}> ({
// GENERIC-NEXT:    ^bb0(%i: index, %j: index):
// GENERIC-NEXT:      %v = "memref.load"(%m, %i, %j) : (memref<10x20xf32>, index, index) -> f32
// GENERIC-NEXT:      "scf.forall.in_parallel"() ({
// GENERIC-NEXT:      ^bb0:
// GENERIC-NEXT:      }) : () -> ()
// GENERIC-NEXT:    }) : (index) -> ()
// GENERIC-NEXT:    "scf.forall"(%c1, %n, %c1) <{staticLowerBound = array<i64: 0, -9223372036854775808>, staticUpperBound = array<i64: 10, -9223372036854775808>, staticStep = array<i64: 2, -9223372036854775808>, mapping = [], operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// GENERIC:         }) {tag = 1 : i64} : (index, index, index) -> ()
// GENERIC-NEXT:    "scf.forall"(%c0, %n, %c1) <{staticLowerBound = array<i64: -9223372036854775808>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// GENERIC:         "scf.forall"() <{staticLowerBound = array<i64>, staticUpperBound = array<i64>, staticStep = array<i64>, operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
// GENERIC-NEXT:      "scf.forall.in_parallel"() ({
// GENERIC-NEXT:      ^bb0:
// GENERIC-NEXT:      }) : () -> ()
// GENERIC-NEXT:    }) : () -> ()

// The tensor form, with shared_outs, as tiling makes it (memplan reads and
// prints it; memplan-run runs the bufferized form only).  Steps and bounds
// MLIR's verifier does not check: a step of 0 or below, an empty range.
func.func @tensor_form(%t: tensor<10xf32>) -> tensor<10xf32> {
  %r = scf.forall (%i) in (10) shared_outs(%o = %t) -> (tensor<10xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<10xf32> to tensor<1xf32>
    scf.forall.in_parallel {
    }
  }
  scf.forall (%i) = (0) to (10) step (0) {
  }
  scf.forall (%i) in (-3) {
  }
  return %r : tensor<10xf32>
}

// CHECK-LABEL: func.func @tensor_form
// CHECK:         %r = scf.forall (%i) in (10) shared_outs(%o = %t) -> (tensor<10xf32>) {
// CHECK-NEXT:      %s = tensor.extract_slice %o[%i] [1] [1] : tensor<10xf32> to tensor<1xf32>
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%i_1) = (0) to (10) step (0) {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall (%i_2) in (-3) {
// CHECK-NEXT:    }

// GENERIC-LABEL: "func.func"() <{sym_name = "tensor_form"
// GENERIC:         %r = "scf.forall"(%t) <{staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 10>, staticStep = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 1>}> ({
// GENERIC-NEXT:    ^bb0(%i: index, %o: tensor<10xf32>):
// GENERIC:         }) : (tensor<10xf32>) -> tensor<10xf32>

// What MLIR's transform.structured.tile_using_forall makes of a matmul on
// tensors (tiles of 4x2): the terminator inserts each tile into the shared
// output with tensor.parallel_insert_slice, which xDSL 0.74 lacks too.
func.func @tiled(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = scf.forall (%i, %j) in (2, 2) shared_outs(%o = %c) -> (tensor<8x4xf32>) {
    %row = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %col = affine.apply affine_map<(d0) -> (d0 * 2)>(%j)
    %x = tensor.extract_slice %a[%row, 0] [4, 6] [1, 1] : tensor<8x6xf32> to tensor<4x6xf32>
    %y = tensor.extract_slice %b[0, %col] [6, 2] [1, 1] : tensor<6x4xf32> to tensor<6x2xf32>
    %z = tensor.extract_slice %o[%row, %col] [4, 2] [1, 1] : tensor<8x4xf32> to tensor<4x2xf32>
    %m = linalg.matmul ins(%x, %y : tensor<4x6xf32>, tensor<6x2xf32>) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%row, %col] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<8x4xf32>
    }
  }
  return %r : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @tiled
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %m into %o[%row, %col] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<8x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }

// GENERIC-LABEL: "func.func"() <{sym_name = "tiled"
// GENERIC:           "tensor.parallel_insert_slice"(%m, %o, %row, %col) <{static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: 4, 2>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}> : (tensor<4x2xf32>, tensor<8x4xf32>, index, index) -> ()

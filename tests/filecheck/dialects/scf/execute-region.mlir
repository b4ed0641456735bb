// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// scf.execute_region prints every block terminator, as MLIR does: xDSL 0.74
// leaves them out when the op has no results, which dropped the cf.br,
// cf.cond_br and scf.yield of a region of several blocks (and the scf.yield
// of a single block, leaving it without a terminator).

func.func @loop_in_region(%out: memref<16xf32>, %x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.execute_region {
    cf.br ^loop(%c0 : index)
  ^loop(%i: index):
    linalg.add ins(%out, %x : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
    %n = arith.addi %i, %c1 : index
    %more = arith.cmpi slt, %n, %c3 : index
    cf.cond_br %more, ^loop(%n : index), ^exit
  ^exit:
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @loop_in_region
// CHECK:         scf.execute_region {
// CHECK-NEXT:      cf.br ^loop(%c0 : index)
// CHECK-NEXT:    ^loop(%i: index):
// CHECK:           cf.cond_br %more, ^loop(%n : index), ^exit
// CHECK-NEXT:    ^exit:
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }

func.func @results(%c: i1) -> (i32, i32, i32) {
  scf.execute_region {
    scf.yield
  }
  %r = scf.execute_region -> i32 {
    %a = arith.constant 1 : i32
    cf.cond_br %c, ^then, ^else
  ^then:
    scf.yield %a : i32
  ^else:
    %b = arith.constant 2 : i32
    scf.yield %b : i32
  } {note = "kept"}
  %p:2 = scf.execute_region -> (i32, i32) {
    %d = arith.constant 3 : i32
    scf.yield %d, %d : i32, i32
  }
  return %r, %p#0, %p#1 : i32, i32, i32
}

// CHECK-LABEL: func.func @results
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = scf.execute_region -> i32 {
// CHECK:           scf.yield %a : i32
// CHECK:           scf.yield %b : i32
// CHECK-NEXT:    } {note = "kept"}
// CHECK-NEXT:    %p, %p_1 = scf.execute_region -> (i32, i32) {
// CHECK-NEXT:      %d = arith.constant 3 : i32
// CHECK-NEXT:      scf.yield %d, %d : i32, i32
// CHECK-NEXT:    }

// GENERIC-LABEL: sym_name = "results"
// GENERIC:      "scf.execute_region"() ({
// GENERIC-NEXT:   "scf.yield"() : () -> ()
// GENERIC-NEXT: }) : () -> ()
// GENERIC:      }) {note = "kept"} : () -> i32

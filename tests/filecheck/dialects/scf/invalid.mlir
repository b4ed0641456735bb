// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @yield_type(%x: i64) {
  %r = "scf.execute_region"() ({
    "scf.yield"(%x) : (i64) -> ()
  }) : () -> i32
  return
}

// CHECK: scf.yield yields (i64): expected the op's result types (i32)

// -----

func.func @entry_arguments() {
  "scf.execute_region"() ({
  ^entry(%i: index):
    "scf.yield"() : () -> ()
  }) : () -> ()
  return
}

// CHECK: region cannot have any arguments, got 1

// -----

func.func @no_blocks() {
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// CHECK: region needs to have at least one block


// -----

func.func @parallel_without_induction_variables() {
  scf.parallel () = () to () step () {
    scf.reduce
  }
  return
}

// CHECK: needs at least one tuple element for lowerBound, upperBound and step

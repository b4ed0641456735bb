// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @no_inline() {
  scf.execute_region no_inline {
    scf.yield
  }
  return
}

// CHECK: scf.execute_region no_inline is not supported (xDSL 0.74's scf.execute_region has no no_inline property)

// -----

func.func @parallel_bounds(%n: index) {
  scf.parallel (%i, %j) = (%n, %n) to (%n) step (%n, %n) {
  }
  return
}

// CHECK: expected 2 upper bounds, one per induction variable, got 1

// -----

func.func @parallel_init_without_type(%n: index, %z: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%z) {
    scf.reduce(%z : f32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// CHECK: scf.parallel has 1 init value(s) and 0 result type(s): expected one result type per init value

// -----

func.func @reduce_operand_types(%n: index, %z: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%z) -> f32 {
    scf.reduce(%z, %z : f32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// CHECK: expected 1 operand types but had 2

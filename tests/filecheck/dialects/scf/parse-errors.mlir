// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @no_inline() {
  scf.execute_region no_inline {
    scf.yield
  }
  return
}

// CHECK: scf.execute_region no_inline is not supported (xDSL 0.74's scf.execute_region has no no_inline property)

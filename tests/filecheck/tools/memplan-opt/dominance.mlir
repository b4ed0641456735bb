// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: not memplan-run %s 2>&1 | filecheck %s --check-prefix=RUNNER

// xDSL's verifier accepts a use its definition does not dominate, and the
// passes and the interpreter then fail inside (a KeyError on the op).  memplan's
// tools reject it when they parse, naming the use, as MLIR's verifier does.

func.func @main() {
  memory.kill %s : !memory.storage<"global.vtcm">
  %s = memory.alloc_storage [16] : !memory.storage<"global.vtcm">
  func.return
}

// CHECK:      dominance.mlir:9:3
// CHECK-NEXT:   memory.kill %s : !memory.storage<"global.vtcm">
// CHECK-NEXT:   ^^^^^^^^^^^
// CHECK-NEXT:   memory.kill: operand #0 (%s) does not dominate this use: expected a value defined above it in its block, in an enclosing block, or in a block every path to it goes through
// RUNNER:     memplan-run: error: {{.*}}dominance.mlir:9:3
// RUNNER:       memory.kill: operand #0 (%s) does not dominate this use

// -----

// A value of one function is not visible at the module's top level.

memref.dealloc %a : memref<4xf32>
func.func @defines() {
  %a = memref.alloc() : memref<4xf32>
  func.return
}

// CHECK:      memref.dealloc: operand #0 (%a) does not dominate this use

// -----

// A value defined in one branch is not defined at the join.

func.func @branch(%c: i1) {
  cf.cond_br %c, ^left, ^right
^left:
  %a = memref.alloc() : memref<4xf32>
  cf.br ^join
^right:
  cf.br ^join
^join:
  memref.dealloc %a : memref<4xf32>
  func.return
}

// CHECK:      memref.dealloc: operand #0 (%a) does not dominate this use

// -----

// Values of the entry block reach every block; as in MLIR, a block no path
// reaches is not checked.

func.func @reachable(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^left, ^right
^left:
  cf.br ^join
^right:
  cf.br ^join
^join:
  memref.dealloc %a : memref<4xf32>
  func.return
^unreachable:
  memref.dealloc %b : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  func.return
}

// CHECK-LABEL: func.func @reachable
// CHECK:       ^unreachable:
// CHECK-NEXT:    memref.dealloc %b : memref<4xf32>

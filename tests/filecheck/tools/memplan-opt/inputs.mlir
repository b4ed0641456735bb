// memplan-opt reads `-` as standard input, and an input without ops (empty,
// blank, or only comments) as an empty module, as mlir-opt does.

// RUN: memplan-opt - < %s | filecheck %s
// RUN: memplan-opt %S/Inputs/empty.mlir | filecheck %s --check-prefix=EMPTY
// RUN: memplan-opt %S/Inputs/only-comments.mlir | filecheck %s --check-prefix=EMPTY
// RUN: memplan-opt - < %S/Inputs/empty.mlir | filecheck %s --check-prefix=EMPTY
// RUN: memplan-opt %s --split-input-file | filecheck %s --check-prefix=SPLIT

func.func @f() {
  func.return
}
// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @f() {

// EMPTY:      builtin.module {
// EMPTY-NEXT: }

// -----

// A chunk of comments only is an empty module too.

// SPLIT:      func.func @f()
// SPLIT:      // -----
// SPLIT-NEXT: builtin.module {
// SPLIT-NEXT: }

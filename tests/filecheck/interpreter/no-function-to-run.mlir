// RUN: not memplan-run %s 2>&1 | filecheck %s
// RUN: not memplan-run %s --symbol decl 2>&1 | filecheck %s --check-prefix=DECL
// RUN: echo 'builtin.module {}' | not memplan-run - 2>&1 | filecheck %s --check-prefix=EMPTY

// Without the function asked for, the error names the ones that could run.
func.func @f() {
  func.return
}
func.func private @decl()

// CHECK: memplan-run: error: no function named @main in the module; the functions with a body are @f{{$}}
// DECL: memplan-run: error: @decl is a declaration without a body, nothing to run; the functions with a body are @f{{$}}
// EMPTY: memplan-run: error: no function named @main in the module; the module has no function with a body{{$}}

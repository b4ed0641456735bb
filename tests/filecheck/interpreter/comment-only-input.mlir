// RUN: not memplan-run %s 2>&1 | filecheck %s
// RUN: memplan-opt %s | filecheck %s --check-prefix=OPT

// An input with nothing but comments (as this file) is an empty module, as
// memplan-opt reads it: memplan-run says in one line there is nothing to run.

// CHECK: memplan-run: error: {{.*}}comment-only-input.mlir holds only comments: there is no function to run{{$}}
// CHECK-NOT: {{.}}
// OPT: builtin.module {
// OPT-NEXT: }

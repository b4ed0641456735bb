// A program whose regions nest far deeper than Python's recursion limit allows
// (some 100 levels on the main thread) is parsed, verified and run, planned
// or not: memplan-run runs on a thread with a large stack
// (memplan/deep_stack.py).  A region nested more than 10,000 deep is a parse
// error naming it.

// RUN: python3 -c "n = 250; print('func.func @main(%%c: i1) -> i32 { %%m = memref.alloc() : memref<i32> %%v = arith.constant 7 : i32' + ' scf.if %%c {' * n + ' memref.store %%v, %%m[] : memref<i32>' + ' }' * n + ' %%r = memref.load %%m[] : memref<i32> memref.dealloc %%m : memref<i32> func.return %%r : i32 }')" > %t.deep.mlir
// RUN: memplan-run %t.deep.mlir --args true --no-stats | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,memory-verify %t.deep.mlir | memplan-run - --args true --no-stats | filecheck %s
// RUN: python3 -c "n = 10000; print('func.func @main(%%c: i1) {' + chr(10).join(['scf.if %%c {'] * n + ['}'] * n) + ' func.return }')" > %t.too-deep.mlir
// RUN: not memplan-run %t.too-deep.mlir --args true 2>&1 | filecheck %s --check-prefix=TOO-DEEP

// CHECK: result: 7

// TOO-DEEP:     memplan-run: error: {{.*}}too-deep.mlir:10000:11
// TOO-DEEP-NEXT: scf.if %c {
// TOO-DEEP-NEXT:           ^
// TOO-DEEP-NEXT:           regions nest deeper than memplan can follow: expected at most 10,000 levels

// Regions nested far deeper than Python's recursion limit allows (some 100
// levels on the main thread) are parsed, verified, planned and printed:
// memplan-opt runs on a thread with a large stack (memplan/deep_stack.py).
// A region nested more than 10,000 deep is a parse error naming it, and
// brackets nested deeper than even that stack holds are a clean error too.

// RUN: python3 -c "n = 300; print('func.func @main(%%c: i1) {' + ' scf.if %%c {' * n + ' %%a = memref.alloc() : memref<256xi32>' + ' }' * n + ' func.return }')" > %t.pipeline.mlir
// RUN: memplan-opt -p memory-manifest,memory-plan,memory-verify %t.pipeline.mlir | filecheck %s --check-prefix=PIPELINE
// RUN: python3 -c "n = 1000; print('func.func @main(%%c: i1) {' + ' scf.if %%c {' * n + ' }' * n + ' func.return }')" > %t.print.mlir
// RUN: memplan-opt %t.print.mlir | filecheck %s --check-prefix=PRINT
// RUN: python3 -c "n = 10000; print('func.func @main(%%c: i1) {' + chr(10).join(['scf.if %%c {'] * n + ['}'] * n) + ' func.return }')" > %t.too-deep.mlir
// RUN: not memplan-opt %t.too-deep.mlir 2>&1 | filecheck %s --check-prefix=TOO-DEEP
// RUN: python3 -c "n = 100000; print('\"test.op\"() {a = ' + '[' * n + ']' * n + '} : () -> ()')" > %t.brackets.mlir
// RUN: not memplan-opt %t.brackets.mlir 2>&1 | filecheck %s --check-prefix=BRACKETS

// PIPELINE:           func.func @main(%c: i1) {
// PIPELINE-COUNT-300:   scf.if %c {
// PIPELINE-NEXT:          %arena = memory.alloc_storage [1024] : !memory.storage<"global">
// PIPELINE-NEXT:          %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<256xi32>
// PIPELINE-NEXT:          memory.kill %a : memref<256xi32>
// PIPELINE-NEXT:          memory.kill %arena : !memory.storage<"global">
// PIPELINE-COUNT-300:   }
// PIPELINE-NEXT:        func.return

// PRINT:           func.func @main(%c: i1) {
// PRINT-COUNT-1000:  scf.if %c {
// PRINT-COUNT-1000:  }
// PRINT-NEXT:        func.return

// TOO-DEEP-NOT: internal error
// TOO-DEEP:     memplan-opt: error: {{.*}}too-deep.mlir:10000:11: regions nest deeper than memplan can follow: expected at most 10,000 levels

// BRACKETS-NOT: internal error
// BRACKETS:     memplan-opt: error: {{.*}}brackets.mlir: brackets or regions nest deeper than memplan can follow (regions at most 10,000 levels, some 100 when a memory limit such as ulimit -v leaves memplan no room for its stack)

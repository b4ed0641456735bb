// RUN: memplan-run %examples/seed_naive.mlir 2>&1 | filecheck %s --check-prefix=NAIVE
// RUN: xdsl-opt -p memory-manifest,memory-plan %examples/seed_naive.mlir | memplan-run - 2>&1 | filecheck %s --check-prefix=PLANNED
// RUN: xdsl-opt -p memory-manifest,memory-plan,convert-memory-to-memref %examples/seed_naive.mlir | memplan-run - 2>&1 | filecheck %s --check-prefix=PLANNED

// The planner's output computes the same values as the naive program, in one
// VTCM storage instead of one per tensor; lowered to memref it still does.

// NAIVE: result: array({{\[\[}}     2,     20,     56,    110,
// NAIVE: storages global=4, global.vtcm=5;

// PLANNED: result: array({{\[\[}}     2,     20,     56,    110,
// PLANNED: global.vtcm=1;

// The MLP exported from PyTorch (tests/fixtures/torch/mlp.mlir: torch-mlir's
// bufferized output, weights as dense_resource blobs) plans and runs through
// the command-line pipe, with its inputs from the fixture's .npz. Planning
// halves the peak and prints the same results.

// RUN: memplan-run %S/../../fixtures/torch/mlp.mlir --args %S/../../fixtures/torch/mlp.npz 2>&1 > %t.before | filecheck %s --check-prefix=BEFORE
// RUN: memplan-opt -p memory-manifest,memory-plan %S/../../fixtures/torch/mlp.mlir | memplan-run - --args %S/../../fixtures/torch/mlp.npz 2>&1 > %t.after | filecheck %s --check-prefix=AFTER
// RUN: diff %t.before %t.after

// BEFORE: memplan-run: target hexagon-v73: peak bytes global=72416;
// AFTER: memplan-run: target hexagon-v73: peak bytes global=36000;

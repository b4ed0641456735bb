// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A clone takes and gives memrefs only (MLIR: "must be ranked or unranked
// memref of any type values").
func.func @clone_tensor(%t: tensor<4xf32>) {
  %c = "bufferization.clone"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// CHECK: operand 'input' at position 0 does not verify:
// CHECK-NEXT: Unexpected attribute tensor<4xf32>

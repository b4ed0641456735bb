// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A clone takes and gives memrefs only (MLIR: "must be ranked or unranked
// memref of any type values").
func.func @clone_tensor(%t: tensor<4xf32>) {
  %c = "bufferization.clone"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// CHECK: operand 'input' at position 0 does not verify:
// CHECK-NEXT: Unexpected attribute tensor<4xf32>

// -----

// to_buffer and to_tensor keep the shape (MLIR: "shapes do not match") ...
func.func @to_buffer_other_shape(%t: tensor<16xf32>) {
  %m = bufferization.to_buffer %t : tensor<16xf32> to memref<?xf32>
  func.return
}

// CHECK: shapes do not match: tensor<16xf32> and memref<?xf32>; expected the same shape (both unranked, or the same sizes, dynamic where dynamic)

// -----

func.func @to_tensor_unranked_for_ranked(%m: memref<*xf32>) {
  %t = bufferization.to_tensor %m : memref<*xf32> to tensor<?xf32>
  func.return
}

// CHECK: shapes do not match: tensor<?xf32> and memref<*xf32>

// -----

// ... and the element type (MLIR: "element types do not match").
func.func @to_tensor_other_element(%m: memref<16xf32>) {
  %t = bufferization.to_tensor %m : memref<16xf32> to tensor<16xi32>
  func.return
}

// CHECK: element types do not match: tensor<16xi32> and memref<16xf32>; expected the same element type

// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bufferization.to_buffer and to_tensor as MLIR defines them: the tensor and
// the memref have the same shape and element type; the memref's layout and
// memory space are free (xDSL 0.74 asks for the identity layout and no
// memory space). one-shot-bufferize without function-boundary bufferization
// prints the strided to_buffer; memory-place may move a to_tensor's memref.

// CHECK-LABEL: func.func @to_buffer
// CHECK-NEXT:    %strided = bufferization.to_buffer %t : tensor<16xf32> to memref<16xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %vtcm = bufferization.to_buffer %t read_only : tensor<16xf32> to memref<16xf32, "global.vtcm">
// CHECK-NEXT:    %unranked = bufferization.to_buffer %u {note} : tensor<*xf32> to memref<*xf32>
// GENERIC: %strided = "bufferization.to_buffer"(%t) : (tensor<16xf32>) -> memref<16xf32, strided<[?], offset: ?>>
// GENERIC: %vtcm = "bufferization.to_buffer"(%t) <{read_only}> : (tensor<16xf32>) -> memref<16xf32, "global.vtcm">
func.func @to_buffer(%t: tensor<16xf32>, %u: tensor<*xf32>) {
  %strided = bufferization.to_buffer %t : tensor<16xf32> to memref<16xf32, strided<[?], offset: ?>>
  %vtcm = bufferization.to_buffer %t read_only : tensor<16xf32> to memref<16xf32, "global.vtcm">
  %unranked = bufferization.to_buffer %u {note} : tensor<*xf32> to memref<*xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @to_tensor
// CHECK-NEXT:    %strided = bufferization.to_tensor %s restrict writable : memref<16xf32, strided<[?], offset: ?>> to tensor<16xf32>
// CHECK-NEXT:    %vtcm = bufferization.to_tensor %v : memref<16xf32, "global.vtcm"> to tensor<16xf32>
// GENERIC: %strided = "bufferization.to_tensor"(%s) <{restrict, writable}> : (memref<16xf32, strided<[?], offset: ?>>) -> tensor<16xf32>
func.func @to_tensor(%s: memref<16xf32, strided<[?], offset: ?>>, %v: memref<16xf32, "global.vtcm">) {
  %strided = bufferization.to_tensor %s restrict writable : memref<16xf32, strided<[?], offset: ?>> to tensor<16xf32>
  %vtcm = bufferization.to_tensor %v : memref<16xf32, "global.vtcm"> to tensor<16xf32>
  func.return
}

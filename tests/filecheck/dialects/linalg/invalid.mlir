// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The body xDSL 0.74 writes for pooling_nchw_max after a custom-form round
// trip, max(input, window), is not MLIR's max(output, input).
func.func @xdsl_pooling_body(%in: memref<1x1x4x4xf32>, %win: memref<2x2xf32>, %out: memref<1x1x3x3xf32>) {
  "linalg.pooling_nchw_max"(%in, %win, %out) <{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>, operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%0: f32, %1: f32, %2: f32):
    %3 = "arith.maximumf"(%0, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "linalg.yield"(%3) : (f32) -> ()
  }) : (memref<1x1x4x4xf32>, memref<2x2xf32>, memref<1x1x3x3xf32>) -> ()
  func.return
}

// CHECK: linalg.pooling_nchw_max body is not MLIR's definition of the op: expected `v0 = arith.maximumf(out0, in0) : f32; linalg.yield(v0)`, got `v0 = arith.maximumf(in0, in1) : f32; linalg.yield(v0)`

// -----

// A body that yields the input element type where the output has another.
func.func @uncast_copy(%in: memref<4xf16>, %out: memref<4xf32>) {
  "linalg.copy"(%in, %out) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%0: f16, %1: f32):
    "linalg.yield"(%0) : (f16) -> ()
  }) : (memref<4xf16>, memref<4xf32>) -> ()
  func.return
}

// CHECK: linalg.copy: type of yield operand 0 (f16) does not match the element type of output 0 (f32)

// -----

func.func @fill_type(%v: f16, %out: memref<4xf32>) {
  linalg.fill ins(%v : f16) outs(%out : memref<4xf32>)
  func.return
}

// CHECK: expected fill value type (f16) to match output element type (f32)

// -----

func.func @fill_shaped_value(%v: memref<4xf32>, %out: memref<4xf32>) {
  linalg.fill ins(%v : memref<4xf32>) outs(%out : memref<4xf32>)
  func.return
}

// CHECK: linalg.fill value must be a scalar, got memref<4xf32>

// -----

func.func @strides_rank(%in: memref<1x2x5x5xf32>, %k: memref<3x2x2x2xf32>, %out: memref<1x3x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<3xi64>} ins(%in, %k : memref<1x2x5x5xf32>, memref<3x2x2x2xf32>) outs(%out : memref<1x3x4x4xf32>)
  func.return
}

// CHECK: linalg.conv_2d_nchw_fchw strides must be 2 positive integer(s), one per window dimension, got [1, 1, 1]

// -----

func.func @zero_dilation(%in: memref<1x2x5xf32>, %win: memref<2xf32>, %out: memref<1x2x4xf32>) {
  linalg.pooling_ncw_sum {dilations = dense<0> : vector<1xi64>} ins(%in, %win : memref<1x2x5xf32>, memref<2xf32>) outs(%out : memref<1x2x4xf32>)
  func.return
}

// CHECK: linalg.pooling_ncw_sum dilations must be 1 positive integer(s), one per window dimension, got [0]

// -----

func.func @window_too_large(%in: memref<1x2x5x5xf32>, %k: memref<3x2x2x2xf32>, %out: memref<1x3x5x5xf32>) {
  linalg.conv_2d_nchw_fchw ins(%in, %k : memref<1x2x5x5xf32>, memref<3x2x2x2xf32>) outs(%out : memref<1x3x5x5xf32>)
  func.return
}

// CHECK: inferred input/output operand #0 has shape's dimension #2 to be greater than or equal to 6, but found 5

// -----

func.func @unsigned_max_on_floats(%in: memref<1x5x2xf32>, %win: memref<2xf32>, %out: memref<1x4x2xf32>) {
  linalg.pooling_nwc_max_unsigned ins(%in, %win : memref<1x5x2xf32>, memref<2xf32>) outs(%out : memref<1x4x2xf32>)
  func.return
}

// CHECK: linalg max_unsigned is not defined on element type f32

// -----

func.func @matmul_maps(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.matmul indexing_map #0 must have 3 dims, got (d0, d1) -> (d0, d1)

// -----

func.func @map_shapes(%a: memref<2x3xf32>, %c: memref<2x4xf32>) {
  linalg.map { math.absf } ins(%a : memref<2x3xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.map input 0 has shape [2, 3], expected the init's shape [2, 4]

// -----

func.func @map_arguments(%a: memref<2x4xf32>, %c: memref<2x4xf32>) {
  linalg.map ins(%a : memref<2x4xf32>) outs(%c : memref<2x4xf32>) (%x: f32) {
    linalg.yield %x : f32
  }
  func.return
}

// CHECK: linalg.map mapper must take one argument per input and one for the init, of their element types (f32, f32), got (f32)

// -----

func.func @map_yield(%a: memref<2x4xf32>, %c: memref<2x4xf32>, %v: i32) {
  linalg.map ins(%a : memref<2x4xf32>) outs(%c : memref<2x4xf32>) (%x: f32, %y: f32) {
    linalg.yield %v : i32
  }
  func.return
}

// CHECK: linalg.map: type of yield operand 0 (i32) does not match the element type of output 0 (f32)

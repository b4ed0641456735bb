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

// CHECK: type of yield operand 1 ('f16') doesn't match the element type of the enclosing linalg.generic op ('f32')

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

// No unsigned extremum of bools either (the named ops in MLIR say so, its
// linalg.elementwise crashes: parse-errors.mlir).
func.func @unsigned_max_of_bools(%a: memref<1x4x2xi1>, %w: memref<2xi1>, %o: memref<1x3x2xi1>) {
  linalg.pooling_nwc_max_unsigned ins(%a, %w : memref<1x4x2xi1>, memref<2xi1>) outs(%o : memref<1x3x2xi1>)
  func.return
}

// CHECK: linalg max_unsigned is not defined on i1 (MLIR: unsupported operation: unsigned max not on uint)

// -----

// MLIR's UnaryFn.square is defined on floats only, like the other unary
// functions (its parser: "unsupported non numeric type").
func.func @integer_square(%a: memref<4xi32>, %c: memref<4xi32>) {
  linalg.square ins(%a : memref<4xi32>) outs(%c : memref<4xi32>)
  func.return
}

// CHECK: linalg.square is only defined on floats, not on i32

// -----

func.func @difference_of_bools(%a: memref<4xi1>, %c: memref<4xi1>) {
  linalg.sub ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%c : memref<4xi1>)
  func.return
}

// CHECK: linalg sub is not defined on i1 (MLIR: unsupported operation: sub with bools)

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

// CHECK: type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')

// -----

// mmt4d's body is matmul's: out + a * b with the accumulator first.
func.func @mmt4d_body(%a: memref<1x1x2x2xf32>, %b: memref<1x1x2x2xf32>, %c: memref<1x1x2x2xf32>) {
  "linalg.mmt4d"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%0: f32, %1: f32, %2: f32):
    %3 = "arith.addf"(%0, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "linalg.yield"(%3) : (f32) -> ()
  }) : (memref<1x1x2x2xf32>, memref<1x1x2x2xf32>, memref<1x1x2x2xf32>) -> ()
  func.return
}

// CHECK: linalg.mmt4d body is not MLIR's definition of the op: expected `v0 = arith.mulf(in0, in1) : f32; v1 = arith.addf(out0, v0) : f32; linalg.yield(v1)`, got `v0 = arith.addf(in0, in1) : f32; linalg.yield(v0)`

// -----

// The zero points are subtracted before the product.
func.func @quantized_body(%a: memref<1x2x2xi32>, %b: memref<1x2x2xi32>, %z: i32, %c: memref<1x2x2xi32>) {
  "linalg.quantized_batch_matmul"(%a, %b, %z, %z, %c) <{operandSegmentSizes = array<i32: 4, 1>}> ({
  ^bb0(%0: i32, %1: i32, %2: i32, %3: i32, %4: i32):
    %5 = "arith.muli"(%0, %1) : (i32, i32) -> i32
    %6 = "arith.addi"(%4, %5) : (i32, i32) -> i32
    "linalg.yield"(%6) : (i32) -> ()
  }) : (memref<1x2x2xi32>, memref<1x2x2xi32>, i32, i32, memref<1x2x2xi32>) -> ()
  func.return
}

// CHECK: linalg.quantized_batch_matmul body is not MLIR's definition of the op: expected `v0 = arith.subi(in0, in2) : i32; v1 = arith.subi(in1, in3) : i32; v2 = arith.muli(v0, v1) : i32; v3 = arith.addi(out0, v2) : i32; linalg.yield(v3)`, got `v0 = arith.muli(in0, in1) : i32; v1 = arith.addi(out0, v0) : i32; linalg.yield(v1)`

// -----

func.func @quantized_conv_without_zero_points(%i: memref<1x4x4x1xi8>, %k: memref<2x2x1x1xi8>, %o: memref<1x3x3x1xi32>) {
  linalg.conv_2d_nhwc_hwcf_q ins(%i, %k : memref<1x4x4x1xi8>, memref<2x2x1x1xi8>) outs(%o : memref<1x3x3x1xi32>)
  func.return
}

// CHECK: linalg.conv_2d_nhwc_hwcf_q takes 4 inputs and one output, got 2 and 1

// -----

func.func @softmax_dimension(%x: memref<2x3xf32>, %y: memref<2x3xf32>) {
  linalg.softmax dimension(2) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
  func.return
}

// CHECK: linalg.softmax dimension 2 is not a dimension of the input (rank 2)

// -----

func.func @softmax_shape(%x: memref<2x3xf32>, %y: memref<3x2xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<2x3xf32>) outs(%y : memref<3x2xf32>)
  func.return
}

// CHECK: linalg.softmax output shape [3, 2] is not compatible with the input shape [2, 3]

// -----

func.func @softmax_element_types(%x: memref<2x3xf16>, %y: memref<2x3xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<2x3xf16>) outs(%y : memref<2x3xf32>)
  func.return
}

// CHECK: linalg.softmax input and output must have the same element type, got f16 and f32

// -----

func.func @softmax_tensor_without_result(%x: tensor<2x3xf32>) {
  linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>)
  func.return
}

// CHECK: linalg.softmax must have one tensor result, of the output's type, when its output is a tensor, and none on memrefs

// -----

func.func @reduce_dimension(%x: memref<2x3xf32>, %y: memref<2xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [2]
  func.return
}

// CHECK: linalg.reduce dimensions for reduction should be in the range [0, 1], got [2]

// -----

func.func @reduce_unsorted(%x: memref<2x3x4xf32>, %y: memref<3xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x3x4xf32>) outs(%y : memref<3xf32>) dimensions = [2, 0]
  func.return
}

// CHECK: linalg.reduce dimensions must be in increasing order, got [2, 0]

// -----

func.func @reduce_shape(%x: memref<2x3xf32>, %y: memref<3xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x3xf32>) outs(%y : memref<3xf32>) dimensions = [1]
  func.return
}

// CHECK: linalg.reduce init dimensions [3] don't match the input dimensions after reduction [2]

// -----

func.func @reduce_argument_type(%x: memref<2x3xf32>, %y: memref<2xf32>) {
  linalg.reduce ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] (%in: f64, %init: f32) {
    linalg.yield %init : f32
  }
  func.return
}

// CHECK: linalg.reduce body must take the inputs' then the inits' element types (f32, f32), got (f64, f32)

// -----

func.func @reduce_yield_type(%x: memref<2x3xf32>, %y: memref<2xf32>) {
  linalg.reduce ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] (%in: f32, %init: f32) {
    %r = arith.fptosi %in : f32 to i32
    linalg.yield %r : i32
  }
  func.return
}

// CHECK: type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')

// -----

func.func @reduce_no_input() {
  "linalg.reduce"() <{dimensions = array<i64: 0>}> ({
    "linalg.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// CHECK: linalg.reduce needs at least one input

// -----

func.func @reduce_odd_operands(%x: memref<2x3xf32>, %y: memref<2xf32>) {
  "linalg.reduce"(%x, %x, %y) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    "linalg.yield"(%c) : (f32) -> ()
  }) : (memref<2x3xf32>, memref<2x3xf32>, memref<2xf32>) -> ()
  func.return
}

// CHECK: Operation has 3 operands for 2 variadic operands marked as having the same size.

// -----

func.func @reduce_mixed(%x: tensor<2x3xf32>, %i: memref<2x3xi32>, %y: tensor<2xf32>, %j: memref<2xi32>) {
  %r = linalg.reduce ins(%x, %i : tensor<2x3xf32>, memref<2x3xi32>) outs(%y, %j : tensor<2xf32>, memref<2xi32>) dimensions = [1] (%a: f32, %b: i32, %c: f32, %d: i32) {
    linalg.yield %c, %d : f32, i32
  }
  func.return
}

// CHECK: linalg.reduce operands must be all tensors or all memrefs

// -----

func.func @reduce_input_shapes(%x: memref<2x3xf32>, %i: memref<2x4xi32>, %y: memref<2xf32>, %j: memref<2xi32>) {
  linalg.reduce ins(%x, %i : memref<2x3xf32>, memref<2x4xi32>) outs(%y, %j : memref<2xf32>, memref<2xi32>) dimensions = [1] (%a: f32, %b: i32, %c: f32, %d: i32) {
    linalg.yield %c, %d : f32, i32
  }
  func.return
}

// CHECK: linalg.reduce inputs must have one shape: input 1 is [2, 4], input 0 [2, 3]

// -----

func.func @reduce_init_shapes(%x: memref<2x3xf32>, %i: memref<2x3xi32>, %y: memref<2xf32>, %j: memref<3xi32>) {
  linalg.reduce ins(%x, %i : memref<2x3xf32>, memref<2x3xi32>) outs(%y, %j : memref<2xf32>, memref<3xi32>) dimensions = [1] (%a: f32, %b: i32, %c: f32, %d: i32) {
    linalg.yield %c, %d : f32, i32
  }
  func.return
}

// CHECK: linalg.reduce inits must have one shape: init 1 is [3], init 0 [2]

// -----

// MLIR compares the shapes as written: a dynamic input dimension is not 2.
func.func @reduce_dynamic_shape(%x: memref<?x3xf32>, %y: memref<2xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<?x3xf32>) outs(%y : memref<2xf32>) dimensions = [1]
  func.return
}

// CHECK: linalg.reduce init dimensions [2] don't match the input dimensions after reduction [?]

// -----

func.func @reduce_result_type(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  %r = "linalg.reduce"(%x, %y) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: f32, %b: f32):
    "linalg.yield"(%a) : (f32) -> ()
  }) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf64>
  func.return
}

// CHECK: linalg.reduce must have one result per tensor init, of its type (tensor<2xf32>), got (tensor<2xf64>)

// -----

func.func @reduce_no_result(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  "linalg.reduce"(%x, %y) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: f32, %b: f32):
    "linalg.yield"(%a) : (f32) -> ()
  }) : (tensor<2x3xf32>, tensor<2xf32>) -> ()
  func.return
}

// CHECK: linalg.reduce must have one result per tensor init, of its type (tensor<2xf32>), got ()

// -----

func.func @reduce_yield_count(%x: memref<2x3xf32>, %i: memref<2x3xi32>, %y: memref<2xf32>, %j: memref<2xi32>) {
  linalg.reduce ins(%x, %i : memref<2x3xf32>, memref<2x3xi32>) outs(%y, %j : memref<2xf32>, memref<2xi32>) dimensions = [1] (%a: f32, %b: i32, %c: f32, %d: i32) {
    linalg.yield %c : f32
  }
  func.return
}

// CHECK: expected number of yield values (1) to match the number of inits / outs operands of the enclosing LinalgOp (2)

// -----

func.func @reduce_init_argument(%x: memref<2x3xf32>, %i: memref<2x3xi32>, %y: memref<2xf32>, %j: memref<2xi32>) {
  linalg.reduce ins(%x, %i : memref<2x3xf32>, memref<2x3xi32>) outs(%y, %j : memref<2xf32>, memref<2xi32>) dimensions = [1] (%a: f32, %b: i32, %c: f32, %d: f64) {
    linalg.yield %c, %b : f32, i32
  }
  func.return
}

// CHECK: linalg.reduce body must take the inputs' then the inits' element types (f32, i32, f32, i32), got (f32, i32, f32, f64)

// -----

// The short form builds MLIR's payload on every argument: addi takes two.
func.func @reduce_short_form_variadic(%x: memref<2x3xi32>, %y: memref<2xi32>) {
  linalg.reduce { arith.addi } ins(%x, %x : memref<2x3xi32>, memref<2x3xi32>) outs(%y, %y : memref<2xi32>, memref<2xi32>) dimensions = [1]
  func.return
}

// CHECK: Expected 2 operands, but got 4

// -----

// A generic-form elementwise whose body is not its kind's.
func.func @elementwise_body(%a: memref<4xf32>, %c: memref<4xf32>) {
  "linalg.elementwise"(%a, %c) <{kind = #linalg.elementwise_kind<exp>, indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %0 = "math.log"(%x) : (f32) -> f32
    "linalg.yield"(%0) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK: linalg.elementwise body is not MLIR's definition of the op: expected `v0 = math.exp(in0) : f32; linalg.yield(v0)`, got `v0 = math.log(in0) : f32; linalg.yield(v0)`

// -----

// MLIR's generic parser accepts a unary kind with two inputs; its custom
// parser does not.
func.func @elementwise_arity(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  "linalg.elementwise"(%a, %b, %c) <{kind = #linalg.elementwise_kind<exp>, indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %z: f32, %y: f32):
    %0 = "math.exp"(%x) : (f32) -> f32
    "linalg.yield"(%0) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK: linalg.elementwise kind exp takes 1 input(s) and one output, got 2 and 1

// -----

// elementwise does not cast: f16 in, f32 out yields the wrong type (as in MLIR).
func.func @elementwise_yield(%a: memref<4xf16>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : memref<4xf16>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: type of yield operand 1 ('f16') doesn't match the element type of the enclosing linalg.generic op ('f32')

// -----

func.func @elementwise_int_exp(%a: memref<4xi32>, %c: memref<4xi32>) {
  "linalg.elementwise"(%a, %c) <{kind = #linalg.elementwise_kind<exp>, indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: i32, %y: i32):
    "linalg.yield"(%x) : (i32) -> ()
  }) : (memref<4xi32>, memref<4xi32>) -> ()
  func.return
}

// CHECK: linalg.elementwise kind exp: not defined on element type i32

// -----

func.func @elementwise_maps(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0) -> (d0)>] ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: expected the number of indexing_map (1) to be equal to the number of input/output operands (2)

// -----

func.func @elementwise_loops(%a: memref<4x5xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>] ins(%a : memref<4x5xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: expected indexing_map #0 to have 1 dim(s) to match the number of loops

// -----

// `cast` changes the body: a generic-form matmul holding the signed body
// while it says cast_unsigned is rejected, not computed either way.
func.func @matmul_cast_body(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xi32>) {
  "linalg.matmul"(%a, %b, %c) <{cast = #linalg.type_fn<cast_unsigned>, operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: i8, %y: i8, %z: i32):
    %0 = "arith.extsi"(%x) : (i8) -> i32
    %1 = "arith.extsi"(%y) : (i8) -> i32
    %2 = "arith.muli"(%0, %1) : (i32, i32) -> i32
    %3 = "arith.addi"(%z, %2) : (i32, i32) -> i32
    "linalg.yield"(%3) : (i32) -> ()
  }) : (memref<2x3xi8>, memref<3x4xi8>, memref<2x4xi32>) -> ()
  func.return
}

// CHECK: linalg.matmul body is not MLIR's definition of the op: expected `v0 = arith.extui(in0) : i32; v1 = arith.extui(in1) : i32; v2 = arith.muli(v0, v1) : i32; v3 = arith.addi(out0, v2) : i32; linalg.yield(v3)`, got `v0 = arith.extsi(in0) : i32; v1 = arith.extsi(in1) : i32; v2 = arith.muli(v0, v1) : i32; v3 = arith.addi(out0, v2) : i32; linalg.yield(v3)`

// -----

// MLIR keeps `cast` on matvec as a discardable attribute and ignores it.
func.func @matvec_cast(%a: memref<2x3xi8>, %b: memref<3xi8>, %c: memref<2xi32>) {
  linalg.matvec {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3xi8>) outs(%c : memref<2xi32>)
  func.return
}

// CHECK: linalg.matvec takes no cast attribute (MLIR ignores it on this op): remove it

// -----

func.func @elementwise_cast(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<exp> {cast = #linalg.type_fn<cast_unsigned>} ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.elementwise takes no cast attribute (MLIR ignores it on this op): remove it

// -----

// MLIR 20261001 builds extsi for batch_reduce_matmul whatever `cast` says.
func.func @batch_reduce_unsigned(%a: memref<5x2x3xi8>, %b: memref<5x3x4xi8>, %c: memref<2x4xi32>) {
  linalg.batch_reduce_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<5x2x3xi8>, memref<5x3x4xi8>) outs(%c : memref<2x4xi32>)
  func.return
}

// CHECK: linalg.batch_reduce_matmul: MLIR casts signed whatever `cast` says, so cast_unsigned on these element types is ambiguous; use linalg.contract with cast_unsigned for unsigned casts

// -----

func.func @batch_reduce_maps(%a: memref<5x2x3xf32>, %b: memref<5x3x4xf32>, %c: memref<2x4xf32>) {
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>] ins(%a, %b : memref<5x2x3xf32>, memref<5x3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: expected the number of indexing_map (2) to be equal to the number of input/output operands (3)

// -----

func.func @contract_no_reduction(%a: memref<2xf32>, %b: memref<4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>] ins(%a, %b : memref<2xf32>, memref<4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract indexing_maps contract no loop (each is in the output)

// -----

func.func @contract_map_count(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract needs 3 indexing_maps (lhs, rhs, output), got 2

// -----

func.func @contract_one_sided(%a: memref<2x3x5xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k, u) -> (m, k, u)>, affine_map<(m, n, k, u) -> (k, n)>, affine_map<(m, n, k, u) -> (m, n)>] ins(%a, %b : memref<2x3x5xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract loop d3 is neither in the output (parallel) nor in both inputs (contracted)

// -----

func.func @contract_unused(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k, u) -> (m, k)>, affine_map<(m, n, k, u) -> (k, n)>, affine_map<(m, n, k, u) -> (m, n)>] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract loop d3 is not used by any indexing_map

// -----

func.func @contract_permutation(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, 0)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract indexing_map #1 ((d0, d1, d2) -> (d2, 0)) is not a projected permutation

// -----

func.func @contract_operands(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %d: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b, %d : memref<2x3xf32>, memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract takes 2 inputs and one output, got 3 and 1

// -----

// A generic-form contract whose body casts unsigned without saying so.
func.func @contract_body(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xf32>) {
  "linalg.contract"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: i8, %y: i8, %z: f32):
    %0 = "arith.uitofp"(%x) : (i8) -> f32
    %1 = "arith.uitofp"(%y) : (i8) -> f32
    %2 = "arith.mulf"(%0, %1) : (f32, f32) -> f32
    %3 = "arith.addf"(%z, %2) : (f32, f32) -> f32
    "linalg.yield"(%3) : (f32) -> ()
  }) : (memref<2x3xi8>, memref<3x4xi8>, memref<2x4xf32>) -> ()
  func.return
}

// CHECK: linalg.contract body is not MLIR's definition of the op: expected `v0 = arith.sitofp(in0) : f32; v1 = arith.sitofp(in1) : f32; v2 = arith.mulf(v0, v1) : f32; v3 = arith.addf(out0, v2) : f32; linalg.yield(v3)`, got `v0 = arith.uitofp(in0) : f32; v1 = arith.uitofp(in1) : f32; v2 = arith.mulf(v0, v1) : f32; v3 = arith.addf(out0, v2) : f32; linalg.yield(v3)`

// -----

func.func @pack_result_on_memref(%a: memref<8x16xf32>, %b: memref<2x16x4xf32>) {
  %0 = "linalg.pack"(%a, %b) <{inner_dims_pos = array<i64: 0>, static_inner_tiles = array<i64: 4>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<8x16xf32>, memref<2x16x4xf32>) -> tensor<2x16x4xf32>
  func.return
}

// CHECK: linalg.pack must have one result of the dest's type on tensors and none on memrefs, got (tensor<2x16x4xf32>)

// -----

func.func @pack_no_result(%a: tensor<8x16xf32>, %b: tensor<2x16x4xf32>) {
  "linalg.pack"(%a, %b) <{inner_dims_pos = array<i64: 0>, static_inner_tiles = array<i64: 4>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<8x16xf32>, tensor<2x16x4xf32>) -> ()
  func.return
}

// CHECK: linalg.pack must have one result of the dest's type on tensors and none on memrefs, got ()

// -----

func.func @pack_mixed(%a: memref<8x16xf32>, %b: tensor<2x16x4xf32>) {
  %0 = "linalg.pack"(%a, %b) <{inner_dims_pos = array<i64: 0>, static_inner_tiles = array<i64: 4>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (memref<8x16xf32>, tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  func.return
}

// CHECK: linalg.pack mixes tensor and buffer semantics: source memref<8x16xf32>, dest tensor<2x16x4xf32>

// -----

// MLIR crashes on a dynamic tile without its value.
func.func @pack_missing_tile_value(%a: tensor<8x16xf32>, %b: tensor<?x16x?xf32>) {
  %0 = "linalg.pack"(%a, %b) <{inner_dims_pos = array<i64: 0>, static_inner_tiles = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (tensor<8x16xf32>, tensor<?x16x?xf32>) -> tensor<?x16x?xf32>
  func.return
}

// CHECK: The number of dynamic positions passed as values (0) does not match the number of dynamic position markers (1) in linalg.pack inner_tiles.

// -----

func.func @pack_zero_tile(%a: memref<8x16xf32>, %b: memref<8x16x1x0xf32>) {
  linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [1, 0] into %b : memref<8x16xf32> -> memref<8x16x1x0xf32>
  func.return
}

// CHECK: linalg.pack has a zero tile: [1, 0]

// -----

func.func @pack_position_range(%a: memref<8x16xf32>, %b: memref<8x16x1xf32>) {
  linalg.pack %a inner_dims_pos = [2] inner_tiles = [1] into %b : memref<8x16xf32> -> memref<8x16x1xf32>
  func.return
}

// CHECK: linalg.pack inner_dims_pos [2] must be distinct dimensions of the unpacked rank 2

// -----

func.func @pack_position_twice(%a: memref<8x16xf32>, %b: memref<8x16x1x1xf32>) {
  linalg.pack %a inner_dims_pos = [0, 0] inner_tiles = [1, 1] into %b : memref<8x16xf32> -> memref<8x16x1x1xf32>
  func.return
}

// CHECK: linalg.pack inner_dims_pos [0, 0] must be distinct dimensions of the unpacked rank 2

// -----

func.func @pack_perm_twice(%a: memref<8x16xf32>, %b: memref<8x16x1xf32>) {
  linalg.pack %a outer_dims_perm = [0, 0] inner_dims_pos = [0] inner_tiles = [1] into %b : memref<8x16xf32> -> memref<8x16x1xf32>
  func.return
}

// CHECK: linalg.pack outer_dims_perm [0, 0] must be distinct dimensions of the unpacked rank 2

// -----

func.func @pack_perm_short(%a: memref<8x16xf32>, %b: memref<8x16x1xf32>) {
  linalg.pack %a outer_dims_perm = [0] inner_dims_pos = [0] inner_tiles = [1] into %b : memref<8x16xf32> -> memref<8x16x1xf32>
  func.return
}

// CHECK: linalg.pack outer_dims_perm [0] must be empty or a permutation of the 2 unpacked dimensions

// -----

func.func @pack_more_tiles_than_rank(%a: memref<8xf32>, %b: memref<8x1x1xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [1, 1] into %b : memref<8xf32> -> memref<8x1x1xf32>
  func.return
}

// CHECK: linalg.pack has 2 tiles, more than the unpacked rank 1

// -----

func.func @pack_tile_count(%a: memref<8x16xf32>, %b: memref<8x16x1xf32>) {
  linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [1] into %b : memref<8x16xf32> -> memref<8x16x1xf32>
  func.return
}

// CHECK: linalg.pack has 1 tiles for 2 inner_dims_pos, expected one per position

// -----

func.func @pack_rank(%a: memref<8x16xf32>, %b: memref<8x16x1x1xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [1] into %b : memref<8x16xf32> -> memref<8x16x1x1xf32>
  func.return
}

// CHECK: linalg.pack packed rank 4 is not the unpacked rank plus the number of tiles (2 + 1)

// -----

func.func @pack_tile_size(%a: memref<8x16xf32>, %b: memref<4x16x2xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [4] into %b : memref<8x16xf32> -> memref<4x16x2xf32>
  func.return
}

// CHECK: linalg.pack tile 0 is 4 but the packed dimension it sizes is 2

// -----

func.func @pack_static_tile_dynamic_size(%a: memref<8x16xf32>, %b: memref<2x16x?xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [4] into %b : memref<8x16xf32> -> memref<2x16x?xf32>
  func.return
}

// CHECK: linalg.pack tile 0 is 4 but the packed dimension it sizes is ?

// -----

func.func @pack_dynamic_tile_static_size(%a: memref<8x16xf32>, %b: memref<2x16x4xf32>, %t: index) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [%t] into %b : memref<8x16xf32> -> memref<2x16x4xf32>
  func.return
}

// CHECK: linalg.pack tile 0 is ? but the packed dimension it sizes is 4

// -----

// MLIR wants the packed shape it infers, not a larger one.
func.func @pack_outer_size(%a: memref<8x16xf32>, %b: memref<3x16x4xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [4] into %b : memref<8x16xf32> -> memref<3x16x4xf32>
  func.return
}

// CHECK: linalg.pack packed shape 3x16x4 is not the one the unpacked shape 8x16 packs to: 2x16x4

// -----

func.func @pack_permuted_size(%a: memref<8x15xf32>, %b: memref<5x2x?xf32>, %t: index) {
  linalg.pack %a outer_dims_perm = [1, 0] inner_dims_pos = [0] inner_tiles = [%t] into %b : memref<8x15xf32> -> memref<5x2x?xf32>
  func.return
}

// CHECK: linalg.pack packed shape 5x2x? is not the one the unpacked shape 8x15 packs to: 15x?x?

// -----

func.func @pack_padding_type(%a: memref<7x16xf32>, %b: memref<2x16x4xf32>, %p: f64) {
  linalg.pack %a padding_value(%p : f64) inner_dims_pos = [0] inner_tiles = [4] into %b : memref<7x16xf32> -> memref<2x16x4xf32>
  func.return
}

// CHECK: linalg.pack padding_value must be of the source's element type f32, got f64

// -----

func.func @pack_partial_tile(%a: memref<7x16xf32>, %b: memref<2x16x4xf32>) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [4] into %b : memref<7x16xf32> -> memref<2x16x4xf32>
  func.return
}

// CHECK: linalg.pack without padding_value must fill whole tiles: a static size is not a multiple of its tile (or, with a dynamic tile, of the dest's outer size, as MLIR checks)

// -----

// With a dynamic tile MLIR divides 8 by the dest's outer size, 3.
func.func @pack_dynamic_tile_outer_size(%a: memref<8x16xf32>, %b: memref<3x16x?xf32>, %t: index) {
  linalg.pack %a inner_dims_pos = [0] inner_tiles = [%t] into %b : memref<8x16xf32> -> memref<3x16x?xf32>
  func.return
}

// CHECK: linalg.pack without padding_value must fill whole tiles

// -----

func.func @unpack_result_type(%a: tensor<8x16xf32>, %b: tensor<2x16x4xf32>) {
  %0 = "linalg.unpack"(%b, %a) <{inner_dims_pos = array<i64: 0>, static_inner_tiles = array<i64: 4>}> : (tensor<2x16x4xf32>, tensor<8x16xf32>) -> tensor<8x16xf64>
  func.return
}

// CHECK: linalg.unpack must have one result of the dest's type on tensors and none on memrefs, got (tensor<8x16xf64>)

// -----

func.func @unpack_rank(%a: memref<8x16xf32>, %b: memref<2x16x4x1xf32>) {
  linalg.unpack %b inner_dims_pos = [0] inner_tiles = [4] into %a : memref<2x16x4x1xf32> -> memref<8x16xf32>
  func.return
}

// CHECK: linalg.unpack packed rank 4 is not the unpacked rank plus the number of tiles (2 + 1)

// -----

func.func @unpack_outer_size(%a: memref<8x16xf32>, %b: memref<3x16x4xf32>) {
  linalg.unpack %b inner_dims_pos = [0] inner_tiles = [4] into %a : memref<3x16x4xf32> -> memref<8x16xf32>
  func.return
}

// CHECK: linalg.unpack packed shape 3x16x4 is not the one the unpacked shape 8x16 packs to: 2x16x4

// -----

func.func @unpack_zero_tile(%a: memref<8x16xf32>, %b: memref<2x16x0xf32>) {
  linalg.unpack %b inner_dims_pos = [0] inner_tiles = [0] into %a : memref<2x16x0xf32> -> memref<8x16xf32>
  func.return
}

// CHECK: linalg.unpack has a zero tile: [0]

// -----

// A body constant is part of the definition: reciprocal is 1 / x.
func.func @reciprocal_constant(%a: memref<4xf32>, %b: memref<4xf32>) {
  "linalg.reciprocal"(%a, %b) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %0 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32
    %1 = "arith.divf"(%0, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "linalg.yield"(%1) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK: linalg.reciprocal body is not MLIR's definition of the op: expected `v0 = arith.constant<value = 1.000000e+00 : f32>() : f32; v1 = arith.divf(v0, in0) : f32; linalg.yield(v1)`, got `v0 = arith.constant<value = 2.000000e+00 : f32>() : f32; v1 = arith.divf(v0, in0) : f32; linalg.yield(v1)`

// -----

func.func @index_outside(%a: memref<4xf32>) {
  %i = linalg.index 0 : index
  func.return
}

// CHECK: linalg.index must be in the body of a linalg op with loops, got func.func

// -----

func.func @index_dim(%v: memref<3x4xf32>, %m: memref<3xf32>) {
  linalg.reduce ins(%v : memref<3x4xf32>) outs(%m : memref<3xf32>) dimensions = [1] (%in: f32, %acc: f32) {
    %k = linalg.index 2 : index
    linalg.yield %in : f32
  }
  func.return
}

// CHECK: linalg.index dim 2 is not a loop of the enclosing linalg.reduce (2 loops)

// -----

func.func @fill_rng_2d_types(%min: f32, %max: f32, %seed: i32, %o: memref<3x4xf32>) {
  linalg.fill_rng_2d ins(%min, %max, %seed : f32, f32, i32) outs(%o : memref<3x4xf32>)
  func.return
}

// CHECK: linalg.fill_rng_2d takes min and max as f64 and seed as i32 scalars and one output, got ins(f32, f32, i32) and 1 output(s)

// -----

func.func @fill_rng_2d_count(%min: f64, %max: f64, %o: memref<3x4xf32>) {
  linalg.fill_rng_2d ins(%min, %max : f64, f64) outs(%o : memref<3x4xf32>)
  func.return
}

// CHECK: linalg.fill_rng_2d takes min and max as f64 and seed as i32 scalars and one output, got ins(f64, f64) and 1 output(s)

// -----

func.func @fill_rng_2d_rank(%min: f64, %max: f64, %seed: i32, %o: memref<4xf32>) {
  linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%o : memref<4xf32>)
  func.return
}

// CHECK: linalg.fill_rng_2d fills one 2-d output, got memref<4xf32>

// -----

// A generic-form body with another LCG multiplier is not fill_rng_2d.
func.func @fill_rng_2d_body(%min: f64, %max: f64, %seed: i32, %o: memref<3x4xf64>) {
  "linalg.fill_rng_2d"(%min, %max, %seed, %o) <{operandSegmentSizes = array<i32: 3, 1>}> ({
  ^bb0(%lo: f64, %hi: f64, %s: i32, %out: f64):
    %0 = "arith.constant"() <{value = 2147483647 : i64}> : () -> i64
    %1 = "arith.sitofp"(%0) : (i64) -> f64
    %2 = "linalg.index"() <{dim = 1 : i64}> : () -> index
    %3 = "arith.index_cast"(%2) : (index) -> i32
    %4 = "linalg.index"() <{dim = 0 : i64}> : () -> index
    %5 = "arith.index_cast"(%4) : (index) -> i32
    %6 = "arith.addi"(%5, %s) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %7 = "arith.constant"() <{value = 1103515243 : i64}> : () -> i64
    %8 = "arith.trunci"(%7) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
    %9 = "arith.muli"(%6, %8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %10 = "arith.constant"() <{value = 12345 : i64}> : () -> i64
    %11 = "arith.trunci"(%10) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
    %12 = "arith.addi"(%9, %11) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %13 = "arith.addi"(%3, %12) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %14 = "arith.constant"() <{value = 1103515245 : i64}> : () -> i64
    %15 = "arith.trunci"(%14) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
    %16 = "arith.muli"(%13, %15) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %17 = "arith.constant"() <{value = 12345 : i64}> : () -> i64
    %18 = "arith.trunci"(%17) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
    %19 = "arith.addi"(%16, %18) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %20 = "arith.sitofp"(%19) : (i32) -> f64
    %21 = "arith.addf"(%1, %20) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %22 = "arith.subf"(%hi, %lo) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %23 = "arith.constant"() <{value = 2.3283063999999999E-10 : f64}> : () -> f64
    %24 = "arith.mulf"(%22, %23) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %25 = "arith.mulf"(%21, %24) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    %26 = "arith.addf"(%25, %lo) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    "linalg.yield"(%26) : (f64) -> ()
  }) : (f64, f64, i32, memref<3x4xf64>) -> ()
  func.return
}

// CHECK: linalg.fill_rng_2d body is not MLIR's definition of the op: expected `{{.*}}arith.constant<value = 1103515245 : i64>(){{.*}}`, got `{{.*}}arith.constant<value = 1103515243 : i64>(){{.*}}`

// -----

func.func @winograd_rank(%f: tensor<3x3x5xf32>, %o: tensor<6x6x5x2xf32>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<3x3x5xf32>) outs(%o : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform operand 0 must be a 4-d tensor, got tensor<3x3x5xf32>

// -----

func.func @winograd_element_type(%f: tensor<2x3x3x5xf32>, %o: tensor<6x6x5x2xf16>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%o : tensor<6x6x5x2xf16>) -> tensor<6x6x5x2xf16>
  func.return
}

// CHECK: linalg.winograd_filter_transform input and output must have one element type, got tensor<2x3x3x5xf32> and tensor<6x6x5x2xf16>

// -----

func.func @winograd_result(%f: tensor<2x3x3x5xf32>, %o: tensor<6x6x5x2xf32>) {
  %0 = "linalg.winograd_filter_transform"(%f, %o) <{fmr = 1 : i32}> : (tensor<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf16>
  func.return
}

// CHECK: linalg.winograd_filter_transform result must have the output's type tensor<6x6x5x2xf32>, got tensor<6x6x5x2xf16>

// -----

func.func @winograd_fmr(%f: tensor<2x3x3x5xf32>, %o: tensor<6x6x5x2xf32>) {
  %0 = "linalg.winograd_filter_transform"(%f, %o) <{fmr = 3 : i32}> : (tensor<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform fmr 3 is none of MLIR's F_2_3 (0), F_4_3 (1), F_2_5 (2)

// -----

func.func @winograd_filter_width(%f: tensor<2x3x4x5xf32>, %o: tensor<6x6x5x2xf32>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x4x5xf32>) outs(%o : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform filter width must be r (3) or 1, got 4

// -----

func.func @winograd_filter_dynamic(%f: tensor<2x?x3x5xf32>, %o: tensor<6x6x5x2xf32>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x?x3x5xf32>) outs(%o : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform filter height must be r (3) or 1, got ?

// -----

func.func @winograd_filter_1x1(%f: tensor<2x1x1x5xf32>, %o: tensor<1x1x5x2xf32>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x1x1x5xf32>) outs(%o : tensor<1x1x5x2xf32>) -> tensor<1x1x5x2xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform filter height or width must be r (3), got 1x1

// -----

func.func @winograd_filter_output(%f: tensor<2x3x3x5xf32>, %o: tensor<6x6x2x5xf32>) {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%o : tensor<6x6x2x5xf32>) -> tensor<6x6x2x5xf32>
  func.return
}

// CHECK: linalg.winograd_filter_transform output shape 6x6x2x5 is not the expected 6x6x5x2

// -----

func.func @winograd_input_tiles(%i: tensor<2x13x14x5xf32>, %o: tensor<6x6x3x3x2x5xf32>) {
  %0 = linalg.winograd_input_transform fmr(F_4_3) ins(%i : tensor<2x13x14x5xf32>) outs(%o : tensor<6x6x3x3x2x5xf32>) -> tensor<6x6x3x3x2x5xf32>
  func.return
}

// CHECK: linalg.winograd_input_transform output shape 6x6x3x3x2x5 is not the expected 6x6x2x3x2x5

// -----

func.func @winograd_input_dynamic(%i: tensor<?x?x?x?xf32>, %o: tensor<1x6x?x?x?x?xf32>) {
  %0 = linalg.winograd_input_transform fmr(F_4_3) ins(%i : tensor<?x?x?x?xf32>) outs(%o : tensor<1x6x?x?x?x?xf32>) -> tensor<1x6x?x?x?x?xf32>
  func.return
}

// CHECK: linalg.winograd_input_transform output shape 1x6x?x?x?x? is not the expected 6x6x?x?x?x?

// -----

func.func @winograd_output_alpha(%v: tensor<5x6x2x2x2x3xf32>, %o: tensor<2x8x8x3xf32>) {
  %0 = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<5x6x2x2x2x3xf32>) outs(%o : tensor<2x8x8x3xf32>) -> tensor<2x8x8x3xf32>
  func.return
}

// CHECK: linalg.winograd_output_transform input height 5 must be the tile size 6 (or 1)

// -----

func.func @winograd_output_shape(%v: tensor<6x6x2x2x2x3xf32>, %o: tensor<2x8x9x3xf32>) {
  %0 = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<6x6x2x2x2x3xf32>) outs(%o : tensor<2x8x9x3xf32>) -> tensor<2x8x9x3xf32>
  func.return
}

// CHECK: linalg.winograd_output_transform output shape 2x8x9x3 is not the expected 2x8x8x3

// -----

// MLIR defines the Winograd steps on tensors only.
func.func @winograd_memref(%f: memref<2x3x3x5xf32>, %o: memref<6x6x5x2xf32>) {
  %0 = "linalg.winograd_filter_transform"(%f, %o) <{fmr = 1 : i32}> : (memref<2x3x3x5xf32>, memref<6x6x5x2xf32>) -> memref<6x6x5x2xf32>
  func.return
}

// CHECK: operand 'filter' at position 0 does not verify:
// CHECK-NEXT: memref<2x3x3x5xf32> should be of base attribute tensor

// -----

// A named op's operand counts are checked before its body is built from them.

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.add ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.add takes 2 inputs and one output, got 1 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.exp ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.exp takes 1 input and one output, got 2 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.select ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.select takes 3 inputs and one output, got 2 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.fill outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.fill takes 1 input and one output, got 0 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>)
  func.return
}

// CHECK: linalg.copy takes 1 input and one output, got 1 and 0

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.matmul outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.matmul takes 2 inputs and one output, got 0 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.quantized_matmul ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.quantized_matmul takes 4 inputs and one output, got 2 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.conv_2d_nchw_fchw ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.conv_2d_nchw_fchw takes 2 inputs and one output, got 1 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.pooling_nhwc_max outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.pooling_nhwc_max takes 2 inputs and one output, got 0 and 1

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.conv_2d_nhwc_hwcf_q ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.conv_2d_nhwc_hwcf_q takes 4 inputs and one output, got 1 and 1

// -----

// MLIR reads the maps of a convolution or pooling from
// linalg.memoized_indexing_maps (which torch-mlir's output carries): it
// rejects maps that do not fit the operands and computes with those that do
// (here, with the output transposed). memplan computes with the op's
// definition, so maps that differ from it are an error.
func.func @memoized_maps(%i: memref<1x1x6x6xf32>, %f: memref<1x1x3x3xf32>, %o: memref<1x1x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {linalg.memoized_indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d3, d2)>]} ins(%i, %f : memref<1x1x6x6xf32>, memref<1x1x3x3xf32>) outs(%o : memref<1x1x4x4xf32>)
  func.return
}

// CHECK: linalg.conv_2d_nchw_fchw: linalg.memoized_indexing_maps [{{.*}}(d0, d1, d3, d2)>] are not the op's indexing maps [{{.*}}(d0, d1, d2, d3)]: MLIR would read the op with them

// -----

func.func @memoized_maps_equal(%i: memref<1x1x6x6xf32>, %f: memref<1x1x3x3xf32>, %o: memref<1x1x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {linalg.memoized_indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]} ins(%i, %f : memref<1x1x6x6xf32>, memref<1x1x3x3xf32>) outs(%o : memref<1x1x4x4xf32>)
  func.return
}

// CHECK: func.func @memoized_maps_equal
// CHECK-NEXT: linalg.conv_2d_nchw_fchw ins(%i, %f

// -----

// A matmul input's map may transpose the default map's dimensions, not index
// the operand by other loops (MLIR: `Unexpected dim expression in map result.`).
func.func @matmul_map_dims(%a: memref<4x8xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>] ins(%a, %b : memref<4x8xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>)
  func.return
}

// CHECK: Unexpected dim expression in map result: d0 in indexing_map #1 ((d0, d1, d2) -> (d0, d1)) is not a result of the default map (d0, d1, d2) -> (d2, d1)

// -----

// A matmul input's map of one result broadcasts the operand over the other
// loops, and must keep the reduction dimension (MLIR:
// `Invalid broadcast requested, should be (d2).`).
func.func @matmul_broadcast_without_reduction(%a: memref<3xf32>, %b: memref<5x7xf32>, %c: memref<3x7xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<3xf32>, memref<5x7xf32>) outs(%c : memref<3x7xf32>)
  func.return
}

// CHECK: Invalid broadcast requested, should be (d2): indexing_map #0 is (d0, d1, d2) -> (d0)

// -----

// Every map of a contraction reads distinct dimensions (MLIR: `expected
// indexing maps to be projected permutations`).
func.func @matmul_map_repeats_a_dimension(%a: memref<3x3xf32>, %b: memref<3x7xf32>, %c: memref<3x7xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<3x3xf32>, memref<3x7xf32>) outs(%c : memref<3x7xf32>)
  func.return
}

// CHECK: expected indexing maps to be projected permutations: indexing_map #0 is (d0, d1, d2) -> (d0, d0)

// -----

// batch_matmul: a broadcast keeps k, after the batch or m dimension on the
// left-hand side (MLIR: `Invalid broadcast requested.`).
func.func @batch_matmul_broadcast_order(%a: memref<5x3xf32>, %b: memref<2x5x7xf32>, %c: memref<2x3x7xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : memref<5x3xf32>, memref<2x5x7xf32>) outs(%c : memref<2x3x7xf32>)
  func.return
}

// CHECK: Invalid broadcast requested: indexing_map #0 is (d0, d1, d2, d3) -> (d3, d1)

// -----

// An input of three results starts with the batch dimension.
func.func @batch_matmul_batch_dimension(%a: memref<3x2x5xf32>, %b: memref<2x5x7xf32>, %c: memref<2x3x7xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : memref<3x2x5xf32>, memref<2x5x7xf32>) outs(%c : memref<2x3x7xf32>)
  func.return
}

// CHECK: Invalid batch dimension expression: indexing_map #0 ((d0, d1, d2, d3) -> (d1, d0, d3)) must start with d0

// -----

// The output map of batch_matmul is (batch, m, n) in order.
func.func @batch_matmul_output_map(%a: memref<2x3x5xf32>, %b: memref<2x5x7xf32>, %c: memref<2x7x3xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>] ins(%a, %b : memref<2x3x5xf32>, memref<2x5x7xf32>) outs(%c : memref<2x7x3xf32>)
  func.return
}

// CHECK: Invalid output map result dimension: the output's indexing_map (d0, d1, d2, d3) -> (d0, d2, d1) must be (d0, d1, d2, d3) -> (d0, d1, d2)

// -----

// batch_reduce_matmul's right-hand side broadcast reads (batch, k) or
// (k, n), and its output two dimensions.
func.func @batch_reduce_matmul_broadcast(%a: memref<2x3x5xf32>, %b: memref<7x5xf32>, %c: memref<3x7xf32>) {
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%a, %b : memref<2x3x5xf32>, memref<7x5xf32>) outs(%c : memref<3x7xf32>)
  func.return
}

// CHECK: Invalid broadcast requested: indexing_map #1 is (d0, d1, d2, d3) -> (d2, d3)

// -----

func.func @batch_reduce_matmul_output_rank(%a: memref<2x3x5xf32>, %b: memref<2x5x7xf32>, %c: memref<2x3x7xf32>) {
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : memref<2x3x5xf32>, memref<2x5x7xf32>) outs(%c : memref<2x3x7xf32>)
  func.return
}

// CHECK: expects 2 dims, but got (3): the output's indexing_map is (d0, d1, d2, d3) -> (d0, d1, d2)

// -----

// Broadcasts and transposes MLIR accepts.
func.func @matmul_family_valid_maps(%a: memref<5xf32>, %b: memref<7x5xf32>, %c: memref<3x7xf32>, %ba: memref<3x5xf32>, %bb: memref<2x5x7xf32>, %bc: memref<2x3x7xf32>, %rb: memref<5x7xf32>, %rc: memref<3x7xf32>, %ra: memref<2x3x5xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<5xf32>, memref<7x5xf32>) outs(%c : memref<3x7xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%ba, %bb : memref<3x5xf32>, memref<2x5x7xf32>) outs(%bc : memref<2x3x7xf32>)
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%ra, %rb : memref<2x3x5xf32>, memref<5x7xf32>) outs(%rc : memref<3x7xf32>)
  func.return
}

// CHECK: func.func @matmul_family_valid_maps
// CHECK: linalg.matmul
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_reduce_matmul

// -----

// A rank-0 output makes no loops: a rank-1 input has no place in them
// (MLIR: "expected operand #0 rank (1) to match the result rank of
// indexing_map (0)").
func.func @pointwise_into_rank_0(%a: memref<4xf32>, %s: memref<f32>) {
  linalg.add ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%s : memref<f32>)
  func.return
}

// CHECK: expected operand #0 of rank 1 to match the result count of indexing_map #0, 0

// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @f(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul indexing_maps = [1, 2] ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: indexing_maps must be a list of affine maps

// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.map { not.an_op } ins(%a : memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  func.return
}

// CHECK: unknown op not.an_op in linalg.map

// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.map { math.absf } ins(%a : memref<2x3xf32>) outs(%c, %a : memref<2x3xf32>, memref<2x3xf32>)
  func.return
}

// CHECK: linalg.map takes one init operand

// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2xf32>) {
  linalg.reduce ins(%a, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2xf32>) dimensions = [1] (%x: f32, %y: f32, %z: f32) {
    linalg.yield %z : f32
  }
  func.return
}

// CHECK: linalg.reduce takes one init per input, got 2 input(s) and 1 init(s)

// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.softmax ins(%a : memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  func.return
}

// CHECK: Expected 'dimension' in linalg.softmax

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<clamp> ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: Expected `exp`, `log`

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.elementwise kind add takes 2 input(s) and one output

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>] kind=#linalg.elementwise_kind<exp> ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: 'kind' expected in linalg.elementwise

// -----

func.func @f(%a: memref<4xi32>, %c: memref<4xi32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<sqrt> ins(%a : memref<4xi32>) outs(%c : memref<4xi32>)
  func.return
}

// CHECK: linalg.elementwise kind sqrt: not defined on element type i32

// -----

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.elementwise kind max_unsigned: linalg max_unsigned is not defined on element type f32

// -----

func.func @f(%m: memref<4xf32>, %a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%m, %a, %a : memref<4xf32>, memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  func.return
}

// CHECK: linalg.elementwise kind select: the condition must be i1, not f32

// -----

func.func @f(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.contract ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  func.return
}

// CHECK: linalg.contract expects `indexing_maps = [...]`

// -----

func.func @f(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xi32>) {
  linalg.matmul {cast = #linalg.type_fn<cast_foo>} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%c : memref<2x4xi32>)
  func.return
}

// CHECK: Expected `cast_signed`, or `cast_unsigned`.

// -----

func.func @f(%v: tensor<6x6x2x2x2x3xf32>, %o: tensor<2x8x8x3xf32>) {
  %0 = linalg.winograd_output_transform fmr(F_3_3) ins(%v : tensor<6x6x2x2x2x3xf32>) outs(%o : tensor<2x8x8x3xf32>) -> tensor<2x8x8x3xf32>
  func.return
}

// CHECK: linalg.winograd_output_transform fmr must be one of F_2_3, F_4_3, F_2_5, got F_3_3


// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.softmax dimension(1) ins(%a, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  func.return
}

// CHECK: linalg.softmax takes one ins operand

// -----

func.func @f(%f: tensor<2x3x3x5xf32>, %fo: tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32> {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%fo, %fo : tensor<6x6x5x2xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  func.return %0 : tensor<6x6x5x2xf32>
}

// CHECK: linalg.winograd_filter_transform takes one outs operand

// -----

// MLIR crashes on an unsigned extremum of bools.
func.func @f(%a: memref<4xi1>, %c: memref<4xi1>) {
  linalg.elementwise kind=#linalg.elementwise_kind<min_unsigned> ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%c : memref<4xi1>)
  func.return
}

// CHECK: linalg.elementwise kind min_unsigned: linalg min_unsigned is not defined on i1 (MLIR: unsupported operation: unsigned min not on uint)

// -----

// linalg.yield ends the body of a linalg op only (MLIR: expected parent op
// with LinalgOp interface); xDSL checks no parent.
func.func @yield_ends_function() {
  "linalg.yield"() : () -> ()
}

// CHECK: linalg.yield: expected parent op with LinalgOp interface, got func.func

// -----

func.func @yield_ends_region() {
  scf.execute_region {
    "linalg.yield"() : () -> ()
  }
  func.return
}

// CHECK: linalg.yield: expected parent op with LinalgOp interface, got scf.execute_region

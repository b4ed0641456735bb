// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Custom-form round trips of the ops memplan adds or corrects; GENERIC pins
// the hidden bodies as MLIR builds them.

func.func @pooling(%in: memref<1x2x5x5xf32>, %win: memref<2x2xf32>, %out: memref<1x2x2x2xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : memref<1x2x5x5xf32>, memref<2x2xf32>) outs(%out : memref<1x2x2x2xf32>)
  linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : memref<1x2x5x5xf32>, memref<2x2xf32>) outs(%out : memref<1x2x2x2xf32>)
  func.return
}

// CHECK-LABEL: func.func @pooling
// CHECK-NEXT:    linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : memref<1x2x5x5xf32>, memref<2x2xf32>) outs(%out : memref<1x2x2x2xf32>)
// CHECK-NEXT:    linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : memref<1x2x5x5xf32>, memref<2x2xf32>) outs(%out : memref<1x2x2x2xf32>)

// GENERIC:      "linalg.pooling_nchw_max"(%in, %win, %out)
// GENERIC-NEXT: ^{{.*}}(%[[IN:[a-z0-9_]+]]: f32, %[[WIN:[a-z0-9_]+]]: f32, %[[OUT:[a-z0-9_]+]]: f32):
// GENERIC-NEXT:   %[[MAX:[a-z0-9_]+]] = "arith.maximumf"(%[[OUT]], %[[IN]])
// GENERIC-NEXT:   "linalg.yield"(%[[MAX]])
// GENERIC:      "linalg.pooling_nchw_sum"(%in, %win, %out)
// GENERIC-NEXT: ^{{.*}}(%[[IN:[a-z0-9_]+]]: f32, %[[WIN:[a-z0-9_]+]]: f32, %[[OUT:[a-z0-9_]+]]: f32):
// GENERIC-NEXT:   %[[SUM:[a-z0-9_]+]] = "arith.addf"(%[[OUT]], %[[IN]])
// GENERIC-NEXT:   "linalg.yield"(%[[SUM]])

func.func @convolutions(%in: memref<1x2x9x9xi8>, %k: memref<3x2x3x3xi8>, %out: memref<1x3x3x2xi32>, %dw: memref<2x3x3xi8>, %dwout: memref<1x2x7x7xi32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%in, %k : memref<1x2x9x9xi8>, memref<3x2x3x3xi8>) outs(%out : memref<1x3x3x2xi32>)
  linalg.depthwise_conv_2d_nchw_chw ins(%in, %dw : memref<1x2x9x9xi8>, memref<2x3x3xi8>) outs(%dwout : memref<1x2x7x7xi32>)
  func.return
}

// CHECK-LABEL: func.func @convolutions
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%in, %k : memref<1x2x9x9xi8>, memref<3x2x3x3xi8>) outs(%out : memref<1x3x3x2xi32>)
// CHECK-NEXT:    linalg.depthwise_conv_2d_nchw_chw ins(%in, %dw : memref<1x2x9x9xi8>, memref<2x3x3xi8>) outs(%dwout : memref<1x2x7x7xi32>)

// GENERIC:      "linalg.conv_2d_nchw_fchw"(%in, %k, %out)
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: i8, %[[B:[a-z0-9_]+]]: i8, %[[ACC:[a-z0-9_]+]]: i32):
// GENERIC-NEXT:   %[[AX:[a-z0-9_]+]] = "arith.extsi"(%[[A]]) : (i8) -> i32
// GENERIC-NEXT:   %[[BX:[a-z0-9_]+]] = "arith.extsi"(%[[B]]) : (i8) -> i32
// GENERIC-NEXT:   %[[MUL:[a-z0-9_]+]] = "arith.muli"(%[[AX]], %[[BX]])
// GENERIC-NEXT:   %[[ADD:[a-z0-9_]+]] = "arith.addi"(%[[ACC]], %[[MUL]])
// GENERIC-NEXT:   "linalg.yield"(%[[ADD]])

func.func @contractions(%a: memref<5x2x3xf32>, %b: memref<5x3x4xf32>, %bt: memref<5x4x3xf32>, %c: memref<5x2x4xf32>, %m: memref<2x3xf32>, %n: memref<4x3xf32>, %o: memref<2x4xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<5x2x3xf32>, memref<5x3x4xf32>) outs(%c : memref<5x2x4xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %bt : memref<5x2x3xf32>, memref<5x4x3xf32>) outs(%c : memref<5x2x4xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%m, %n : memref<2x3xf32>, memref<4x3xf32>) outs(%o : memref<2x4xf32>)
  func.return
}

// CHECK-LABEL: func.func @contractions
// CHECK-NEXT:    linalg.batch_matmul ins(%a, %b : memref<5x2x3xf32>, memref<5x3x4xf32>) outs(%c : memref<5x2x4xf32>)
// CHECK-NEXT:    linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %bt : memref<5x2x3xf32>, memref<5x4x3xf32>) outs(%c : memref<5x2x4xf32>)
// CHECK-NEXT:    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%m, %n : memref<2x3xf32>, memref<4x3xf32>) outs(%o : memref<2x4xf32>)

// GENERIC:      "linalg.batch_matmul"(%a, %b, %c) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32):
// GENERIC-NEXT:   %[[MUL:[a-z0-9_]+]] = "arith.mulf"(%[[A]], %[[B]])
// GENERIC-NEXT:   %[[ADD:[a-z0-9_]+]] = "arith.addf"(%[[ACC]], %[[MUL]])

func.func @elementwise(%x: memref<4xf16>, %y: memref<4xf32>, %z: memref<4xf32>, %v: f32) {
  linalg.copy ins(%x : memref<4xf16>) outs(%y : memref<4xf32>)
  linalg.div ins(%y, %z : memref<4xf32>, memref<4xf32>) outs(%z : memref<4xf32>)
  linalg.fill ins(%v : f32) outs(%z : memref<4xf32>)
  linalg.reciprocal ins(%y : memref<4xf32>) outs(%z : memref<4xf32>)
  func.return
}

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    linalg.copy ins(%x : memref<4xf16>) outs(%y : memref<4xf32>)
// CHECK-NEXT:    linalg.div ins(%y, %z : memref<4xf32>, memref<4xf32>) outs(%z : memref<4xf32>)
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%z : memref<4xf32>)
// CHECK-NEXT:    linalg.reciprocal ins(%y : memref<4xf32>) outs(%z : memref<4xf32>)

// GENERIC:      "linalg.copy"(%x, %y)
// GENERIC-NEXT: ^{{.*}}(%[[IN:[a-z0-9_]+]]: f16, %{{.*}}: f32):
// GENERIC-NEXT:   %[[EXT:[a-z0-9_]+]] = "arith.extf"(%[[IN]]) : (f16) -> f32
// GENERIC-NEXT:   "linalg.yield"(%[[EXT]])

// MLIR's pointwise named ops take any rank: an operand of rank 0 is a
// scalar read at every point of the output.
func.func @pointwise_rank_0(%a: memref<4xf32>, %s: memref<f32>, %b: memref<i1>, %h: memref<4xf16>) {
  linalg.add ins(%a, %s : memref<4xf32>, memref<f32>) outs(%a : memref<4xf32>)
  linalg.exp ins(%s : memref<f32>) outs(%a : memref<4xf32>)
  linalg.copy ins(%s : memref<f32>) outs(%h : memref<4xf16>)
  linalg.select ins(%b, %s, %a : memref<i1>, memref<f32>, memref<4xf32>) outs(%a : memref<4xf32>)
  func.return
}

// CHECK-LABEL: func.func @pointwise_rank_0
// CHECK-NEXT:    linalg.add ins(%a, %s : memref<4xf32>, memref<f32>) outs(%a : memref<4xf32>)
// CHECK-NEXT:    linalg.exp ins(%s : memref<f32>) outs(%a : memref<4xf32>)
// CHECK-NEXT:    linalg.copy ins(%s : memref<f32>) outs(%h : memref<4xf16>)
// CHECK-NEXT:    linalg.select ins(%b, %s, %a : memref<i1>, memref<f32>, memref<4xf32>) outs(%a : memref<4xf32>)

func.func @map(%a: memref<2x4xf32>, %b: memref<2x4xf32>, %c: memref<2x4xf32>, %v: f32) {
  linalg.map ins(%a, %b : memref<2x4xf32>, memref<2x4xf32>) outs(%c : memref<2x4xf32>) (%x: f32, %y: f32, %z: f32) {
    %r = arith.subf %y, %x : f32
    linalg.yield %r : f32
  }
  linalg.map { math.absf } ins(%a : memref<2x4xf32>) outs(%c : memref<2x4xf32>)
  linalg.map outs(%c : memref<2x4xf32>) (%z: f32) {
    linalg.yield %v : f32
  }
  func.return
}

// CHECK-LABEL: func.func @map
// CHECK-NEXT:    linalg.map ins(%a, %b : memref<2x4xf32>, memref<2x4xf32>) outs(%c : memref<2x4xf32>) (%x: f32, %y: f32, %z: f32) {
// CHECK-NEXT:      %r = arith.subf %y, %x : f32
// CHECK-NEXT:      linalg.yield %r : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.map ins(%a : memref<2x4xf32>) outs(%c : memref<2x4xf32>) (%{{.*}}: f32, %{{.*}}: f32) {
// CHECK-NEXT:      %{{.*}} = math.absf %{{.*}} : f32
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.map outs(%c : memref<2x4xf32>) (%z{{.*}}: f32) {
// CHECK-NEXT:      linalg.yield %v : f32
// CHECK-NEXT:    }

// GENERIC: "linalg.map"(%a, %b, %c) ({

func.func @tensors(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = linalg.map { math.exp } ins(%r : tensor<2x4xf32>) outs(%c : tensor<2x4xf32>)
  func.return %e : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @tensors
// CHECK-NEXT:    %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %e = linalg.map ins(%r : tensor<2x4xf32>) outs(%c : tensor<2x4xf32>) (%{{.*}}: f32, %{{.*}}: f32) {
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %e : tensor<2x4xf32>

func.func @tiled_and_quantized(%a: memref<2x3x4x5xi8>, %b: memref<6x3x7x5xi8>, %c: memref<2x6x4x7xi32>, %ba: memref<9x2x3x4x5xf16>, %bb: memref<9x6x3x7x5xf16>, %bc: memref<9x2x6x4x7xf32>, %qa: memref<5x2x3xi8>, %qb: memref<5x3x4xi8>, %az: i8, %bz: i8, %qc: memref<5x2x4xi32>, %i: memref<1x6x6x2xi8>, %k: memref<2x2x2x3xi8>, %o: memref<1x3x5x3xi32>) {
  linalg.mmt4d ins(%a, %b : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%c : memref<2x6x4x7xi32>)
  linalg.batch_mmt4d ins(%ba, %bb : memref<9x2x3x4x5xf16>, memref<9x6x3x7x5xf16>) outs(%bc : memref<9x2x6x4x7xf32>)
  linalg.quantized_batch_matmul ins(%qa, %qb, %az, %bz : memref<5x2x3xi8>, memref<5x3x4xi8>, i8, i8) outs(%qc : memref<5x2x4xi32>)
  linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%i, %k, %az, %bz : memref<1x6x6x2xi8>, memref<2x2x2x3xi8>, i8, i8) outs(%o : memref<1x3x5x3xi32>)
  func.return
}

// CHECK-LABEL: func.func @tiled_and_quantized
// CHECK-NEXT:    linalg.mmt4d ins(%a, %b : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%c : memref<2x6x4x7xi32>)
// CHECK-NEXT:    linalg.batch_mmt4d ins(%ba, %bb : memref<9x2x3x4x5xf16>, memref<9x6x3x7x5xf16>) outs(%bc : memref<9x2x6x4x7xf32>)
// CHECK-NEXT:    linalg.quantized_batch_matmul ins(%qa, %qb, %az, %bz : memref<5x2x3xi8>, memref<5x3x4xi8>, i8, i8) outs(%qc : memref<5x2x4xi32>)
// CHECK-NEXT:    linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%i, %k, %az, %bz : memref<1x6x6x2xi8>, memref<2x2x2x3xi8>, i8, i8) outs(%o : memref<1x3x5x3xi32>)

// GENERIC:      "linalg.mmt4d"(%a, %b, %c)
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: i8, %[[B:[a-z0-9_]+]]: i8, %[[C:[a-z0-9_]+]]: i32):
// GENERIC-NEXT:   %[[EA:[a-z0-9_]+]] = "arith.extsi"(%[[A]])
// GENERIC-NEXT:   %[[EB:[a-z0-9_]+]] = "arith.extsi"(%[[B]])
// GENERIC-NEXT:   %[[M:[a-z0-9_]+]] = "arith.muli"(%[[EA]], %[[EB]])
// GENERIC-NEXT:   %[[S:[a-z0-9_]+]] = "arith.addi"(%[[C]], %[[M]])
// GENERIC-NEXT:   "linalg.yield"(%[[S]])
// GENERIC:      "linalg.quantized_batch_matmul"(%qa, %qb, %az, %bz, %qc)
// GENERIC-NEXT: ^{{.*}}(%[[QA:[a-z0-9_]+]]: i8, %[[QB:[a-z0-9_]+]]: i8, %[[AZ:[a-z0-9_]+]]: i8, %[[BZ:[a-z0-9_]+]]: i8, %[[QC:[a-z0-9_]+]]: i32):
// GENERIC-NEXT:   %[[X:[a-z0-9_]+]] = "arith.extsi"(%[[QA]])
// GENERIC-NEXT:   %[[XZ:[a-z0-9_]+]] = "arith.extsi"(%[[AZ]])
// GENERIC-NEXT:   %[[XS:[a-z0-9_]+]] = "arith.subi"(%[[X]], %[[XZ]])
// GENERIC-NEXT:   %[[Y:[a-z0-9_]+]] = "arith.extsi"(%[[QB]])
// GENERIC-NEXT:   %[[YZ:[a-z0-9_]+]] = "arith.extsi"(%[[BZ]])
// GENERIC-NEXT:   %[[YS:[a-z0-9_]+]] = "arith.subi"(%[[Y]], %[[YZ]])
// GENERIC-NEXT:   %[[P:[a-z0-9_]+]] = "arith.muli"(%[[XS]], %[[YS]])
// GENERIC-NEXT:   %[[Q:[a-z0-9_]+]] = "arith.addi"(%[[QC]], %[[P]])
// GENERIC-NEXT:   "linalg.yield"(%[[Q]])

func.func @softmax(%x: memref<2x3xf32>, %y: memref<2x3xf32>, %t: tensor<2x3xf32>) -> tensor<2x3xf32> {
  linalg.softmax dimension(1) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
  linalg.softmax {tag = 1 : i64} dimension(0) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
  %r = linalg.softmax dimension(1) ins(%t : tensor<2x3xf32>) outs(%t : tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @softmax
// CHECK-NEXT:    linalg.softmax dimension(1) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
// CHECK-NEXT:    linalg.softmax {tag = 1 : i64} dimension(0) ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>)
// CHECK-NEXT:    %r = linalg.softmax dimension(1) ins(%t : tensor<2x3xf32>) outs(%t : tensor<2x3xf32>) -> tensor<2x3xf32>

// GENERIC: "linalg.softmax"(%x, %y) <{dimension = 1 : i64}> : (memref<2x3xf32>, memref<2x3xf32>) -> ()

func.func @reduce(%x: memref<2x3xf32>, %y: memref<2xf32>) {
  linalg.reduce { arith.addf } ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1]
  linalg.reduce { arith.subf {fastmath = #arith.fastmath<fast>} } ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] {tag}
  linalg.reduce ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] (%in: f32, %init: f32) {
    %r = arith.addf %in, %init : f32
    linalg.yield %r : f32
  }
  func.return
}

// CHECK-LABEL: func.func @reduce
// CHECK-NEXT:    linalg.reduce { arith.addf } ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1]
// CHECK-NEXT:    linalg.reduce { arith.subf {fastmath = #arith.fastmath<fast>} } ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] {tag}
// CHECK-NEXT:    linalg.reduce ins(%x : memref<2x3xf32>) outs(%y : memref<2xf32>) dimensions = [1] (%in: f32, %init: f32) {
// CHECK-NEXT:      %r = arith.addf %in, %init : f32
// CHECK-NEXT:      linalg.yield %r : f32
// CHECK-NEXT:    }

// GENERIC:      "linalg.reduce"(%x, %y) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^{{.*}}(%[[IN:[a-z0-9_]+]]: f32, %[[INIT:[a-z0-9_]+]]: f32):
// GENERIC-NEXT:   %{{.*}} = "arith.addf"(%[[INIT]], %[[IN]])

// MLIR's variadic reduce: a maximum and where it is, on memrefs and on
// tensors (one result per init, not written: the inits' types).
func.func @reduce_variadic(%v: memref<2x3xf32>, %i: memref<2x3xi32>, %m: memref<2xf32>, %a: memref<2xi32>, %tv: tensor<2x3xf32>, %ti: tensor<2x3xi32>, %tm: tensor<2xf32>, %ta: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  linalg.reduce ins(%v, %i : memref<2x3xf32>, memref<2x3xi32>) outs(%m, %a : memref<2xf32>, memref<2xi32>) dimensions = [1] (%in: f32, %idx: i32, %max: f32, %arg: i32) {
    %gt = arith.cmpf ogt, %in, %max : f32
    %new = arith.select %gt, %in, %max : f32
    %at = arith.select %gt, %idx, %arg : i32
    linalg.yield %new, %at : f32, i32
  }
  %r:2 = linalg.reduce ins(%tv, %ti : tensor<2x3xf32>, tensor<2x3xi32>) outs(%tm, %ta : tensor<2xf32>, tensor<2xi32>) dimensions = [1] {tag} (%in: f32, %idx: i32, %sum: f32, %count: i32) {
    %s = arith.addf %sum, %in : f32
    %c = arith.addi %count, %idx : i32
    linalg.yield %s, %c : f32, i32
  }
  func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_variadic
// CHECK-NEXT:    linalg.reduce ins(%v, %i : memref<2x3xf32>, memref<2x3xi32>) outs(%m, %a : memref<2xf32>, memref<2xi32>) dimensions = [1] (%in: f32, %idx: i32, %max: f32, %arg: i32) {
// CHECK-NEXT:      %gt = arith.cmpf ogt, %in, %max : f32
// CHECK-NEXT:      %new = arith.select %gt, %in, %max : f32
// CHECK-NEXT:      %at = arith.select %gt, %idx, %arg : i32
// CHECK-NEXT:      linalg.yield %new, %at : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %r, %r_1 = linalg.reduce ins(%tv, %ti : tensor<2x3xf32>, tensor<2x3xi32>) outs(%tm, %ta : tensor<2xf32>, tensor<2xi32>) dimensions = [1] {tag} (%in_1: f32, %idx_1: i32, %sum: f32, %count: i32) {

// GENERIC:      "linalg.reduce"(%v, %i, %m, %a) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^{{.*}}(%in: f32, %idx: i32, %max: f32, %arg: i32):
// GENERIC:      "linalg.reduce"(%tv, %ti, %tm, %ta) <{dimensions = array<i64: 1>}> ({
// GENERIC:      }) {tag} : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>)

// linalg.pack and linalg.unpack, on tensors (a result, the dest's type) and
// on memrefs; dynamic tiles are index values in inner_tiles.
func.func @pack_unpack(%t: tensor<7x16xf32>, %tp: tensor<?x2x4x?xf32>, %p: f32, %n: index, %m: memref<8x16xf32>, %mp: memref<2x8x4x2xf32>) -> tensor<?x2x4x?xf32> {
  %0 = linalg.pack %t padding_value(%p : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, %n] into %tp : tensor<7x16xf32> -> tensor<?x2x4x?xf32>
  linalg.pack %m inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %mp {tag} : memref<8x16xf32> -> memref<2x8x4x2xf32>
  linalg.unpack %mp outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %m : memref<2x8x4x2xf32> -> memref<8x16xf32>
  %1 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, %n] into %t : tensor<?x2x4x?xf32> -> tensor<7x16xf32>
  linalg.pack %m inner_dims_pos = [] inner_tiles = [] into %m : memref<8x16xf32> -> memref<8x16xf32>
  func.return %0 : tensor<?x2x4x?xf32>
}

// CHECK-LABEL: func.func @pack_unpack
// CHECK-NEXT:    %0 = linalg.pack %t padding_value(%p : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, %n] into %tp : tensor<7x16xf32> -> tensor<?x2x4x?xf32>
// CHECK-NEXT:    linalg.pack %m inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %mp {tag} : memref<8x16xf32> -> memref<2x8x4x2xf32>
// CHECK-NEXT:    linalg.unpack %mp outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %m : memref<2x8x4x2xf32> -> memref<8x16xf32>
// CHECK-NEXT:    %1 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, %n] into %t : tensor<?x2x4x?xf32> -> tensor<7x16xf32>
// CHECK-NEXT:    linalg.pack %m inner_dims_pos = [] inner_tiles = [] into %m : memref<8x16xf32> -> memref<8x16xf32>

// GENERIC:      %0 = "linalg.pack"(%t, %tp, %p, %n) <{outer_dims_perm = array<i64: 1, 0>, inner_dims_pos = array<i64: 0, 1>, static_inner_tiles = array<i64: 4, -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (tensor<7x16xf32>, tensor<?x2x4x?xf32>, f32, index) -> tensor<?x2x4x?xf32>
// GENERIC-NEXT: "linalg.pack"(%m, %mp) <{inner_dims_pos = array<i64: 0, 1>, static_inner_tiles = array<i64: 4, 2>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> {tag} : (memref<8x16xf32>, memref<2x8x4x2xf32>) -> ()
// GENERIC-NEXT: "linalg.unpack"(%mp, %m) <{outer_dims_perm = array<i64: 0, 1>, inner_dims_pos = array<i64: 0, 1>, static_inner_tiles = array<i64: 4, 2>}> : (memref<2x8x4x2xf32>, memref<8x16xf32>) -> ()

// fill_rng_2d's hidden body is MLIR's LCG, with linalg.index in it (MLIR
// allows the index in any structured op, a reduce too).
func.func @fill_rng_2d_and_index(%min: f64, %max: f64, %seed: i32, %o: memref<3x4xf32>, %t: tensor<3x4xi32>, %v: memref<3x4xf32>, %m: memref<3xf32>) -> tensor<3x4xi32> {
  linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%o : memref<3x4xf32>)
  %r = linalg.fill_rng_2d {tag} ins(%min, %max, %seed : f64, f64, i32) outs(%t : tensor<3x4xi32>) -> tensor<3x4xi32>
  linalg.reduce ins(%v : memref<3x4xf32>) outs(%m : memref<3xf32>) dimensions = [1] (%in: f32, %acc: f32) {
    %k = linalg.index 1 : index
    linalg.yield %in : f32
  }
  func.return %r : tensor<3x4xi32>
}

// CHECK-LABEL: func.func @fill_rng_2d_and_index
// CHECK-NEXT:    linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%o : memref<3x4xf32>)
// CHECK-NEXT:    %r = linalg.fill_rng_2d {tag} ins(%min, %max, %seed : f64, f64, i32) outs(%t : tensor<3x4xi32>) -> tensor<3x4xi32>
// CHECK-NEXT:    linalg.reduce ins(%v : memref<3x4xf32>) outs(%m : memref<3xf32>) dimensions = [1] (%in: f32, %acc: f32) {
// CHECK-NEXT:      %k = linalg.index 1 : index

// GENERIC:      "linalg.fill_rng_2d"(%min, %max, %seed, %o) <{operandSegmentSizes = array<i32: 3, 1>}> ({
// GENERIC-NEXT: ^{{.*}}(%[[MIN:[a-z0-9_]+]]: f64, %[[MAX:[a-z0-9_]+]]: f64, %[[SEED:[a-z0-9_]+]]: i32, %{{.*}}: f32):
// GENERIC-NEXT:   %[[OFF:[a-z0-9_]+]] = "arith.constant"() <{value = 2147483647 : i64}> : () -> i64
// GENERIC-NEXT:   %[[OFFF:[a-z0-9_]+]] = "arith.sitofp"(%[[OFF]]) : (i64) -> f64
// GENERIC-NEXT:   %[[N:[a-z0-9_]+]] = "linalg.index"() <{dim = 1 : i64}> : () -> index
// GENERIC-NEXT:   %[[NI:[a-z0-9_]+]] = "arith.index_cast"(%[[N]]) : (index) -> i32
// GENERIC-NEXT:   %[[M:[a-z0-9_]+]] = "linalg.index"() <{dim = 0 : i64}> : () -> index
// GENERIC-NEXT:   %[[MI:[a-z0-9_]+]] = "arith.index_cast"(%[[M]]) : (index) -> i32
// GENERIC-NEXT:   %[[S0:[a-z0-9_]+]] = "arith.addi"(%[[MI]], %[[SEED]])
// GENERIC-NEXT:   %[[A:[a-z0-9_]+]] = "arith.constant"() <{value = 1103515245 : i64}> : () -> i64
// GENERIC-NEXT:   %[[AI:[a-z0-9_]+]] = "arith.trunci"(%[[A]])
// GENERIC-NEXT:   %{{.*}} = "arith.muli"(%[[S0]], %[[AI]])
// GENERIC:        "arith.sitofp"(%{{.*}}) : (i32) -> f64
// GENERIC-NEXT:   %[[SUM:[a-z0-9_]+]] = "arith.addf"(%[[OFFF]], %{{.*}})
// GENERIC-NEXT:   %[[SPAN:[a-z0-9_]+]] = "arith.subf"(%[[MAX]], %[[MIN]])
// GENERIC-NEXT:   %[[INV:[a-z0-9_]+]] = "arith.constant"() <{value = 2.3283063999999999e-10 : f64}> : () -> f64
// GENERIC-NEXT:   %[[SCALE:[a-z0-9_]+]] = "arith.mulf"(%[[SPAN]], %[[INV]])
// GENERIC-NEXT:   %[[PROD:[a-z0-9_]+]] = "arith.mulf"(%[[SUM]], %[[SCALE]])
// GENERIC-NEXT:   %[[RES:[a-z0-9_]+]] = "arith.addf"(%[[PROD]], %[[MIN]])
// GENERIC-NEXT:   %[[CAST:[a-z0-9_]+]] = "arith.truncf"(%[[RES]]) : (f64) -> f32
// GENERIC-NEXT:   "linalg.yield"(%[[CAST]]) : (f32) -> ()

// The Winograd steps, on tensors only as in MLIR: fmr by name, its value in
// the generic form; the attribute dictionary comes first.
func.func @winograd(%f: tensor<2x3x3x5xf32>, %fo: tensor<6x6x5x2xf32>, %i: tensor<2x10x10x5xf32>, %io: tensor<6x6x2x2x2x5xf32>, %v: tensor<6x6x2x2x2x2xf32>, %o: tensor<2x8x8x2xf32>, %r: tensor<2x1x5x5xf16>, %ro: tensor<1x6x5x2xf16>) -> tensor<2x8x8x2xf32> {
  %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%fo : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
  %1 = linalg.winograd_input_transform {tag} fmr(F_4_3) ins(%i : tensor<2x10x10x5xf32>) outs(%io : tensor<6x6x2x2x2x5xf32>) -> tensor<6x6x2x2x2x5xf32>
  %2 = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<6x6x2x2x2x2xf32>) outs(%o : tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
  %3 = linalg.winograd_filter_transform fmr(F_2_5) ins(%r : tensor<2x1x5x5xf16>) outs(%ro : tensor<1x6x5x2xf16>) -> tensor<1x6x5x2xf16>
  func.return %2 : tensor<2x8x8x2xf32>
}

// CHECK-LABEL: func.func @winograd
// CHECK-NEXT:    %0 = linalg.winograd_filter_transform fmr(F_4_3) ins(%f : tensor<2x3x3x5xf32>) outs(%fo : tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
// CHECK-NEXT:    %1 = linalg.winograd_input_transform {tag} fmr(F_4_3) ins(%i : tensor<2x10x10x5xf32>) outs(%io : tensor<6x6x2x2x2x5xf32>) -> tensor<6x6x2x2x2x5xf32>
// CHECK-NEXT:    %2 = linalg.winograd_output_transform fmr(F_4_3) ins(%v : tensor<6x6x2x2x2x2xf32>) outs(%o : tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
// CHECK-NEXT:    %3 = linalg.winograd_filter_transform fmr(F_2_5) ins(%r : tensor<2x1x5x5xf16>) outs(%ro : tensor<1x6x5x2xf16>) -> tensor<1x6x5x2xf16>

// GENERIC:      %0 = "linalg.winograd_filter_transform"(%f, %fo) <{fmr = 1 : i32}> : (tensor<2x3x3x5xf32>, tensor<6x6x5x2xf32>) -> tensor<6x6x5x2xf32>
// GENERIC-NEXT: %1 = "linalg.winograd_input_transform"(%i, %io) <{fmr = 1 : i32}> {tag} : (tensor<2x10x10x5xf32>, tensor<6x6x2x2x2x5xf32>) -> tensor<6x6x2x2x2x5xf32>
// GENERIC-NEXT: %2 = "linalg.winograd_output_transform"(%v, %o) <{fmr = 1 : i32}> : (tensor<6x6x2x2x2x2xf32>, tensor<2x8x8x2xf32>) -> tensor<2x8x8x2xf32>
// GENERIC-NEXT: %3 = "linalg.winograd_filter_transform"(%r, %ro) <{fmr = 2 : i32}> : (tensor<2x1x5x5xf16>, tensor<1x6x5x2xf16>) -> tensor<1x6x5x2xf16>

// linalg.elementwise: maps written only when not the identities; the
// attribute dictionary may follow `outs`, it is printed in front.
func.func @elementwise_kinds(%a: memref<5x4xf32>, %b: memref<5xf32>, %c: memref<4x5xf32>, %m: memref<4x5xi1>, %t: tensor<4xf32>) -> tensor<4xf32> {
  linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>] ins(%a, %b : memref<5x4xf32>, memref<5xf32>) outs(%c : memref<4x5xf32>)
  linalg.elementwise kind = #linalg.elementwise_kind<log1p> indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>] ins(%c : memref<4x5xf32>) outs(%c : memref<4x5xf32>) {tag}
  linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%m, %c, %c : memref<4x5xi1>, memref<4x5xf32>, memref<4x5xf32>) outs(%c : memref<4x5xf32>)
  %r = linalg.elementwise kind=#linalg.elementwise_kind<max_signed> ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @elementwise_kinds
// CHECK-NEXT:    linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %b : memref<5x4xf32>, memref<5xf32>) outs(%c : memref<4x5xf32>)
// CHECK-NEXT:    linalg.elementwise kind=#linalg.elementwise_kind<log1p> {tag} ins(%c : memref<4x5xf32>) outs(%c : memref<4x5xf32>)
// CHECK-NEXT:    linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%m, %c, %c : memref<4x5xi1>, memref<4x5xf32>, memref<4x5xf32>) outs(%c : memref<4x5xf32>)
// CHECK-NEXT:    %r = linalg.elementwise kind=#linalg.elementwise_kind<max_signed> ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>

// GENERIC:      "linalg.elementwise"(%a, %b, %c) <{kind = #linalg.elementwise_kind<sub>, indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// GENERIC-NEXT:   %[[SUB:[a-z0-9_]+]] = "arith.subf"(%[[A]], %[[B]])
// GENERIC-NEXT:   "linalg.yield"(%[[SUB]])
// GENERIC:      "linalg.elementwise"(%c, %c) <{kind = #linalg.elementwise_kind<log1p>, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// GENERIC-NEXT: ^{{.*}}(%[[X:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// GENERIC-NEXT:   %[[LOG:[a-z0-9_]+]] = "math.log1p"(%[[X]])
// GENERIC:      "linalg.elementwise"(%m, %c, %c, %c)
// GENERIC-NEXT: ^{{.*}}(%[[M:[a-z0-9_]+]]: i1, %[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// GENERIC-NEXT:   %[[SEL:[a-z0-9_]+]] = "arith.select"(%[[M]], %[[X]], %[[Y]])
// GENERIC:      "linalg.elementwise"(%t, %t, %t)
// GENERIC:        "arith.maximumf"

// linalg.contract (maps always written) and the `cast` attribute of
// matmul, batch_matmul, batch_reduce_matmul and contract.
func.func @contract_and_cast(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xi32>, %f: memref<2x4xf32>, %ba: memref<5x2x3xi8>, %bb: memref<5x3x4xi8>, %bc: memref<5x2x4xi32>, %fa: memref<5x2x3xf32>, %fb: memref<5x4x3xf32>, %ct: memref<4x2xi32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%f : memref<2x4xf32>)
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>] ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%ct : memref<4x2xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%c : memref<2x4xi32>)
  linalg.batch_matmul {cast = #linalg.type_fn<cast_signed>} ins(%ba, %bb : memref<5x2x3xi8>, memref<5x3x4xi8>) outs(%bc : memref<5x2x4xi32>)
  linalg.batch_reduce_matmul ins(%ba, %bb : memref<5x2x3xi8>, memref<5x3x4xi8>) outs(%c : memref<2x4xi32>)
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (m, n)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%fa, %fb : memref<5x2x3xf32>, memref<5x4x3xf32>) outs(%f : memref<2x4xf32>)
  func.return
}

// CHECK-LABEL: func.func @contract_and_cast
// CHECK-NEXT:    linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%f : memref<2x4xf32>)
// CHECK-NEXT:    linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>] ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%ct : memref<4x2xi32>)
// CHECK-NEXT:    linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%c : memref<2x4xi32>)
// CHECK-NEXT:    linalg.batch_matmul {cast = #linalg.type_fn<cast_signed>} ins(%ba, %bb : memref<5x2x3xi8>, memref<5x3x4xi8>) outs(%bc : memref<5x2x4xi32>)
// CHECK-NEXT:    linalg.batch_reduce_matmul ins(%ba, %bb : memref<5x2x3xi8>, memref<5x3x4xi8>) outs(%c : memref<2x4xi32>)
// CHECK-NEXT:    linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%fa, %fb : memref<5x2x3xf32>, memref<5x4x3xf32>) outs(%f : memref<2x4xf32>)

// GENERIC:      "linalg.contract"(%a, %b, %f) <{cast = #linalg.type_fn<cast_unsigned>,
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: i8, %[[B:[a-z0-9_]+]]: i8, %[[ACC:[a-z0-9_]+]]: f32):
// GENERIC-NEXT:   %[[CA:[a-z0-9_]+]] = "arith.uitofp"(%[[A]])
// GENERIC-NEXT:   %[[CB:[a-z0-9_]+]] = "arith.uitofp"(%[[B]])
// GENERIC-NEXT:   %[[MUL:[a-z0-9_]+]] = "arith.mulf"(%[[CA]], %[[CB]])
// GENERIC-NEXT:   %[[ADD:[a-z0-9_]+]] = "arith.addf"(%[[ACC]], %[[MUL]])
// GENERIC-NEXT:   "linalg.yield"(%[[ADD]])
// GENERIC:      "linalg.contract"(%a, %b, %ct)
// GENERIC:        "arith.extsi"
// GENERIC:      "linalg.matmul"(%a, %b, %c) <{cast = #linalg.type_fn<cast_unsigned>,
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: i8, %[[B:[a-z0-9_]+]]: i8, %{{.*}}: i32):
// GENERIC-NEXT:   %{{.*}} = "arith.extui"(%[[A]])
// GENERIC-NEXT:   %{{.*}} = "arith.extui"(%[[B]])
// GENERIC:      "linalg.batch_matmul"(%ba, %bb, %bc) <{cast = #linalg.type_fn<cast_signed>,
// GENERIC-NEXT: ^{{.*}}(%[[A:[a-z0-9_]+]]: i8,
// GENERIC-NEXT:   %{{.*}} = "arith.extsi"(%[[A]])
// GENERIC:      "linalg.batch_reduce_matmul"(%ba, %bb, %c) <{operandSegmentSizes = array<i32: 2, 1>, indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>]
// GENERIC:        "arith.extsi"

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

// CHECK: linalg.reduce takes one ins operand (memplan)

// -----

func.func @f(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.softmax ins(%a : memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  func.return
}

// CHECK: Expected 'dimension' in linalg.softmax

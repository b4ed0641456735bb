// What the body of a linalg.generic yields, verified as MLIR verifies
// linalg.yield. xDSL 0.74 checks the generic's maps and block arguments but
// not its yield (nor either for linalg.transpose and linalg.broadcast), so
// memplan planned and ran ops MLIR rejects: the messages are MLIR's.

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

#id = affine_map<(d0) -> (d0)>

func.func @generic_valid(%a: memref<4xf32>, %s: f32, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(d0) -> ()>, #id], iterator_types = ["parallel"]} ins(%a, %s : memref<4xf32>, f32) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  func.return
}

// CHECK: func.func @generic_valid
// CHECK: linalg.yield %r : f32

// -----

func.func @yield_too_many(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)

// -----

func.func @yield_too_few(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b, %c : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    linalg.yield %x : f32
  }
  func.return
}

// CHECK: expected number of yield values (1) to match the number of inits / outs operands of the enclosing LinalgOp (2)

// -----

func.func @yield_type(%a: memref<4xf32>, %b: memref<4xf32>, %i: i32) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %i : i32
  }
  func.return
}

// CHECK: type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')


// -----

// linalg.transpose and linalg.broadcast: memplan computes them from their
// attributes, but MLIR checks their bodies as a generic's.

func.func @transpose_argument_count(%a: memref<2x3xf32>, %b: memref<3x2xf32>) {
  "linalg.transpose"(%a, %b) <{permutation = array<i64: 1, 0>}> ({
  ^bb0(%x: f32):
    linalg.yield %x : f32
  }) : (memref<2x3xf32>, memref<3x2xf32>) -> ()
  func.return
}

// CHECK: expected as many non-induction variable region arguments as the number of input/output operands

// -----

func.func @transpose_argument_type(%a: memref<2x3xf32>, %b: memref<3x2xf32>) {
  "linalg.transpose"(%a, %b) <{permutation = array<i64: 1, 0>}> ({
  ^bb0(%x: f32, %o: index):
    linalg.yield %x : f32
  }) : (memref<2x3xf32>, memref<3x2xf32>) -> ()
  func.return
}

// CHECK: expected type of bb argument #1 ('index') to match element or self type of the corresponding operand ('f32')

// -----

func.func @broadcast_yield_count(%a: memref<3xf32>, %b: memref<2x3xf32>) {
  "linalg.broadcast"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: f32, %o: f32):
    linalg.yield
  }) : (memref<3xf32>, memref<2x3xf32>) -> ()
  func.return
}

// CHECK: expected number of yield values (0) to match the number of inits / outs operands of the enclosing LinalgOp (1)

// -----

func.func @broadcast_yield_type(%a: memref<3xf32>, %b: memref<2x3xf32>, %i: i32) {
  "linalg.broadcast"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: f32, %o: f32):
    linalg.yield %i : i32
  }) : (memref<3xf32>, memref<2x3xf32>) -> ()
  func.return
}

// CHECK: type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')

// -----

func.func @transpose_and_broadcast_valid(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<3xf32>, %d: memref<2x3xf32>) {
  linalg.transpose ins(%a : memref<2x3xf32>) outs(%b : memref<3x2xf32>) permutation = [1, 0]
  linalg.broadcast ins(%c : memref<3xf32>) outs(%d : memref<2x3xf32>) dimensions = [0]
  func.return
}

// CHECK: func.func @transpose_and_broadcast_valid
// CHECK-NEXT: linalg.transpose ins(%a:memref<2x3xf32>) outs(%b:memref<3x2xf32>) permutation = [1, 0]
// CHECK-NEXT: linalg.broadcast ins(%c:memref<3xf32>) outs(%d:memref<2x3xf32>) dimensions = [0]

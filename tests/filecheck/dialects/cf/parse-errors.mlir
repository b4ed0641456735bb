// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// MLIR checks what a branch hands each successor against the block's
// arguments (BranchOpInterface); xDSL checks nothing.
func.func @br_type(%a: memref<4xf32>) {
  cf.br ^bb1(%a : memref<4xf32>)
^bb1(%b: memref<1xf32>):
  func.return
}

// CHECK: cf.br: type mismatch for bb argument #0 of successor #0: the branch passes memref<4xf32>, the block argument is memref<1xf32>

// -----

func.func @br_count(%x: i32) {
  cf.br ^bb1(%x, %x : i32, i32)
^bb1(%y: i32):
  func.return
}

// CHECK: cf.br: branch has 2 operand(s) for successor #0, but target block has 1

// -----

func.func @cond_br_else(%c: i1, %x: i32, %z: i64) {
  cf.cond_br %c, ^bb1(%x : i32), ^bb1(%z : i64)
^bb1(%y: i32):
  func.return
}

// CHECK: cf.cond_br: type mismatch for bb argument #0 of successor #1: the branch passes i64, the block argument is i32

// -----

func.func @switch_case(%f: i32, %x: i32, %z: f32) {
  cf.switch %f : i32, [
    default: ^bb1(%x : i32),
    4: ^bb1(%z : f32)
  ]
^bb1(%y: i32):
  func.return
}

// CHECK: cf.switch: type mismatch for bb argument #0 of successor #1: the branch passes f32, the block argument is i32

// -----

// What MLIR accepts stays accepted.
func.func @valid(%c: i1, %x: i32, %f: i32) {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2
^bb1(%y: i32):
  cf.switch %f : i32, [
    default: ^bb2,
    4: ^bb1(%y : i32)
  ]
^bb2:
  func.return
}

// CHECK: func.func @valid(%c: i1, %x: i32, %f: i32) {

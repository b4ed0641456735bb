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

// -----

// Every block of a region of several blocks ends in a terminator, as MLIR
// requires; xDSL checks a block's last op only, so an empty block a branch
// jumps to verified.
func.func @empty_block(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  func.return
^bb2:
}

// CHECK: func.func: empty block: expect at least a terminator (block #2 of region #0, which has several blocks)

// -----

func.func @empty_block_in_execute_region() {
  scf.execute_region {
    cf.br ^bb1
  ^bb1:
  }
  func.return
}

// CHECK: scf.execute_region: empty block: expect at least a terminator (block #1 of region #0, which has several blocks)

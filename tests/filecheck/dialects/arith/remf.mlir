// arith.remf (MLIR's float remainder, C fmod: the sign of the dividend), which
// torch-mlir emits for torch.remainder on floats and xDSL 0.74 lacks: it
// parses in custom and generic form, prints back, verifies its types and runs.

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @scalar(%a: f32, %b: f32) -> f32 {
  %r = arith.remf %a, %b fastmath<fast> : f32
  %g = "arith.remf"(%r, %b) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  func.return %g : f32
}

// CHECK: %r = arith.remf %a, %b fastmath<fast> : f32
// CHECK-NEXT: %g = arith.remf %r, %b : f32

// -----

func.func @ints(%a: i32, %b: i32) -> i32 {
  %r = "arith.remf"(%a, %b) : (i32, i32) -> i32
  func.return %r : i32
}

// CHECK: operand 'lhs' at position 0 does not verify:
// CHECK-NEXT: Unexpected attribute i32

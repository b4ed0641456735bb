// A hex element of a float dense literal is a bit pattern, as in MLIR:
// dense<0xFF800000> : tensor<f32> is -inf (how MLIR prints an attention
// mask's fill value), not 4286578688.0 (what xDSL 0.74's own parser reads).
// memplan-opt parses with memplan.parser.MemplanParser; what MLIR rejects
// (a leading minus, too many bits) is an error.

// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// Splats of every float width, the attention-mask case first.
"test.op"() {
  f32 = dense<0xFF800000> : tensor<f32>,
  f16 = dense<0xFC00> : tensor<2x2xf16>,
  bf16 = dense<0x3FC0> : tensor<3xbf16>,
  f64 = dense<0xFFF0000000000000> : tensor<f64>,
  nan = dense<0x7FC00001> : tensor<2xf32>
} : () -> ()

// CHECK: f32 = dense<0xff800000> : tensor<f32>
// CHECK-SAME: f16 = dense<0xfc00> : tensor<2x2xf16>
// CHECK-SAME: bf16 = dense<1.500000e+00> : tensor<3xbf16>
// CHECK-SAME: f64 = dense<0xfff0000000000000> : tensor<f64>
// CHECK-SAME: nan = dense<[0x7fc00001, 0x7fc00001]> : tensor<2xf32>

// -----

// Hex and decimal elements mixed, in a constant.
%c = arith.constant dense<[[0x7F800000, -2.5], [0x3E800000, 0x80000000]]> : tensor<2x2xf32>

// CHECK: arith.constant dense<{{\[}}[0x7f800000, -2.500000e+00], [2.500000e-01, -0.000000e+00]]> : tensor<2x2xf32>

// -----

"test.op"() {a = dense<[0x3C00, -0x3C00]> : tensor<2xf16>} : () -> ()

// CHECK: hexadecimal float literal should not have a leading minus

// -----

"test.op"() {a = dense<0x1FFFF> : tensor<f16>} : () -> ()

// CHECK: hexadecimal float constant out of range for type f16

// -----

// A complex element is a pair; a lone number (hex or not) is an error at the
// element, not an AssertionError inside xDSL.
"test.op"() {a = dense<[(0x3F800000, 0x0), 0x1FFFF]> : tensor<2xcomplex<f32>>} : () -> ()

// CHECK: hex-float-literals.mlir:[[# @LINE - 2]]:44
// CHECK: a complex<f32> element must be a pair (real, imaginary), got 0x1FFFF

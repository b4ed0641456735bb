// arith.trunci with MLIR's overflowFlags property, which torch-mlir's integer
// narrowing casts (int64 to int8, int16, int32) carry in generic form and
// xDSL 0.74's trunci does not define: it parses in custom and generic form,
// prints back as MLIR does and still checks its widths.

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @flags(%a: i64) -> (i8, i16, i32) {
  %g = "arith.trunci"(%a) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i8
  %n = arith.trunci %a overflow<nsw, nuw> : i64 to i16
  %p = arith.trunci %a : i64 to i32
  func.return %g, %n, %p : i8, i16, i32
}

// CHECK: %g = arith.trunci %a : i64 to i8
// CHECK-NEXT: %n = arith.trunci %a overflow<nsw,nuw> : i64 to i16
// CHECK-NEXT: %p = arith.trunci %a : i64 to i32

// -----

func.func @widening(%a: i8) -> i16 {
  %w = "arith.trunci"(%a) <{overflowFlags = #arith.overflow<nsw>}> : (i8) -> i16
  func.return %w : i16
}

// CHECK: Destination bit-width must be smaller than the input bit-width

// The predicate of arith.cmpi and arith.cmpf is an i64, as MLIR's verifier
// requires (its property conversion rejects `2 : i8` in `<{...}>`, its
// verifier in `{...}`). xDSL 0.74 takes an integer of any type and reads it
// as the same predicate, so memplan ran comparisons MLIR rejects.

// RUN: memplan-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @cmpi_predicate_i64(%a: i32) -> i1 {
  %p = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (i32, i32) -> i1
  func.return %p : i1
}

// CHECK: %p = arith.cmpi slt, %a, %a : i32

// -----

func.func @cmpi_predicate_i8(%a: i32) -> i1 {
  %p = "arith.cmpi"(%a, %a) <{predicate = 2 : i8}> : (i32, i32) -> i1
  func.return %p : i1
}

// CHECK: arith.cmpi predicate 2 : i8 is not one of MLIR's: expected a 64-bit signless integer, 0 (eq), 1 (ne), 2 (slt),

// -----

func.func @cmpi_predicate_index_attribute(%a: i32) -> i1 {
  %p = "arith.cmpi"(%a, %a) {predicate = 1 : index} : (i32, i32) -> i1
  func.return %p : i1
}

// CHECK: arith.cmpi predicate 1 : index is not one of MLIR's: expected a 64-bit signless integer,

// -----

func.func @cmpf_predicate_i32(%x: f32) -> i1 {
  %q = "arith.cmpf"(%x, %x) <{predicate = 9 : i32}> : (f32, f32) -> i1
  func.return %q : i1
}

// CHECK: arith.cmpf predicate 9 : i32 is not one of MLIR's: expected a 64-bit signless integer, 0 (false), 1 (oeq),

// -----

func.func @cmpf_predicate_ui64(%x: f32) -> i1 {
  %q = "arith.cmpf"(%x, %x) <{predicate = 1 : ui64}> : (f32, f32) -> i1
  func.return %q : i1
}

// CHECK: arith.cmpf predicate 1 : ui64 is not one of MLIR's: expected a 64-bit signless integer,

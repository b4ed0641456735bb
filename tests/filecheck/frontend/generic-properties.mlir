// An op's properties in generic form, read as upstream MLIR reads them
// (memplan.generic_form). Each case says what MLIR does with it;
// tests/dialects/test_generic_properties_in_mlir.py checks those verdicts
// with MLIR's own parser and verifier when MEMPLAN_MLIR_PYTHON is set.

// RUN: memplan-opt %s --split-input-file --parsing-diagnostics --print-op-generic | filecheck %s

// MLIR: accepts. A key the op does not define is dropped (xDSL's verifier
// rejected it: "property 'foo' is not defined by the operation").

func.func @unknown_keys(%a: memref<4xf32>, %b: memref<4xf32>, %x: f32) {
  %0 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>, foo = 1}> : () -> memref<4xf32>
  %1 = "arith.constant"() <{value = 1 : i32, foo = 1}> : () -> i32
  "func.call"() <{callee = @g, foo = 1}> : () -> ()
  %2 = "memref.subview"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>, foo = 1}> : (memref<4xf32>) -> memref<2xf32, strided<[1]>>
  "linalg.fill"(%x, %a) <{operandSegmentSizes = array<i32: 1, 1>, foo = 1}> ({
  ^bb0(%in: f32, %out: f32):
    "linalg.yield"(%in) : (f32) -> ()
  }) : (f32, memref<4xf32>) -> ()
  "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>, foo = 1}> ({
  ^bb0(%in: f32, %out: f32):
    "linalg.yield"(%in) : (f32) -> ()
  }) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
func.func private @g()

// CHECK:      "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// CHECK-NEXT: "arith.constant"() <{value = 1 : i32}> : () -> i32
// CHECK-NEXT: "func.call"() <{callee = @g}> : () -> ()
// CHECK-NEXT: "memref.subview"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}>
// CHECK:      "linalg.fill"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1>}>
// CHECK:      "linalg.generic"(%{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}>
// CHECK-NOT:  foo

// -----

// MLIR: accepts. A missing operandSegmentSizes is all zeros (xDSL: "Expected
// operandSegmentSizes property in memref.alloc operation").

func.func @no_segment_sizes() {
  %0 = "memref.alloc"() : () -> memref<4xf32>
  %1 = "memref.alloc"() <{alignment = 64 : i64}> : () -> memref<4xf32>
  func.return
}

// CHECK:      "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// CHECK-NEXT: "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>

// -----

// MLIR: accepts. Inherent attributes in the attribute dictionary are the
// op's properties; one given in both is the property's value, and the
// dictionary's is dropped (xDSL kept `value = 2` as a discardable attribute).

func.func @inherent_in_attributes(%a: memref<4xf32>, %b: memref<4xf32>) {
  %0 = "arith.constant"() {value = 1 : i32} : () -> i32
  %1 = "memref.alloc"() {alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>} : () -> memref<4xf32>
  %2 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {alignment = 64 : i64} : () -> memref<4xf32>
  %3 = "arith.constant"() <{value = 1 : i32}> {value = 2 : i32} : () -> i32
  "linalg.generic"(%a, %b) ({
  ^bb0(%in: f32, %out: f32):
    "linalg.yield"(%in) : (f32) -> ()
  }) {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>} : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK:      "arith.constant"() <{value = 1 : i32}> : () -> i32
// CHECK-NEXT: "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// CHECK-NEXT: "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>, alignment = 64 : i64}> : () -> memref<4xf32>
// CHECK-NEXT: "arith.constant"() <{value = 1 : i32}> : () -> i32
// CHECK-NEXT: "linalg.generic"(%{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}>

// -----

// MLIR: rejects. An op without properties takes no properties dictionary,
// not even an empty one (xDSL: "property 'foo' is not defined by the
// operation", and `<{}>` read as no dictionary).

func.func @no_properties(%a: memref<4xf32>) {
  "memref.dealloc"(%a) <{foo = 1}> : (memref<4xf32>) -> ()
  func.return
}

// CHECK: invalid properties {foo = 1 : i64} for op memref.dealloc: this operation has empty properties

// -----

// MLIR: rejects.

func.func @empty_properties(%a: memref<4xf32>, %b: memref<4xf32>) {
  "memref.copy"(%a, %b) <{}> : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK: invalid properties {} for op memref.copy: this operation has empty properties

// -----

// MLIR: accepts, as an unsigned loop. memplan does not model unsigned
// bounds: an error, where xDSL kept `unsignedCmp` as a discardable attribute
// and ran a signed loop.

func.func @unsigned_loop(%lo: index, %hi: index, %step: index) {
  scf.for %i = %lo to %hi step %step {
  } {unsignedCmp}
  func.return
}

// CHECK: scf.for: 'unsignedCmp' is an inherent attribute of MLIR's scf.for that memplan does not model: expected the op without it

// -----

// MLIR: accepts, rounding down. memplan rounds to nearest: an error.

func.func @rounding(%x: f32) {
  %0 = "arith.addf"(%x, %x) <{roundingmode = 1 : i32}> : (f32, f32) -> f32
  func.return
}

// CHECK: arith.addf: 'roundingmode' is an inherent attribute of MLIR's arith.addf that memplan does not model: expected the op without it

// -----

// MLIR: accepts. Inherent attributes of MLIR's that promise or hint and
// change nothing a valid program computes (memplan.generic_form.KEPT) stay
// on the op as discardable attributes, given in either form, so MLIR reads
// them back as its own.

func.func @kept_attributes(%a: i32, %b: i32, %x: f32) {
  %0 = "arith.divsi"(%a, %b) <{isExact}> : (i32, i32) -> i32
  %1 = "arith.shrui"(%a, %b) {isExact} : (i32, i32) -> i32
  %2 = "arith.extui"(%a) <{nonNeg}> : (i32) -> i64
  %3 = "arith.extf"(%x) <{fastmath = #arith.fastmath<contract>}> : (f32) -> f64
  "func.call"() <{callee = @g, no_inline}> : () -> ()
  func.return
}
func.func private @g()

// CHECK:      "arith.divsi"(%{{.*}}, %{{.*}}) {isExact} : (i32, i32) -> i32
// CHECK-NEXT: "arith.shrui"(%{{.*}}, %{{.*}}) {isExact} : (i32, i32) -> i32
// CHECK-NEXT: "arith.extui"(%{{.*}}) {nonNeg} : (i32) -> i64
// CHECK-NEXT: "arith.extf"(%{{.*}}) {fastmath = #arith.fastmath<contract>} : (f32) -> f64
// CHECK-NEXT: "func.call"() <{callee = @g}> {no_inline} : () -> ()

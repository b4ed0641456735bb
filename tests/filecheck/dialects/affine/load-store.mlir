// RUN: memplan-opt %s | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s

// The index list of affine.load / affine.store and their vector forms, read
// and printed as MLIR does: a bare SSA name is a dimension of the access map,
// symbol(%n) a symbol.  xDSL 0.74 read every name as a symbol (a loop index
// in symbol position makes MLIR reject the module: "operand cannot be used
// as a symbol"), did not read symbol(...), which MLIR's canonicalize prints,
// and printed the symbol of a map (d0)[s0] as operand 0 (%i * 2 + %i below),
// a different access.

// CHECK-LABEL: func.func @accesses(%x: memref<8xf32>, %y: memref<8x8xf32>, %z: memref<f32>, %n: index) {
// CHECK-NEXT:    affine.for %i = 0 to 4 {
// CHECK-NEXT:      %v = affine.load %x[%i + 1] : memref<8xf32>
// CHECK-NEXT:      %w = affine.load %x[%i * 2 + %n] : memref<8xf32>
// CHECK-NEXT:      %s = affine.load %x[%i * 2 + symbol(%n)] {tag} : memref<8xf32>
// CHECK-NEXT:      %g = affine.load %x[%i * 2 + symbol(%n)] : memref<8xf32>
// CHECK-NEXT:      %e = affine.load %y[(%i + 1) floordiv 2, %i * -1 mod 3 + symbol(%n) * 2] : memref<8x8xf32>
// CHECK-NEXT:      %c = affine.load %z[] : memref<f32>
// CHECK-NEXT:      affine.store %v, %x[%i] : memref<8xf32>
// CHECK-NEXT:      affine.store %v, %y[%i + -1, %i ceildiv 4 + symbol(%n) * -1] {tag} : memref<8x8xf32>
// CHECK-NEXT:      %u = affine.vector_load %x[%i] : memref<8xf32>, vector<2xf32>
// CHECK-NEXT:      affine.vector_store %u, %x[symbol(%n)] : memref<8xf32>, vector<2xf32>
// CHECK-NEXT:    }

// GENERIC:      "affine.load"(%x, %i) <{map = affine_map<(d0) -> ((d0 + 1))>}>
// GENERIC-NEXT: "affine.load"(%x, %i, %n) <{map = affine_map<(d0, d1) -> (((d0 * 2) + d1))>}>
// GENERIC-NEXT: "affine.load"(%x, %i, %n) <{map = affine_map<(d0)[s0] -> (((d0 * 2) + s0))>}> {tag}
// GENERIC-NEXT: "affine.load"(%x, %i, %n) <{map = affine_map<(d0)[s0] -> (((d0 * 2) + s0))>}>
// GENERIC-NEXT: "affine.load"(%y, %i, %n) <{map = affine_map<(d0)[s0] -> (((d0 + 1) floordiv 2), (((d0 * -1) mod 3) + (s0 * 2)))>}>
// GENERIC-NEXT: "affine.load"(%z) <{map = affine_map<() -> ()>}>
// GENERIC-NEXT: "affine.store"(%v, %x, %i) <{map = affine_map<(d0) -> (d0)>}>
// GENERIC-NEXT: "affine.store"(%v, %y, %i, %n) <{map = affine_map<(d0)[s0] -> ((d0 + -1), ((d0 ceildiv 4) + (s0 * -1)))>}> {tag}
// GENERIC-NEXT: "affine.vector_load"(%x, %i) <{map = affine_map<(d0) -> (d0)>}>
// GENERIC-NEXT: "affine.vector_store"(%u, %x, %n) <{map = affine_map<()[s0] -> (s0)>}>

func.func @accesses(%x: memref<8xf32>, %y: memref<8x8xf32>, %z: memref<f32>, %n: index) {
  affine.for %i = 0 to 4 {
    %v = affine.load %x[%i + 1] : memref<8xf32>
    %w = affine.load %x[%i * 2 + %n] : memref<8xf32>
    %s = affine.load %x[%i * 2 + symbol(%n)] {tag} : memref<8xf32>
    %g = "affine.load"(%x, %i, %n) <{map = affine_map<(d0)[s0] -> (d0 * 2 + s0)>}> : (memref<8xf32>, index, index) -> f32
    %e = affine.load %y[(%i + 1) floordiv 2, -%i mod 3 + symbol(%n) * 2] : memref<8x8xf32>
    %c = affine.load %z[] : memref<f32>
    affine.store %v, %x[%i] : memref<8xf32>
    affine.store %v, %y[%i - 1, %i ceildiv 4 - symbol(%n)] {tag} : memref<8x8xf32>
    %u = affine.vector_load %x[%i] : memref<8xf32>, vector<2xf32>
    affine.vector_store %u, %x[symbol(%n)] : memref<8xf32>, vector<2xf32>
  }
  func.return
}

// A value is what it was first met as in the index list, as MLIR reads it:
// symbol(%n) then %n are one symbol, %n then symbol(%n) one dimension.
func.func @reused(%y: memref<8x8xf32>, %n: index) {
  %a = affine.load %y[symbol(%n), %n] : memref<8x8xf32>
  %b = affine.load %y[%n, symbol(%n)] : memref<8x8xf32>
  func.return
}

// CHECK-LABEL: func.func @reused
// CHECK-NEXT:    %a = affine.load %y[symbol(%n), symbol(%n)] : memref<8x8xf32>
// CHECK-NEXT:    %b = affine.load %y[%n, %n] : memref<8x8xf32>

// GENERIC-LABEL: "func.func"() <{sym_name = "reused"
// GENERIC:       "affine.load"(%y, %n) <{map = affine_map<()[s0] -> (s0, s0)>}>
// GENERIC-NEXT:  "affine.load"(%y, %n) <{map = affine_map<(d0) -> (d0, d0)>}>

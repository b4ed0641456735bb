// RUN: memplan-opt %s | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s

// MLIR reads each SSA name in the brackets of affine.load / affine.store as a
// dimension of the access map; xDSL 0.74 read them as symbols, so a loop
// index became a symbol in the generic form, which MLIR rejects ("operand
// cannot be used as a symbol").

// CHECK-LABEL: func.func @accesses(%x: memref<8xf32>, %n: index) {
// CHECK-NEXT:    affine.for %i = 0 to 4 {
// CHECK-NEXT:      %v = affine.load %x[%i + 1] : memref<8xf32>
// CHECK-NEXT:      %w = affine.load %x[%i * 2 + %n] : memref<8xf32>
// CHECK-NEXT:      affine.store %v, %x[%i] : memref<8xf32>
// CHECK-NEXT:      %u = affine.vector_load %x[%i] : memref<8xf32>, vector<2xf32>
// CHECK-NEXT:      affine.vector_store %u, %x[%i + 2] : memref<8xf32>, vector<2xf32>
// CHECK-NEXT:    }

// GENERIC:      "affine.load"(%x, %i) <{map = affine_map<(d0) -> ((d0 + 1))>}>
// GENERIC-NEXT: "affine.load"(%x, %i, %n) <{map = affine_map<(d0, d1) -> (((d0 * 2) + d1))>}>
// GENERIC-NEXT: "affine.store"(%v, %x, %i) <{map = affine_map<(d0) -> (d0)>}>
// GENERIC-NEXT: "affine.vector_load"(%x, %i) <{map = affine_map<(d0) -> (d0)>}>
// GENERIC-NEXT: "affine.vector_store"(%u, %x, %i) <{map = affine_map<(d0) -> ((d0 + 2))>}>

func.func @accesses(%x: memref<8xf32>, %n: index) {
  affine.for %i = 0 to 4 {
    %v = affine.load %x[%i + 1] : memref<8xf32>
    %w = affine.load %x[%i * 2 + %n] : memref<8xf32>
    affine.store %v, %x[%i] : memref<8xf32>
    %u = affine.vector_load %x[%i] : memref<8xf32>, vector<2xf32>
    affine.vector_store %u, %x[%i + 2] : memref<8xf32>, vector<2xf32>
  }
  func.return
}

// RUN: memplan-opt %s | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s

// Semi-affine maps: products with a symbol and divisions by one, as MLIR's
// expand-strided-metadata writes them for subviews of dynamic shapes.

func.func @apply(%a: index, %b: index, %i: index) -> (index, index, index, index) {
  %0 = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%a, %b]
  %1 = affine.apply affine_map<(d0)[s0] -> (s0 * d0)>(%i)[%a]
  %2 = affine.apply affine_map<(d0)[s0, s1] -> (d0 mod s0 + d0 floordiv s1 + d0 ceildiv (s0 + s1))>(%i)[%a, %b]
  %3 = affine.apply affine_map<(d0) -> (d0 floordiv 0)>(%i)
  func.return %0, %1, %2, %3 : index, index, index, index
}

// CHECK-LABEL: func.func @apply
// CHECK-NEXT:    %0 = affine.apply affine_map<()[s0, s1] -> ((s0 * s1))> ()[%a, %b]
// CHECK-NEXT:    %1 = affine.apply affine_map<(d0)[s0] -> ((d0 * s0))> (%i)[%a]
// CHECK-NEXT:    %2 = affine.apply affine_map<(d0)[s0, s1] -> ((((d0 mod s0) + (d0 floordiv s1)) + (d0 ceildiv (s0 + s1))))> (%i)[%a, %b]
// CHECK-NEXT:    %3 = affine.apply affine_map<(d0) -> ((d0 floordiv 0))> (%i)

func.func @loops(%x: memref<64xf32>, %a: index, %b: index) {
  affine.for %i = 0 to affine_map<()[s0, s1] -> (s0 * s1)>()[%a, %b] {
    affine.if affine_set<(d0)[s0] : (d0 * s0 - 4 >= 0)>(%i)[%a] {
      %v = affine.load %x[%i * symbol(%a)] : memref<64xf32>
      affine.store %v, %x[symbol(%a) * symbol(%b) + %i floordiv symbol(%b)] : memref<64xf32>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @loops
// CHECK-NEXT:    affine.for %i = 0 to affine_map<()[s0, s1] -> ((s0 * s1))>()[%a, %b] {
// CHECK-NEXT:      affine.if affine_set<(d0)[s0] : (((d0 * s0) + -4) >= 0)>(%i)[%a] {
// CHECK-NEXT:        %v = affine.load %x[%i * symbol(%a)] : memref<64xf32>
// CHECK-NEXT:        affine.store %v, %x[symbol(%a) * symbol(%b) + %i floordiv symbol(%b)] : memref<64xf32>

// affine.apply keeps its attribute dictionary through the custom form, as
// MLIR's does (xDSL's dropped it).

func.func @apply_attributes(%i: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i) {tag = "kept"}
  func.return %0 : index
}

// CHECK-LABEL: func.func @apply_attributes
// CHECK-NEXT:    %0 = affine.apply affine_map<(d0) -> ((d0 + 1))> (%i) {tag = "kept"}

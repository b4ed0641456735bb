// memref.subview as canonicalize folds it (constant operands made static,
// a memref.cast back to the old type; a unit-stride subview of a subview
// made one subview) runs to the same views, offsets and strides.

// DEFINE: %{x} = "dense<[[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11], [12, 13, 14, 15, 16, 17], [18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29], [30, 31, 32, 33, 34, 35]]> : tensor<6x6xi32>"
// RUN: memplan-run %s --args %{x} 2>&1 | filecheck %s
// RUN: memplan-opt -p canonicalize %s | memplan-run - --args %{x} 2>&1 | filecheck %s
// RUN: memplan-opt -p canonicalize %s | filecheck %s --check-prefix FOLDED

func.func @main(%x: memref<6x6xi32>) -> (memref<?x?xi32, strided<[?, 1], offset: ?>>, memref<?xi32, strided<[1], offset: ?>>, memref<2x2xi32, strided<[6, 1], offset: 22>>, index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %every_other = memref.subview %x[%c1, 0] [2, %c2] [%c2, 1] : memref<6x6xi32> to memref<2x?xi32, strided<[?, 1], offset: ?>>
  %cast = memref.cast %every_other : memref<2x?xi32, strided<[?, 1], offset: ?>> to memref<?x?xi32, strided<[?, 1], offset: ?>>
  %row = memref.subview %x[%c3, 1] [1, %c3] [1, 1] : memref<6x6xi32> to memref<?xi32, strided<[1], offset: ?>>
  %outer = memref.subview %x[1, 2] [4, 4] [1, 1] : memref<6x6xi32> to memref<4x4xi32, strided<[6, 1], offset: 8>>
  %inner = memref.subview %outer[2, 2] [2, 2] [1, 1] : memref<4x4xi32, strided<[6, 1], offset: 8>> to memref<2x2xi32, strided<[6, 1], offset: 22>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %inner : memref<2x2xi32, strided<[6, 1], offset: 22>> -> memref<i32>, index, index, index, index, index
  func.return %cast, %row, %inner, %offset, %strides#0 : memref<?x?xi32, strided<[?, 1], offset: ?>>, memref<?xi32, strided<[1], offset: ?>>, memref<2x2xi32, strided<[6, 1], offset: 22>>, index, index
}

// CHECK:      result: (
// CHECK-NEXT:     array({{\[\[}} 6,  7],
// CHECK-NEXT:        [18, 19]], dtype=int32),
// CHECK-NEXT:     array([19, 20, 21], dtype=int32),
// CHECK-NEXT:     array({{\[\[}}22, 23],
// CHECK-NEXT:        [28, 29]], dtype=int32),
// CHECK-NEXT:     22,
// CHECK-NEXT:     6
// CHECK-NEXT: )

// FOLDED-NOT:  arith.constant
// FOLDED:      memref.subview %x[1, 0] [2, 2] [2, 1]
// FOLDED:      memref.subview %x[3, 1] [1, 3] [1, 1]
// FOLDED:      memref.subview %x[3, 4] [2, 2] [1, 1]
// FOLDED-NOT:  memref.subview

// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bufferization.clone as MLIR defines it: any two memrefs, ranked or not
// (xDSL 0.74 asks for one type).  What a clone means (an alloc of the result
// type and a copy) is checked where it runs or is rewritten.

// CHECK-LABEL: func.func @clones
// CHECK-NEXT:    %same = bufferization.clone %m : memref<6xf32> to memref<6xf32>
// CHECK-NEXT:    %layout = bufferization.clone %v : memref<6xf32, strided<[1]>> to memref<6xf32>
// CHECK-NEXT:    %dynamic = bufferization.clone %m {note} : memref<6xf32> to memref<?xf32>
// CHECK-NEXT:    %unranked = bufferization.clone %m : memref<6xf32> to memref<*xf32>
// CHECK-NEXT:    %other = bufferization.clone %m : memref<6xf32> to memref<2x3xi32>
// GENERIC: %layout = "bufferization.clone"(%v) : (memref<6xf32, strided<[1]>>) -> memref<6xf32>
func.func @clones(%m: memref<6xf32>, %v: memref<6xf32, strided<[1]>>) {
  %same = bufferization.clone %m : memref<6xf32> to memref<6xf32>
  %layout = bufferization.clone %v : memref<6xf32, strided<[1]>> to memref<6xf32>
  %dynamic = bufferization.clone %m {note} : memref<6xf32> to memref<?xf32>
  %unranked = bufferization.clone %m : memref<6xf32> to memref<*xf32>
  %other = bufferization.clone %m : memref<6xf32> to memref<2x3xi32>
  func.return
}

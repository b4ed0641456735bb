// RUN: memplan-run %s --args "dense<1.0> : tensor<16x3xf32>, dense<1.0> : tensor<16x4xf32>" --no-stats 2>&1 | filecheck %s --check-prefix=IN
// RUN: not memplan-run %s --args "dense<1.0> : tensor<20x3xf32>, dense<1.0> : tensor<20x4xf32>" 2>&1 | filecheck %s --check-prefix=OUT
// RUN: not memplan-run %s --args "dense<1.0> : tensor<2x3xf32>, dense<1.0> : tensor<3x4xf32>" 2>&1 | filecheck %s --check-prefix=UNEQUAL

// The sizes a dynamic torch export allows (examples/torch/export_model.py):
// the batch of both arguments is s77, 1..16; the width of %y has no upper
// bound. A run outside them, or at two batches, is refused before the call.
func.func @main(
    %x: memref<?x3xf32> {memplan.sizes = [{dim = 0 : i64, max = 16 : i64, min = 1 : i64, name = "batch", symbol = "s77"}]},
    %y: memref<?x?xf32> {memplan.sizes = [{dim = 0 : i64, max = 16 : i64, min = 1 : i64, name = "batch", symbol = "s77"}, {dim = 1 : i64, min = 4 : i64, symbol = "s9"}]}) -> index {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  func.return %n : index
}

// IN: result: 16
// OUT: memplan-run: error: @main argument 0: dimension 0 is 20, outside 1..16 that the export allows for s77 (Dim batch){{$}}
// UNEQUAL: memplan-run: error: @main argument 1: dimension 0 is 3, but argument 0's dimension 0 is 2, and the export makes both s77 (Dim batch){{$}}

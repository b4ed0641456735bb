// RUN: not memplan-run %s --args "dense<1.0> : tensor<2x3xf32>" 2>&1 | filecheck %s

// A memplan.sizes entry without its symbol is an error naming the argument
// and the form expected, not a traceback.
func.func @main(%x: memref<?x3xf32> {memplan.sizes = [{dim = 0 : i64, min = 1 : i64}]}) {
  func.return
}

// CHECK: memplan-run: error: @main argument 0: its memplan.sizes attribute is malformed: entry 0 has no symbol, expected {dim = N : i64, symbol = "s0", min = N : i64[, max = N : i64][, name = "batch"][, scale = N : i64][, offset = N : i64]}{{$}}

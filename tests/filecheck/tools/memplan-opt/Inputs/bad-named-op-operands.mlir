func.func @f(%a: memref<4x4xf32>, %lo: f64) {
  linalg.fill_rng_2d ins(%lo : f64) outs(%a : memref<4x4xf32>)
  func.return
}

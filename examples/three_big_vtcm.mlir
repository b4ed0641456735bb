// Three 3 MiB VTCM tensors used one after another, all freed only at the end
// (naive bufferization).  Unplanned they need 9 MiB of VTCM at once, over the
// 8 MiB of hexagon-v73, so `memplan-run` fails.  Liveness sees at most two of
// them in use at once (a and b, then b and c): after
// `memory-manifest,memory-plan` one 6 MiB arena holds them and c reuses a's
// bytes.  @main returns ((1 + 1) * (1 + 1)) = 4 in every element.

func.func @main() -> memref<768x1024xi32> {
  %one = arith.constant 1 : i32
  %a = memref.alloc() : memref<768x1024xi32, "global.vtcm">
  linalg.fill ins(%one : i32) outs(%a : memref<768x1024xi32, "global.vtcm">)
  %b = memref.alloc() : memref<768x1024xi32, "global.vtcm">
  linalg.add ins(%a, %a : memref<768x1024xi32, "global.vtcm">, memref<768x1024xi32, "global.vtcm">) outs(%b : memref<768x1024xi32, "global.vtcm">)
  %c = memref.alloc() : memref<768x1024xi32, "global.vtcm">
  linalg.mul ins(%b, %b : memref<768x1024xi32, "global.vtcm">, memref<768x1024xi32, "global.vtcm">) outs(%c : memref<768x1024xi32, "global.vtcm">)
  %out = memref.alloc() : memref<768x1024xi32>
  memory.copy %c, %out : memref<768x1024xi32, "global.vtcm"> to memref<768x1024xi32>
  memref.dealloc %a : memref<768x1024xi32, "global.vtcm">
  memref.dealloc %b : memref<768x1024xi32, "global.vtcm">
  memref.dealloc %c : memref<768x1024xi32, "global.vtcm">
  func.return %out : memref<768x1024xi32>
}

// Fragmentation: ten VTCM tensors of 2, 4 and 8 KiB whose live bytes never
// exceed 12 KiB (six 2 KiB blocks), freed as soon as they die.
//
// * Run as it is on a 12 KiB VTCM (`memplan-run --vtcm-size 12288`), the
//   first-fit allocator fails: at %i, 8 KiB are free but in two ranges.
// * No contiguous plan fits 12 KiB either: `memory-plan{capacity=12288}`
//   fails, since every placement of these live ranges needs 14 KiB (the
//   `best` search proves it).
// * `memory-plan{discontiguous=auto capacity=12288}` cuts the fewest tensors
//   into 2 KiB blocks (pointer tables in DDR) and fits 12 KiB exactly.
//
// Tensor k is filled with k + 1 (a = 1, ..., j = 10) and summed over its
// rows into @main's result when it dies: every element of the result is
// 4*1 + 2*2 + 2*3 + 4 + 5 + 6 + 7 + 8 + 4*9 + 2*10 = 100.

func.func @main() -> memref<512xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<512xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<512xf32>)
  %va = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x512xf32, "global.vtcm">
  linalg.fill ins(%va : f32) outs(%a : memref<4x512xf32, "global.vtcm">)
  %vb = arith.constant 2.0 : f32
  %b = memref.alloc() : memref<2x512xf32, "global.vtcm">
  linalg.fill ins(%vb : f32) outs(%b : memref<2x512xf32, "global.vtcm">)
  linalg.reduce ins(%a : memref<4x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %a : memref<4x512xf32, "global.vtcm">
  %vc = arith.constant 3.0 : f32
  %c = memref.alloc() : memref<2x512xf32, "global.vtcm">
  linalg.fill ins(%vc : f32) outs(%c : memref<2x512xf32, "global.vtcm">)
  %vd = arith.constant 4.0 : f32
  %d = memref.alloc() : memref<1x512xf32, "global.vtcm">
  linalg.fill ins(%vd : f32) outs(%d : memref<1x512xf32, "global.vtcm">)
  %ve = arith.constant 5.0 : f32
  %e = memref.alloc() : memref<1x512xf32, "global.vtcm">
  linalg.fill ins(%ve : f32) outs(%e : memref<1x512xf32, "global.vtcm">)
  linalg.reduce ins(%e : memref<1x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %e : memref<1x512xf32, "global.vtcm">
  %vf = arith.constant 6.0 : f32
  %f = memref.alloc() : memref<1x512xf32, "global.vtcm">
  linalg.fill ins(%vf : f32) outs(%f : memref<1x512xf32, "global.vtcm">)
  linalg.reduce ins(%b : memref<2x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %b : memref<2x512xf32, "global.vtcm">
  %vg = arith.constant 7.0 : f32
  %g = memref.alloc() : memref<1x512xf32, "global.vtcm">
  linalg.fill ins(%vg : f32) outs(%g : memref<1x512xf32, "global.vtcm">)
  %vh = arith.constant 8.0 : f32
  %h = memref.alloc() : memref<1x512xf32, "global.vtcm">
  linalg.fill ins(%vh : f32) outs(%h : memref<1x512xf32, "global.vtcm">)
  linalg.reduce ins(%c : memref<2x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %c : memref<2x512xf32, "global.vtcm">
  linalg.reduce ins(%f : memref<1x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %f : memref<1x512xf32, "global.vtcm">
  linalg.reduce ins(%h : memref<1x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %h : memref<1x512xf32, "global.vtcm">
  %vi = arith.constant 9.0 : f32
  %i = memref.alloc() : memref<4x512xf32, "global.vtcm">
  linalg.fill ins(%vi : f32) outs(%i : memref<4x512xf32, "global.vtcm">)
  linalg.reduce ins(%d : memref<1x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %d : memref<1x512xf32, "global.vtcm">
  linalg.reduce ins(%g : memref<1x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %g : memref<1x512xf32, "global.vtcm">
  %vj = arith.constant 10.0 : f32
  %j = memref.alloc() : memref<2x512xf32, "global.vtcm">
  linalg.fill ins(%vj : f32) outs(%j : memref<2x512xf32, "global.vtcm">)
  linalg.reduce ins(%i : memref<4x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %i : memref<4x512xf32, "global.vtcm">
  linalg.reduce ins(%j : memref<2x512xf32, "global.vtcm">) outs(%acc : memref<512xf32>) dimensions = [0]
    (%x: f32, %sum: f32) {
      %s = arith.addf %x, %sum : f32
      linalg.yield %s : f32
    }
  memref.dealloc %j : memref<2x512xf32, "global.vtcm">
  func.return %acc : memref<512xf32>
}

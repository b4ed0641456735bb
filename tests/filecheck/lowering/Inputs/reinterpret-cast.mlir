// %a and %b share a VTCM arena after planning; %v reads %b[2..6) through a
// reinterpret_cast whose offset counts from %b's first element.  %r spells
// scope "global" as a memory space and %d does not: after memory-coalesce
// they share a buffer, and %r is a view plus a memref.memory_space_cast.
func.func @main() -> memref<4xi32, "global"> {
  %c0 = arith.constant 0 : index
  %r = memref.alloc() : memref<4xi32, "global">
  %d = memref.alloc() : memref<4xi32>
  %a = memref.alloc() : memref<8xi32, "global.vtcm">
  %b = memref.alloc() : memref<8xi32, "global.vtcm">
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  linalg.fill ins(%one : i32) outs(%a : memref<8xi32, "global.vtcm">)
  linalg.fill ins(%two : i32) outs(%b : memref<8xi32, "global.vtcm">)
  %v = memref.reinterpret_cast %b to offset: [2], sizes: [4], strides: [1] : memref<8xi32, "global.vtcm"> to memref<4xi32, strided<[1], offset: 2>, "global.vtcm">
  linalg.copy ins(%v : memref<4xi32, strided<[1], offset: 2>, "global.vtcm">) outs(%d : memref<4xi32>)
  linalg.copy ins(%d : memref<4xi32>) outs(%r : memref<4xi32, "global">)
  %x = memref.load %a[%c0] : memref<8xi32, "global.vtcm">
  memref.dealloc %a : memref<8xi32, "global.vtcm">
  memref.dealloc %b : memref<8xi32, "global.vtcm">
  memref.dealloc %d : memref<4xi32>
  func.return %r : memref<4xi32, "global">
}

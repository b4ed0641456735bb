// arith.select on memrefs picks one of the tensors itself, as a pointer
// select does: no copy, and writes through the result reach it.

// RUN: memplan-run %s --args true 2>&1 | filecheck %s --check-prefix TRUE
// RUN: memplan-run %s --args false 2>&1 | filecheck %s --check-prefix FALSE
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --args true 2>&1 | filecheck %s --check-prefix TRUE

func.func @main(%c: i1) -> (memref<4xf32>, memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ten = arith.constant 10.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
  %x = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ten : f32) outs(%x : memref<4xf32>)
  %r = arith.select %c, %a, %x : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<4xf32>)
  %out = memref.alloc() : memref<4xf32>
  linalg.add ins(%r, %b : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  linalg.fill ins(%two : f32) outs(%r : memref<4xf32>)
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  return %out, %a : memref<4xf32>, memref<4xf32>
}

// TRUE:      result: (
// TRUE-NEXT:     array([3., 3., 3., 3.], dtype=float32),
// TRUE-NEXT:     array([2., 2., 2., 2.], dtype=float32)
// TRUE-NEXT: )
// TRUE-NEXT: memplan-run: {{.*}}bytes copied none;

// FALSE:      result: (
// FALSE-NEXT:     array([12., 12., 12., 12.], dtype=float32),
// FALSE-NEXT:     array([1., 1., 1., 1.], dtype=float32)
// FALSE-NEXT: )

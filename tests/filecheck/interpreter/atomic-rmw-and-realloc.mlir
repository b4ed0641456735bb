// memplan-run runs memref.atomic_rmw (the element's old value is the result)
// and memref.realloc (a new allocation holding the kept elements; the source
// is freed, so using it afterwards is an error naming the realloc).

// RUN: memplan-run %s --symbol atomic --args "dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>" 2>&1 | filecheck %s --check-prefix=ATOMIC
// RUN: memplan-run %s --symbol realloc --args "dense<[1, 2, 3, 4]> : tensor<4xi32>" 2>&1 | filecheck %s --check-prefix=REALLOC
// RUN: not memplan-run %s --symbol use_after_realloc 2>&1 | filecheck %s --check-prefix=FREED

func.func @atomic(%m: memref<4xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %old = memref.atomic_rmw addf %half, %m[%c1] : (f32, memref<4xf32>) -> f32
  return %old : f32
}

// ATOMIC:      result: 2.0
// ATOMIC-NEXT: arg0: array([1. , 2.5, 3. , 4. ], dtype=float32)

func.func @realloc(%x: memref<4xi32>) -> memref<6xi32> {
  %a = memref.alloc() : memref<4xi32>
  memref.copy %x, %a : memref<4xi32> to memref<4xi32>
  %r = memref.realloc %a : memref<4xi32> to memref<6xi32>
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %nine = arith.constant 9 : i32
  memref.store %nine, %r[%c4] : memref<6xi32>
  memref.store %nine, %r[%c5] : memref<6xi32>
  return %r : memref<6xi32>
}

// REALLOC:      result: array([1, 2, 3, 4, 9, 9], dtype=int32)
// REALLOC-NEXT: memplan-run: target hexagon-v73: peak bytes global=40; peak extent global=88; storages global=2; bytes copied global->global=32;

func.func @use_after_realloc() -> i32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xi32>
  %r = memref.realloc %a : memref<4xi32> to memref<8xi32>
  %v = memref.load %a[%c0] : memref<4xi32>
  return %v : i32
}

// FREED: memplan-run: error: {{.*}}:38:3: memref.load %v (in @use_after_realloc): uses the tensor allocated by memref.alloc %a (line 36, in @use_after_realloc) after it was killed by memref.realloc %r (line 37, in @use_after_realloc), which killed its storage{{$}}

// memref ops memplan parses but memplan-run does not run stop it with an
// error naming the op (no traceback, no guessed result).

// RUN: not memplan-run %s --symbol atomic --args "dense<1.0> : tensor<4xf32>" 2>&1 | filecheck %s --check-prefix=ATOMIC
// RUN: not memplan-run %s --symbol realloc --args "dense<1.0> : tensor<4xf32>" 2>&1 | filecheck %s --check-prefix=REALLOC

func.func @atomic(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %old = memref.atomic_rmw addf %one, %m[%c0] : (f32, memref<4xf32>) -> f32
  return %old : f32
}

// ATOMIC: memplan-run: error: {{.*}}:10:3: memref.atomic_rmw %old (in @atomic): Could not find interpretation function for op memref.atomic_rmw{{$}}

func.func @realloc(%m: memref<4xf32>) -> memref<8xf32> {
  %r = memref.realloc %m : memref<4xf32> to memref<8xf32>
  return %r : memref<8xf32>
}

// REALLOC: memplan-run: error: {{.*}}:17:3: memref.realloc %r (in @realloc): Could not find interpretation function for op memref.realloc{{$}}

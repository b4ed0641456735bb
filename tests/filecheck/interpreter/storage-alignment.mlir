// RUN: not memplan-run %s 2>&1 | filecheck %s --check-prefix=VERIFY
// RUN: not memplan-run --disable-verify %s 2>&1 | filecheck %s

// A storage alignment must be a power of two: the verifier says so, and so
// does the interpreter when verification is off.
func.func @main() {
  %m = memref.alloc() {alignment = 96 : i64} : memref<16xi32, "global.vtcm">
  func.return
}

// VERIFY: memplan-run: error: {{.*}}storage-alignment.mlir:7:3: memref.alloc %m (in @main): Alignment attribute 96 is not a power of 2{{$}}
// CHECK: memplan-run: error: {{.*}}storage-alignment.mlir:7:3: memref.alloc %m (in @main): alignment 96 is not a positive power of two{{$}}

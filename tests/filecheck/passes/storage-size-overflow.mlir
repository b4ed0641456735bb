// RUN: xdsl-opt %s -p 'memory-manifest' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=MANIFEST
// RUN: xdsl-opt %s -p 'memory-manifest,memory-coalesce{alignment=4611686018427387904}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=COALESCE
// RUN: xdsl-opt %s -p 'memory-manifest,memory-plan{tensor-alignment=4611686018427387904 capacity=18446744073709551615}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=PLAN

// A storage the pass would make larger than its i64 size property holds is a
// failure naming the pass, not a size wrapped to a negative number.

func.func @three(%c: i32) {
  %a = memref.alloc() : memref<4xi32, "global.vtcm">
  %b = memref.alloc() : memref<4xi32, "global.vtcm">
  %d = memref.alloc() : memref<4xi32, "global.vtcm">
  linalg.fill ins(%c : i32) outs(%a : memref<4xi32, "global.vtcm">)
  linalg.fill ins(%c : i32) outs(%b : memref<4xi32, "global.vtcm">)
  linalg.fill ins(%c : i32) outs(%d : memref<4xi32, "global.vtcm">)
  memref.dealloc %a : memref<4xi32, "global.vtcm">
  memref.dealloc %b : memref<4xi32, "global.vtcm">
  memref.dealloc %d : memref<4xi32, "global.vtcm">
  func.return
}

// COALESCE: memory-coalesce: in @three, the merged "global.vtcm" storage would need 9223372036854775824 bytes, more than a storage size holds (at most 9223372036854775807)
// PLAN: memory-plan: in @three, the "global.vtcm" arena would need 13835058055282163712 bytes, more than a storage size holds (at most 9223372036854775807)

// -----

func.func @huge() {
  %a = memref.alloc() : memref<4611686018427387904x4xi32>
  memref.dealloc %a : memref<4611686018427387904x4xi32>
  func.return
}

// MANIFEST: memory-manifest: in @huge, the storage of memref.alloc of memref<4611686018427387904x4xi32> would need 73786976294838206464 bytes, more than a storage size holds (at most 9223372036854775807)

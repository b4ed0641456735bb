// RUN: not memplan-run %s --cost-model %S/inputs/not-utf8.json 2>&1 | filecheck %s --check-prefix=RUN-UTF8
// RUN: not memplan-opt %s -p 'memory-place{cost-model="%S/inputs/not-utf8.json"}' 2>&1 | filecheck %s --check-prefix=OPT-UTF8
// RUN: not memplan-run %s --cost-model %S/inputs/typo-scope.json 2>&1 | filecheck %s --check-prefix=RUN-SCOPE
// RUN: not memplan-opt %s -p 'memory-place{cost-model="%S/inputs/typo-scope.json"}' 2>&1 | filecheck %s --check-prefix=OPT-SCOPE
// RUN: memplan-run %s 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: memplan-run %s --cost-model %S/inputs/sram-scope.json 2>&1 | filecheck %s --check-prefix=SRAM

// A cost-model file names the flag or option that gave it and the file in
// every error: bytes that are not UTF-8 are the file's fault, not the MLIR
// input's, and a scope override for a scope neither the target nor the
// program has (a typo of "my.sram") is refused instead of silently unused.
func.func @main() {
  %a = memref.alloc() : memref<256xf32, "my.sram">
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32, "my.sram">)
  memref.dealloc %a : memref<256xf32, "my.sram">
  func.return
}

// RUN-UTF8: memplan-run: error: --cost-model {{.*}}not-utf8.json: not UTF-8 text (byte 0xff at offset 0){{$}}
// OPT-UTF8: memplan-opt: error: memory-place: cost-model={{.*}}not-utf8.json: not UTF-8 text (byte 0xff at offset 0){{$}}
// RUN-SCOPE: memplan-run: error: --cost-model {{.*}}typo-scope.json: scopes.my.srm: unknown scope: neither the target nor the program has it; known scopes: global, global.vtcm, my.sram{{$}}
// OPT-SCOPE: memplan-opt: error: memory-place: cost-model={{.*}}typo-scope.json: scopes.my.srm: unknown scope: neither the target nor the program has it; known scopes: global, global.vtcm, my.sram{{$}}

// An unknown scope costs as DDR (latency 200) unless overridden (latency 2).
// DEFAULT: 514 modeled cycles
// SRAM: 316 modeled cycles

// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=always}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALWAYS
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=always table-scope="global.vtcm"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=INARENA
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=always block-size=1024}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BLOCK1K
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=auto}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=AUTO
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=never}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=AUTO
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=sometimes}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADMODE
// RUN: xdsl-opt %s -p 'memory-plan{block-size=1000}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADBLOCK
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=always table-scope=""}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADTABLE
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=always table-scope="global.vtc"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TYPOTABLE
// RUN: xdsl-opt %s -p 'memory-plan{block-size=1024}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOBLOCKS
// RUN: xdsl-opt %s -p 'memory-plan{discontiguous=never table-scope="global.vtcm"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOTABLES

// examples/fragmentation.mlir: first fit fails on a 12 KiB VTCM, so does
// every contiguous plan; blocks fit, and the planned program runs there
// with the original results.
// RUN: not memplan-run %examples/fragmentation.mlir --vtcm-size 12288 2>&1 | filecheck %s --check-prefix=FIRSTFIT
// RUN: xdsl-opt %examples/fragmentation.mlir -p 'memory-manifest,memory-plan{capacity=12288}' --verify-diagnostics | filecheck %s --check-prefix=CONTIGUOUS
// RUN: xdsl-opt %examples/fragmentation.mlir -p 'memory-manifest,memory-plan{discontiguous=auto capacity=10240}' --verify-diagnostics | filecheck %s --check-prefix=TOOSMALL
// RUN: xdsl-opt %examples/fragmentation.mlir -p 'memory-manifest,memory-plan{discontiguous=auto capacity=12288}' | filecheck %s --check-prefix=FRAG
// RUN: xdsl-opt %examples/fragmentation.mlir -p 'memory-manifest,memory-plan{discontiguous=auto capacity=12288},memory-verify{capacity=12288}' | memplan-run --vtcm-size 12288 2>&1 | filecheck %s --check-prefix=RESULT
// RUN: xdsl-opt %examples/fragmentation.mlir -p 'memory-manifest,memory-plan{discontiguous=auto capacity=12288},convert-memory-to-memref' --verify-diagnostics | filecheck %s --check-prefix=LOWER

// BADMODE: memory-plan: unknown discontiguous 'sometimes', expected one of: never, auto, always
// BADBLOCK: memory-plan: block-size 1000 is not a positive power of two
// BADTABLE: memory-plan: unknown table-scope "", expected a scope of target hexagon-v73: "global", "global.vtcm"
// TYPOTABLE: memory-plan: unknown table-scope "global.vtc", expected a scope of target hexagon-v73: "global", "global.vtcm"
// NOBLOCKS: memory-plan: option block-size has no effect with discontiguous=never: it applies with discontiguous=auto or always
// NOTABLES: memory-plan: option table-scope has no effect with discontiguous=never: it applies with discontiguous=auto or always

// FIRSTFIT: memref.alloc %i (in @main): cannot allocate 8192 bytes in "global.vtcm": no free range of its 12288-byte window holds them at a 2048-byte aligned address (8192 bytes free in total, the largest free range has 4096 bytes)
// CONTIGUOUS: memory-plan: in @main, the "global.vtcm" arena needs 14336 bytes with the best plan of 10 tensors (at least 12288 bytes are live at once), over the scope capacity of 12288 bytes
// TOOSMALL: memory-plan: in @main, the "global.vtcm" arena needs 12288 bytes with 10 of its 10 tensors in blocks of 2048 bytes (at least 12288 bytes are live at once), over the scope capacity of 10240 bytes

// Blocks have no memref equivalent: lowering says so.
// LOWER: convert-memory-to-memref: in @main, memory.alloc_discontiguous_tensor has no memref equivalent: its blocks are reached through a pointer table, which no memref layout expresses; expected only contiguous memory.alloc_tensor

// Two tensors of more than one block are cut; the others stay contiguous.
// FRAG:      %arena = memory.alloc_storage [12288] align 2048 : !memory.storage<"global.vtcm">
// FRAG-NEXT: %tables = memory.alloc_storage [24] : !memory.storage<"global">
// FRAG-NOT:  %{{[a-h]}} = memory.alloc_discontiguous_tensor
// FRAG:      %i = memory.alloc_discontiguous_tensor table %tables[0], blocks %arena[{{\d+}}, {{\d+}}, {{\d+}}, {{\d+}}] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x512xf32, #memory.discontiguous<512>, "global.vtcm">
// FRAG:      %j = memory.alloc_discontiguous_tensor table %tables[16], blocks %arena[{{\d+}}, {{\d+}}] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm">
// FRAG-NOT:  memory.alloc_discontiguous_tensor
// FRAG:      memory.kill %arena : !memory.storage<"global.vtcm">
// FRAG-NEXT: memory.kill %tables : !memory.storage<"global">

// RESULT: array([100., 100.,
// RESULT: peak bytes global=2072, global.vtcm=12288; peak extent global=2072, global.vtcm=12288

// A 4 KiB tensor used by copies takes two 2 KiB blocks; a 1600-byte one fits
// one block and stays contiguous; one viewed by a subview stays contiguous.
func.func @blocks(%x: memref<2x512xf32>, %y: memref<400xf32>) {
  %one = arith.constant 1.0 : f32
  %s0 = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s0[0] : !memory.storage<"global.vtcm"> to memref<2x512xf32, "global.vtcm">
  memory.copy %x, %a : memref<2x512xf32> to memref<2x512xf32, "global.vtcm">
  %s1 = memory.alloc_storage [1600] align 2048 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<400xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%b : memref<400xf32, "global.vtcm">)
  %s2 = memory.alloc_storage [3000] align 2048 : !memory.storage<"global.vtcm">
  %c = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<750xf32, "global.vtcm">
  %v = memref.subview %c[0] [400] [1] : memref<750xf32, "global.vtcm"> to memref<400xf32, strided<[1]>, "global.vtcm">
  linalg.add ins(%b, %b : memref<400xf32, "global.vtcm">, memref<400xf32, "global.vtcm">) outs(%v : memref<400xf32, strided<[1]>, "global.vtcm">)
  memory.copy %a, %x : memref<2x512xf32, "global.vtcm"> to memref<2x512xf32>
  memory.copy %v, %y : memref<400xf32, strided<[1]>, "global.vtcm"> to memref<400xf32>
  memory.kill %s0 : !memory.storage<"global.vtcm">
  memory.kill %s1 : !memory.storage<"global.vtcm">
  memory.kill %s2 : !memory.storage<"global.vtcm">
  func.return
}

// ALWAYS-LABEL: func.func @blocks(
// ALWAYS:       %arena = memory.alloc_storage [10240] align 2048 : !memory.storage<"global.vtcm">
// ALWAYS-NEXT:  %tables = memory.alloc_storage [8] : !memory.storage<"global">
// ALWAYS-NEXT:  %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %arena[4096, 6144] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm">
// ALWAYS-NEXT:  memory.copy %x, %a : memref<2x512xf32> to memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm">
// ALWAYS-NEXT:  %b = memory.alloc_tensor %arena[8192] : !memory.storage<"global.vtcm"> to memref<400xf32, "global.vtcm">
// ALWAYS:       %c = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<750xf32, "global.vtcm">
// ALWAYS:       memory.copy %a, %x : memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm"> to memref<2x512xf32>
// ALWAYS-NEXT:  memory.kill %a : memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm">
// ALWAYS:       memory.kill %arena : !memory.storage<"global.vtcm">
// ALWAYS-NEXT:  memory.kill %tables : !memory.storage<"global">

// With table-scope equal to the arena's scope the tables sit in the arena.
// INARENA-LABEL: func.func @blocks(
// INARENA:       %arena = memory.alloc_storage [10252] align 2048 : !memory.storage<"global.vtcm">
// INARENA-NEXT:  %a = memory.alloc_discontiguous_tensor table %arena[10240], blocks %arena[4096, 6144] : !memory.storage<"global.vtcm">, !memory.storage<"global.vtcm"> to memref<2x512xf32, #memory.discontiguous<512>, "global.vtcm">
// INARENA-NOT:   %tables

// 1 KiB blocks: the 1600-byte tensor takes two of them, the last partial.
// BLOCK1K-LABEL: func.func @blocks(
// BLOCK1K:       %tables = memory.alloc_storage [24] : !memory.storage<"global">
// BLOCK1K-NEXT:  %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %arena[{{\d+}}, {{\d+}}, {{\d+}}, {{\d+}}] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x512xf32, #memory.discontiguous<256>, "global.vtcm">
// BLOCK1K:       %b = memory.alloc_discontiguous_tensor table %tables[16], blocks %arena[{{\d+}}, {{\d+}}] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<400xf32, #memory.discontiguous<256>, "global.vtcm">
// BLOCK1K:       %c = memory.alloc_tensor

// The contiguous plan fits the 8 MiB: auto keeps every tensor contiguous.
// AUTO-LABEL: func.func @blocks(
// AUTO-NOT:   discontiguous
// AUTO:       func.return

// -----

// DDR has no capacity, hence no fragmentation to beat: tensors stay as they are.
func.func @ddr(%x: memref<1024xf32>) {
  %s = memory.alloc_storage [4096] : !memory.storage<"global">
  %a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<1024xf32>
  memory.copy %x, %a : memref<1024xf32> to memref<1024xf32>
  memory.copy %a, %x : memref<1024xf32> to memref<1024xf32>
  memory.kill %s : !memory.storage<"global">
  func.return
}

// ALWAYS-LABEL: func.func @ddr(
// ALWAYS-NOT:   discontiguous
// ALWAYS:       func.return

// The bundled examples parse, verify and print back unchanged, in the custom
// and in the generic form.

// RUN: xdsl-opt %examples/seed_vtcm_offsets.mlir | filecheck %s --check-prefix=OFFSETS
// RUN: xdsl-opt %examples/seed_vtcm_offsets.mlir --print-op-generic | xdsl-opt | filecheck %s --check-prefix=OFFSETS
// RUN: xdsl-opt %examples/seed_discontiguous.mlir | filecheck %s --check-prefix=BLOCKS
// RUN: xdsl-opt %examples/seed_discontiguous.mlir --print-op-generic | xdsl-opt | filecheck %s --check-prefix=BLOCKS

// OFFSETS-LABEL: func.func private @seed(
// OFFSETS:         %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// OFFSETS-NEXT:    %a = memory.alloc_tensor %vtcm[0] : !memory.storage<"global.vtcm"> to memref<4x64xi32, "global.vtcm">
// OFFSETS:         %b = memory.alloc_tensor %vtcm[1024]
// OFFSETS:         %c = memory.alloc_tensor %vtcm[2048]
// OFFSETS:         memory.kill %a
// OFFSETS-NEXT:    memory.kill %b
// OFFSETS-NEXT:    %d = memory.alloc_tensor %vtcm[0]
// OFFSETS:         %e = memory.alloc_tensor %vtcm[1024]
// OFFSETS:         memory.kill %vtcm : !memory.storage<"global.vtcm">

// BLOCKS-LABEL: func.func private @seed(
// BLOCKS:         %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// BLOCKS-NEXT:    %tables = memory.alloc_storage [64] : !memory.storage<"global">
// BLOCKS-NEXT:    %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[768, 256, 2304, 3072]
// BLOCKS:         %b = memory.alloc_discontiguous_tensor table %tables[16], blocks %vtcm[1536, 1280, 3328, 2560]
// BLOCKS:         %c = memory.alloc_discontiguous_tensor table %tables[32], blocks %vtcm[512, 0, 2048, 3840]

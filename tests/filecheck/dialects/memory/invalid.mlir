// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

%s = memory.alloc_storage [64] : !memory.storage<"">

// CHECK: memory scope must be a non-empty string

// -----

%s = memory.alloc_storage [64, 32] : !memory.storage<"global">

// CHECK: expected exactly one size, got 2

// -----

%s = memory.alloc_storage [-8] : !memory.storage<"global">

// CHECK: storage size must be non-negative, got -8

// -----

%s = memory.alloc_storage [64] align 3 : !memory.storage<"global">

// CHECK: alignment must be a positive power of two, got 3

// -----

%s = memory.alloc_storage [64] align 0 : !memory.storage<"global">

// CHECK: alignment must be a positive power of two, got 0

// -----

%s = memory.alloc_storage [64] device -1 : !memory.storage<"global">

// CHECK: device index must be non-negative, got -1

// -----

%s = memory.alloc_storage [64] align 9223372036854775808 : !memory.storage<"global">

// CHECK: alignment 9223372036854775808 does not fit in a 64-bit index (the largest power of two that does is 4611686018427387904)

// -----

%s = memory.alloc_storage [64] device 9223372036854775808 : !memory.storage<"global">

// CHECK: device index 9223372036854775808 does not fit in a 64-bit index (at most 9223372036854775807)

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] align 18446744073709551616 : !memory.storage<"global"> to memref<4xi32>

// CHECK: alignment 18446744073709551616 does not fit in a 64-bit index (the largest power of two that does is 4611686018427387904)

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0, 4] : !memory.storage<"global"> to memref<4xi32>

// CHECK: expected exactly one offset, got 2

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
%a = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32>

// CHECK: result memory space "global" does not match the storage scope "global.vtcm"

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xi32, 1 : i64>

// CHECK: result type: memory space 1 : i64 is not a scope: expected a string such as "global" or "global.vtcm"

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xi32, strided<[2]>>

// CHECK: result must have the identity layout, got strided<[2]>; use memory.alloc_discontiguous_tensor for discontiguous tensors

// -----

%n = "test.op"() : () -> index
%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0][%n] : !memory.storage<"global"> to memref<4x4xi32>

// CHECK: expected 0 dynamic size operand(s) for the 0 dynamic dimension(s) of the result, got 1

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xcomplex<f32>>

// CHECK: element type complex<f32> is not supported: expected an integer, float or index type

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[-4] : !memory.storage<"global"> to memref<4xi32>

// CHECK: offset must be non-negative, got -4

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[2] : !memory.storage<"global"> to memref<4xi32>

// CHECK: offset 2 is not aligned to the element size: expected a multiple of 4 bytes

// -----

%s = memory.alloc_storage [1024] align 512 : !memory.storage<"global">
%a = memory.alloc_tensor %s[128] align 256 : !memory.storage<"global"> to memref<4xi32>

// CHECK: offset 128 in a storage aligned to 512 bytes gives a 128-byte aligned address: expected a multiple of 256 bytes (the tensor's alignment)

// -----

%s = memory.alloc_storage [1024] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] align 256 : !memory.storage<"global"> to memref<4xi32>

// CHECK: offset 0 in a storage aligned to 64 bytes gives a 64-byte aligned address: expected a multiple of 256 bytes (the tensor's alignment)

// -----

%s = memory.alloc_storage [1024] : !memory.storage<"global">
%a = memory.alloc_tensor %s[0] align 48 : !memory.storage<"global"> to memref<4xi32>

// CHECK: alignment must be a positive power of two, got 48

// -----

%s = memory.alloc_storage [64] : !memory.storage<"global">
%a = memory.alloc_tensor %s[56] : !memory.storage<"global"> to memref<4xi32>

// CHECK: tensor of 16 bytes at offset 56 ends at byte 72, past the end of its 64-byte storage

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0, 4], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: expected exactly one table offset, got 2

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, "global.vtcm">

// CHECK: result must have the #memory.discontiguous layout, got no layout

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous>

// CHECK: result memory space "global" does not match the data storage scope "global.vtcm"

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<128xi32, #memory.discontiguous, "global.vtcm">

// CHECK: result must have a static shape of rank 2 or more (blocks x elements per block), got memref<128xi32, #memory.discontiguous, "global.vtcm">; give the block size (#memory.discontiguous<N>) to cut any shape into blocks

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: expected 4 block offsets (one per index of dimension 0), got 2

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 256] pointer_width 2 : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: pointer width must be 4 or 8 bytes, got 2

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[6], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: table offset 6 must be a non-negative multiple of the pointer width 4

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[60], blocks %d[0, 256] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: pointer table of 2 x 4 bytes at offset 60 ends at byte 68, past the end of its 64-byte storage

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 258] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: block 1 offset 258 must be a non-negative multiple of the element size 4

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 3968] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: block 1 of 256 bytes at offset 3968 ends at byte 4224, past the end of its 4096-byte storage

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[512, 0, 384] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x64xi32, #memory.discontiguous, "global.vtcm">

// CHECK: blocks 2 and 0 overlap: block 2 covers bytes [384, 640) and block 0 starts at 512

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<0>, "global.vtcm">

// CHECK: #memory.discontiguous needs a positive number of elements per block, got 0

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 512, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">

// CHECK: expected 2 block offsets (150 elements in blocks of 128), got 3

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%n = "test.op"() : () -> index
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[%n, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<?x50xi32, #memory.discontiguous<128>, "global.vtcm">

// CHECK: result must have a static shape, got memref<?x50xi32, #memory.discontiguous<128>, "global.vtcm">

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[4040, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xf16, #memory.discontiguous<64>, "global.vtcm">

// CHECK: block 0 of 128 bytes at offset 4040 ends at byte 4168, past the end of its 4096-byte storage

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 2048, 96] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xf16, #memory.discontiguous<64>, "global.vtcm">

// CHECK: blocks 0 and 2 overlap: block 0 covers bytes [0, 128) and block 2 starts at 96

// -----

%t = memory.alloc_storage [64] : !memory.storage<"global">
%d = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
%a = memory.alloc_discontiguous_tensor table %t[0], blocks %d[0, 2050] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">

// CHECK: block 1 offset 2050 must be a non-negative multiple of the element size 4

// -----

%x = "test.op"() : () -> memref<4x64xi32>
%y = "test.op"() : () -> memref<64x4xi32>
memory.copy %x, %y : memref<4x64xi32> to memref<64x4xi32>

// CHECK: source shape [4, 64] does not match target shape [64, 4]: a copy needs equal shapes

// -----

%x = "test.op"() : () -> memref<4xi32>
%y = "test.op"() : () -> memref<4xf32>
memory.copy %x, %y : memref<4xi32> to memref<4xf32>

// CHECK: source element type i32 does not match target element type f32

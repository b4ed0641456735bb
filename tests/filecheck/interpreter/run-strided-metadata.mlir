// memref.extract_strided_metadata and memref.extract_aligned_pointer_as_index,
// which MLIR's expand-strided-metadata and buffer-deallocation pipelines emit.

// RUN: memplan-run %s --symbol metadata 2>&1 | filecheck %s --check-prefix METADATA
// RUN: memplan-run %s --symbol pointers --args "dense<0> : tensor<4xi32>" 2>&1 | filecheck %s --check-prefix POINTERS
// RUN: memplan-run %s --symbol twofn --args "dense<0.5> : tensor<4xf32>" 2>&1 | filecheck %s --check-prefix TWOFN
// RUN: not memplan-run %s --symbol dealloc_base 2>&1 | filecheck %s --check-prefix DEALLOC

// A subview, its metadata, and the subview rebuilt from its base buffer the
// way expand-strided-metadata lowers it: writes reach the allocation.
func.func @metadata() -> (memref<4x6xi32>, index, index, index, index, index) {
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  %m = memref.alloc() : memref<4x6xi32>
  linalg.fill ins(%zero : i32) outs(%m : memref<4x6xi32>)
  %sub = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x6xi32> to memref<2x3xi32, strided<[6, 1], offset: 8>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %sub : memref<2x3xi32, strided<[6, 1], offset: 8>> -> memref<i32>, index, index, index, index, index
  %again = memref.reinterpret_cast %base to offset: [%offset], sizes: [%sizes#0, %sizes#1], strides: [%strides#0, %strides#1] : memref<i32> to memref<?x?xi32, strided<[?, ?], offset: ?>>
  linalg.fill ins(%seven : i32) outs(%again : memref<?x?xi32, strided<[?, ?], offset: ?>>)
  return %m, %offset, %sizes#0, %sizes#1, %strides#0, %strides#1 : memref<4x6xi32>, index, index, index, index, index
}

// METADATA:      result: (
// METADATA-NEXT:     array({{\[\[}}0, 0, 0, 0, 0, 0],
// METADATA-NEXT:        [0, 0, 7, 7, 7, 0],
// METADATA-NEXT:        [0, 0, 7, 7, 7, 0],
// METADATA-NEXT:        [0, 0, 0, 0, 0, 0]], dtype=int32),
// METADATA-NEXT:     8,
// METADATA-NEXT:     2,
// METADATA-NEXT:     3,
// METADATA-NEXT:     6,
// METADATA-NEXT:     1
// METADATA-NEXT: )

// The aligned pointer is the base pointer: a subview has its allocation's.
// Addresses are the model's (global storages from 0x10000000); buffers the
// run did not allocate (arguments, globals) get addresses from 0x1000000.
func.func @pointers(%arg: memref<4xi32>) -> (index, index, index, index) {
  %m = memref.alloc() : memref<4x6xi32>
  %n = memref.alloc() : memref<8xi32>
  %sub = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x6xi32> to memref<2x3xi32, strided<[6, 1], offset: 8>>
  %pm = "memref.extract_aligned_pointer_as_index"(%m) : (memref<4x6xi32>) -> index
  %psub = "memref.extract_aligned_pointer_as_index"(%sub) : (memref<2x3xi32, strided<[6, 1], offset: 8>>) -> index
  %pn = "memref.extract_aligned_pointer_as_index"(%n) : (memref<8xi32>) -> index
  %parg = "memref.extract_aligned_pointer_as_index"(%arg) : (memref<4xi32>) -> index
  return %pm, %psub, %pn, %parg : index, index, index, index
}

// POINTERS:      result: (
// POINTERS-NEXT:     268435456,
// POINTERS-NEXT:     268435456,
// POINTERS-NEXT:     268435584,
// POINTERS-NEXT:     16777216
// POINTERS-NEXT: )

// The base buffer stands for its allocation: deallocating it frees %m.
func.func @dealloc_base() -> i32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xi32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %m : memref<4xi32> -> memref<i32>, index, index, index
  memref.dealloc %base : memref<i32>
  %v = memref.load %m[%c0] : memref<4xi32>
  return %v : i32
}

// DEALLOC: memplan-run: error: {{.*}}run-strided-metadata.mlir:62:3: memref.load %v (in @dealloc_base): uses the tensor allocated by memref.alloc %m (line 59, in @dealloc_base) after it was killed by memref.dealloc (line 61, in @dealloc_base), which killed its storage{{$}}

// What buffer-deallocation-pipeline makes of a function using a buffer
// another returns: free it unless it is the buffer returned.
func.func @make(%x: memref<4xf32>) -> memref<4xf32> {
  %e = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%e : memref<4xf32>)
  return %e : memref<4xf32>
}

func.func @twofn(%x: memref<4xf32>) -> memref<4xf32> {
  %e = call @make(%x) : (memref<4xf32>) -> memref<4xf32>
  %sum = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  linalg.add ins(%e, %e : memref<4xf32>, memref<4xf32>) outs(%sum : memref<4xf32>)
  %base, %offset, %size, %stride = memref.extract_strided_metadata %e : memref<4xf32> -> memref<f32>, index, index, index
  %pe = "memref.extract_aligned_pointer_as_index"(%base) : (memref<f32>) -> index
  %psum = "memref.extract_aligned_pointer_as_index"(%sum) : (memref<4xf32>) -> index
  %other = arith.cmpi ne, %pe, %psum : index
  scf.if %other {
    memref.dealloc %base : memref<f32>
  }
  return %sum : memref<4xf32>
}

// TWOFN:      result: array([3.2974424, 3.2974424, 3.2974424, 3.2974424], dtype=float32)
// TWOFN-NEXT: memplan-run: {{.*}}peak bytes global=32;{{.*}}storages global=2;

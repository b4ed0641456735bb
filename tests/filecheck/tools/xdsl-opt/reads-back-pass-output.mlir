// Stock xdsl-opt reads back what memplan's passes make it print: the memref
// ops the passes build take the classes of the tool's own context (xDSL's,
// generic form), and memplan-opt prints MLIR's custom form of the same ops.
// RUN: xdsl-opt %s -p memory-manifest,memory-plan,convert-memory-to-memref --split-input-file | xdsl-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s -p memory-manifest,memory-plan,convert-memory-to-memref --split-input-file | memplan-opt --split-input-file | filecheck %s --check-prefix=MEMPLAN

// A clone becomes an alloc and a copy.
// CHECK-LABEL: func.func @clone
// CHECK:         "memref.copy"(%x, %{{.*}}) : (memref<4xf32>, memref<4xf32>) -> ()
// MEMPLAN-LABEL: func.func @clone
// MEMPLAN:         memref.copy %x, %{{.*}} : memref<4xf32> to memref<4xf32>

func.func @clone(%x: memref<4xf32>) -> memref<4xf32> {
  %c = "bufferization.clone"(%x) : (memref<4xf32>) -> memref<4xf32>
  func.return %c : memref<4xf32>
}

// -----

// A clone of a view is cast back to the view's type.
// CHECK-LABEL: func.func @clone_of_view
// CHECK:         "memref.copy"
// CHECK:         "memref.cast"(%{{.*}}) : (memref<2xf32>) -> memref<2xf32, strided<[?], offset: ?>>
// MEMPLAN-LABEL: func.func @clone_of_view
// MEMPLAN:         memref.copy
// MEMPLAN:         memref.cast %{{.*}} : memref<2xf32> to memref<2xf32, strided<[?], offset: ?>>

func.func @clone_of_view(%x: memref<4xf32>) -> memref<2xf32, strided<[?], offset: ?>> {
  %v = memref.subview %x[0] [2] [2] : memref<4xf32> to memref<2xf32, strided<[2]>>
  %u = "memref.cast"(%v) : (memref<2xf32, strided<[2]>>) -> memref<2xf32, strided<[?], offset: ?>>
  %c = "bufferization.clone"(%u) : (memref<2xf32, strided<[?], offset: ?>>) -> memref<2xf32, strided<[?], offset: ?>>
  func.return %c : memref<2xf32, strided<[?], offset: ?>>
}

// -----

// A storage holding both spellings of "global" lowers to a view and a
// memory_space_cast.
// CHECK-LABEL: func.func @both_spellings
// CHECK:         "memref.memory_space_cast"(%{{.*}}) : (memref<4xf32>) -> memref<4xf32, "global">
// MEMPLAN-LABEL: func.func @both_spellings
// MEMPLAN:         memref.memory_space_cast %{{.*}} : memref<4xf32> to memref<4xf32, "global">

func.func @both_spellings() -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32, "global">
  %i = arith.constant 1 : index
  %x = memref.load %a[%i] : memref<4xf32>
  %y = memref.load %b[%i] : memref<4xf32, "global">
  %z = arith.addf %x, %y : f32
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32, "global">
  func.return %z : f32
}

// -----

// A memory.copy lowers to a memref.copy.
// CHECK-LABEL: func.func @copy
// CHECK:         "memref.copy"(%{{.*}}, %{{.*}}) : (memref<4xf32>, memref<4xf32, "global.vtcm">) -> ()
// MEMPLAN-LABEL: func.func @copy
// MEMPLAN:         memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32, "global.vtcm">

func.func @copy(%x: memref<4xf32>) {
  %s = memory.alloc_storage [16] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xf32, "global.vtcm">
  memory.copy %x, %t : memref<4xf32> to memref<4xf32, "global.vtcm">
  memory.kill %t : memref<4xf32, "global.vtcm">
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

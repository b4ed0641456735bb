// RUN: memplan-opt %s -p memory-manifest,memory-plan --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | xdsl-opt --allow-unregistered-dialect -p memory-manifest,memory-plan --split-input-file --verify-diagnostics | filecheck %s --check-prefix=XDSL
// RUN: memplan-opt %s -p 'memory-manifest,memory-place{capacity=4096}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=PLACE
// RUN: memplan-opt %s -p memory-verify --split-input-file --verify-diagnostics | filecheck %s --check-prefix=VERIFY

// How the passes treat the memref ops memplan adds or redefines
// (docs/frontend-ops.md).  The second RUN line checks the same plans when
// stock xdsl-opt, whose memref and scf classes are xDSL's, reads them (it
// does not know memref.transpose and memref.realloc: memory-manifest leaves
// an alloc an unregistered op uses alone, so those cases are not checked).

// A view made by memref.transpose or memref.cast keeps its tensor live: b may
// not take a's bytes while t still reads them.
// CHECK-LABEL: func.func @views_keep_tensor_live
// CHECK:         %a = memory.alloc_tensor %arena[0]
// CHECK:         %b = memory.alloc_tensor %arena[64]
func.func @views_keep_tensor_live() -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4x4xf32>)
  %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  %c = memref.cast %t : memref<4x4xf32, strided<[1, 4]>> to memref<?x?xf32, strided<[?, ?]>>
  %b = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<4x4xf32>)
  %x = memref.load %c[%c0, %c0] : memref<?x?xf32, strided<[?, ?]>>
  %y = memref.load %b[%c0, %c0] : memref<4x4xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// What memref.alloca_scope.return passes out is the tensor: it lives until
// the scope's result is read, so b may not take its bytes.
// CHECK-LABEL: func.func @scope_result_is_the_tensor
// CHECK:         %a = memory.alloc_tensor %arena[0]
// CHECK:         %b = memory.alloc_tensor %arena[64]
// XDSL-LABEL:  func.func @scope_result_is_the_tensor
// XDSL:          %a = memory.alloc_tensor %arena[0]
// XDSL:          %b = memory.alloc_tensor %arena[64]
func.func @scope_result_is_the_tensor() -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %r = memref.alloca_scope -> (memref<16xf32>) {
    memref.alloca_scope.return %a : memref<16xf32>
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
  %x = memref.load %r[%c0] : memref<16xf32>
  %y = memref.load %b[%c0] : memref<16xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// A memref.alloca_scope runs its block once, not as a loop whose iterations
// may run at once: the tensors in it are planned, and share bytes.
// CHECK-LABEL: func.func @scope_runs_once
// CHECK:         memref.alloca_scope {
// CHECK:           %a = memory.alloc_tensor %arena[0]
// CHECK:           %b = memory.alloc_tensor %arena[0]
// XDSL-LABEL:  func.func @scope_runs_once
// XDSL:            %a = memory.alloc_tensor %arena[0]
// XDSL:            %b = memory.alloc_tensor %arena[0]
func.func @scope_runs_once(%out: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  memref.alloca_scope {
    %a = memref.alloc() : memref<16xf32>
    linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
    memref.copy %a, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %a : memref<16xf32>
    %b = memref.alloc() : memref<16xf32>
    linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
    memref.copy %b, %out : memref<16xf32> to memref<16xf32>
    memref.dealloc %b : memref<16xf32>
  }
  return
}

// -----

// An address taken as an integer may reach the memory later (here through
// @consume): a escapes, keeps its own storage, and b does not reuse it.
// CHECK-LABEL: func.func @pointer_escapes
// CHECK:         %a = memory.alloc_tensor %a_storage[0]
// CHECK:         %b = memory.alloc_tensor %arena[0]
// XDSL-LABEL:  func.func @pointer_escapes
// XDSL:          %a = memory.alloc_tensor %a_storage[0]
// XDSL:          %b = memory.alloc_tensor %arena[0]
// memory-place moves b to VTCM but leaves a where its address was taken.
// PLACE-LABEL: func.func @pointer_escapes
// PLACE:         %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global"> to memref<16xf32>
// PLACE:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
func.func private @consume(i64)
func.func @pointer_escapes() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
  %i = arith.index_cast %p : index to i64
  func.call @consume(%i) : (i64) -> ()
  return
}

// -----

// memref.realloc frees its source, so memory-manifest does not own the
// alloc it reallocs (memplan.passes.ownership): it stays a memref.alloc,
// which memory-plan leaves alone.
// CHECK-LABEL: func.func @realloc_of_alloc
// CHECK-NEXT:    %a = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    %r = memref.realloc %a : memref<16xf32> to memref<32xf32>
func.func @realloc_of_alloc() -> memref<32xf32> {
  %a = memref.alloc() : memref<16xf32>
  %r = memref.realloc %a : memref<16xf32> to memref<32xf32>
  return %r : memref<32xf32>
}

// -----

// A realloc of memory memplan does not allocate is left alone.
// CHECK-LABEL: func.func @realloc_of_argument
// CHECK:         %r = memref.realloc %m : memref<16xf32> to memref<32xf32>
func.func @realloc_of_argument(%m: memref<16xf32>) -> memref<32xf32> {
  %r = memref.realloc %m : memref<16xf32> to memref<32xf32>
  return %r : memref<32xf32>
}

// -----

// A tensor a memref.realloc frees keeps its storage: memory-plan would
// otherwise place it in an arena, which the realloc would free under the
// arena's other tensors (and the arena's kill would free it again).  Its
// life ends at the realloc; the realloc's result is new memory, not the
// tensor (so %b may not take %t's bytes only while %t is live).
// CHECK-LABEL: func.func @realloc_of_a_tensor
// CHECK:         %s = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %t = memory.alloc_tensor %s[0]
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %r = memref.realloc %t : memref<16xf32> to memref<32xf32>
// CHECK-NEXT:    %arena = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:    %b = memory.alloc_tensor %arena[0]
// CHECK-NOT:     memory.kill %t
func.func @realloc_of_a_tensor(%out: memref<32xf32>, %o2: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<16xf32>
  linalg.fill ins(%one : f32) outs(%t : memref<16xf32>)
  %r = memref.realloc %t : memref<16xf32> to memref<32xf32>
  %s2 = memory.alloc_storage [64] : !memory.storage<"global">
  %b = memory.alloc_tensor %s2[0] : !memory.storage<"global"> to memref<16xf32>
  linalg.add ins(%r, %r : memref<32xf32>, memref<32xf32>) outs(%out : memref<32xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<16xf32>)
  memref.copy %b, %o2 : memref<16xf32> to memref<16xf32>
  memory.kill %b : memref<16xf32>
  memory.kill %s2 : !memory.storage<"global">
  return
}

// -----

// memref.realloc frees its source: a later use reads freed memory.
// CHECK: memory-manifest: in @use_after_realloc, memref.load uses %a after memref.realloc freed %a (undefined behaviour): expected every use of a buffer and of its views before it is freed

func.func @use_after_realloc() -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  %x = memref.load %a[%c0] : memref<4xf32>
  memref.dealloc %b : memref<8xf32>
  func.return %x : f32
}

// -----

// memory-verify: a realloc moves a buffer of its own; a tensor placed in a
// storage is not one (freeing it would free the storage).
// VERIFY: memory-verify: in @realloc_of_a_placed_tensor, %t is used by memref.load after the memref.realloc that ended its life: expected no use after a kill
// VERIFY-NEXT: memory-verify: in @realloc_of_a_placed_tensor, memref.realloc %r reallocates %t, a tensor placed in %s: expected a memref.alloc result (a realloc frees the buffer it moves)

func.func @realloc_of_a_placed_tensor() -> f32 {
  %c0 = arith.constant 0 : index
  %s = memory.alloc_storage [64] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to memref<4xf32>
  %r = memref.realloc %t : memref<4xf32> to memref<8xf32>
  %x = memref.load %t[%c0] : memref<4xf32>
  func.return %x : f32
}
// -----

// memref.reshape is a view of its source (a stays live while r is read), and
// reads its shape operand only: s dies at the reshape and b takes its bytes.
// CHECK-LABEL: func.func @reshape_views_its_source
// CHECK:         %s = memory.alloc_tensor %arena[32]
// CHECK:         %a = memory.alloc_tensor %arena[0]
// CHECK:         %r = memref.reshape %a(%s) : (memref<8xf32>, memref<2xindex>) -> memref<?x?xf32>
// CHECK:         %b = memory.alloc_tensor %arena[32]
// memory-place moves the view with its source.
// PLACE-LABEL: func.func @reshape_views_its_source
// PLACE:         %r = memref.reshape %a(%s) : (memref<8xf32, "global.vtcm">, memref<2xindex, "global.vtcm">) -> memref<?x?xf32, "global.vtcm">
func.func @reshape_views_its_source(%x: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %s = memref.alloc() : memref<2xindex>
  memref.store %c2, %s[%c0] : memref<2xindex>
  memref.store %c4, %s[%c1] : memref<2xindex>
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  %r = memref.reshape %a(%s) : (memref<8xf32>, memref<2xindex>) -> memref<?x?xf32>
  memref.dealloc %s : memref<2xindex>
  %b = memref.alloc() : memref<2xindex>
  memref.store %c1, %b[%c0] : memref<2xindex>
  %i = memref.load %b[%c0] : memref<2xindex>
  %v = memref.load %r[%i, %c1] : memref<?x?xf32>
  memref.dealloc %b : memref<2xindex>
  memref.dealloc %a : memref<8xf32>
  return %v : f32
}

// -----

// A clone into another type (MLIR's deallocation pipeline clones a view of
// an argument into an identity-layout buffer) allocates the result type.
// CHECK-LABEL: func.func @clone_into_another_type
// CHECK-NEXT:    %v = memref.subview %x[0, 0] [1, 6] [1, 1] : memref<2x6xf32> to memref<6xf32, strided<[1]>>
// CHECK-NEXT:    %[[S:.*]] = memory.alloc_storage [24] : !memory.storage<"global">
// CHECK-NEXT:    %[[T:.*]] = memory.alloc_tensor %[[S]][0] : !memory.storage<"global"> to memref<6xf32>
// CHECK-NEXT:    memref.copy %v, %[[T]] : memref<6xf32, strided<[1]>> to memref<6xf32>
// CHECK-NEXT:    %[[I:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %y, %[[I]] : memref<4xf32>
// CHECK:         %[[DT:.*]] = memory.alloc_tensor %{{.*}}[0][%[[D]]] : !memory.storage<"global"> to memref<?xf32>
// CHECK-NEXT:    memref.copy %y, %[[DT]] : memref<4xf32> to memref<?xf32>
// CHECK-NEXT:    func.return %[[T]], %[[DT]] : memref<6xf32>, memref<?xf32>
func.func @clone_into_another_type(%x: memref<2x6xf32>, %y: memref<4xf32>) -> (memref<6xf32>, memref<?xf32>) {
  %v = memref.subview %x[0, 0] [1, 6] [1, 1] : memref<2x6xf32> to memref<6xf32, strided<[1]>>
  %c = bufferization.clone %v : memref<6xf32, strided<[1]>> to memref<6xf32>
  %d = bufferization.clone %y : memref<4xf32> to memref<?xf32>
  return %c, %d : memref<6xf32>, memref<?xf32>
}

// -----

// MLIR's verifier takes a clone between any memref types, but a copy from
// one element type to another has no lowering.
// CHECK: memory-manifest: in @clone_element_type, bufferization.clone of memref<4xf32> to memref<4xi32>: expected the same element type

func.func @clone_element_type(%x: memref<4xf32>) -> memref<4xi32> {
  %c = bufferization.clone %x : memref<4xf32> to memref<4xi32>
  return %c : memref<4xi32>
}

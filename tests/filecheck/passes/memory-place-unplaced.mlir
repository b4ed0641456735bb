// RUN: memplan-opt %s -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: memplan-opt %S/inputs/place-unplaced-remark.mlir -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// memory-place does not place a function of several blocks or one in a call
// cycle, so it plans no reuse there; but what such a function certainly
// holds at once must still fit: the pinned VTCM allocations of its entry
// block (which runs, in order, every time the function does) from each one
// to the first op that may free it, with the VTCM held all through it.

// Pinned memory outside the top level of the entry block (another block, a
// region) may not run, or not with the rest: each allocation is checked
// alone, and the pass says so.
// REMARK: memory-place: remark: in @main, 2 allocation(s) of memory that must stay in "global.vtcm" outside the top level of the entry block are checked against the capacity one at a time only: memory-place does not place @main (it has 3 blocks); memory-verify checks what is held at once

// Two pinned 8 KiB tensors, both returned: 16 KiB in the entry block.
// CHECK: memory-place: in @main, memory that must stay in "global.vtcm" needs 16384 bytes at memory.alloc_storage %b_storage, over the capacity of 12288 bytes: memory.alloc_storage %a_storage of 8192 bytes (it is returned by @main); memory.alloc_storage %b_storage of 8192 bytes (it is returned by @main)

func.func @main() -> (memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<2048xf32, "global.vtcm">)
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%b : memref<2048xf32, "global.vtcm">)
  cf.br ^exit
^exit:
  func.return %a, %b : memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">
}

// -----

// VTCM held all through the function counts too, listed first.
// CHECK: memory-place: in @main, memory that must stay in "global.vtcm" needs 16384 bytes at memory.alloc_storage %a_storage, over the capacity of 12288 bytes: memref.global @lut of 8192 bytes (in VTCM for the whole run); memory.alloc_storage %a_storage of 8192 bytes (it is returned by @main)

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<1.0>

func.func @main(%c: i1) -> memref<2048xf32, "global.vtcm"> {
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  cf.cond_br %c, ^one, ^two
^one:
  func.return %a : memref<2048xf32, "global.vtcm">
^two:
  func.return %a : memref<2048xf32, "global.vtcm">
}

// -----

// In a call cycle: the pinned tensors are held together before the call
// that may free them.
// CHECK: memory-place: in @rec, memory that must stay in "global.vtcm" needs 16384 bytes at memory.alloc_storage %b_storage, over the capacity of 12288 bytes: memory.alloc_storage %a_storage of 8192 bytes (it is passed to @ext, which has no body); memory.alloc_storage %b_storage of 8192 bytes (it is passed to @ext, which has no body)

func.func private @ext(memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">)

func.func @rec(%n: index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  func.call @ext(%a, %b) : (memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) -> ()
  %more = arith.cmpi sgt, %n, %zero : index
  scf.if %more {
    %m = arith.subi %n, %one : index
    func.call @rec(%m) : (index) -> ()
  }
  func.return
}

// -----

// Freed before the next is allocated, even only maybe (in a branch): the two
// are not certainly held together, and the function is accepted.  (Taking
// an address pins a tensor; a call that takes one may free it.)
// CHECK-LABEL: func.func @freed_first(%c: i1) {
// CHECK:         %a_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %b_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK-LABEL: func.func @freed_in_branch(%c: i1) {
// CHECK:         %a_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %b_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK-LABEL: func.func @freed_by_call(%c: i1) {
// CHECK:         %a_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %b_storage = memory.alloc_storage [8192] align 2048 : !memory.storage<"global.vtcm">

func.func private @use(memref<2048xf32, "global.vtcm">)

func.func @freed_first(%c: i1) {
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  %pa = memref.extract_aligned_pointer_as_index %a : memref<2048xf32, "global.vtcm"> -> index
  memref.dealloc %a : memref<2048xf32, "global.vtcm">
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  %pb = memref.extract_aligned_pointer_as_index %b : memref<2048xf32, "global.vtcm"> -> index
  cf.cond_br %c, ^one, ^two
^one:
  func.return
^two:
  func.return
}

func.func @freed_in_branch(%c: i1) {
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  %pa = memref.extract_aligned_pointer_as_index %a : memref<2048xf32, "global.vtcm"> -> index
  scf.if %c {
    memref.dealloc %a : memref<2048xf32, "global.vtcm">
  }
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  %pb = memref.extract_aligned_pointer_as_index %b : memref<2048xf32, "global.vtcm"> -> index
  cf.br ^exit
^exit:
  func.return
}

func.func @freed_by_call(%c: i1) {
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  func.call @use(%a) : (memref<2048xf32, "global.vtcm">) -> ()
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  func.call @use(%b) : (memref<2048xf32, "global.vtcm">) -> ()
  cf.br ^exit
^exit:
  func.return
}

// -----

// A memref.realloc allocates its new buffer (pinned: memory-place does not
// change a realloc's types) before it frees its source, so the two are held
// together there, as memplan-run holds them.
// CHECK: memory-place: in @main, memory that must stay in "global.vtcm" needs 14336 bytes at memref.realloc %b, over the capacity of 12288 bytes: memref.alloc %a of 8192 bytes (memref.realloc uses it (an op whose types memory-place does not change)); memref.realloc %b of 6144 bytes (memref.realloc uses it (an op whose types memory-place does not change))

func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<2048xf32, "global.vtcm">)
  %b = memref.realloc %a : memref<2048xf32, "global.vtcm"> to memref<1536xf32, "global.vtcm">
  cf.br ^exit
^exit:
  memref.dealloc %b : memref<1536xf32, "global.vtcm">
  func.return
}

// -----

// One pinned allocation over the capacity, wherever it is, cannot fit
// whenever it runs.
// CHECK: memory-place: in @main, memory that must stay in "global.vtcm" needs 16384 bytes at memory.alloc_storage %big_storage, over the capacity of 12288 bytes: memory.alloc_storage %big_storage of 16384 bytes (it is returned by @main)

func.func private @make() -> memref<4096xf32, "global.vtcm">

func.func @main(%c: i1) -> memref<4096xf32, "global.vtcm"> {
  cf.cond_br %c, ^big, ^made
^big:
  %big = memref.alloc() : memref<4096xf32, "global.vtcm">
  func.return %big : memref<4096xf32, "global.vtcm">
^made:
  %made = func.call @make() : () -> memref<4096xf32, "global.vtcm">
  func.return %made : memref<4096xf32, "global.vtcm">
}

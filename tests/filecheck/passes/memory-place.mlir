// RUN: xdsl-opt %s -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288 algorithm=exact}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=EXACT
// RUN: xdsl-opt %s -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288 cost-model="%S/inputs/place-slow-vtcm.json"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=SLOW
// RUN: xdsl-opt %s -p 'memory-place{algorithm=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALGO
// RUN: xdsl-opt %s -p 'memory-place{capacity=-5}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADCAP
// RUN: xdsl-opt %s -p 'memory-place{target=nope}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=TARGET
// RUN: xdsl-opt %s -p 'memory-place{budget=-1}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BUDGET
// RUN: xdsl-opt %s -p 'memory-place{cost-model="%S/inputs/no-such-file.json"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOFILE
// RUN: xdsl-opt %s -p 'memory-place{cost-model="%S/inputs/place-bad-costs.json"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADCOSTS
// RUN: xdsl-opt %s -p 'memory-place{tensor-alignment=48}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADTALIGN
// RUN: xdsl-opt %S/inputs/place-to-ddr-alignment.mlir -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=0}' | filecheck %s --check-prefix=TODDR
// RUN: not xdsl-opt %s -p 'memory-place{colour=red}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: xdsl-opt %examples/three_big_vtcm.mlir -p 'memory-manifest,memory-place{target=hexagon-v65},memory-plan{target=hexagon-v65},memory-verify{target=hexagon-v65}' | filecheck %s --check-prefix=SPILL
// RUN: xdsl-opt %examples/three_big_vtcm.mlir -p 'memory-manifest,memory-place{target=hexagon-v68},memory-plan{target=hexagon-v68}' | memplan-run --target hexagon-v68 2>&1 | filecheck %s --check-prefix=FITS
// RUN: xdsl-opt %S/inputs/place-aligned.mlir -p 'memory-manifest,memory-place{capacity=2048},memory-plan{capacity=2048},memory-verify{capacity=2048}' | filecheck %s --check-prefix=ALIGNED
// RUN: xdsl-opt %S/inputs/place-aligned.mlir -p 'memory-manifest,memory-place{capacity=2048},memory-plan{capacity=2048}' | memplan-run --vtcm-size 2048 2>&1 | filecheck %s --check-prefix=ALIGNED-RESULT
// RUN: xdsl-opt %S/inputs/place-tensor-alignment.mlir -p 'memory-manifest,memory-place{capacity=2048},memory-plan{capacity=2048 tensor-alignment=128}' --verify-diagnostics | filecheck %s --check-prefix=TALIGN-GAP
// RUN: xdsl-opt %S/inputs/place-tensor-alignment.mlir -p 'memory-manifest,memory-place{capacity=2048 tensor-alignment=128},memory-plan{capacity=2048 tensor-alignment=128},memory-verify{capacity=2048}' | filecheck %s --check-prefix=TALIGN
// RUN: xdsl-opt %S/inputs/place-tensor-alignment.mlir -p 'memory-manifest,memory-place{capacity=2048 tensor-alignment=128},memory-plan{capacity=2048 tensor-alignment=128}' | memplan-run --vtcm-size 2048 2>&1 | filecheck %s --check-prefix=TALIGN-RESULT
// RUN: xdsl-opt %S/inputs/place-calls.mlir -p 'memory-manifest,memory-place{target=hexagon-v65}' | filecheck %s --check-prefix=CALLS
// RUN: xdsl-opt %S/inputs/place-calls.mlir -p 'memory-manifest,memory-place{target=hexagon-v65},memory-plan{target=hexagon-v65},memory-verify{target=hexagon-v65}' | memplan-run --target hexagon-v65 2>&1 | filecheck %s --check-prefix=CALLS-RESULT
// RUN: xdsl-opt %S/inputs/place-fresh.mlir -p 'memory-manifest,memory-place{target=hexagon-v65}' | filecheck %s --check-prefix=FRESH
// RUN: xdsl-opt %S/inputs/place-fresh.mlir -p 'memory-manifest,memory-place{target=hexagon-v65},memory-plan{target=hexagon-v65},memory-verify{target=hexagon-v65}' | memplan-run --target hexagon-v65 --check-uninitialized 2>&1 | filecheck %s --check-prefix=FRESH-RESULT
// RUN: xdsl-opt %S/inputs/place-pinned-killed.mlir -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288},memory-plan{target=hexagon-v65 capacity=12288},memory-verify{target=hexagon-v65 capacity=12288}' | memplan-run --target hexagon-v65 --vtcm-size 12288 --args "dense<1.0> : tensor<1024xf32>, dense<0.0> : tensor<1024xf32>" 2>&1 | filecheck %s --check-prefix=KILLED-RESULT
// RUN: xdsl-opt %s -p 'memory-place{budget=18446744073709551616}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=WIDEBUDGET
// RUN: memplan-opt %S/inputs/place-pinned-realloc.mlir -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288}' | filecheck %s --check-prefix=REALLOC
// RUN: memplan-opt %S/inputs/place-pinned-realloc.mlir -p 'memory-manifest,memory-place{target=hexagon-v65 capacity=12288},memory-plan{target=hexagon-v65 capacity=12288},memory-verify{target=hexagon-v65 capacity=12288}' | memplan-run --target hexagon-v65 --vtcm-size 12288 --args "dense<1.0> : tensor<1024xf32>, dense<0.0> : tensor<1024xf32>" 2>&1 | filecheck %s --check-prefix=REALLOC-RESULT
// RUN: memplan-opt %S/inputs/place-split-views.mlir -p 'memory-manifest,memory-place{capacity=2048}' | filecheck %s --check-prefix=SPLIT-VIEWS
// RUN: memplan-opt %S/inputs/place-split-views.mlir -p 'memory-manifest,memory-place{capacity=2048}' | memplan-run - --vtcm-size 4096 2>&1 | filecheck %s --check-prefix=SPLIT-VIEWS-RESULT
// RUN: memplan-opt %S/inputs/place-to-buffer.mlir -p 'memory-manifest,memory-place{capacity=4096}' | filecheck %s --check-prefix=TO-BUFFER
// RUN: memplan-opt %S/inputs/place-to-buffer.mlir -p 'memory-manifest,memory-place{capacity=4096}' | memplan-run - 2>&1 | filecheck %s --check-prefix=TO-BUFFER-RESULT
// RUN: memplan-opt %S/inputs/place-to-buffer-moved.mlir -p 'memory-manifest,memory-place{capacity=4096}' | filecheck %s --check-prefix=MOVED
// RUN: memplan-opt %S/inputs/place-to-buffer-moved.mlir -p 'memory-manifest,memory-place{capacity=4096},memory-plan{capacity=4096},memory-verify{capacity=4096}' | memplan-run - 2>&1 | filecheck %s --check-prefix=MOVED-RESULT
// RUN: memplan-opt %S/inputs/place-branching-region.mlir -p 'memory-manifest,memory-place{capacity=2048}' | filecheck %s --check-prefix=BRANCHING
// RUN: memplan-opt %S/inputs/place-branching-region.mlir -p 'memory-manifest,memory-place{capacity=2048},memory-plan{capacity=2048},memory-verify{capacity=2048}' | memplan-run - --vtcm-size 2048 2>&1 | filecheck %s --check-prefix=BRANCHING-RESULT
// RUN: memplan-opt %examples/seed_discontiguous.mlir -p 'memory-manifest,memory-place{target=hexagon-v65}' | filecheck %s --check-prefix=DISC
// RUN: memplan-opt %S/inputs/place-pinned-holes.mlir -p 'memory-place{capacity=8192},memory-plan{capacity=8192},memory-verify{capacity=8192}' | filecheck %s --check-prefix=HOLES
// RUN: memplan-opt %S/inputs/place-pinned-holes.mlir -p 'memory-place{capacity=12288},memory-plan{capacity=12288},memory-verify{capacity=12288}' | filecheck %s --check-prefix=HOLES-ROOMY

// ALGO: memory-place: unknown algorithm 'nope', expected one of: heuristic, exact
// BADCAP: memory-place: capacity must be >= 0 bytes, got -5
// TARGET: memory-place: unknown target 'nope'; expected one of: hexagon-v65, hexagon-v66, hexagon-v68, hexagon-v69, hexagon-v73, hexagon-v75
// BUDGET: memory-place: budget must be >= 0, got -1
// WIDEBUDGET: memory-place: budget 18446744073709551616 does not fit in 64 bits (the largest budget is 18446744073709551615)
// NOFILE: memory-place: cost-model={{.*}}no-such-file.json: cannot read the file (No such file or directory)
// BADCOSTS: memory-place: cost-model={{.*}}place-bad-costs.json: copy_setup_cycles must be a non-negative number, got -1
// BADTALIGN: memory-place: tensor-alignment 48 is not a positive power of two
// OPTION: memory-place: unknown option 'colour', expected one of: target, capacity, cost-model, algorithm, budget, tensor-alignment

// Spill: three 3 MiB tensors explicitly in VTCM, on a 256 KiB part: none
// fits, all go to DDR, and memory-plan then has no VTCM arena to make.
// SPILL-LABEL: func.func @main()
// SPILL-NOT:     "global.vtcm"
// SPILL:         func.return
// With 4 MiB (hexagon-v68) one of them keeps its VTCM: the results stay 4.
// FITS:         [4, 4, 4
// FITS:         peak bytes global={{[0-9]+}}, global.vtcm=3145728

// Alignment requests: memory-place sizes the arena as memory-plan packs it,
// each tensor at a multiple of its `align` (64 bytes), so only two of the
// three 680-byte tensors fit 2048 bytes (2088 bytes for all three), and
// memory-plan then fits them.  The result is 4 as before placement.
// ALIGNED:       %arena = memory.alloc_storage [1384] align 2048 : !memory.storage<"global.vtcm">
// ALIGNED-NEXT:  %a = memory.alloc_tensor %arena[0] align 64 : !memory.storage<"global.vtcm"> to memref<170xf32, "global.vtcm">
// ALIGNED-NEXT:  %b = memory.alloc_tensor %arena[704] align 64 : !memory.storage<"global.vtcm"> to memref<170xf32, "global.vtcm">
// ALIGNED:       %c = memory.alloc_tensor %arena_1[0] align 64 : !memory.storage<"global"> to memref<170xf32>
// ALIGNED-RESULT:   result: array([4., 4., 4., 4.,
// ALIGNED-RESULT:   peak bytes global={{[0-9]+}}, global.vtcm=1384;

// tensor-alignment: memory-place must be told the tensor-alignment of the
// memory-plan after it.  Five 400-byte tensors fit 2048 bytes by element
// size (2000 bytes), so without the option all stay in VTCM and
// memory-plan{tensor-alignment=128} (2560 bytes) fails; with it, memory-place
// counts 512 bytes each and moves one tensor to DDR.  The result is 3.
// TALIGN-GAP: memory-plan: in @main, the "global.vtcm" arena needs 2560 bytes with the best plan of 5 tensors (at least 2560 bytes are live at once), over the scope capacity of 2048 bytes
// TALIGN:       %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// TALIGN-COUNT-4: memory.alloc_tensor %arena[{{[0-9]+}}] : !memory.storage<"global.vtcm"> to memref<100xf32, "global.vtcm">
// TALIGN-NEXT:  %arena_1 = memory.alloc_storage [512] align 128 : !memory.storage<"global">
// TALIGN-NEXT:  %e = memory.alloc_tensor %arena_1[0] : !memory.storage<"global"> to memref<100xf32>
// TALIGN-RESULT:   result: array([3., 3., 3., 3.,
// TALIGN-RESULT:   peak bytes global={{[0-9]+}}, global.vtcm=2048;

// Calls: the signature of a public function is an ABI (callers outside the
// module may use it), so @public_callee keeps its DDR argument and copies
// it into VTCM for its loop and back; the private one is retyped with the
// tensor @main passes it.  The results stay 512.
// CALLS-LABEL: func.func @public_callee(%a: memref<256xf32>) {
// CALLS:         memory.copy %a, %a_vtcm : memref<256xf32> to memref<256xf32, "global.vtcm">
// CALLS:         memory.copy %a_vtcm, %a : memref<256xf32, "global.vtcm"> to memref<256xf32>
// CALLS-LABEL: func.func private @private_callee(%a: memref<256xf32, "global.vtcm">) {
// CALLS-LABEL: func.func @main() -> memref<256xf32> {
// CALLS:         func.call @public_callee(%a) : (memref<256xf32>) -> ()
// CALLS-NEXT:    func.call @private_callee(%b) : (memref<256xf32, "global.vtcm">) -> ()
// CALLS-RESULT:   result: array([512., 512., 512.,

// A fresh tensor: the returned %out, which a loop of stores fills first,
// goes to VTCM with no copy in (nothing wrote it; a copy would read
// never-written bytes, which --check-uninitialized rejects), and is copied
// back before the subview reads it in DDR.
// FRESH:         %out = memory.alloc_tensor %out_storage[0] : !memory.storage<"global"> to memref<512xf32>
// FRESH-NEXT:    %out_vtcm_storage = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// FRESH-NEXT:    %out_vtcm = memory.alloc_tensor %out_vtcm_storage[0] : !memory.storage<"global.vtcm"> to memref<512xf32, "global.vtcm">
// FRESH-NEXT:    scf.for
// FRESH-NOT:     memory.copy %out, %out_vtcm
// FRESH:         memref.store %f, %out_vtcm[%i] : memref<512xf32, "global.vtcm">
// FRESH:         memory.copy %out_vtcm, %out : memref<512xf32, "global.vtcm"> to memref<512xf32>
// FRESH-NEXT:    memory.kill %out_vtcm : memref<512xf32, "global.vtcm">
// FRESH-NEXT:    memory.kill %out_vtcm_storage : !memory.storage<"global.vtcm">
// FRESH-NEXT:    %head = memref.subview %out[0] [64] [1]
// FRESH-RESULT:   array([  8.,  10.,  12.,
// FRESH-RESULT:   array([  4.,   5.,   6.,

// Promotion: local tensors move to VTCM with every value that refers to them
// (a subview, an scf.if result); the argument %out stays in DDR.
// CHECK-LABEL: func.func @promote(%out: memref<16xf32>, %flag: i1) {
// CHECK:         %a_storage = memory.alloc_storage [128] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global.vtcm"> to memref<32xf32, "global.vtcm">
// CHECK:         %half = memref.subview %a[0] [16] [1] : memref<32xf32, "global.vtcm"> to memref<16xf32, strided<[1]>, "global.vtcm">
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK:         %c = memory.alloc_tensor %c_storage[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK:         %pick = scf.if %flag -> (memref<16xf32, "global.vtcm">) {
// CHECK-NEXT:      scf.yield %b : memref<16xf32, "global.vtcm">
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %c : memref<16xf32, "global.vtcm">
// CHECK:         memory.copy %c, %out : memref<16xf32, "global.vtcm"> to memref<16xf32>
// SLOW-LABEL:  func.func @promote(
// SLOW-NOT:      "global.vtcm"
// SLOW:          func.return

func.func @promote(%out: memref<16xf32>, %flag: i1) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<32xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<32xf32>)
  %half = memref.subview %a[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  %b = memref.alloc() : memref<16xf32>
  linalg.add ins(%half, %half : memref<16xf32, strided<[1]>>, memref<16xf32, strided<[1]>>) outs(%b : memref<16xf32>)
  %c = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%c : memref<16xf32>)
  %pick = scf.if %flag -> (memref<16xf32>) {
    scf.yield %b : memref<16xf32>
  } else {
    scf.yield %c : memref<16xf32>
  }
  linalg.mul ins(%pick, %b : memref<16xf32>, memref<16xf32>) outs(%c : memref<16xf32>)
  memory.copy %c, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<32xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  func.return
}

// -----

// Prefetch: the argument %x, read by four ops, is copied into a VTCM tensor
// before its first use; %x itself is never written, so nothing is copied back.
// CHECK-LABEL: func.func @prefetch(%x: memref<1024xf32>, %out: memref<1024xf32>) {
// CHECK:         %x_vtcm_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %x_vtcm = memory.alloc_tensor %x_vtcm_storage[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    memory.copy %x, %x_vtcm : memref<1024xf32> to memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    linalg.mul ins(%x_vtcm, %x_vtcm : {{.*}}) outs(%t : memref<1024xf32, "global.vtcm">)
// CHECK:         linalg.add ins(%t, %x_vtcm : {{.*}}) outs(%out : memref<1024xf32>)
// CHECK-NEXT:    memory.kill %x_vtcm : memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %x_vtcm_storage : !memory.storage<"global.vtcm">
// CHECK-NOT:     memory.copy
// CHECK:         func.return
// EXACT-LABEL: func.func @prefetch(
// EXACT:         memory.copy %x, %x_vtcm : memref<1024xf32> to memref<1024xf32, "global.vtcm">

func.func @prefetch(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.mul ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.add ins(%t, %x : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.mul ins(%t, %x : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.add ins(%t, %x : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  func.return
}

// -----

// A returned tensor that a call may write before its first data use is not
// fresh there: the copy into VTCM before the loop that reads it stays.
// CHECK-LABEL: func.func @written_before_loop() -> memref<64xf32> {
// CHECK:         func.call @init(%out) : (memref<64xf32>) -> ()
// CHECK:         %out_vtcm = memory.alloc_tensor %out_vtcm_storage[0] : !memory.storage<"global.vtcm"> to memref<64xf32, "global.vtcm">
// CHECK-NEXT:    memory.copy %out, %out_vtcm : memref<64xf32> to memref<64xf32, "global.vtcm">
// CHECK-NEXT:    scf.for
// CHECK:         memory.copy %out_vtcm, %out : memref<64xf32, "global.vtcm"> to memref<64xf32>

func.func private @init(memref<64xf32>)

func.func @written_before_loop() -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<64xf32>
  func.call @init(%out) : (memref<64xf32>) -> ()
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %out[%i] : memref<64xf32>
    %s = arith.addf %a, %one : f32
    memref.store %s, %out[%i] : memref<64xf32>
  }
  func.return %out : memref<64xf32>
}

// -----

// linalg.broadcast writes its `init` (an operand that is not `outputs`): the
// argument %out, written in VTCM by the loop, is copied back after it.
// CHECK-LABEL: func.func @broadcast_out(%x: memref<64xf32>, %out: memref<8x64xf32>) {
// CHECK:         scf.for
// CHECK-NEXT:      linalg.broadcast ins({{.*}}) outs(%out_vtcm:memref<8x64xf32, "global.vtcm">) dimensions = [0]
// CHECK:         memory.copy %out_vtcm, %out : memref<8x64xf32, "global.vtcm"> to memref<8x64xf32>

func.func @broadcast_out(%x: memref<64xf32>, %out: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    linalg.broadcast ins(%x : memref<64xf32>) outs(%out : memref<8x64xf32>) dimensions = [0]
  }
  func.return
}

// -----

// Eviction over a gap: %a (4 KiB) is used before and after %b (12 KiB), and
// the 12 KiB VTCM cannot hold both.  %a leaves VTCM for the gap (copied to
// a DDR tensor, killed) and comes back (copied into a new VTCM tensor) for
// its last uses; the result is copied out to %out from VTCM.
// CHECK-LABEL: func.func @evict(%out: memref<1024xf32>) {
// CHECK:         %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
// CHECK:         linalg.fill ins(%one : f32) outs(%a : memref<1024xf32, "global.vtcm">)
// CHECK-NEXT:    linalg.add ins(%a, %a : {{.*}}) outs(%a : memref<1024xf32, "global.vtcm">)
// CHECK-NEXT:    linalg.add ins(%a, %a : {{.*}}) outs(%a : memref<1024xf32, "global.vtcm">)
// CHECK-NEXT:    %a_ddr_storage = memory.alloc_storage [4096] : !memory.storage<"global">
// CHECK-NEXT:    %a_ddr = memory.alloc_tensor %a_ddr_storage[0] : !memory.storage<"global"> to memref<1024xf32>
// CHECK-NEXT:    memory.copy %a, %a_ddr : memref<1024xf32, "global.vtcm"> to memref<1024xf32>
// CHECK-NEXT:    memory.kill %a : memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %a_storage : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %b_storage = memory.alloc_storage [12288] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         memory.kill %b_storage : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a_vtcm_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK-NEXT:    %a_vtcm = memory.alloc_tensor %a_vtcm_storage[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    memory.copy %a_ddr, %a_vtcm : memref<1024xf32> to memref<1024xf32, "global.vtcm">
// CHECK-NEXT:    memory.kill %a_ddr : memref<1024xf32>
// CHECK-NEXT:    memory.kill %a_ddr_storage : !memory.storage<"global">
// CHECK-NEXT:    linalg.add ins(%a_vtcm, %a_vtcm : {{.*}}) outs(%a_vtcm : memref<1024xf32, "global.vtcm">)
// CHECK-NEXT:    linalg.add ins(%a_vtcm, %a_vtcm : {{.*}}) outs(%a_vtcm : memref<1024xf32, "global.vtcm">)
// CHECK-NEXT:    memory.copy %a_vtcm, %out : memref<1024xf32, "global.vtcm"> to memref<1024xf32>
// EXACT-LABEL: func.func @evict(
// EXACT:         memory.copy %a, %a_ddr : memref<1024xf32, "global.vtcm"> to memref<1024xf32>
// EXACT:         memory.copy %a_ddr, %a_vtcm : memref<1024xf32> to memref<1024xf32, "global.vtcm">

func.func @evict(%out: memref<1024xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<1024xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  %b = memref.alloc() : memref<3072xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<3072xf32>)
  linalg.add ins(%b, %b : memref<3072xf32>, memref<3072xf32>) outs(%b : memref<3072xf32>)
  linalg.add ins(%b, %b : memref<3072xf32>, memref<3072xf32>) outs(%b : memref<3072xf32>)
  linalg.add ins(%b, %b : memref<3072xf32>, memref<3072xf32>) outs(%b : memref<3072xf32>)
  memref.dealloc %b : memref<3072xf32>
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  memory.copy %a, %out : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  func.return
}

// -----

// Spill within a function: two 8 KiB VTCM tensors live together do not fit
// 12 KiB; the one that saves fewer cycles per byte goes to DDR.
// CHECK-LABEL: func.func @spill(%out: memref<2048xf32>) {
// CHECK:         %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global.vtcm"> to memref<2048xf32, "global.vtcm">
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<2048xf32>

func.func @spill(%out: memref<2048xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2048xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<2048xf32, "global.vtcm">)
  %b = memref.alloc() : memref<2048xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%b : memref<2048xf32, "global.vtcm">)
  linalg.add ins(%a, %b : memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) outs(%a : memref<2048xf32, "global.vtcm">)
  linalg.add ins(%a, %a : memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) outs(%a : memref<2048xf32, "global.vtcm">)
  linalg.mul ins(%a, %a : memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) outs(%a : memref<2048xf32, "global.vtcm">)
  linalg.add ins(%a, %a : memref<2048xf32, "global.vtcm">, memref<2048xf32, "global.vtcm">) outs(%out : memref<2048xf32>)
  memref.dealloc %a : memref<2048xf32, "global.vtcm">
  memref.dealloc %b : memref<2048xf32, "global.vtcm">
  func.return
}

// -----

// A VTCM tensor returned by @pinned cannot move (the signature of a function
// nothing calls is kept): it alone is over the capacity.
// CHECK: memory-place: in @pinned, memory that must stay in "global.vtcm" needs 16384 bytes at memory.alloc_storage %a_storage, over the capacity of 12288 bytes: memory.alloc_storage %a_storage of 16384 bytes (it is returned by @pinned)

func.func @pinned() -> memref<4096xf32, "global.vtcm"> {
  %a = memref.alloc() : memref<4096xf32, "global.vtcm">
  func.return %a : memref<4096xf32, "global.vtcm">
}

// -----

// A pinned VTCM allocation of a dynamic size cannot be checked against the
// capacity.
// CHECK: memory-place: memory.alloc_storage in @dynamic allocates "global.vtcm" memory of a dynamic size that cannot move to DDR (it is returned by @dynamic): expected a static size, so that the VTCM capacity can be checked

func.func @dynamic(%n: index) -> memref<?xf32, "global.vtcm"> {
  %a = memref.alloc(%n) : memref<?xf32, "global.vtcm">
  func.return %a : memref<?xf32, "global.vtcm">
}

// -----

// A pinned VTCM allocation holds its bytes up to the op of its block that
// frees them.  %p cannot move (@use is public) and stays a memref.alloc
// (memory-manifest does not own a buffer freed through a view): the dealloc
// of its cast frees it, so the 12 KiB are free again for %a, %b and a copy of
// %x (it used to be held to the end of the function, which left room for %a
// only).
// CHECK-LABEL: func.func @freed_through_view(%x: memref<1024xf32>, %out: memref<1024xf32>) {
// CHECK:         memref.dealloc %c : memref<?xf32, "global.vtcm">
// CHECK-NEXT:    %a_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %b_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %x_vtcm_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">

func.func @use(%p: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%p : memref<2048xf32, "global.vtcm">)
  func.return
}

func.func @freed_through_view(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %p = memref.alloc() : memref<2048xf32, "global.vtcm">
  %c = "memref.cast"(%p) : (memref<2048xf32, "global.vtcm">) -> memref<?xf32, "global.vtcm">
  func.call @use(%p) : (memref<2048xf32, "global.vtcm">) -> ()
  memref.dealloc %c : memref<?xf32, "global.vtcm">
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  func.return
}

// -----

// A memory.kill of a memref.alloc ends its tensor, not its allocation: %p
// keeps its 8 KiB until the dealloc of its cast at the end, so only %a fits
// in VTCM beside it (taking the kill as the end put %a, %b and a copy of %x
// there, 20 KiB with %p: memplan-run then found no room for the arena).
// inputs/place-pinned-killed.mlir runs it: the results are 13 (1 + 1, 2 + 1,
// 2 + 3, 3 + 5, 5 + 8), 12 KiB of VTCM at the peak.
// KILLED-RESULT: arg1: array([13., 13., 13.,
// KILLED-RESULT: peak bytes global={{[0-9]+}}, global.vtcm=12288;
// CHECK-LABEL: func.func @killed_not_freed(%x: memref<1024xf32>, %out: memref<1024xf32>) {
// CHECK:         %a_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// CHECK:         %b_storage = memory.alloc_storage [4096] : !memory.storage<"global">
// CHECK-NOT:     memory.copy
// CHECK:         memref.dealloc %c : memref<?xf32, "global.vtcm">

func.func @use(%p: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%p : memref<2048xf32, "global.vtcm">)
  func.return
}

func.func @killed_not_freed(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %p = memref.alloc() : memref<2048xf32, "global.vtcm">
  %c = "memref.cast"(%p) : (memref<2048xf32, "global.vtcm">) -> memref<?xf32, "global.vtcm">
  func.call @use(%p) : (memref<2048xf32, "global.vtcm">) -> ()
  memory.kill %p : memref<2048xf32, "global.vtcm">
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<?xf32, "global.vtcm">
  func.return
}

// The new buffer of a memref.realloc is pinned memory too, held from the
// realloc (which frees its source only after allocating it) to its
// dealloc.  In inputs/place-pinned-realloc.mlir %q holds 8 KiB to the end,
// so only %a fits in VTCM beside it (leaving %q out put %a, %b and a copy
// of %x there: 20 KiB, and memplan-run found no room for the arena).  The
// peak is %p and %q at the realloc, then %q and %a.
// REALLOC:         %q = memref.realloc %p : memref<1024xf32, "global.vtcm"> to memref<2048xf32, "global.vtcm">
// REALLOC-NEXT:    %a_storage = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// REALLOC:         %b_storage = memory.alloc_storage [4096] : !memory.storage<"global">
// REALLOC-NOT:     memory.copy
// REALLOC-RESULT: arg1: array([13., 13., 13.,
// REALLOC-RESULT: peak bytes global={{[0-9]+}}, global.vtcm=12288;

// -----

// Recursion: @fact is in a call cycle, so its depth and the VTCM it holds
// are unknown; it is not placed, and its movable VTCM memory goes to DDR
// with every value tied to it (the private signature follows).
// CHECK-LABEL: func.func private @fact(%n: index, %buf: memref<16xf32>) {
// CHECK:         %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK:         func.call @fact(%m, %t) : (index, memref<16xf32>) -> ()
// CHECK-LABEL: func.func @main() {
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<16xf32>

func.func private @fact(%n: index, %buf: memref<16xf32, "global.vtcm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi ne, %n, %c0 : index
  scf.if %z {
    %t = memref.alloc() : memref<16xf32, "global.vtcm">
    %m = arith.subi %n, %c1 : index
    func.call @fact(%m, %t) : (index, memref<16xf32, "global.vtcm">) -> ()
    memref.dealloc %t : memref<16xf32, "global.vtcm">
  }
  func.return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<16xf32, "global.vtcm">
  func.call @fact(%c3, %b) : (index, memref<16xf32, "global.vtcm">) -> ()
  memref.dealloc %b : memref<16xf32, "global.vtcm">
  func.return
}

// -----

// Mutual recursion is a call cycle too: @ping and @pong are not placed.
// CHECK-LABEL: func.func private @ping(%n: index, %buf: memref<16xf32>) {
// CHECK-LABEL: func.func private @pong(%n: index, %buf: memref<16xf32>) {
// CHECK:         %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-LABEL: func.func @main() {
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<16xf32>

func.func private @ping(%n: index, %buf: memref<16xf32, "global.vtcm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi ne, %n, %c0 : index
  scf.if %z {
    %m = arith.subi %n, %c1 : index
    func.call @pong(%m, %buf) : (index, memref<16xf32, "global.vtcm">) -> ()
  }
  func.return
}

func.func private @pong(%n: index, %buf: memref<16xf32, "global.vtcm">) {
  %t = memref.alloc() : memref<16xf32, "global.vtcm">
  memory.copy %buf, %t : memref<16xf32, "global.vtcm"> to memref<16xf32, "global.vtcm">
  func.call @ping(%n, %t) : (index, memref<16xf32, "global.vtcm">) -> ()
  memref.dealloc %t : memref<16xf32, "global.vtcm">
  func.return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<16xf32, "global.vtcm">
  func.call @ping(%c3, %b) : (index, memref<16xf32, "global.vtcm">) -> ()
  memref.dealloc %b : memref<16xf32, "global.vtcm">
  func.return
}

// -----

// A public recursive function keeps its signature: the VTCM memory passed
// to it cannot move, and stays where the program put it.
// CHECK-LABEL: func.func @fact_public(%n: index, %buf: memref<16xf32, "global.vtcm">) {
// CHECK:         %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
// CHECK-LABEL: func.func @main() {
// CHECK:         %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">

func.func @fact_public(%n: index, %buf: memref<16xf32, "global.vtcm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi ne, %n, %c0 : index
  scf.if %z {
    %t = memref.alloc() : memref<16xf32, "global.vtcm">
    %m = arith.subi %n, %c1 : index
    func.call @fact_public(%m, %t) : (index, memref<16xf32, "global.vtcm">) -> ()
    memref.dealloc %t : memref<16xf32, "global.vtcm">
  }
  func.return
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<16xf32, "global.vtcm">
  func.call @fact_public(%c3, %b) : (index, memref<16xf32, "global.vtcm">) -> ()
  memref.dealloc %b : memref<16xf32, "global.vtcm">
  func.return
}

// -----

// A VTCM tensor passed to a public function cannot move (its signature is
// kept): it alone is over the capacity, in @use already, which callers
// outside the module may call with it.
// CHECK: memory-place: in @use, memory that must stay in "global.vtcm" needs 16384 bytes, over the capacity of 12288 bytes: argument 0 of @use of 16384 bytes (callers outside the module hold it in VTCM)

func.func @use(%a: memref<4096xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<4096xf32, "global.vtcm">)
  func.return
}

func.func @main() {
  %a = memref.alloc() : memref<4096xf32, "global.vtcm">
  func.call @use(%a) : (memref<4096xf32, "global.vtcm">) -> ()
  memref.dealloc %a : memref<4096xf32, "global.vtcm">
  func.return
}

// -----

// A branch passes its operand to the block it jumps to: the two are retyped
// together (the block argument used to keep "global.vtcm" while the tensor
// moved to DDR, which left a cf.br of mismatched types).
// CHECK-LABEL: func.func @branch_operand_and_block_argument() -> f32 {
// CHECK:         %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"{{.*}}"> to memref<16xf32[[T:.*]]>
// CHECK:         cf.br ^bb1(%a : memref<16xf32[[T]]>)
// CHECK-NEXT:  ^bb1(%p: memref<16xf32[[T]]>):

func.func @branch_operand_and_block_argument() -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32, "global.vtcm">
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32, "global.vtcm">)
  cf.br ^bb1(%a : memref<16xf32, "global.vtcm">)
^bb1(%p: memref<16xf32, "global.vtcm">):
  %v = memref.load %p[%c0] : memref<16xf32, "global.vtcm">
  func.return %v : f32
}

// A VTCM storage that memory-place moves to DDR takes DDR's alignment: VTCM's
// 2048, which memory-manifest gave it, would keep memory-plan from nesting
// its arena into an enclosing one.
// TODDR:     %a_storage = memory.alloc_storage [16384] : !memory.storage<"global">

// -----

// An scf.for frees the allocas of each iteration where it ends (an automatic
// allocation scope, as in MLIR): the pinned alloca holds one 8192-byte copy
// at a time, not one per iteration, and fits.
// CHECK-LABEL: func.func @pinned_copies()
// CHECK:         scf.for
// CHECK-NEXT:      %p = memref.alloca() : memref<2048xf32, "global.vtcm">

func.func @use(%p: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%p : memref<2048xf32, "global.vtcm">)
  func.return
}

func.func @pinned_copies() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %p = memref.alloca() : memref<2048xf32, "global.vtcm">
    func.call @use(%p) : (memref<2048xf32, "global.vtcm">) -> ()
  }
  func.return
}

// -----

// What affine.yield passes on has the type of the loop's iter_arg and
// result: %t moves only with %r, %acc and %x, the argument of a public
// function, so it stays in DDR (not in VTCM under a DDR-typed result).
// CHECK-LABEL: func.func @affine_carried(%x: memref<1024xf32>, %out: memref<1024xf32>) {
// CHECK:         %t_storage = memory.alloc_storage [4096] : !memory.storage<"global">
// CHECK-NEXT:    %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<1024xf32>
// CHECK:         affine.yield %t : memref<1024xf32>

func.func @affine_carried(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %r = affine.for %i = 0 to 4 iter_args(%acc = %x) -> (memref<1024xf32>) {
    %t = memref.alloc() : memref<1024xf32>
    linalg.add ins(%acc, %x : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
    linalg.mul ins(%t, %t : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
    linalg.add ins(%t, %t : memref<1024xf32>, memref<1024xf32>) outs(%t : memref<1024xf32>)
    affine.yield %t : memref<1024xf32>
  }
  linalg.add ins(%r, %r : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  func.return
}

// A tensor split between VTCM and DDR is killed after the last use of its
// views too, and a kill through a view that moved to the new DDR tensor
// gives way to the kills memory-place adds (inputs/place-split-views.mlir).
// The run takes a 4096-byte VTCM: without a memory-plan to pack them, the
// two 1024-byte VTCM storages live at once each start at a 2048-aligned
// address.
// SPLIT-VIEWS:         linalg.add ins(%w, %a : memref<256xf32, strided<[1]>, "global.vtcm">, memref<256xf32, "global.vtcm">) outs(%out : memref<256xf32>)
// SPLIT-VIEWS-NEXT:    memory.kill %ts : !memory.storage<"global.vtcm">
// SPLIT-VIEWS:         %k = memref.cast %t_ddr : memref<256xf32> to memref<?xf32>
// SPLIT-VIEWS-NEXT:    memory.kill %t_ddr : memref<256xf32>
// SPLIT-VIEWS-NEXT:    memory.kill %t_ddr_storage : !memory.storage<"global">
// SPLIT-VIEWS-NEXT:    func.return %out : memref<256xf32>
// SPLIT-VIEWS-RESULT:  7.], dtype=float32)
// SPLIT-VIEWS-RESULT:  memplan-run: target hexagon-v73: peak bytes global=2048, global.vtcm=2048;

// A DDR tensor that the program also reaches through a tensor of it (and a
// memref made back from that) gets no VTCM copy for its reads: the copy
// would miss the writes through the other memref (inputs/place-to-buffer.mlir;
// 36 and 18 are the results of the program as written, not 8 and 4).
// TO-BUFFER-NOT:       memory.copy %out
// TO-BUFFER:           linalg.add ins(%out, %acc_vtcm : memref<256xf32>, memref<256xf32, "global.vtcm">)
// TO-BUFFER-NOT:       memory.copy %out
// TO-BUFFER-RESULT:    array([36., 36.,
// TO-BUFFER-RESULT:    array([18., 18.,

// A memref made back from a tensor of a moved tensor (through an scf.for
// that hands the tensor on) is the same memory: it moves too, and so does
// an unranked cast of one (inputs/place-to-buffer-moved.mlir).
// MOVED-LABEL:  func.func @main()
// MOVED:          %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global.vtcm"> to memref<256xf32, "global.vtcm">
// MOVED:          %t = bufferization.to_tensor %a : memref<256xf32, "global.vtcm"> to tensor<256xf32>
// MOVED:          %u = bufferization.to_buffer %held : tensor<256xf32> to memref<256xf32, "global.vtcm">
// MOVED:          linalg.add ins(%u, %u : memref<256xf32, "global.vtcm">, memref<256xf32, "global.vtcm">)
// MOVED-LABEL:  func.func @unranked()
// MOVED:          %any = memref.cast %a : memref<16xf32, "global.vtcm"> to memref<*xf32, "global.vtcm">
// MOVED-NEXT:     %b = memref.cast %any : memref<*xf32, "global.vtcm"> to memref<16xf32, "global.vtcm">
// MOVED-RESULT:   array([36., 36.,
// MOVED-RESULT:   peak bytes global=1024, global.vtcm=

// No VTCM copy of a tensor allocated in a region of several blocks: it would
// keep a storage of its own, outside the arenas memory-place counts
// (inputs/place-branching-region.mlir).
// BRANCHING:           scf.execute_region
// BRANCHING-NOT:       %m_vtcm
// BRANCHING:           scf.yield %acc
// BRANCHING-RESULT:    array([3., 3., 3., 3., 3., 3., 3., 3.], dtype=float32),
// BRANCHING-RESULT:    array([3., 3., 3., 3., 3., 3., 3., 3.], dtype=float32)

// A discontiguous tensor's memory space is its blocks' scope, whatever its
// pointer table's: the blocks' storage, which memory-plan does not plan,
// moves to DDR and the table's storage stays as it is.
// DISC-LABEL:  func.func private @seed(
// DISC:          %vtcm = memory.alloc_storage [4096] : !memory.storage<"global">
// DISC-NEXT:     %tables = memory.alloc_storage [64] : !memory.storage<"global">
// DISC-NEXT:     %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[768, 256, 2304, 3072] : !memory.storage<"global">, !memory.storage<"global"> to memref<4x64xi32, #memory.discontiguous>

// The live bytes fit where first fit finds no room (inputs/place-pinned-holes.mlir):
// in 8 KiB, %a beside the pinned 4 KiB %s2 takes 8 KiB, but freeing the
// pinned %s1 and %s3 before it leaves two 2 KiB holes around %s2.
// memory-place plans a clone of its placement as memory-plan will, finds
// memory-plan's final check refusing it, and places again with a lower
// limit: %a stays in DDR, and memory-plan accepts the module.  The same for
// %w of @work, which @holes_at_call calls in such holes.  In 12 KiB, first
// fit finds room after %s2, and both move to VTCM.
// HOLES-LABEL:       func.func @holes(
// HOLES:               %arena = memory.alloc_storage [4096] : !memory.storage<"global">
// HOLES-NEXT:          %a = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<1024xf32>
// HOLES-LABEL:       func.func private @work(
// HOLES:               %arena = memory.alloc_storage [4096] : !memory.storage<"global">
// HOLES-NEXT:          %w = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<1024xf32>
// HOLES-ROOMY-LABEL: func.func @holes(
// HOLES-ROOMY:         %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// HOLES-ROOMY-NEXT:    %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">
// HOLES-ROOMY-LABEL: func.func private @work(
// HOLES-ROOMY:         %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
// HOLES-ROOMY-NEXT:    %w = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<1024xf32, "global.vtcm">

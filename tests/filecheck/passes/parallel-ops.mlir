// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics -p memory-manifest,memory-plan | filecheck %s
// RUN: memplan-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics -p 'memory-verify{capacity=64}' | filecheck %s --check-prefix=VERIFY

// affine.parallel and scf.forall in the passes: loops whose iterations may
// run at once (a tensor allocated in the body keeps a storage of its own
// there, and memory-verify flags one placed on a storage from outside),
// automatic allocation scopes (an iteration's alloca is freed when it
// ends), and an affine.parallel result aliases what its affine.yield
// hands on.

func.func @affine_body() {
  affine.parallel (%i) = (0) to (4) {
    %t = memref.alloc() : memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    memref.dealloc %t : memref<16xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @affine_body() {
// CHECK-NEXT:    affine.parallel (%i) = (0) to (4) {
// CHECK-NEXT:      %t_storage = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %t : memref<16xf32>
// CHECK-NEXT:      memory.kill %t_storage : !memory.storage<"global">
// CHECK-NEXT:    }

// -----

func.func @forall_body(%n: index) {
  scf.forall (%i) in (%n) {
    %t = memref.alloc() : memref<16xf32>
    "test.op"(%t) : (memref<16xf32>) -> ()
    memref.dealloc %t : memref<16xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @forall_body(%n: index) {
// CHECK-NEXT:    scf.forall (%i) in (%n) {
// CHECK-NEXT:      %t_storage = memory.alloc_storage [64] : !memory.storage<"global">
// CHECK-NEXT:      %t = memory.alloc_tensor %t_storage[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK-NEXT:      "test.op"(%t) : (memref<16xf32>) -> ()
// CHECK-NEXT:      memory.kill %t : memref<16xf32>
// CHECK-NEXT:      memory.kill %t_storage : !memory.storage<"global">
// CHECK-NEXT:    }

// -----

// %r is %t (an "assign" reduction hands on what the iterations yield): %t
// lives to the use of %r, so %u gets bytes of its own.
func.func @assigned() {
  %t = memref.alloc() : memref<16xf32>
  "test.op"(%t) : (memref<16xf32>) -> ()
  %r = affine.parallel (%i) = (0) to (2) reduce ("assign") -> (memref<16xf32>) {
    affine.yield %t : memref<16xf32>
  }
  %u = memref.alloc() : memref<16xf32>
  "test.op"(%u) : (memref<16xf32>) -> ()
  "test.op"(%r) : (memref<16xf32>) -> ()
  memref.dealloc %u : memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  func.return
}

// CHECK-LABEL: func.func @assigned() {
// CHECK-NEXT:    %arena = memory.alloc_storage [128] : !memory.storage<"global">
// CHECK-NEXT:    %t = memory.alloc_tensor %arena[0] : !memory.storage<"global"> to memref<16xf32>
// CHECK:         %u = memory.alloc_tensor %arena[64] : !memory.storage<"global"> to memref<16xf32>

// -----

func.func @affine_shared() {
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  affine.parallel (%i) = (0) to (4) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    "test.op"(%t) : (memref<16xf32, "global.vtcm">) -> ()
    memory.kill %t : memref<16xf32, "global.vtcm">
  }
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// VERIFY: memory-verify: in @affine_shared, memory.alloc_tensor %t (bytes [0, 64) of %s) is allocated in each iteration of an affine.parallel, whose iterations may run at once, from a storage allocated outside it: the iterations would share these bytes; expected a storage allocated inside the affine.parallel

// -----

func.func @forall_shared() {
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  scf.forall (%i, %j) in (2, 2) {
    %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<16xf32, "global.vtcm">
    "test.op"(%t) : (memref<16xf32, "global.vtcm">) -> ()
    memory.kill %t : memref<16xf32, "global.vtcm">
  }
  memory.kill %s : !memory.storage<"global.vtcm">
  func.return
}

// VERIFY: memory-verify: in @forall_shared, memory.alloc_tensor %t (bytes [0, 64) of %s) is allocated in each iteration of an scf.forall, whose iterations may run at once, from a storage allocated outside it: the iterations would share these bytes; expected a storage allocated inside the scf.forall

// -----

// Each iteration's alloca is freed when it ends: one at a time fits.
func.func @forall_alloca() {
  scf.forall (%i) in (4) {
    %t = memref.alloca() : memref<16xf32, "global.vtcm">
    "test.op"(%t) : (memref<16xf32, "global.vtcm">) -> ()
  }
  affine.parallel (%i) = (0) to (4) {
    %t = memref.alloca() : memref<16xf32, "global.vtcm">
    "test.op"(%t) : (memref<16xf32, "global.vtcm">) -> ()
  }
  func.return
}

// VERIFY-LABEL: func.func @forall_alloca
// VERIFY-NOT:   memory-verify:

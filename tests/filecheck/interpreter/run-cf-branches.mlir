// Functions and regions of several blocks: cf.br and cf.cond_br move between
// them (xDSL's implementation), and the memory model checks every trip.

// RUN: memplan-run %s --symbol loop 2>&1 | filecheck %s --check-prefix LOOP
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --symbol loop 2>&1 | filecheck %s --check-prefix LOOP
// RUN: memplan-run %s --symbol region 2>&1 | filecheck %s --check-prefix REGION
// RUN: not memplan-run %s --symbol kill_on_one_path 2>&1 | filecheck %s --check-prefix KILL

// A loop of blocks allocating a VTCM temporary on every trip: 0 + 1 + 2.
func.func @loop() -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<4xf32>)
  cf.br ^body(%c0 : index)
^body(%i: index):
  %t = memref.alloc() : memref<4xf32, "global.vtcm">
  %n = arith.index_cast %i : index to i32
  %v = arith.sitofp %n : i32 to f32
  linalg.fill ins(%v : f32) outs(%t : memref<4xf32, "global.vtcm">)
  linalg.add ins(%acc, %t : memref<4xf32>, memref<4xf32, "global.vtcm">) outs(%acc : memref<4xf32>)
  memref.dealloc %t : memref<4xf32, "global.vtcm">
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %c3 : index
  cf.cond_br %more, ^body(%next : index), ^exit
^exit:
  func.return %acc : memref<4xf32>
}

// LOOP:      result: array([3., 3., 3., 3.], dtype=float32)
// LOOP-NEXT: memplan-run: {{.*}}peak bytes global=16, global.vtcm=16;{{.*}}storages global=1, global.vtcm=3;

// scf.execute_region holding a loop of blocks; scf.yield leaves it.
func.func @region() -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<4xf32>)
  %last = scf.execute_region -> index {
    %x = memref.alloc() : memref<4xf32>
    linalg.fill ins(%one : f32) outs(%x : memref<4xf32>)
    cf.br ^loop(%c0 : index)
  ^loop(%i: index):
    linalg.add ins(%out, %x : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
    %y = memref.alloc() : memref<4xf32>
    linalg.fill ins(%five : f32) outs(%y : memref<4xf32>)
    linalg.add ins(%out, %y : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
    memref.dealloc %y : memref<4xf32>
    %n = arith.addi %i, %c1 : index
    %cond = arith.cmpi slt, %n, %c3 : index
    cf.cond_br %cond, ^loop(%n : index), ^exit
  ^exit:
    memref.dealloc %x : memref<4xf32>
    scf.yield %n : index
  }
  %count = arith.index_cast %last : index to i32
  %f = arith.sitofp %count : i32 to f32
  memref.store %f, %out[%c0] : memref<4xf32>
  func.return %out : memref<4xf32>
}

// REGION:      result: array([ 3., 18., 18., 18.], dtype=float32)
// REGION-NEXT: memplan-run: {{.*}}peak bytes global=48;{{.*}}storages global=5;

// The block that kills %t is not the one that reads it: the run follows the
// branch taken.
func.func @kill_on_one_path() -> i32 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %s = memory.alloc_storage [64] : !memory.storage<"global.vtcm">
  %t = memory.alloc_tensor %s[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">
  cf.cond_br %true, ^release, ^read
^release:
  memory.kill %t : memref<4xi32, "global.vtcm">
  cf.br ^read
^read:
  %v = memref.load %t[%c0] : memref<4xi32, "global.vtcm">
  func.return %v : i32
}

// KILL: memplan-run: error: {{.*}}run-cf-branches.mlir:83:3: memref.load %v (in @kill_on_one_path): uses the tensor allocated by memory.alloc_tensor %t (line 77, in @kill_on_one_path) after it was killed by memory.kill (line 80, in @kill_on_one_path){{$}}

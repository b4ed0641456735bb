// memplan-opt is xdsl-opt with one clean error line (and exit 1) instead of a
// Python traceback for bad input.

// RUN: memplan-opt %s -p memory-manifest,memory-plan | filecheck %s --check-prefix=OK
// RUN: not memplan-opt %s -p 'memory-plan{algorithm=foo}' 2>&1 | filecheck %s --check-prefix=ALGO
// RUN: not memplan-opt %s -p 'memory-plan{nope=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not memplan-opt %s -p 'memory-plan{time-limit=soon}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not memplan-opt %s -p 'convert-memory-to-memref{x=1}' 2>&1 | filecheck %s --check-prefix=NOOPTIONS
// RUN: not memplan-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not memplan-opt %s -p 'memory-manifest,memory-plan{capacity=1024}' 2>&1 | filecheck %s --check-prefix=CAPACITY
// RUN: not memplan-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not memplan-opt %S/Inputs/bad-alignment.mlir 2>&1 | filecheck %s --check-prefix=VERIFY
// RUN: not memplan-opt < %S/Inputs/unbalanced.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not memplan-opt %S/Inputs/region-before-bad-op.mlir 2>&1 | filecheck %s --check-prefix=REGION
// RUN: not memplan-opt %s -p 'memory-plan{' 2>&1 | filecheck %s --check-prefix=PIPELINE
// RUN: not memplan-opt %s -p 'memory-manifest,,memory-plan' 2>&1 | filecheck %s --check-prefix=PIPELINE2
// RUN: not memplan-opt %S/Inputs/bad-named-op-operands.mlir 2>&1 | filecheck %s --check-prefix=BODY
// RUN: not memplan-opt %S/Inputs/while-block-argument-type.mlir 2>&1 | filecheck %s --check-prefix=PLAIN
// RUN: not memplan-opt %S/Inputs/block-label-twice.mlir 2>&1 | filecheck %s --check-prefix=LABEL
// RUN: not memplan-opt %S/Inputs/cmpi-predicate-out-of-range.mlir 2>&1 | filecheck %s --check-prefix=CMPI
// RUN: not memplan-opt %S/Inputs/cmpf-predicate-out-of-range.mlir 2>&1 | filecheck %s --check-prefix=CMPF

func.func @f() {
  %a = memref.alloc() : memref<256xi32, "global.vtcm">
  %b = memref.alloc() : memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  memref.dealloc %a : memref<256xi32, "global.vtcm">
  memref.dealloc %b : memref<256xi32, "global.vtcm">
  func.return
}

// OK: memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
// ALGO-NOT: Traceback
// ALGO: memplan-opt: error: memory-plan: unknown algorithm 'foo', expected one of: token, greedy, best
// OPTION-NOT: Traceback
// OPTION: memplan-opt: error: memory-plan: unknown option 'nope', expected one of: algorithm, alignment, tensor-alignment, insert-kills, target, capacity, budget, time-limit, arenas
// TYPE-NOT: Traceback
// TYPE: memplan-opt: error: memory-plan: option time-limit=soon: expected a number
// NOOPTIONS: memplan-opt: error: convert-memory-to-memref: unknown option 'x', it takes no options
// UNKNOWN-NOT: Traceback
// UNKNOWN: memplan-opt: error: -p: unknown pass 'no-such-pass': `memplan-opt --help` lists the passes
// CAPACITY-NOT: Traceback
// CAPACITY: memplan-opt: error: memory-plan: in @f, the "global.vtcm" arena needs 2048 bytes
// CAPACITY-SAME: over the scope capacity of 1024 bytes
// MISSING-NOT: Traceback
// MISSING: memplan-opt: error: cannot open {{.*}}errors.mlir.missing: No such file or directory
// VERIFY-NOT: Traceback
// VERIFY: memplan-opt: error: {{.*}}bad-alignment.mlir:1:1: memory.alloc_storage: alignment must be a positive power of two, got 3
// VERIFY-NEXT: in: %s = "memory.alloc_storage"()
// PARSE-NOT: Traceback
// PARSE: memplan-opt: error: stdin:1:31: ']' expected
// PARSE-NEXT: %s = memory.alloc_storage [64 : !memory.storage<"global">
// PARSE-NEXT: ^
// The op after a region (whose block label also starts with a caret) is named.
// REGION-NOT: Traceback
// REGION: memplan-opt: error: {{.*}}region-before-bad-op.mlir:5:3: memory.alloc_storage: alignment must be a positive power of two, got 3
// REGION-NEXT: in: %s = "memory.alloc_storage"()
// PIPELINE-NOT: Traceback
// PIPELINE: memplan-opt: error: bad pass pipeline given to -p: pass-pipeline:1:13
// PIPELINE-NEXT: memory-plan{
// PIPELINE: Expected argument name here
// PIPELINE2-NOT: Traceback
// PIPELINE2: memplan-opt: error: bad pass pipeline given to -p:
// PIPELINE2: Expected pass name here
// A message that already names its op is not prefixed with the name again.
// BODY-NOT: Traceback
// BODY: memplan-opt: error: {{.*}}bad-named-op-operands.mlir:2:3
// BODY: ^^^^^^^^^^^^^^^^^^
// BODY-NEXT: {{^}}  linalg.fill_rng_2d takes min and max as f64 and seed as i32 scalars and one output, got ins(f64) and 1 output(s)
// An scf.while whose scf.condition hands on other types than its results:
// the op's error (xDSL's verifier raised a plain Exception), named by where
// it was written.
// PLAIN-NOT: internal error
// PLAIN: memplan-opt: error: {{.*}}while-block-argument-type.mlir:3:3: scf.while: scf.condition hands on (index), but the op's results are (i64): expected the same types
// A label defined twice after a branch named it: MLIR's re-declaration error,
// not the KeyError xDSL's parser raised.
// LABEL-NOT: internal error
// LABEL: memplan-opt: error: {{.*}}block-label-twice.mlir:5:1: re-declaration of block 'bb1'
// LABEL: originally declared here:
// LABEL-NEXT: {{.*}}block-label-twice.mlir:3:1
// A comparison predicate MLIR does not define: its verifier's error (xDSL's
// arith takes any integer, then fails to print it).
// CMPI-NOT: internal error
// CMPI: memplan-opt: error: {{.*}}cmpi-predicate-out-of-range.mlir:2:3: arith.cmpi predicate 10 : i64 is not one of MLIR's: expected a 64-bit signless integer, 0 (eq), 1 (ne), 2 (slt), 3 (sle), 4 (sgt), 5 (sge), 6 (ult), 7 (ule), 8 (ugt), 9 (uge)
// CMPF-NOT: internal error
// CMPF: memplan-opt: error: {{.*}}cmpf-predicate-out-of-range.mlir:2:3: arith.cmpf predicate 16 : i64 is not one of MLIR's: expected a 64-bit signless integer, 0 (false), 1 (oeq),
// CMPF-SAME: 15 (true)

"""memplan-run computes what upstream MLIR's ExecutionEngine computes.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings and
ExecutionEngine, such as torch-mlir's (a development check, like
`tests/dialects/test_output_parses_in_mlir.py`).  Each program is run by
`run_function` and, printed in generic form, lowered to LLVM and run by
MLIR; the memref arguments it writes and its scalar result must agree
(functions carry `llvm.emit_c_interface`, which `ExecutionEngine.invoke`
calls through).
Control flow whose semantics memplan chose (the order `scf.parallel`
folds `scf.reduce` in) is checked against MLIR's lowering this way.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import subprocess
from io import StringIO
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from interpreter_helpers import parse
from mlir_execution import MLIR_PYTHON, needs_mlir, run_in_mlir
from xdsl.dialects import arith
from xdsl.printer import Printer

from memplan.context import memplan_context
from memplan.interpreter import run_function
from memplan.interpreter.element_types import BF16
from memplan.interpreter.linalg_impl import softmax
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass

pytestmark = needs_mlir

PARALLEL_ORDER = """
func.func @main(%out: memref<1xi64>) -> i64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %ten = arith.constant 10 : i64
  %r = "scf.parallel"(%c0, %c0, %c2, %c3, %c1, %c1, %zero) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %row = arith.muli %i, %c3 : index
    %flat = arith.addi %row, %j : index
    %next = arith.addi %flat, %c1 : index
    %v = arith.index_cast %next : index to i64
    "scf.reduce"(%v) ({
    ^bb1(%acc: i64, %new: i64):
      %shifted = arith.muli %acc, %ten : i64
      %sum = arith.addi %shifted, %new : i64
      "scf.reduce.return"(%sum) : (i64) -> ()
    }) : (i64) -> ()
  }) : (index, index, index, index, index, index, i64) -> i64
  memref.store %r, %out[%c0] : memref<1xi64>
  func.return %r : i64
}
"""

PARALLEL_ROWS = """
func.func @main(%x: memref<3x4xf32>, %y: memref<3x4xf32>) -> f32 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %low = arith.constant -1.0e30 : f32
  %max = "scf.parallel"(%c0, %c3, %c1, %low) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %t = memref.alloc() : memref<4xf32>
    %row = memref.subview %x[%i, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %out = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.mul ins(%row, %row : memref<4xf32, strided<[1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %row : memref<4xf32>, memref<4xf32, strided<[1], offset: ?>>) outs(%out : memref<4xf32, strided<[1], offset: ?>>)
    %v = memref.load %t[%c1] : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
    "scf.reduce"(%v) ({
    ^bb1(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      "scf.reduce.return"(%m) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  func.return %max : f32
}
"""

BRANCH_LOOP = """
func.func @main(%x: memref<4xf32>, %acc: memref<4xf32>) -> index attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  cf.br ^body(%c0 : index)
^body(%i: index):
  %t = memref.alloc() : memref<4xf32>
  %n = arith.index_cast %i : index to i32
  %v = arith.sitofp %n : i32 to f32
  linalg.fill ins(%v : f32) outs(%t : memref<4xf32>)
  linalg.mul ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)
  linalg.add ins(%acc, %t : memref<4xf32>, memref<4xf32>) outs(%acc : memref<4xf32>)
  memref.dealloc %t : memref<4xf32>
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %c5 : index
  cf.cond_br %more, ^body(%next : index), ^exit(%next : index)
^exit(%trips: index):
  func.return %trips : index
}
"""

AFFINE_PARALLEL = """
func.func @main(%x: memref<6x4xf32>, %y: memref<6x4xf32>, %floats: memref<4xf32>, %bits: memref<4xi32>, %ints: memref<5xi64>, %params: memref<1xi64>) -> i64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %p = memref.load %params[%c0] : memref<1xi64>
  %n = arith.index_cast %p : i64 to index
  %r:4 = affine.parallel (%i, %j) = (0, max(0, %n - 4)) to (min(6, %n), 4) step (2, 1) reduce ("addf", "maxnumf", "minimumf", "mulf") -> (f32, f32, f32, f32) {
    %v = affine.load %x[%i, %j] : memref<6x4xf32>
    %w = arith.mulf %v, %v : f32
    affine.store %w, %y[%i, %j] : memref<6x4xf32>
    affine.yield %v, %v, %v, %v : f32, f32, f32, f32
  }
  affine.store %r#0, %floats[0] : memref<4xf32>
  affine.store %r#1, %floats[1] : memref<4xf32>
  affine.store %r#2, %floats[2] : memref<4xf32>
  affine.store %r#3, %floats[3] : memref<4xf32>
  %e:4 = affine.parallel (%i) = (%n) to (0) reduce ("maxnumf", "minnumf", "maximumf", "minimumf") -> (f32, f32, f32, f32) {
    %v = affine.load %x[%i, 0] : memref<6x4xf32>
    affine.yield %v, %v, %v, %v : f32, f32, f32, f32
  }
  %b0 = arith.bitcast %e#0 : f32 to i32
  %b1 = arith.bitcast %e#1 : f32 to i32
  %b2 = arith.bitcast %e#2 : f32 to i32
  %b3 = arith.bitcast %e#3 : f32 to i32
  affine.store %b0, %bits[0] : memref<4xi32>
  affine.store %b1, %bits[1] : memref<4xi32>
  affine.store %b2, %bits[2] : memref<4xi32>
  affine.store %b3, %bits[3] : memref<4xi32>
  %k:5 = affine.parallel (%i) = (0) to (symbol(%n) + 1) reduce ("addi", "muli", "andi", "ori", "xori") -> (i64, i64, i64, i64, i64) {
    %v = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %w = arith.addi %v, %c3 : i64
    affine.yield %w, %w, %w, %w, %w : i64, i64, i64, i64, i64
  }
  affine.store %k#0, %ints[0] : memref<5xi64>
  affine.store %k#1, %ints[1] : memref<5xi64>
  affine.store %k#2, %ints[2] : memref<5xi64>
  affine.store %k#3, %ints[3] : memref<5xi64>
  affine.store %k#4, %ints[4] : memref<5xi64>
  func.return %k#4 : i64
}
"""
"""affine.parallel with min/max bounds of a run-time value, steps, float and
integer reductions, and reductions of no iteration (each the bits of its
identity: MLIR's NaN of maxnumf is negative)."""

AFFINE_PARALLELIZED = """
func.func @main(%arg0: memref<6x5xf32>, %arg1: memref<5x4xf32>, %arg2: memref<6x4xf32>, %arg3: memref<1xf32>) attributes {llvm.emit_c_interface} {
  %cst = arith.constant 0.000000e+00 : f32
  affine.parallel (%arg4) = (0) to (6) {
    affine.parallel (%arg5) = (0) to (4) {
      affine.for %arg6 = 0 to 5 {
        %2 = affine.load %arg0[%arg4, %arg6] : memref<6x5xf32>
        %3 = affine.load %arg1[%arg6, %arg5] : memref<5x4xf32>
        %4 = affine.load %arg2[%arg4, %arg5] : memref<6x4xf32>
        %5 = arith.mulf %2, %3 : f32
        %6 = arith.addf %4, %5 : f32
        affine.store %6, %arg2[%arg4, %arg5] : memref<6x4xf32>
      }
    }
  }
  %0 = affine.parallel (%arg4) = (0) to (6) reduce ("addf") -> (f32) {
    %2 = affine.load %arg0[%arg4, 0] : memref<6x5xf32>
    affine.yield %2 : f32
  }
  %1 = arith.addf %cst, %0 : f32
  affine.store %1, %arg3[0] : memref<1xf32>
  return
}
"""
"""What MLIR's `convert-linalg-to-affine-loops,affine-parallelize{parallel-reductions=true}`
prints for a `linalg.matmul` and a sum carried through an `affine.for`:
nested `affine.parallel` loops and an `addf` reduction."""

TILED_FORALL = """
#map = affine_map<(d0) -> (d0 * 4)>
#map1 = affine_map<(d0) -> (d0 * 2)>
func.func @main(%arg0: memref<8x6xf32>, %arg1: memref<6x4xf32>, %arg2: memref<8x4xf32>) attributes {llvm.emit_c_interface} {
  scf.forall (%arg3, %arg4) in (2, 2) {
    %0 = affine.apply #map(%arg3)
    %1 = affine.apply #map1(%arg4)
    %subview = memref.subview %arg0[%0, 0] [4, 6] [1, 1] : memref<8x6xf32> to memref<4x6xf32, strided<[6, 1], offset: ?>>
    %subview_0 = memref.subview %arg1[0, %1] [6, 2] [1, 1] : memref<6x4xf32> to memref<6x2xf32, strided<[4, 1], offset: ?>>
    %subview_1 = memref.subview %arg2[%0, %1] [4, 2] [1, 1] : memref<8x4xf32> to memref<4x2xf32, strided<[4, 1], offset: ?>>
    linalg.matmul ins(%subview, %subview_0 : memref<4x6xf32, strided<[6, 1], offset: ?>>, memref<6x2xf32, strided<[4, 1], offset: ?>>) outs(%subview_1 : memref<4x2xf32, strided<[4, 1], offset: ?>>)
    %subview_2 = memref.subview %arg2[%0, %1] [4, 2] [1, 1] : memref<8x4xf32> to memref<4x2xf32, strided<[4, 1], offset: ?>>
    linalg.copy ins(%subview_1 : memref<4x2xf32, strided<[4, 1], offset: ?>>) outs(%subview_2 : memref<4x2xf32, strided<[4, 1], offset: ?>>)
  }
  return
}
"""
"""A `linalg.matmul` tiled by MLIR's `transform.structured.tile_using_forall`
(tiles of 4x2) and bufferized by `one-shot-bufferize`, as MLIR prints it
(its result dropped: the harness reads the written argument; its
`memref.copy` of a strided view a `linalg.copy`: the harness's JIT has no
`memrefCopy`): the memref form of `scf.forall`, without `shared_outs` or a
printed terminator."""

FORALL = """
func.func @main(%x: memref<4x6xf32>, %y: memref<4x6xf32>, %params: memref<1xi64>) -> index attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.load %params[%c0] : memref<1xi64>
  %n = arith.index_cast %p : i64 to index
  scf.forall (%i, %j) = (1, 0) to (4, %n) step (%c1, 2) {
    %t = memref.alloc() : memref<2xf32>
    %v = memref.load %x[%i, %j] : memref<4x6xf32>
    memref.store %v, %t[%c0] : memref<2xf32>
    memref.store %v, %t[%c1] : memref<2xf32>
    %a = memref.load %t[%c0] : memref<2xf32>
    %b = memref.load %t[%c1] : memref<2xf32>
    %s = arith.mulf %a, %b : f32
    memref.store %s, %y[%i, %j] : memref<4x6xf32>
    memref.dealloc %t : memref<2xf32>
  }
  scf.forall (%i) in (%n) {
    %v = memref.load %x[%c0, %i] : memref<4x6xf32>
    %w = arith.negf %v : f32
    memref.store %w, %y[%c0, %i] : memref<4x6xf32>
  }
  func.return %n : index
}
"""
"""scf.forall in the memref form bufferization leaves, with bounds and steps
of constants and run-time values (MLIR lowers it by
`-scf-forall-to-parallel`)."""

AFFINE_IF = """
func.func @main(%x: memref<8xf32>, %out: memref<8xf32>, %params: memref<1xi64>) -> index attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.load %params[%c0] : memref<1xi64>
  %lo = arith.index_cast %p : i64 to index
  %count = affine.for %i = 0 to 8 iter_args(%n = %c0) -> (index) {
    %v = affine.load %x[%i] : memref<8xf32>
    %r, %m = affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, 5 - d0 >= 0)>(%i)[%lo] -> (f32, index) {
      %t = memref.alloc() : memref<1xf32>
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %v, %two : f32
      affine.store %d, %t[0] : memref<1xf32>
      %l = affine.load %t[0] : memref<1xf32>
      memref.dealloc %t : memref<1xf32>
      %more = arith.addi %n, %c1 : index
      affine.yield %l, %more : f32, index
    } else {
      affine.yield %v, %n : f32, index
    }
    affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%i) {
      affine.store %r, %out[%i] : memref<8xf32>
    } else {
      %neg = arith.negf %r : f32
      affine.store %neg, %out[%i] : memref<8xf32>
    }
    affine.yield %m : index
  }
  func.return %count : index
}
"""

REGION_AND_SELECT = """
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>, %flag: memref<1xi32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %f = memref.load %flag[%c0] : memref<1xi32>
  %zero = arith.constant 0 : i32
  %picked = scf.execute_region -> memref<4xf32> {
    %c = arith.cmpi ne, %f, %zero : i32
    cf.cond_br %c, ^yes, ^no
  ^yes:
    scf.yield %a : memref<4xf32>
  ^no:
    scf.yield %b : memref<4xf32>
  }
  %cond = arith.cmpi eq, %f, %zero : i32
  %other = arith.select %cond, %a, %b : memref<4xf32>
  linalg.add ins(%picked, %picked : memref<4xf32>, memref<4xf32>) outs(%other : memref<4xf32>)
  func.return
}
"""

METADATA = """
func.func @main(%m: memref<4x6xi64>, %out: memref<5xindex>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7 : i64
  %sub = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x6xi64> to memref<2x3xi64, strided<[6, 1], offset: 8>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %sub : memref<2x3xi64, strided<[6, 1], offset: 8>> -> memref<i64>, index, index, index, index, index
  %again = memref.reinterpret_cast %base to offset: [%offset], sizes: [%sizes#0, %sizes#1], strides: [%strides#0, %strides#1] : memref<i64> to memref<?x?xi64, strided<[?, ?], offset: ?>>
  linalg.fill ins(%seven : i64) outs(%again : memref<?x?xi64, strided<[?, ?], offset: ?>>)
  memref.store %offset, %out[%c0] : memref<5xindex>
  memref.store %sizes#0, %out[%c1] : memref<5xindex>
  memref.store %sizes#1, %out[%c2] : memref<5xindex>
  memref.store %strides#0, %out[%c3] : memref<5xindex>
  memref.store %strides#1, %out[%c4] : memref<5xindex>
  func.return
}
"""

SEMI_AFFINE = """
#map = affine_map<()[s0, s1] -> (s0 * s1)>
#map1 = affine_map<()[s0, s1, s2] -> (s0 * s1 + s2)>
func.func @main(%m: memref<6x8xf32>, %p: memref<3xindex>, %out: memref<24xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %seven = arith.constant 7.0 : f32
  %i = memref.load %p[%c0] : memref<3xindex>
  %n = memref.load %p[%c1] : memref<3xindex>
  %s = memref.load %p[%c2] : memref<3xindex>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<6x8xf32> -> memref<f32>, index, index, index, index, index
  %row_stride = affine.apply #map()[%s, %c8]
  %start = affine.apply #map1()[%i, %c8, %n]
  %view = memref.reinterpret_cast %base to offset: [%start], sizes: [%n, %n], strides: [%row_stride, %s] : memref<f32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  linalg.fill ins(%seven : f32) outs(%view : memref<?x?xf32, strided<[?, ?], offset: ?>>)
  %flat = memref.collapse_shape %m [[0, 1]] : memref<6x8xf32> into memref<48xf32>
  affine.for %k = 0 to #map()[%n, %s] {
    %v = affine.load %flat[%k * symbol(%s) + %k floordiv symbol(%n)] : memref<48xf32>
    affine.if affine_set<(d0)[s0] : (d0 - s0 * 2 >= 0)>(%k)[%n] {
      affine.store %v, %out[(%k * symbol(%n)) mod 24 + %k ceildiv symbol(%s)] : memref<24xf32>
    }
  }
  func.return
}
"""
"""Semi-affine maps, as MLIR's expand-strided-metadata writes them for a
subview of dynamic offsets, sizes and strides, in loop bounds, accesses and
an integer set."""

BOOLS = """
func.func @main(%a: memref<4xi1>, %b: memref<4xi1>, %s: memref<4xi1>, %m: memref<2x2xi1>, %o: memref<2x2xi1>, %w: memref<4xi32>, %f: memref<4xf32>, %t: memref<4xi1>) attributes {llvm.emit_c_interface} {
  linalg.add ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%s : memref<4xi1>)
  linalg.matmul ins(%m, %m : memref<2x2xi1>, memref<2x2xi1>) outs(%o : memref<2x2xi1>)
  linalg.copy ins(%a : memref<4xi1>) outs(%w : memref<4xi32>)
  linalg.copy ins(%b : memref<4xi1>) outs(%f : memref<4xf32>)
  linalg.copy ins(%w : memref<4xi32>) outs(%t : memref<4xi1>)
  func.return
}
"""
"""i1 sums (ori), products (andi) and copies to and from other types
(extsi, sitofp, trunci), compiled from memplan's generic form."""

REALLOC = """
func.func @main(%x: memref<6xf32>, %grown: memref<9xf32>, %shrunk: memref<4xf32>) attributes {llvm.emit_c_interface} {
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7.0 : f32
  %a = memref.alloc() : memref<6xf32>
  memref.copy %x, %a : memref<6xf32> to memref<6xf32>
  %b = memref.realloc %a : memref<6xf32> to memref<9xf32>
  %tail = memref.subview %b[6] [3] [1] : memref<9xf32> to memref<3xf32, strided<[1], offset: 6>>
  linalg.fill ins(%seven : f32) outs(%tail : memref<3xf32, strided<[1], offset: 6>>)
  memref.copy %b, %grown : memref<9xf32> to memref<9xf32>
  %c = memref.realloc %b(%c4) {alignment = 64 : i64} : memref<9xf32> to memref<?xf32>
  %d = memref.cast %c : memref<?xf32> to memref<4xf32>
  memref.copy %d, %shrunk : memref<4xf32> to memref<4xf32>
  memref.dealloc %c : memref<?xf32>
  func.return
}
"""

VIEWS_AND_CLONE = """
func.func @main(%x: memref<3x4xf32>, %shape: memref<2xi64>, %row: memref<1x4xf32>, %grid: memref<2x6xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %nine = arith.constant 9.0 : f32
  %r = memref.subview %x[1, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<1x4xf32, strided<[4, 1], offset: 4>>
  %u = memref.cast %r : memref<1x4xf32, strided<[4, 1], offset: 4>> to memref<1x4xf32, strided<[1, 1], offset: 4>>
  memref.store %nine, %u[%c0, %c2] : memref<1x4xf32, strided<[1, 1], offset: 4>>
  %c = bufferization.clone %u : memref<1x4xf32, strided<[1, 1], offset: 4>> to memref<1x4xf32>
  memref.copy %c, %row : memref<1x4xf32> to memref<1x4xf32>
  memref.dealloc %c : memref<1x4xf32>
  %g = memref.reshape %x(%shape) : (memref<3x4xf32>, memref<2xi64>) -> memref<?x?xf32>
  %s = memref.cast %g : memref<?x?xf32> to memref<2x6xf32>
  memref.copy %s, %grid : memref<2x6xf32> to memref<2x6xf32>
  func.return
}
"""
"""A cast that changes only the stride of a unit dimension (written
through), a clone into another layout, a reshape to sizes read at run time."""


MATMUL_MAPS = (
    "[affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
    "affine_map<(m, n, k) -> (m, n)>]"
)
CONTRACT_AND_ELEMENTWISE = f"""
func.func @main(%a: memref<2x3xi8>, %b: memref<3x4xi8>, %c: memref<2x4xi32>, %f: memref<2x4xf32>, %ba: memref<2x2x3xi8>, %bb: memref<2x3x4xi8>, %x: memref<3x4xf32>, %y: memref<4xf32>, %z: memref<4x3xf32>, %m: memref<4x3xi1>, %u: memref<4xi32>, %v: memref<4xi32>, %w: memref<4xi32>) attributes {{llvm.emit_c_interface}} {{
  linalg.contract indexing_maps = {MATMUL_MAPS} {{cast = #linalg.type_fn<cast_unsigned>}} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%c : memref<2x4xi32>)
  linalg.matmul {{cast = #linalg.type_fn<cast_unsigned>}} ins(%a, %b : memref<2x3xi8>, memref<3x4xi8>) outs(%f : memref<2x4xf32>)
  linalg.batch_reduce_matmul ins(%ba, %bb : memref<2x2x3xi8>, memref<2x3x4xi8>) outs(%c : memref<2x4xi32>)
  linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>] ins(%x, %y : memref<3x4xf32>, memref<4xf32>) outs(%z : memref<4x3xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<floor> ins(%z : memref<4x3xf32>) outs(%z : memref<4x3xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<negf> ins(%z : memref<4x3xf32>) outs(%z : memref<4x3xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%m, %z, %z : memref<4x3xi1>, memref<4x3xf32>, memref<4x3xf32>) outs(%z : memref<4x3xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<div_unsigned> ins(%u, %v : memref<4xi32>, memref<4xi32>) outs(%w : memref<4xi32>)
  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%w, %v : memref<4xi32>, memref<4xi32>) outs(%w : memref<4xi32>)
  linalg.elementwise kind=#linalg.elementwise_kind<min_signed> ins(%u, %w : memref<4xi32>, memref<4xi32>) outs(%u : memref<4xi32>)
  func.return
}}
"""
"""contract, batch_reduce_matmul and elementwise, with unsigned casts and
unsigned integer kinds (on negative values, where signedness shows)."""


def _atomics(kinds: tuple[str, ...], type_: str, value: str) -> str:
    """Each kind applied to element i of %m (i its position in `kinds`), the
    value it returns stored at element i of %old."""
    shape = f"memref<{len(kinds)}x{type_}>"
    lines = [
        f"func.func @main(%m: {shape}, %old: {shape}) attributes {{llvm.emit_c_interface}} {{",
        f"  %v = arith.constant {value} : {type_}",
    ]
    for i, kind in enumerate(kinds):
        lines += [
            f"  %c{i} = arith.constant {i} : index",
            f"  %r{i} = memref.atomic_rmw {kind} %v, %m[%c{i}] : ({type_}, {shape}) -> {type_}",
            f"  memref.store %r{i}, %old[%c{i}] : {shape}",
        ]
    return "\n".join([*lines, "  func.return", "}"])


FLOAT_KINDS = ("addf", "assign", "maximumf", "maxnumf", "minimumf", "minnumf")
FLOAT_MEMORY = np.array([-1.5, 3.0, np.nan, np.nan, np.nan, 1.0], np.float32)
INTEGER_KINDS = (
    "addi",
    "andi",
    "assign",
    "maxs",
    "maxu",
    "mins",
    "minu",
    "ori",
    "xori",
)
INTEGER_MEMORY = np.array([-6, -6, 9, -6, -6, -6, -6, -6, -6], np.int32)
"""MLIR lowers every kind to LLVM but `mulf` and `muli` (no LLVM atomicrmw
multiplies; the translation fails), which tests/interpreter pins alone."""

TILED_AND_QUANTIZED = """
func.func @main(%a: memref<2x3x4x5xi8>, %b: memref<6x3x7x5xi8>, %c: memref<2x6x4x7xi32>, %qa: memref<3x2x5xi8>, %qb: memref<3x5x4xi8>, %qc: memref<3x2x4xi32>, %i: memref<1x7x6x2xi8>, %k: memref<2x3x2x3xi8>, %o: memref<1x3x4x3xi32>, %x: memref<3x5xf32>, %r: memref<3xf32>) attributes {llvm.emit_c_interface} {
  %az = arith.constant -7 : i8
  %bz = arith.constant 12 : i8
  %iz = arith.constant 5 : i32
  linalg.mmt4d ins(%a, %b : memref<2x3x4x5xi8>, memref<6x3x7x5xi8>) outs(%c : memref<2x6x4x7xi32>)
  linalg.quantized_batch_matmul ins(%qa, %qb, %az, %bz : memref<3x2x5xi8>, memref<3x5x4xi8>, i8, i8) outs(%qc : memref<3x2x4xi32>)
  linalg.conv_2d_nhwc_hwcf_q {strides = dense<[2, 1]> : vector<2xi64>} ins(%i, %k, %iz, %iz : memref<1x7x6x2xi8>, memref<2x3x2x3xi8>, i32, i32) outs(%o : memref<1x3x4x3xi32>)
  linalg.reduce { arith.subf } ins(%x : memref<3x5xf32>) outs(%r : memref<3xf32>) dimensions = [1]
  func.return
}
"""
"""The ops MLIR defines by tiles or with zero points; a reduce whose short
form puts the accumulator first (subf: the order shows)."""

VARIADIC_REDUCE = """
func.func @main(%v: memref<3x2x4xf32>, %i: memref<3x2x4xi32>, %m: memref<2xf32>, %a: memref<2xi32>, %s: memref<3xf32>, %n: memref<3xi32>) attributes {llvm.emit_c_interface} {
  linalg.reduce ins(%v, %i : memref<3x2x4xf32>, memref<3x2x4xi32>) outs(%m, %a : memref<2xf32>, memref<2xi32>) dimensions = [0, 2] (%in: f32, %idx: i32, %max: f32, %arg: i32) {
    %better = arith.cmpf ogt, %in, %max : f32
    %new = arith.select %better, %in, %max : f32
    %at = arith.select %better, %idx, %arg : i32
    linalg.yield %new, %at : f32, i32
  }
  linalg.reduce ins(%v, %i : memref<3x2x4xf32>, memref<3x2x4xi32>) outs(%s, %n : memref<3xf32>, memref<3xi32>) dimensions = [1, 2] (%in: f32, %idx: i32, %sum: f32, %last: i32) {
    %0 = arith.subf %sum, %in : f32
    linalg.yield %0, %idx : f32, i32
  }
  func.return
}
"""
"""Several inputs and inits: a maximum and the first place it is reached
(ties that d0 before d2 decides), a difference folded in order and the last
index seen."""

PACK_AND_UNPACK = """
func.func @main(%a: memref<7x6xf32>, %b: memref<2x2x3x4xf32>, %c: memref<6x4x6xi32>, %d: memref<2x3x4x3x2xi32>, %e: memref<5x4x6xi32>, %t: memref<1xindex>) attributes {llvm.emit_c_interface} {
  %p = arith.constant 0.5 : f32
  %i0 = arith.constant 0 : index
  %n = memref.load %t[%i0] : memref<1xindex>
  %bd = memref.cast %b : memref<2x2x3x4xf32> to memref<2x2x3x?xf32>
  linalg.pack %a padding_value(%p : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, %n] into %bd : memref<7x6xf32> -> memref<2x2x3x?xf32>
  linalg.pack %c outer_dims_perm = [2, 0, 1] inner_dims_pos = [2, 0] inner_tiles = [3, 2] into %d : memref<6x4x6xi32> -> memref<2x3x4x3x2xi32>
  linalg.unpack %d outer_dims_perm = [2, 0, 1] inner_dims_pos = [2, 0] inner_tiles = [3, 2] into %e : memref<2x3x4x3x2xi32> -> memref<5x4x6xi32>
  func.return
}
"""
"""A padded pack with a permutation and a dynamic tile; a pack and an unpack
that cuts the partial last tile."""

FILL_RNG_2D = """
func.func @main(%f: memref<5x7xf32>, %d: memref<3x4xf64>, %i: memref<4x6xi32>) attributes {llvm.emit_c_interface} {
  %low = arith.constant -1.0 : f64
  %high = arith.constant 3.0 : f64
  %wide = arith.constant 100.0 : f64
  %seed = arith.constant 2147483647 : i32
  %other = arith.constant -7 : i32
  linalg.fill_rng_2d ins(%low, %high, %seed : f64, f64, i32) outs(%f : memref<5x7xf32>)
  linalg.fill_rng_2d ins(%low, %high, %other : f64, f64, i32) outs(%d : memref<3x4xf64>)
  linalg.fill_rng_2d ins(%low, %wide, %other : f64, f64, i32) outs(%i : memref<4x6xi32>)
  func.return
}
"""
"""The LCG's i32 arithmetic wraps (the largest seed); f32, f64 and i32
outputs."""

FUSED_AND_POWERS = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<256xf32>, %fused: memref<256xf32>, %ad: memref<256xf64>, %bd: memref<256xf64>, %cd: memref<256xf64>, %fusedd: memref<256xf64>, %n: memref<256xi32>, %power: memref<256xf32>, %powerd: memref<256xf64>, %h: memref<256xf16>, %cube: memref<256xf16>, %body: memref<256xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %three = arith.constant 3 : i32
  scf.for %i = %c0 to %c256 step %c1 {
    %x = memref.load %a[%i] : memref<256xf32>
    %y = memref.load %b[%i] : memref<256xf32>
    %z = memref.load %c[%i] : memref<256xf32>
    %f = math.fma %x, %y, %z : f32
    memref.store %f, %fused[%i] : memref<256xf32>
    %xd = memref.load %ad[%i] : memref<256xf64>
    %yd = memref.load %bd[%i] : memref<256xf64>
    %zd = memref.load %cd[%i] : memref<256xf64>
    %fd = math.fma %xd, %yd, %zd : f64
    memref.store %fd, %fusedd[%i] : memref<256xf64>
    %e = memref.load %n[%i] : memref<256xi32>
    %p = math.fpowi %x, %e : f32, i32
    memref.store %p, %power[%i] : memref<256xf32>
    %pd = math.fpowi %xd, %e : f64, i32
    memref.store %pd, %powerd[%i] : memref<256xf64>
    %v = memref.load %h[%i] : memref<256xf16>
    %q = math.fpowi %v, %three : f16, i32
    memref.store %q, %cube[%i] : memref<256xf16>
  }
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b, %c : memref<256xf32>, memref<256xf32>, memref<256xf32>) outs(%body : memref<256xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %unused: f32):
    %f = math.fma %x, %y, %z : f32
    linalg.yield %f : f32
  }
  func.return
}
"""
"""`math.fma` rounds once and `math.fpowi` multiplies by repeated squaring
(a constant exponent expanded by LLVM, a run-time one in the compiler
runtime), on random values, bit patterns and NaNs of both kinds."""


NUMBER_PREFERRING = """
func.func @main(%a: memref<100xf32>, %b: memref<100xf32>, %max: memref<100xf32>, %min: memref<100xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  scf.for %i = %c0 to %c100 step %c1 {
    %x = memref.load %a[%i] : memref<100xf32>
    %y = memref.load %b[%i] : memref<100xf32>
    %p = arith.maxnumf %x, %y : f32
    %q = arith.minnumf %x, %y : f32
    memref.store %p, %max[%i] : memref<100xf32>
    memref.store %q, %min[%i] : memref<100xf32>
  }
  func.return
}
"""
"""Every pair of signaling and quiet NaNs of both signs, zeros of both
signs, ones and infinities: a NaN gives the other operand, bits kept."""

_NANS = [0x7FA00001, 0x7FC00002, 0xFFA00003, 0xFFC00004]
_NUMBERS = [0, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000]
_SPECIAL_BITS = np.array([*_NANS, *_NUMBERS], np.uint32).view(np.float32)


NUMBER_PREFERRING_REDUCTIONS = """
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
func.func @main(%x: memref<64x8xf32>, %max: memref<64xf32>, %min: memref<64xf32>) attributes {llvm.emit_c_interface} {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x8xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%v: f32, %a: f32):
    %r = arith.maxnumf %v, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x8xf32>) outs(%min : memref<64xf32>) {
  ^bb0(%v: f32, %a: f32):
    %r = arith.minnumf %v, %a : f32
    linalg.yield %r : f32
  }
  func.return
}
"""
"""Rows and inits drawn from NaNs of both kinds, zeros, ones and
infinities, folded by maxnumf and minnumf."""


I1_FOLDS = """
func.func @main(%x: memref<8x3xi1>, %a: memref<4xi1>, %b: memref<4xi1>, %max: memref<4xi1>, %min: memref<4xi1>, %sum: memref<3xi1>, %smax: memref<3xi1>, %smin: memref<3xi1>, %gsum: memref<3xi1>, %gmax: memref<3xi1>, %gmin: memref<3xi1>) attributes {llvm.emit_c_interface} {
  linalg.max ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%max : memref<4xi1>)
  linalg.min ins(%a, %b : memref<4xi1>, memref<4xi1>) outs(%min : memref<4xi1>)
  linalg.reduce { arith.addi } ins(%x : memref<8x3xi1>) outs(%sum : memref<3xi1>) dimensions = [0]
  linalg.reduce { arith.maxsi } ins(%x : memref<8x3xi1>) outs(%smax : memref<3xi1>) dimensions = [0]
  linalg.reduce { arith.minsi } ins(%x : memref<8x3xi1>) outs(%smin : memref<3xi1>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x3xi1>) outs(%gsum, %gmax, %gmin : memref<3xi1>, memref<3xi1>, memref<3xi1>) {
  ^bb0(%in: i1, %s: i1, %m: i1, %n: i1):
    %t = arith.addi %s, %in : i1
    %u = arith.maxsi %m, %in : i1
    %v = arith.minsi %n, %in : i1
    linalg.yield %t, %u, %v : i1, i1, i1
  }
  func.return
}
"""
"""Named max and min of bools and reductions by addi, maxsi and minsi on
i1, where true is -1: the maximum of true and false is false, a sum an
xor."""


RANK_REDUCING_AND_EMPTY = """
func.func @main(%m: memref<3x1x2x1xi32>, %out: memref<3x1x2xi32>, %x: memref<3x0xf32>, %mx: memref<3xf32>, %e: memref<0x3xi32>, %k: memref<0xi32>) attributes {llvm.emit_c_interface} {
  %s = memref.subview %m[0, 0, 0, 0] [3, 1, 2, 1] [1, 1, 1, 1] : memref<3x1x2x1xi32> to memref<3x1x2xi32, strided<[2, 2, 1]>>
  linalg.copy ins(%s : memref<3x1x2xi32, strided<[2, 2, 1]>>) outs(%out : memref<3x1x2xi32>)
  linalg.reduce { arith.maximumf } ins(%x : memref<3x0xf32>) outs(%mx : memref<3xf32>) dimensions = [1]
  linalg.reduce { arith.minsi } ins(%e : memref<0x3xi32>) outs(%k : memref<0xi32>) dimensions = [1]
  func.return
}
"""
"""A rank-reducing subview that keeps a unit dim and drops a later one (its
strides tell which), reductions over no terms and into no elements."""


def _fused_and_powers_arrays() -> list[np.ndarray]:
    """Factors of random magnitudes, a quarter random bit patterns; addends
    that (but every third) cancel the rounded product, where one rounding
    matters most; exponents with both extremes of i32."""
    rng = np.random.default_rng(3)

    def floats(dtype: type, exponents: int) -> np.ndarray:
        unsigned = np.dtype(f"u{np.dtype(dtype).itemsize}")
        scales = 2.0 ** rng.integers(-exponents, exponents, 256)
        values = (rng.standard_normal(256) * scales).astype(dtype)
        values[::4] = rng.integers(0, np.iinfo(unsigned).max, 64, unsigned).view(dtype)
        return values

    def operands(dtype: type, exponents: int) -> list[np.ndarray]:
        a, b, c = (floats(dtype, exponents) for _ in range(3))
        with np.errstate(all="ignore"):
            cancel = -(a.astype(np.float64) * b).astype(dtype)
        return [a, b, np.where(np.arange(256) % 3 == 0, c, cancel)]

    exponents = rng.integers(-40, 40, 256).astype(np.int32)
    exponents[:2] = [-(2**31), 2**31 - 1]
    halves = (rng.standard_normal(256) * 8).astype(np.float16)
    f32, f64, f16 = (np.zeros(256, t) for t in (np.float32, np.float64, np.float16))
    return [
        *operands(np.float32, 40), f32.copy(), *operands(np.float64, 600),
        f64.copy(), exponents, f32.copy(), f64.copy(), halves, f16, f32.copy(),
    ]  # fmt: skip


POINTWISE_RANK_0 = """
func.func @main(%a: memref<4xf32>, %s: memref<f32>, %c: memref<i8>,
    %o1: memref<4xf32>, %o2: memref<4xf32>, %o3: memref<4xf16>,
    %o4: memref<4xf32>, %o5: memref<4xf32>, %o6: memref<f32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0 : i8
  %b = memref.alloc() : memref<i1>
  linalg.map ins(%c : memref<i8>) outs(%b : memref<i1>) (%v: i8, %init: i1) {
    %t = arith.cmpi ne, %v, %zero : i8
    linalg.yield %t : i1
  }
  linalg.add ins(%a, %s : memref<4xf32>, memref<f32>) outs(%o1 : memref<4xf32>)
  linalg.exp ins(%s : memref<f32>) outs(%o2 : memref<4xf32>)
  linalg.copy ins(%s : memref<f32>) outs(%o3 : memref<4xf16>)
  linalg.select ins(%b, %s, %a : memref<i1>, memref<f32>, memref<4xf32>) outs(%o4 : memref<4xf32>)
  linalg.powf ins(%a, %s : memref<4xf32>, memref<f32>) outs(%o5 : memref<4xf32>)
  linalg.mul ins(%s, %s : memref<f32>, memref<f32>) outs(%o6 : memref<f32>)
  memref.dealloc %b : memref<i1>
  func.return
}
"""
"""MLIR's rank-polymorphic named ops with rank-0 operands: each is a scalar
read at every point of the output."""


FLOATS = np.linspace(-1.5, 2.5, 12, dtype=np.float32)
_INTS = np.random.default_rng(0)
CASES = {
    "tiled-and-quantized": (
        TILED_AND_QUANTIZED,
        [
            _INTS.integers(-128, 128, (2, 3, 4, 5), dtype=np.int8),
            _INTS.integers(-128, 128, (6, 3, 7, 5), dtype=np.int8),
            np.ones((2, 6, 4, 7), np.int32),
            _INTS.integers(-128, 128, (3, 2, 5), dtype=np.int8),
            _INTS.integers(-128, 128, (3, 5, 4), dtype=np.int8),
            np.zeros((3, 2, 4), np.int32),
            _INTS.integers(-128, 128, (1, 7, 6, 2), dtype=np.int8),
            _INTS.integers(-128, 128, (2, 3, 2, 3), dtype=np.int8),
            np.zeros((1, 3, 4, 3), np.int32),
            FLOATS[: 15 - 3].repeat(2)[:15].reshape(3, 5).copy(),
            np.array([1.0, -2.0, 0.5], np.float32),
        ],
        "none",
    ),
    "variadic-reduce": (
        VARIADIC_REDUCE,
        [
            np.array(
                [
                    [[0, 0, 0, 2], [0, 0, 0, 3]],
                    [[0, 2, 0, 0], [3, 0, 0, 0]],
                    [[1, 1, 1, 1], [1, 1, 1, 1]],
                ],
                np.float32,
            ),
            np.arange(24, dtype=np.int32).reshape(3, 2, 4),
            np.full(2, -np.inf, np.float32),
            np.full(2, -1, np.int32),
            np.array([1.0, 0.0, -1.0], np.float32),
            np.zeros(3, np.int32),
        ],
        "none",
    ),
    "pack-and-unpack": (
        PACK_AND_UNPACK,
        [
            FLOATS.repeat(4)[:42].reshape(7, 6).copy(),
            np.zeros((2, 2, 3, 4), np.float32),
            np.arange(144, dtype=np.int32).reshape(6, 4, 6),
            np.zeros((2, 3, 4, 3, 2), np.int32),
            np.zeros((5, 4, 6), np.int32),
            np.array([4], np.int64),
        ],
        "none",
    ),
    "fill-rng-2d": (
        FILL_RNG_2D,
        [np.zeros((5, 7), np.float32), np.zeros((3, 4)), np.zeros((4, 6), np.int32)],
        "none",
    ),
    "pointwise-rank-0": (
        POINTWISE_RANK_0,
        [
            np.array([0.5, 1.0, 1.5, 2.0], np.float32),
            np.array(1.25, np.float32),
            np.array(1, np.int8),
            *(np.zeros(4, np.float32) for _ in range(2)),
            np.zeros(4, np.float16),
            *(np.zeros(4, np.float32) for _ in range(2)),
            np.array(0.0, np.float32),
        ],
        "none",
    ),
    "parallel-reduce-order": (PARALLEL_ORDER, [np.zeros(1, np.int64)], "i64"),
    "parallel-rows-and-max": (
        PARALLEL_ROWS,
        [FLOATS.reshape(3, 4), np.zeros((3, 4), np.float32)],
        "f32",
    ),
    "branch-loop": (
        BRANCH_LOOP,
        [FLOATS[:4].copy(), np.ones(4, np.float32)],
        "index",
    ),
    "affine-parallel": (
        AFFINE_PARALLEL,
        [
            np.tile(FLOATS, 2).reshape(6, 4),
            np.zeros((6, 4), np.float32),
            np.zeros(4, np.float32),
            np.zeros(4, np.int32),
            np.zeros(5, np.int64),
            np.array([5], np.int64),
        ],
        "i64",
    ),
    "affine-parallelized": (
        AFFINE_PARALLELIZED,
        [
            np.tile(FLOATS, 3)[:30].reshape(6, 5),
            np.tile(FLOATS, 2)[:20].reshape(5, 4),
            np.tile(FLOATS, 2).reshape(6, 4),
            np.zeros(1, np.float32),
        ],
        "none",
    ),
    "tiled-forall": (
        TILED_FORALL,
        [  # small integers: the matmul's sums are exact in any order
            (np.arange(48, dtype=np.float32) % 7 - 3).reshape(8, 6),
            (np.arange(24, dtype=np.float32) % 5 - 2).reshape(6, 4),
            np.ones((8, 4), np.float32),
        ],
        "none",
    ),
    "forall": (
        FORALL,
        [
            np.tile(FLOATS, 2).reshape(4, 6),
            np.zeros((4, 6), np.float32),
            np.array([5], np.int64),
        ],
        "index",
    ),
    "affine-if": (
        AFFINE_IF,
        [FLOATS[:8].copy(), np.zeros(8, np.float32), np.array([2], np.int64)],
        "index",
    ),
    "execute-region-and-select-true": (
        REGION_AND_SELECT,
        [FLOATS[:4].copy(), FLOATS[4:8].copy(), np.ones(1, np.int32)],
        "none",
    ),
    "execute-region-and-select-false": (
        REGION_AND_SELECT,
        [FLOATS[:4].copy(), FLOATS[4:8].copy(), np.zeros(1, np.int32)],
        "none",
    ),
    "realloc": (
        REALLOC,
        [FLOATS[:6].copy(), np.zeros(9, np.float32), np.zeros(4, np.float32)],
        "none",
    ),
    "semi-affine": (
        SEMI_AFFINE,
        [
            FLOATS[:6].repeat(8).reshape(6, 8) * np.arange(8, dtype=np.float32),
            np.array([1, 2, 3], np.int64),
            np.zeros(24, np.float32),
        ],
        "none",
    ),
    "bools": (
        BOOLS,
        [
            np.array([1, 1, 0, 0], bool),
            np.array([1, 0, 1, 0], bool),
            np.zeros(4, bool),
            np.array([[1, 1], [0, 1]], bool),
            np.zeros((2, 2), bool),
            np.zeros(4, np.int32),
            np.zeros(4, np.float32),
            np.ones(4, bool),
        ],
        "none",
    ),
    "atomic-rmw-float": (
        _atomics(FLOAT_KINDS, "f32", "2.0"),
        [FLOAT_MEMORY, np.zeros(len(FLOAT_KINDS), np.float32)],
        "none",
    ),
    "atomic-rmw-integer": (
        _atomics(INTEGER_KINDS, "i32", "4"),
        [INTEGER_MEMORY, np.zeros(len(INTEGER_KINDS), np.int32)],
        "none",
    ),
    "views-and-clone": (
        VIEWS_AND_CLONE,
        [
            FLOATS.reshape(3, 4).copy(),
            np.array([2, 6], np.int64),
            np.zeros((1, 4), np.float32),
            np.zeros((2, 6), np.float32),
        ],
        "none",
    ),
    "contract-and-elementwise": (
        CONTRACT_AND_ELEMENTWISE,
        [
            np.array([[-1, 2, -128], [127, -3, 5]], np.int8),
            np.arange(-6, 6, dtype=np.int8).reshape(3, 4),
            np.ones((2, 4), np.int32),
            np.zeros((2, 4), np.float32),
            np.arange(-6, 6, dtype=np.int8).reshape(2, 2, 3),
            np.arange(-12, 12, dtype=np.int8).reshape(2, 3, 4),
            FLOATS.reshape(3, 4).copy(),
            np.array([0.25, -0.5, 1.0, 2.0], np.float32),
            np.zeros((4, 3), np.float32),
            np.arange(12).reshape(4, 3) % 3 == 0,
            np.array([-7, 7, -(2**31), 9], np.int32),
            np.array([2, -2, 3, 5], np.int32),
            np.zeros(4, np.int32),
        ],
        "none",
    ),
    "fma-and-fpowi": (FUSED_AND_POWERS, _fused_and_powers_arrays(), "none"),
    "maxnumf-and-minnumf-reductions": (
        NUMBER_PREFERRING_REDUCTIONS,
        [
            np.random.default_rng(0).choice(_SPECIAL_BITS, (64, 8)),
            *(np.random.default_rng(1).choice(_SPECIAL_BITS, 64) for _ in range(2)),
        ],
        "none",
    ),
    "maxnumf-and-minnumf": (
        NUMBER_PREFERRING,
        [
            np.repeat(_SPECIAL_BITS, 10),
            np.tile(_SPECIAL_BITS, 10),
            np.zeros(100, np.float32),
            np.zeros(100, np.float32),
        ],
        "none",
    ),
    "i1-extrema-and-sums": (
        I1_FOLDS,
        [
            np.random.default_rng(2).integers(0, 2, (8, 3)).astype(bool),
            np.array([1, 1, 0, 0], bool),
            np.array([1, 0, 1, 0], bool),
            np.zeros(4, bool),
            np.zeros(4, bool),
            *(np.array([1, 0, 1], bool) for _ in range(6)),
        ],
        "none",
    ),
    "rank-reducing-subview-and-empty-reduce": (
        RANK_REDUCING_AND_EMPTY,
        [
            np.arange(6, dtype=np.int32).reshape(3, 1, 2, 1),
            np.zeros((3, 1, 2), np.int32),
            np.zeros((3, 0), np.float32),
            np.array([1.0, -np.inf, 3.0], np.float32),
            np.zeros((0, 3), np.int32),
            np.zeros(0, np.int32),
        ],
        "none",
    ),
    "strided-metadata": (
        METADATA,
        [np.zeros((4, 6), np.int64), np.zeros(5, np.int64)],
        "none",
    ),
}


@pytest.mark.parametrize("vectorize_loops", [True, False], ids=["arrays", "op-by-op"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_memplan_run_matches_mlir_execution_engine(
    name: str, vectorize_loops: bool, tmp_path: Path
):
    """With loop nests on whole arrays and op by op."""
    text, arrays, result_type = CASES[name]
    expected = run_in_mlir(text, arrays, result_type, tmp_path)
    ours = [a.copy() for a in arrays]
    run = run_function(parse(text), "main", ours, vectorize_loops=vectorize_loops)
    results = run.results
    for position, array in enumerate(ours):
        np.testing.assert_array_equal(array, expected[f"arg{position}"])
    if result_type != "none":
        assert results == (expected["result"].item(),)


SEQUENTIAL_SUMS = """
#x = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0)>
func.func @main(%a: memref<6x300xf32>, %b: memref<300x5xf32>, %c: memref<6x5xf32>,
    %x: memref<1x9x9x16xf32>, %w: memref<3x3x16x4xf32>, %y: memref<1x7x7x4xf32>,
    %g: memref<5x40x30xf32>, %s: memref<5xf32>, %r: memref<5xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul ins(%a, %b : memref<6x300xf32>, memref<300x5xf32>) outs(%c : memref<6x5xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x9x9x16xf32>, memref<3x3x16x4xf32>) outs(%y : memref<1x7x7x4xf32>)
  linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction", "reduction"]} ins(%g : memref<5x40x30xf32>) outs(%s : memref<5xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %t = arith.subf %sq, %v : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  }
  linalg.reduce ins(%g : memref<5x40x30xf32>) outs(%r : memref<5xf32>) dimensions = [1, 2]
    (%v: f32, %acc: f32) {
      %u = arith.addf %v, %acc : f32
      linalg.yield %u : f32
    }
  func.return
}
"""
"""A matmul, a convolution, a generic sum and a reduce, each summing
hundreds of terms: which order they add in shows in the last bits (f32 here,
the other float types by replacing it)."""


SEQUENTIAL_TYPES = {
    "f32": (np.dtype(np.float32), 12),
    "f64": (np.dtype(np.float64), 12),
    "f16": (np.dtype(np.float16), 3),
    "bf16": (BF16, 12),
}
"""Element type -> dtype and the largest power of two scaling its values
(f16 sums of 300 products stay finite)."""


def _mixed_floats(
    rng: np.random.Generator, shape: tuple[int, ...], element: str
) -> np.ndarray:
    """Normal values scaled by 2**-span .. 2**span."""
    dtype, span = SEQUENTIAL_TYPES[element]
    scale = np.exp2(rng.integers(-span, span + 1, shape))
    return (rng.standard_normal(shape) * scale).astype(dtype)


@pytest.mark.parametrize("element", sorted(SEQUENTIAL_TYPES))
def test_sequential_sums_match_mlirs_loops_bit_for_bit(element: str, tmp_path: Path):
    """With `sequential_sums=True` float sums fold in the order of the
    loops MLIR lowers the ops to: the same bits, where the default mode's
    BLAS and pairwise sums differ in the last ones; f16 and bf16 round at
    every step in both."""
    rng = np.random.default_rng(7)
    shapes = [(6, 300), (300, 5), (6, 5), (1, 9, 9, 16), (3, 3, 16, 4)]
    shapes += [(1, 7, 7, 4), (5, 40, 30), (5,), (5,)]
    arrays = [_mixed_floats(rng, shape, element) for shape in shapes]
    text = SEQUENTIAL_SUMS.replace("f32", element)
    expected = run_in_mlir(text, arrays, "none", tmp_path)
    ours = [a.copy() for a in arrays]
    run_function(parse(text), "main", ours, sequential_sums=True)
    for position, array in enumerate(ours):
        theirs = expected[f"arg{position}"].view(array.dtype)
        np.testing.assert_array_equal(array, theirs)
        assert array.tobytes() == theirs.tobytes()


ODD_WIDTH = """
func.func @main(%out: memref<8xi32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xi24>
  %b = memref.alloc() : memref<4xi24>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i24
    %w = arith.constant 100 : i24
    %x = arith.addi %v, %w : i24
    %y = arith.subi %v, %w : i24
    memref.store %x, %a[%i] : memref<4xi24>
    memref.store %y, %b[%i] : memref<4xi24>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xi24>
    %y = memref.load %b[%i] : memref<4xi24>
    %xe = arith.extsi %x : i24 to i32
    %ye = arith.extsi %y : i24 to i32
    %j = arith.addi %i, %c4 : index
    memref.store %xe, %out[%i] : memref<8xi32>
    memref.store %ye, %out[%j] : memref<8xi32>
  }
  memref.dealloc %a : memref<4xi24>
  memref.dealloc %b : memref<4xi24>
  func.return
}
"""


def test_planned_odd_width_tensors_keep_their_values_once_lowered_by_mlir(
    tmp_path: Path,
):
    # MLIR lays an i24 out in 4 bytes; a plan at 3 bytes an element put %b's
    # first element inside %a's last (ExecutionEngine then read 200 for 103).
    module = parse(ODD_WIDTH)
    for module_pass in (
        MemoryManifestPass(),
        MemoryPlanPass(tensor_alignment=4),
        ConvertMemoryToMemrefPass(),
    ):
        module_pass.apply(memplan_context(), module)
    stream = StringIO()
    Printer(stream=stream).print_op(module)
    out = np.zeros(8, np.int32)
    want = run_in_mlir(ODD_WIDTH, [out], "none", tmp_path)["arg0"]
    np.testing.assert_array_equal(want, [100, 101, 102, 103, -100, -99, -98, -97])
    got = run_in_mlir(stream.getvalue(), [out], "none", tmp_path)["arg0"]
    np.testing.assert_array_equal(got, want)


BUFFERIZE = """
import sys
from torch_mlir import ir, passmanager
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    passmanager.PassManager.parse(f"builtin.module({sys.argv[1]})").run(module.operation)
    for op in module.body.operations:
        op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
    print(module.operation.get_asm(print_generic_op_form=True))
"""

TENSOR_PROGRAM = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %1 = linalg.mul ins(%0, %a : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.sub ins(%1, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
"""
"""(a + b) * a - b, the subtraction into the first `tensor.empty`, whose
buffer one-shot-bufferize then reuses."""

DEFAULT_BUFFERIZATION = "one-shot-bufferize"
"""Function boundaries kept: tensor arguments and result, converted at the
edges by `bufferization.to_buffer` and `to_tensor`."""
BOUNDARY_BUFFERIZATION = (
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions}"
)
"""Memref arguments, the result written to a last one, as ExecutionEngine
calls it."""


def _bufferized(pipeline: str) -> str:
    assert MLIR_PYTHON is not None
    done = subprocess.run(
        [MLIR_PYTHON, "-c", BUFFERIZE, pipeline],
        input=TENSOR_PROGRAM,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_one_shot_bufferized_tensor_function_matches_mlir_execution_engine(
    tmp_path: Path,
):
    a = FLOATS[:6].reshape(2, 3).copy()
    b = FLOATS[6:].reshape(2, 3).copy()
    expected = run_in_mlir(
        _bufferized(BOUNDARY_BUFFERIZATION),
        [a, b, np.zeros((2, 3), np.float32)],
        "none",
        tmp_path,
    )["arg2"]
    np.testing.assert_allclose(expected, (a + b) * a - b, rtol=1e-6)
    text = _bufferized(DEFAULT_BUFFERIZATION)
    assert "bufferization.to_tensor" in text
    planned = parse(text)
    for module_pass in (MemoryManifestPass(), MemoryPlanPass()):
        module_pass.apply(memplan_context(), planned)
    assert "memory.alloc_tensor" in str(planned)
    for program in (parse(text), planned):
        (result,) = run_function(program, "main", (a, b)).results
        np.testing.assert_array_equal(result, expected)


SOFTMAX_RUN = """
import ctypes, sys
import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import get_ranked_memref_descriptor

DECOMPOSE = '''
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
'''
LOWER = (
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},"
    "convert-bufferization-to-memref,convert-linalg-to-loops,"
    "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "finalize-memref-to-llvm,convert-arith-to-llvm,convert-math-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
)
arrays_in, arrays_out = sys.argv[1:]
with ir.Context():
    module = ir.Module.parse(sys.stdin.read() + DECOMPOSE)
    passmanager.PassManager.parse("builtin.module(transform-interpreter)").run(
        module.operation)
    for op in list(module.body.operations):
        if "transform.with_named_sequence" in op.attributes:
            op.erase()
    passmanager.PassManager.parse(LOWER).run(module.operation)
    engine = ExecutionEngine(module, opt_level=2)
    x = np.load(arrays_in)["x"]
    out = np.zeros_like(x)
    engine.invoke("main", *[ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(a)))
                            for a in (x, out)])
    np.save(arrays_out, out)
"""
"""Decomposes `linalg.softmax` on tensors with MLIR's own decomposition
(`decompose_interface`, the transform interpreter: it does not apply to
memrefs), bufferizes, lowers and runs it."""


def _softmax_inputs(shape: tuple[int, ...]) -> np.ndarray:
    x = (np.random.default_rng(0).standard_normal(shape) * 2).astype(np.float32)
    flat = x.reshape(-1, shape[-1])
    flat[0, 1] = np.nan  # maxnumf skips it; exp(nan) spreads it over the row
    flat[1, :] = np.nan  # the max stays its NaN init
    flat[2, 0] = np.inf
    flat[3, :] = -np.inf
    flat[4, 2] = -np.inf
    return x


@pytest.mark.parametrize(("shape", "axis"), [((6, 300), 1), ((5, 7, 9), 0)])
def test_softmax_matches_mlirs_decomposition(
    shape: tuple[int, ...], axis: int, tmp_path: Path
):
    """memplan-run's `linalg.softmax` on memrefs against MLIR's decomposition
    of it compiled: bit for bit with the C library's `expf` (what the
    compiled code calls, and `libm_math=True`), within 2 ulp with memplan's
    default exp (f64, rounded)."""
    assert MLIR_PYTHON is not None
    x = _softmax_inputs(shape)
    tensor = f"tensor<{'x'.join(map(str, shape))}xf32>"
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npy"
    np.savez(inputs, x=x)
    done = subprocess.run(
        [MLIR_PYTHON, "-c", SOFTMAX_RUN, str(inputs), str(outputs)],
        input=f"""
func.func @main(%x: {tensor}) -> {tensor} attributes {{llvm.emit_c_interface}} {{
  %e = tensor.empty() : {tensor}
  %r = linalg.softmax dimension({axis}) ins(%x : {tensor}) outs(%e : {tensor}) -> {tensor}
  return %r : {tensor}
}}""",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    expected = np.load(outputs)
    memref = tensor.replace("tensor", "memref")
    ours = np.zeros_like(x)
    program = parse(f"""
func.func @main(%x: {memref}, %y: {memref}) {{
  linalg.softmax dimension({axis}) ins(%x : {memref}) outs(%y : {memref})
  func.return
}}""")
    run_function(program, "main", [x, ours])
    np.testing.assert_array_max_ulp(ours, expected, maxulp=2)
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.expf.restype, libm.expf.argtypes = ctypes.c_float, [ctypes.c_float]
    expf = np.frompyfunc(libm.expf, 1, 1)
    with np.errstate(invalid="ignore"):
        exact = softmax(x, axis, lambda v: expf(v).astype(np.float32))
    np.testing.assert_array_equal(exact.view(np.uint32), expected.view(np.uint32))
    run_function(program, "main", [x, ours], libm_math=True)
    np.testing.assert_array_equal(ours.view(np.uint32), expected.view(np.uint32))


LIBM_FUNCTIONS = ("exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "atan")
NEARLY_ROUNDED = ("exp", "exp2", "log", "log2")
"""Functions whose f32 version in glibc is within a hair of correctly
rounded: there memplan's f64-then-rounded result is glibc's but on about 1
input in 1,000 (numpy's f32 code differed on 2 to 40 % of them)."""


def _libm_program(size: int) -> str:
    outs = ", ".join(f"%{name}: memref<{size}xf32>" for name in LIBM_FUNCTIONS)
    body = "\n".join(
        f"    %r_{name} = math.{name} %v : f32\n"
        f"    memref.store %r_{name}, %{name}[%i] : memref<{size}xf32>"
        for name in LIBM_FUNCTIONS
    )
    return f"""
func.func @main(%x: memref<{size}xf32>, {outs}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  scf.for %i = %c0 to %n step %c1 {{
    %v = memref.load %x[%i] : memref<{size}xf32>
{body}
  }}
  func.return
}}
"""


def test_f32_math_functions_are_within_two_ulp_of_the_c_librarys(tmp_path: Path):
    """f32 transcendental functions, computed in f64 and rounded, are never
    more than 2 ulp off the C library's f32 functions that MLIR's code
    calls, and give their bits on all but a few inputs where those are
    nearly correctly rounded (`NEARLY_ROUNDED`)."""
    size = 4096
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(size) * 20).astype(np.float32)
    x[::3] = np.abs(x[::3])
    arrays = [x, *(np.zeros(size, np.float32) for _ in LIBM_FUNCTIONS)]
    text = _libm_program(size)
    expected = run_in_mlir(text, arrays, "none", tmp_path)
    ours = [a.copy() for a in arrays]
    run_function(parse(text), "main", ours)
    for position, name in enumerate(LIBM_FUNCTIONS, start=1):
        want, got = expected[f"arg{position}"], ours[position]
        np.testing.assert_array_max_ulp(got, want, maxulp=2)
        nans = np.isnan(got) & np.isnan(want)  # their sign is numpy's
        differing = np.count_nonzero(
            (got.view(np.uint32) != want.view(np.uint32)) & ~nans
        )
        if name in NEARLY_ROUNDED:
            assert differing <= size // 200, (name, differing)


C_LIBRARY_UNARY = (
    *("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh"),
    *("erf", "exp", "exp2", "log", "log10", "log2", "sin", "sinh", "tan", "tanh"),
)
"""Math ops that MLIR's standard lowering turns into C library calls."""
OTHER_UNARY = (
    *("absf", "ceil", "floor", "round", "roundeven", "sqrt", "trunc"),
    *("expm1", "log1p", "rsqrt"),
)
"""Exactly rounded math ops, and those MLIR's lowering expands itself."""
MATH_TYPES = {
    "f16": np.dtype(np.float16),
    "bf16": BF16,
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}


def _math_ops(element: str) -> list[str]:
    """Every float math op of xDSL's dialect on `%x`, `%y`, `%z` (floats)
    and `%e` (i32), as `math.name operands : types` (`%rK = ` goes first)."""
    ops = [f"math.{op} %x : {element}" for op in C_LIBRARY_UNARY + OTHER_UNARY]
    ops += [f"math.{op} %x, %y : {element}" for op in ("atan2", "copysign", "powf")]
    ops.append(f"math.fma %x, %y, %z : {element}")
    ops.append(f"math.fpowi %x, %e : {element}, i32")
    return ops


def _math_program(element: str, size: int, form: str) -> tuple[str, int]:
    """Each math op of `element` on the elements of `%a`, `%b`, `%c` and
    `%n`, stored to one output each: in an `scf.for` or in one
    `linalg.generic`; the program and its number of outputs."""
    ops = _math_ops(element)
    memref = f"memref<{size}x{element}>"
    ints = f"memref<{size}xi32>"
    outs = ", ".join(f"%o{k}: {memref}" for k in range(len(ops)))
    signature = f"%a: {memref}, %b: {memref}, %c: {memref}, %n: {ints}, {outs}"
    if form == "generic":
        maps = ", ".join(["#id"] * (4 + len(ops)))
        args = ", ".join(f"%u{k}: {element}" for k in range(len(ops)))
        results = ", ".join(f"%r{k}" for k in range(len(ops)))
        body = "\n      ".join(f"%r{k} = {op}" for k, op in enumerate(ops))
        return (
            f"""
#id = affine_map<(d0) -> (d0)>
func.func @main({signature}) attributes {{llvm.emit_c_interface}} {{
  linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins(%a, %b, %c, %n : {memref}, {memref}, {memref}, {ints})
      outs({", ".join(f"%o{k}" for k in range(len(ops)))} : {", ".join([memref] * len(ops))}) {{
    ^bb0(%x: {element}, %y: {element}, %z: {element}, %e: i32, {args}):
      {body}
      linalg.yield {results} : {", ".join([element] * len(ops))}
  }}
  func.return
}}
""",
            len(ops),
        )
    loads = (
        "\n    ".join(
            f"%{v} = memref.load %{m}[%i] : {t}"
            for v, m, t in (("x", "a", memref), ("y", "b", memref), ("z", "c", memref))
        )
        + f"\n    %e = memref.load %n[%i] : {ints}"
    )

    body = "\n    ".join(
        line
        for k, op in enumerate(ops)
        for line in (f"%r{k} = {op}", f"memref.store %r{k}, %o{k}[%i] : {memref}")
    )
    return (
        f"""
func.func @main({signature}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = arith.constant {size} : index
  scf.for %i = %c0 to %size step %c1 {{
    {loads}
    {body}
  }}
  func.return
}}
""",
        len(ops),
    )


def _math_operands(
    rng: np.random.Generator, dtype: np.dtype, size: int
) -> list[np.ndarray]:
    """Three float operands (random bits, normal values, special values, and
    a quarter in [-1.5, 1.5] and next to 1, where acos, atanh, log1p and
    powers are finite) and i32 exponents (small ones, the extremes, random
    bits)."""
    floats = []
    for _ in range(3):
        values = _random_elements(rng, dtype, size)
        near = rng.uniform(-1.5, 1.5, size // 4).astype(dtype)
        near[::8] = (
            np.asarray(1.0, dtype)
            + np.asarray(rng.integers(-4, 5, near[::8].size), dtype)
            * ml_dtypes.finfo(dtype).eps
        )
        values[-(size // 4) :] = near
        floats.append(values)
    exponents = rng.integers(-(2**31), 2**31, size, np.int64).astype(np.int32)
    exponents[: size // 2] = rng.integers(-40, 41, size // 2)
    exponents[size // 2 : size // 2 + 5] = [-(2**31), 2**31 - 1, 0, -1, 1]
    exponents[-(size // 4) :: 16] = -(2**31)  # with bases next to 1
    return [*floats, exponents]


@pytest.mark.parametrize("element", sorted(MATH_TYPES))
@pytest.mark.parametrize("form", ["loop-arrays", "loop-op-by-op", "generic"])
def test_libm_math_gives_mlirs_compiled_bits_for_every_math_op(
    element: str, form: str, tmp_path: Path
):
    """With `libm_math=True`, every float math op, on random bits and
    special values, op by op, in a loop nest on arrays and in a
    `linalg.generic` body: the bits of MLIR's standard lowering compiled,
    but for which NaN comes out (LLVM leaves NaN payloads open) and, on bf16,
    a zero where memplan rounds to a subnormal (`_flushed_to_zero`)."""
    size = 2048
    text, count = _math_program(
        element, size, "generic" if form == "generic" else "loop"
    )
    dtype = MATH_TYPES[element]
    inputs = _math_operands(np.random.default_rng(7), dtype, size)
    arrays = [*inputs, *(np.zeros(size, dtype) for _ in range(count))]
    expected = run_in_mlir(text, arrays, "none", tmp_path, standard=True)
    ours = [a.copy() for a in arrays]
    run_function(
        parse(text),
        "main",
        ours,
        vectorize_loops=form != "loop-op-by-op",
        libm_math=True,
    )
    for k, op in enumerate(_math_ops(element)):
        want = expected[f"arg{len(inputs) + k}"].view(dtype)  # bf16 as its bits
        got = ours[len(inputs) + k]
        with np.errstate(invalid="ignore"):  # ml_dtypes' isnan of a bf16 sNaN
            nans = np.isnan(want) & np.isnan(got)
        bits = f"u{dtype.itemsize}"
        differ = (want.view(bits) != got.view(bits)) & ~nans
        if dtype == BF16:
            differ &= ~_flushed_to_zero(want, got)
        assert not differ.any(), (op, np.flatnonzero(differ)[:5])


def _flushed_to_zero(want: np.ndarray, got: np.ndarray) -> np.ndarray:
    """Where bf16 `want` is the zero of `got`'s sign and `got` a subnormal:
    on a CPU with AVX512-BF16 LLVM truncates f32 to bf16 with
    `vcvtneps2bf16`, which flushes subnormal results to zero (a plain
    `arith.truncf` too), where memplan rounds them as IEEE 754 does."""
    bits = got.view(np.uint16)
    subnormal = ((bits & 0x7F80) == 0) & ((bits & 0x7F) != 0)
    return subnormal & (want.view(np.uint16) == (bits & 0x8000))


POWF_EXPONENTS = (1.0, 2.0, -1.0, 0.5, 3.0, -0.5, 1.7)
POWF_BASES = (2.0, 4.0, 8.0, 0.5, 0.25, 3.0, 10.0, 2.0**62, 2.0**63)


def _powf_program(element: str, size: int) -> tuple[str, int]:
    """`math.powf` of `%x` and each of `POWF_EXPONENTS`, and of each of
    `POWF_BASES` and `%x`, the constants in `element` and cast in the loop
    from another float type; the program and its number of outputs."""
    cases = [(f"%x, %k{k}", value) for k, value in enumerate(POWF_EXPONENTS)]
    start = len(cases)
    cases += [(f"%k{k}, %x", v) for k, v in enumerate(POWF_BASES, start=start)]
    memref = f"memref<{size}x{element}>"
    outs = [f"%o{k}: {memref}" for k in range(2 * len(cases))]
    constants, body = [], []
    for k, (operands, value) in enumerate(cases):
        constants.append(f"%k{k} = arith.constant {value!r} : {element}")
        other = "f32" if element == "f64" else "f64"
        constants.append(f"%d{k} = arith.constant {value!r} : {other}")
        wide = operands.replace(f"%k{k}", f"%t{k}")
        body += [
            f"%r{k} = math.powf {operands} : {element}",
            f"memref.store %r{k}, %o{k}[%i] : {memref}",
            f"%t{k} = arith.truncf %d{k} : f64 to {element}"
            if element != "f64"
            else f"%t{k} = arith.extf %d{k} : f32 to f64",
            f"%s{k} = math.powf {wide} : {element}",
            f"memref.store %s{k}, %o{len(cases) + k}[%i] : {memref}",
        ]
    lines = "\n  ".join(constants)
    loop = "\n    ".join(body)
    return (
        f"""
func.func @main(%a: {memref}, {", ".join(outs)}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = arith.constant {size} : index
  {lines}
  scf.for %i = %c0 to %size step %c1 {{
    %x = memref.load %a[%i] : {memref}
    {loop}
  }}
  func.return
}}
""",
        2 * len(cases),
    )


@pytest.mark.parametrize("element", ["f32", "f64"])
def test_libm_math_powf_of_a_constant_is_what_llvms_optimizer_makes_of_it(
    element: str, tmp_path: Path
):
    """With a constant operand LLVM rewrites `pow` (x ** 2.0 to x * x, x **
    0.5 to a square root, 8 ** x to exp2(3 * x), ...; `_powf` in
    math_impl.py): with `libm_math=True` memplan computes those bits too,
    the constants written in the type or, as torch-mlir writes them, cast
    in the loop from another float type (f32 extended to f64, f64 truncated
    to f32)."""
    size = 4096
    text, count = _powf_program(element, size)
    dtype = MATH_TYPES[element]
    rng = np.random.default_rng(8)
    x = _random_elements(rng, dtype, size)
    x[-(size // 2) :] = (rng.standard_normal(size // 2) * 8).astype(dtype)
    arrays = [x, *(np.zeros(size, dtype) for _ in range(count))]
    expected = run_in_mlir(text, arrays, "none", tmp_path, standard=True)
    ours = [a.copy() for a in arrays]
    run_function(parse(text), "main", ours, libm_math=True)
    for k in range(count):
        want, got = expected[f"arg{k + 1}"], ours[k + 1]
        differ = (want != got) & ~(np.isnan(want) & np.isnan(got))
        assert not differ.any(), (k, np.flatnonzero(differ)[:5])


INTEGER_BINARY = (
    *("addi", "subi", "muli", "andi", "ori", "xori"),
    *("maxsi", "maxui", "minsi", "minui", "shli", "shrsi", "shrui"),
    *("divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"),
)
SHIFTS = ("shli", "shrsi", "shrui")
FLOAT_BINARY = (
    *("addf", "subf", "mulf", "divf", "remf"),
    *("maximumf", "minimumf", "maxnumf", "minnumf"),
)


def _guarded_rhs(op: str, element: str, name: str) -> list[str]:
    """Lines making `%{name}` a defined right operand for `op` from `%y`:
    LLVM leaves a shift by the width or more, and a division by 0 or of the
    minimum by -1, undefined."""
    if op in SHIFTS:
        width = element.removeprefix("i")
        return [
            f"%{name}_w = arith.constant {width} : {element}",
            f"%{name} = arith.remui %y, %{name}_w : {element}",
        ]
    if "div" in op or "rem" in op:
        return [
            f"%{name}_0 = arith.constant 0 : {element}",
            f"%{name}_m = arith.constant -1 : {element}",
            f"%{name}_3 = arith.constant 3 : {element}",
            f"%{name}_z = arith.cmpi eq, %y, %{name}_0 : {element}",
            f"%{name}_n = arith.cmpi eq, %y, %{name}_m : {element}",
            f"%{name}_b = arith.ori %{name}_z, %{name}_n : i1",
            f"%{name} = arith.select %{name}_b, %{name}_3, %y : {element}",
        ]
    return []


def _elementwise_program(element: str, size: int) -> tuple[str, list[str]]:
    """`out_k[i] = op_k(x[i], y[i])` for every binary op and comparison of
    `element`'s kind; the output types."""
    integer = element.startswith("i")
    ops = INTEGER_BINARY if integer else [*FLOAT_BINARY, "negf"]
    predicates = (
        arith.CMPI_COMPARISON_OPERATIONS
        if integer
        else arith.CMPF_COMPARISON_OPERATIONS
    )
    compare = "cmpi" if integer else "cmpf"
    memref_of = lambda t: f"memref<{size}x{t}>"  # noqa: E731
    lines, types = [], []
    for k, op in enumerate(ops):
        guard = [] if element.startswith("f") else _guarded_rhs(op, element, f"g{k}")
        rhs = f"%g{k}" if guard else "%y"
        operands = "%x" if op == "negf" else f"%x, {rhs}"
        lines += [*guard, f"%r{k} = arith.{op} {operands} : {element}"]
        types.append(element)
    for p, predicate in enumerate(predicates, start=len(ops)):
        lines.append(f"%r{p} = arith.{compare} {predicate}, %x, %y : {element}")
        types.append("i1")
    outs = ", ".join(f"%o{k}: {memref_of(t)}" for k, t in enumerate(types))
    stores = [
        f"memref.store %r{k}, %o{k}[%i] : {memref_of(t)}" for k, t in enumerate(types)
    ]
    body = "\n    ".join(lines + stores)
    return (
        f"""
func.func @main(%a: {memref_of(element)}, %b: {memref_of(element)}, {outs}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  scf.for %i = %c0 to %n step %c1 {{
    %x = memref.load %a[%i] : {memref_of(element)}
    %y = memref.load %b[%i] : {memref_of(element)}
    {body}
  }}
  func.return
}}
""",
        types,
    )


def _random_elements(
    rng: np.random.Generator, dtype: np.dtype, size: int
) -> np.ndarray:
    """Random bit patterns; a quarter small values, and for floats zeros,
    infinities, NaNs and whole numbers."""
    unsigned = np.dtype(f"u{dtype.itemsize}")
    values = rng.integers(0, np.iinfo(unsigned).max, size, unsigned, endpoint=True)
    values = values.view(dtype).copy()
    with np.errstate(all="ignore"):
        if dtype.kind == "i":
            values[: size // 4] = rng.integers(-5, 6, size // 4)
            info = np.iinfo(dtype)
            values[size // 4 : size // 4 + 4] = [info.min, info.max, -1, 0]
        else:
            values[: size // 4] = (rng.standard_normal(size // 4) * 10).astype(dtype)
            specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]
            values[size // 4 : size // 4 + len(specials)] = specials
    return values


@pytest.mark.parametrize("element", ["i8", "i16", "i32", "i64", "f16", "f32", "f64"])
@pytest.mark.parametrize("vectorize_loops", [True, False], ids=["arrays", "op-by-op"])
def test_arith_ops_match_mlirs_compiled_code_on_random_bits(
    element: str, vectorize_loops: bool, tmp_path: Path
):
    """Every binary arith op and comparison of the type, on random bit
    patterns (operands that LLVM leaves undefined guarded): the bits MLIR's
    code computes, but for which NaN comes out where both give one (LLVM
    leaves a NaN's sign and payload open: its x86 code gives `maximumf` of
    a number and a NaN the number's sign, f16 goes through f32)."""
    size = 512
    text, types = _elementwise_program(element, size)
    rng = np.random.default_rng(5)
    dtype = np.dtype(
        {"f16": np.float16, "f32": np.float32, "f64": np.float64}.get(
            element, f"int{element[1:]}"
        )
    )
    inputs = [_random_elements(rng, dtype, size) for _ in range(2)]
    outputs = [np.zeros(size, np.bool_ if t == "i1" else dtype) for t in types]
    arrays = [*inputs, *outputs]
    expected = run_in_mlir(text, arrays, "none", tmp_path)
    ours = [a.copy() for a in arrays]
    run_function(parse(text), "main", ours, vectorize_loops=vectorize_loops)
    for position in range(2, len(arrays)):
        want, got = expected[f"arg{position}"], ours[position]
        same = want.view(np.uint8).reshape(size, -1) == got.view(np.uint8).reshape(
            size, -1
        )
        differ = ~same.all(axis=1)
        if want.dtype.kind == "f":
            differ &= ~(np.isnan(want) & np.isnan(got))
        assert not differ.any(), (
            types[position - 2],
            position,
            np.flatnonzero(differ)[:5],
        )


def _casts() -> list[tuple[str, str, str]]:
    """(op, source, result) for every cast between i8-i64, f16, f32, f64."""
    integers, floats = ("i8", "i16", "i32", "i64"), ("f16", "f32", "f64")
    width = lambda t: int(t[1:])  # noqa: E731
    casts = [
        ("extf" if width(b) > width(a) else "truncf", a, b)
        for a in floats
        for b in floats
        if a != b
    ]
    casts += [
        (op, i, f) for i in integers for f in floats for op in ("sitofp", "uitofp")
    ]
    for a in integers:
        for b in integers:
            if width(a) < width(b):
                casts += [("extsi", a, b), ("extui", a, b)]
            elif width(a) > width(b):
                casts.append(("trunci", a, b))
    return casts


def _cast_program(casts: list[tuple[str, str, str]], size: int) -> str:
    memref_of = lambda t: f"memref<{size}x{t}>"  # noqa: E731
    sources = sorted({source for _, source, _ in casts})
    ins = [f"%in_{t}: {memref_of(t)}" for t in sources]
    outs = [f"%o{k}: {memref_of(result)}" for k, (_, _, result) in enumerate(casts)]
    loads = [f"%v_{t} = memref.load %in_{t}[%i] : {memref_of(t)}" for t in sources]
    body = [
        line
        for k, (op, source, result) in enumerate(casts)
        for line in (
            f"%r{k} = arith.{op} %v_{source} : {source} to {result}",
            f"memref.store %r{k}, %o{k}[%i] : {memref_of(result)}",
        )
    ]
    lines = "\n    ".join(loads + body)
    return f"""
func.func @main({", ".join(ins + outs)}) attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  scf.for %i = %c0 to %n step %c1 {{
    {lines}
  }}
  func.return
}}
"""


@pytest.mark.parametrize("vectorize_loops", [True, False], ids=["arrays", "op-by-op"])
def test_casts_match_mlirs_compiled_code_on_random_bits(
    vectorize_loops: bool, tmp_path: Path
):
    """Every cast between i8-i64, f16, f32 and f64 (float to integer casts,
    undefined out of range, aside) on random bit patterns: MLIR's bits, but
    for which NaN comes out."""
    size = 512
    casts = _casts()
    rng = np.random.default_rng(6)
    dtypes = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
    dtype_of = lambda t: np.dtype(dtypes.get(t, f"int{t[1:]}"))  # noqa: E731
    sources = sorted({source for _, source, _ in casts})
    inputs = [_random_elements(rng, dtype_of(t), size) for t in sources]
    outputs = [np.zeros(size, dtype_of(result)) for _, _, result in casts]
    arrays = [*inputs, *outputs]
    text = _cast_program(casts, size)
    expected = run_in_mlir(text, arrays, "none", tmp_path)
    ours = [a.copy() for a in arrays]
    run_function(parse(text), "main", ours, vectorize_loops=vectorize_loops)
    for k, cast in enumerate(casts):
        position = len(inputs) + k
        want, got = expected[f"arg{position}"], ours[position]
        differ = want.view(np.uint8).reshape(size, -1) != got.view(np.uint8).reshape(
            size, -1
        )
        differ = differ.any(axis=1)
        if want.dtype.kind == "f":
            differ &= ~(np.isnan(want) & np.isnan(got))
        assert not differ.any(), (cast, np.flatnonzero(differ)[:5])


_F16_SPECIAL_BITS = np.array(
    [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E01, 0x7D02, 0xFE03, 0xFD04],
    np.uint16,
).view(np.float16)


@pytest.mark.parametrize("vectorize_loops", [True, False], ids=["arrays", "op-by-op"])
def test_f16_maxnumf_and_minnumf_match_mlir_bit_for_bit(
    vectorize_loops: bool, tmp_path: Path
):
    """Every pair of zeros, ones, infinities and NaNs of both kinds, and
    rows of them folded: f16 code widens to f32 and calls the C library's
    `fmaxf`/`fminf`, which keep the second of equal operands (+0.0, -0.0)
    and the first of two NaNs, quieted (f32 code the first, the second)."""
    text = NUMBER_PREFERRING.replace("f32", "f16")
    reductions = NUMBER_PREFERRING_REDUCTIONS.replace("f32", "f16")
    pairs = len(_F16_SPECIAL_BITS) ** 2
    text = text.replace("100", str(pairs))
    arrays = [
        np.repeat(_F16_SPECIAL_BITS, 10),
        np.tile(_F16_SPECIAL_BITS, 10),
        np.zeros(pairs, np.float16),
        np.zeros(pairs, np.float16),
    ]
    rows = [
        np.random.default_rng(0).choice(_F16_SPECIAL_BITS, (64, 8)),
        *(np.random.default_rng(1).choice(_F16_SPECIAL_BITS, 64) for _ in range(2)),
    ]
    for program, inputs in ((text, arrays), (reductions, rows)):
        expected = run_in_mlir(program, inputs, "none", tmp_path)
        ours = [a.copy() for a in inputs]
        run_function(parse(program), "main", ours, vectorize_loops=vectorize_loops)
        for position, array in enumerate(ours):
            want = expected[f"arg{position}"].view(np.uint16)
            assert (array.view(np.uint16) == want).all(), position

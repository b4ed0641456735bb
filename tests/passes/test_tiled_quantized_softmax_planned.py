"""mmt4d, quantized_batch_matmul, softmax and reduce's short form through
memory-manifest, memory-plan and convert-memory-to-memref: the plan reuses
their temporaries' bytes and the results stay those of the unplanned run,
with no read of bytes no op wrote (softmax reads its input and writes its
whole output, like the named ops)."""

from __future__ import annotations

import numpy as np
from planned_runs import run_unplanned_planned_lowered

PROGRAM = """
func.func @main(%a: memref<2x3x4x5xf32>, %b: memref<6x3x7x5xf32>, %q: memref<2x4x6xi8>, %out: memref<2x6xf32>, %qout: memref<2x4x4xi32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<2x6x4x7xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<2x6x4x7xf32>)
  linalg.mmt4d ins(%a, %b : memref<2x3x4x5xf32>, memref<6x3x7x5xf32>) outs(%t : memref<2x6x4x7xf32>)
  %s = memref.alloc() : memref<2x6x4x7xf32>
  linalg.softmax dimension(3) ins(%t : memref<2x6x4x7xf32>) outs(%s : memref<2x6x4x7xf32>)
  memref.dealloc %t : memref<2x6x4x7xf32>
  %r = memref.alloc() : memref<2x6x4xf32>
  linalg.fill ins(%zero : f32) outs(%r : memref<2x6x4xf32>)
  linalg.reduce { arith.addf } ins(%s : memref<2x6x4x7xf32>) outs(%r : memref<2x6x4xf32>) dimensions = [3]
  memref.dealloc %s : memref<2x6x4x7xf32>
  linalg.reduce { arith.maxnumf } ins(%r : memref<2x6x4xf32>) outs(%out : memref<2x6xf32>) dimensions = [2]
  memref.dealloc %r : memref<2x6x4xf32>
  %zi = arith.constant 0 : i32
  %qt = memref.alloc() : memref<2x6x4xi8>
  linalg.transpose ins(%q : memref<2x4x6xi8>) outs(%qt : memref<2x6x4xi8>) permutation = [0, 2, 1]
  %zp = arith.constant 3 : i8
  %m = memref.alloc() : memref<2x4x4xi32>
  linalg.fill ins(%zi : i32) outs(%m : memref<2x4x4xi32>)
  linalg.quantized_batch_matmul ins(%q, %qt, %zp, %zp : memref<2x4x6xi8>, memref<2x6x4xi8>, i8, i8) outs(%m : memref<2x4x4xi32>)
  memref.dealloc %qt : memref<2x6x4xi8>
  memref.copy %m, %qout : memref<2x4x4xi32> to memref<2x4x4xi32>
  memref.dealloc %m : memref<2x4x4xi32>
  func.return
}
"""


def _arguments() -> list[object]:
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal((2, 3, 4, 5), dtype=np.float32),
        rng.standard_normal((6, 3, 7, 5), dtype=np.float32),
        rng.integers(-128, 128, (2, 4, 6), dtype=np.int8),
        np.full((2, 6), -np.inf, np.float32),
        np.zeros((2, 4, 4), np.int32),
    ]


def test_planned_new_linalg_ops_keep_their_results():
    runs = run_unplanned_planned_lowered(PROGRAM, _arguments)
    unplanned, planned, lowered = runs.unplanned, runs.planned, runs.lowered
    for ours, theirs, low in zip(unplanned, planned, lowered, strict=True):
        np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(ours, low)
    # %t (1344 B) and %s (1344 B) are live together, %r and the rest fit
    # into what they leave: one arena of both.
    assert runs.planned_result.stats.peak_bytes == {"global": 2 * 1344}

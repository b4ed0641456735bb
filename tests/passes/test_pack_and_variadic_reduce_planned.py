"""linalg.pack, linalg.unpack and a variadic linalg.reduce through
memory-manifest, memory-plan and convert-memory-to-memref: the results stay
those of the unplanned run, with no read of bytes no op wrote (pack and
unpack read their source and write all of their dest; the padding value and
tile come after the dest)."""

from __future__ import annotations

import numpy as np
from planned_runs import run_unplanned_planned_lowered

PROGRAM = """
func.func @main(%a: memref<7x6xf32>, %i: memref<7x6xi32>, %t: index, %max: memref<7xf32>, %arg: memref<7xi32>) {
  %pad = arith.constant 0.0 : f32
  %packed = memref.alloc(%t) : memref<2x3x4x?xf32>
  linalg.pack %a padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [4, %t] into %packed : memref<7x6xf32> -> memref<2x3x4x?xf32>
  %back = memref.alloc() : memref<7x6xf32>
  linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [4, %t] into %back : memref<2x3x4x?xf32> -> memref<7x6xf32>
  memref.dealloc %packed : memref<2x3x4x?xf32>
  %m = memref.alloc() : memref<7xf32>
  %k = memref.alloc() : memref<7xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i32
  linalg.fill ins(%ninf : f32) outs(%m : memref<7xf32>)
  linalg.fill ins(%none : i32) outs(%k : memref<7xi32>)
  linalg.reduce ins(%back, %i : memref<7x6xf32>, memref<7x6xi32>) outs(%m, %k : memref<7xf32>, memref<7xi32>) dimensions = [1] (%in: f32, %idx: i32, %best: f32, %at: i32) {
    %better = arith.cmpf ogt, %in, %best : f32
    %new = arith.select %better, %in, %best : f32
    %where = arith.select %better, %idx, %at : i32
    linalg.yield %new, %where : f32, i32
  }
  memref.dealloc %back : memref<7x6xf32>
  memref.copy %m, %max : memref<7xf32> to memref<7xf32>
  memref.copy %k, %arg : memref<7xi32> to memref<7xi32>
  memref.dealloc %m : memref<7xf32>
  memref.dealloc %k : memref<7xi32>
  func.return
}
"""


def _arguments() -> list[object]:
    rng = np.random.default_rng(0)
    return [
        rng.integers(0, 4, (7, 6)).astype(np.float32),
        np.tile(np.arange(6, dtype=np.int32), (7, 1)),
        2,
        np.zeros(7, np.float32),
        np.zeros(7, np.int32),
    ]


def test_planned_pack_unpack_and_variadic_reduce_keep_their_results():
    runs = run_unplanned_planned_lowered(PROGRAM, _arguments)
    unplanned, planned, lowered = runs.unplanned, runs.planned, runs.lowered
    values = unplanned[0]
    assert isinstance(values, np.ndarray)
    np.testing.assert_array_equal(unplanned[3], values.max(axis=1))
    np.testing.assert_array_equal(unplanned[4], values.argmax(axis=1))
    for ours, theirs, low in zip(unplanned, planned, lowered, strict=True):
        np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(ours, low)

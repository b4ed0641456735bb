"""convert-memory-to-memref: lowered modules run as the memory-dialect ones do."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.interpreter import run_function
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass

PROGRAM = """
func.func @main(%n: index, %shift: index) -> memref<?xf32> {
  %bytes = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %size = arith.muli %n, %c4 : index
  %total = arith.addi %size, %bytes : index
  %ddr = memory.alloc_storage [%total] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %src = memory.alloc_tensor %ddr[%shift][%n] : !memory.storage<"global"> to memref<?xf32>
  %buf = memory.alloc_tensor %vtcm[2048][%n] : !memory.storage<"global.vtcm"> to memref<?xf32, "global.vtcm">
  %out = memory.alloc_storage [%size] : !memory.storage<"global">
  %res = memory.alloc_tensor %out[0][%n] : !memory.storage<"global"> to memref<?xf32>
  %three = arith.constant 3.0 : f32
  linalg.fill ins(%three : f32) outs(%src : memref<?xf32>)
  memory.copy %src, %buf : memref<?xf32> to memref<?xf32, "global.vtcm">
  linalg.add ins(%buf, %src : memref<?xf32, "global.vtcm">, memref<?xf32>) outs(%res : memref<?xf32>)
  memory.kill %src : memref<?xf32>
  memory.kill %ddr : !memory.storage<"global">
  memory.kill %buf : memref<?xf32, "global.vtcm">
  memory.kill %vtcm : !memory.storage<"global.vtcm">
  func.return %res : memref<?xf32>
}
"""


@pytest.mark.parametrize(("n", "shift"), [(1, 0), (5, 16), (16, 64)])
def test_lowered_module_computes_the_same_with_the_same_footprint(
    n: int, shift: int
) -> None:
    ctx = memplan_context()
    module = Parser(ctx, PROGRAM).parse_module()
    lowered = module.clone()
    ConvertMemoryToMemrefPass().apply(ctx, lowered)
    lowered.verify()
    assert not [op for op in lowered.walk() if op.name.startswith("memory.")]
    before = run_function(module, args=(n, shift))
    after = run_function(lowered, args=(n, shift))
    (want,), (got,) = before.results, after.results
    assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray)
    assert np.array_equal(got, want)
    assert np.array_equal(got, np.full(n, 6.0, dtype=np.float32))
    assert after.stats.peak_bytes == before.stats.peak_bytes
    assert after.stats.bytes_copied == before.stats.bytes_copied

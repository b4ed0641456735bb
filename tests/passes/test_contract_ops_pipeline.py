"""memory-manifest, memory-plan and convert-memory-to-memref treat
linalg.contract, batch_reduce_matmul and elementwise like the other named
ops: inputs read, outputs written (elementwise's whole, its old data
unused), so temporaries share storage and the results stay the same."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp
from memplan.interpreter import run_function
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

CONTEXT = memplan_context()

PROGRAM = """
func.func @main(%a: memref<8x16xi8>, %b: memref<16x8xi8>, %x: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %zero = arith.constant 0 : i32
  %zerof = arith.constant 0.0 : f32
  %t0 = memref.alloc() : memref<8x8xi32>
  linalg.fill ins(%zero : i32) outs(%t0 : memref<8x8xi32>)
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : memref<8x16xi8>, memref<16x8xi8>) outs(%t0 : memref<8x8xi32>)
  %t1 = memref.alloc() : memref<8x8xf32>
  linalg.copy ins(%t0 : memref<8x8xi32>) outs(%t1 : memref<8x8xf32>)
  memref.dealloc %t0 : memref<8x8xi32>
  linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%t1, %x : memref<8x8xf32>, memref<8x8xf32>) outs(%t1 : memref<8x8xf32>)
  %t2 = memref.alloc() : memref<2x8x8xf32>
  linalg.elementwise kind=#linalg.elementwise_kind<sqrt> indexing_maps = [affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>] ins(%t1 : memref<8x8xf32>) outs(%t2 : memref<2x8x8xf32>)
  memref.dealloc %t1 : memref<8x8xf32>
  %t3 = memref.alloc() : memref<2x8x8xf32>
  linalg.elementwise kind=#linalg.elementwise_kind<negf> ins(%t2 : memref<2x8x8xf32>) outs(%t3 : memref<2x8x8xf32>)
  linalg.fill ins(%zerof : f32) outs(%out : memref<8x8xf32>)
  linalg.batch_reduce_matmul ins(%t2, %t3 : memref<2x8x8xf32>, memref<2x8x8xf32>) outs(%out : memref<8x8xf32>)
  memref.dealloc %t2 : memref<2x8x8xf32>
  memref.dealloc %t3 : memref<2x8x8xf32>
  func.return
}
"""


def _parse() -> ModuleOp:
    module = Parser(CONTEXT, PROGRAM).parse_module()
    module.verify()
    return module


def _run(module: ModuleOp) -> np.ndarray:
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (8, 16), dtype=np.int8)
    b = rng.integers(-128, 128, (16, 8), dtype=np.int8)
    x = rng.uniform(0.5, 1.5, (8, 8)).astype(np.float32)
    out = np.zeros((8, 8), np.float32)
    run_function(module, "main", [a, b, x, out])
    return out


def test_planned_contract_and_elementwise_share_storage_and_compute_the_same():
    expected = _run(_parse())
    module = _parse()
    MemoryManifestPass().apply(CONTEXT, module)
    MemoryPlanPass().apply(CONTEXT, module)
    module.verify()
    MemoryVerifyPass().apply(CONTEXT, module)
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    sizes = [
        op.static_size_bytes() for op in main.walk() if isinstance(op, AllocStorageOp)
    ]
    # t0, t1, t2, t3: 256 + 256 + 512 + 512 bytes; at most t2 and t3 live at once.
    assert sizes == [1024]
    np.testing.assert_array_equal(_run(module), expected)
    ConvertMemoryToMemrefPass().apply(CONTEXT, module)
    module.verify()
    np.testing.assert_array_equal(_run(module), expected)

"""memory-manifest: storage sizes and alignments, dynamic sizes at run time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stable_strategies import one_of_values
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp
from memplan.interpreter import run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.targets import get_target

ELEMENT_BYTES = {"i1": 1, "i8": 1, "i32": 4, "f16": 2, "f32": 4, "f64": 8, "index": 8}


def _manifested(text: str, manifest: MemoryManifestPass | None = None) -> ModuleOp:
    ctx = memplan_context()
    module = Parser(ctx, text).parse_module()
    (manifest or MemoryManifestPass()).apply(ctx, module)
    module.verify()
    return module


@given(
    shape=st.lists(st.integers(1, 6), max_size=3),
    element=one_of_values(sorted(ELEMENT_BYTES)),
    space=one_of_values(["", ', "global"', ', "global.vtcm"']),
    alignment=st.none() | st.integers(0, 12).map(lambda k: 1 << k),
)
def test_storage_holds_exactly_the_tensor_with_the_requested_alignment(
    shape: list[int], element: str, space: str, alignment: int | None
) -> None:
    memref_type = f"memref<{''.join(f'{d}x' for d in shape)}{element}{space}>"
    attribute = "" if alignment is None else f" {{alignment = {alignment} : i64}}"
    module = _manifested(
        f"func.func @f() {{\n  %a = memref.alloc(){attribute} : {memref_type}\n"
        f"  memref.dealloc %a : {memref_type}\n  func.return\n}}"
    )
    (storage,) = [op for op in module.walk() if isinstance(op, AllocStorageOp)]
    (tensor,) = [op for op in module.walk() if isinstance(op, AllocTensorOp)]
    scope = "global.vtcm" if "vtcm" in space else "global"
    assert storage.scope == scope
    assert storage.static_size_bytes() == int(np.prod(shape)) * ELEMENT_BYTES[element]
    expected_alignment = (
        get_target().alignment(scope) if alignment is None else alignment
    )
    assert storage.alignment.value.data == expected_alignment
    assert str(tensor.result.type) == memref_type
    assert tensor.static_offset_bytes() == 0


DYNAMIC = """
func.func @main(%m: index, %n: index) -> memref<?x3x?xf32> {
  %a = memref.alloc(%m, %n) : memref<?x3x?xf32>
  %one = arith.constant 1.5 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<?x3x?xf32>)
  %scratch = memref.alloc(%n) : memref<?xi32, "global.vtcm">
  memref.dealloc %scratch : memref<?xi32, "global.vtcm">
  func.return %a : memref<?x3x?xf32>
}
"""


@pytest.mark.parametrize(("m", "n"), [(1, 1), (2, 5), (4, 0)])
def test_dynamic_sizes_are_computed_at_run_time(m: int, n: int) -> None:
    original = run_function(
        Parser(memplan_context(), DYNAMIC).parse_module(), args=(m, n)
    )
    manifested = run_function(_manifested(DYNAMIC), args=(m, n))
    (want,), (got,) = original.results, manifested.results
    assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray)
    assert got.shape == want.shape == (m, 3, n)
    assert np.array_equal(got, want)
    assert manifested.stats.peak_bytes["global"] == m * 3 * n * 4
    assert manifested.stats.peak_bytes["global.vtcm"] == n * 4


def test_unknown_target_fails_the_pass() -> None:
    with pytest.raises(PassFailedException, match="unknown target 'hexagon-v1'"):
        _manifested(
            "func.func @f() { func.return }", MemoryManifestPass(target="hexagon-v1")
        )

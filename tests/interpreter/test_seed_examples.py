"""The seed programs compute what they claim, with the expected footprint."""

from __future__ import annotations

import numpy as np
from interpreter_helpers import EXAMPLES, parse

from memplan.interpreter import run_function


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    i, j = np.indices((4, 64), dtype=np.int32)
    x = 64 * i + j
    return x, 2 * x + 1, 3 * x + 2


def test_vtcm_offsets_seed_returns_sum_times_product():
    result = run_function(parse((EXAMPLES / "seed_vtcm_offsets.mlir").read_text()))
    x, y, z = _inputs()
    (out,) = result.results
    assert isinstance(out, np.ndarray) and out.dtype == np.int32
    np.testing.assert_array_equal(out, (x + y) * z)


def test_vtcm_offsets_seed_uses_one_vtcm_storage_of_4096_bytes():
    stats = run_function(parse((EXAMPLES / "seed_vtcm_offsets.mlir").read_text())).stats
    assert stats.storage_allocations["global.vtcm"] == 1
    assert stats.peak_bytes["global.vtcm"] == 4096
    assert stats.bytes_copied == {
        "global->global.vtcm": 3 * 1024,
        "global.vtcm->global": 1024,
    }


def test_discontiguous_seed_returns_sum():
    result = run_function(parse((EXAMPLES / "seed_discontiguous.mlir").read_text()))
    x, y, _ = _inputs()
    np.testing.assert_array_equal(result.results[0], x + y)
    assert result.stats.storage_allocations["global.vtcm"] == 1
    assert result.stats.peak_bytes["global.vtcm"] == 4096

"""Each device has its own window of a scope: its own capacity, addresses,
peaks, and errors that name it."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError
from memplan.targets import VTCM_SCOPE, get_target

MIB = 1024 * 1024
VTCM = '!memory.storage<"global.vtcm">'
TENSOR = 'memref<4xi32, "global.vtcm">'

TWO_DEVICES = f"""
func.func @main(%x: memref<4xi32>) -> (index, index) {{
  %s0 = memory.alloc_storage [{6 * MIB}] : {VTCM}
  %s1 = memory.alloc_storage [{6 * MIB}] device 1 : {VTCM}
  %t0 = memory.alloc_tensor %s0[0] : {VTCM} to {TENSOR}
  %t1 = memory.alloc_tensor %s1[0] : {VTCM} to {TENSOR}
  memory.copy %x, %t0 : memref<4xi32> to {TENSOR}
  memory.copy %t0, %t1 : {TENSOR} to {TENSOR}
  memory.copy %t1, %x : {TENSOR} to memref<4xi32>
  %p0 = memref.extract_aligned_pointer_as_index %t0 : {TENSOR} -> index
  %p1 = memref.extract_aligned_pointer_as_index %t1 : {TENSOR} -> index
  memory.kill %s0 : {VTCM}
  memory.kill %s1 : {VTCM}
  func.return %p0, %p1 : index, index
}}
"""


def test_two_devices_each_hold_most_of_their_own_vtcm(run: Run):
    x = np.arange(4, dtype=np.int32)
    result = run(TWO_DEVICES, x, target=get_target().with_vtcm_size(8 * MIB))
    assert list(x) == [0, 1, 2, 3]  # copied to device 0, to device 1 and back
    assert result.stats.peak_bytes == {
        VTCM_SCOPE: 6 * MIB,
        f"{VTCM_SCOPE} of device 1": 6 * MIB,
    }
    assert result.stats.to_json()["capacity"][f"{VTCM_SCOPE} of device 1"] == 8 * MIB
    assert (
        f"peak bytes {VTCM_SCOPE}={6 * MIB}, {VTCM_SCOPE} of device 1={6 * MIB};"
        in result.stats.summary()
    )
    assert result.stats.bytes_copied == {
        f"global->{VTCM_SCOPE}": 16,
        f"{VTCM_SCOPE}->{VTCM_SCOPE}": 16,
        f"{VTCM_SCOPE}->global": 16,
    }


def test_windows_of_different_devices_may_give_the_same_address(run: Run):
    result = run(TWO_DEVICES, np.zeros(4, np.int32))
    first, second = result.results
    assert first == second


def test_one_device_over_its_capacity_fails_naming_the_device(run: Run):
    program = f"""
func.func @main() {{
  %a = memory.alloc_storage [{6 * MIB}] device 1 : {VTCM}
  %b = memory.alloc_storage [{6 * MIB}] device 1 : {VTCM}
  func.return
}}
"""
    with pytest.raises(
        InterpretationError,
        match=f'cannot allocate {6 * MIB} bytes in "global.vtcm" of device 1: no '
        f"free range of its {8 * MIB}-byte window",
    ):
        run(program, target=get_target().with_vtcm_size(8 * MIB))

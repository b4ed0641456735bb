"""Discontiguous tensors really go through a pointer table stored in bytes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from interpreter_helpers import Run
from xdsl.dialects.builtin import ModuleOp

from memplan.interpreter import InterpretationError
from memplan.interpreter.errors import READ_ONLY_WRITE, ModelError
from memplan.interpreter.model import MemoryModel
from memplan.interpreter.stats import Stats
from memplan.targets import get_target

DISC = 'memref<3x4xi32, #memory.discontiguous, "global.vtcm">'


def _model() -> MemoryModel:
    target = get_target()
    return MemoryModel(target, Stats(target.name, {}))


def _tensor(model: MemoryModel):
    op = ModuleOp([])
    table = model.allocate_storage(op, "global", 64, 64)
    data = model.allocate_storage(op, "global.vtcm", 256, 2048)
    tensor = model.place_discontiguous(
        op, table, 8, data, [32, 0, 64], (3, 4), np.dtype(np.int32), 4, 4
    )
    return table, data, tensor


def test_table_bytes_hold_little_endian_block_addresses():
    table, data, _ = _tensor(_model())
    entries = table.buffer[8:20].view("<u4")
    assert list(entries) == [data.address + 32, data.address, data.address + 64]


def test_blocks_are_views_into_the_data_storage():
    _, data, tensor = _tensor(_model())
    tensor.scatter(np.arange(12, dtype=np.int32).reshape(3, 4))
    assert list(data.buffer[32:48].view(np.int32)) == [0, 1, 2, 3]
    assert list(data.buffer[0:16].view(np.int32)) == [4, 5, 6, 7]


def test_rewritten_table_entry_redirects_reads():
    table, _, tensor = _tensor(_model())
    tensor.scatter(np.arange(12, dtype=np.int32).reshape(3, 4))
    table.buffer[12:16] = table.buffer[8:12]
    np.testing.assert_array_equal(tensor.gather()[1], [0, 1, 2, 3])


def test_table_entry_outside_the_data_storage_is_an_error():
    table, _, tensor = _tensor(_model())
    table.buffer[8:12] = np.array([0x1234], "<u4").view(np.uint8)
    with pytest.raises(ModelError, match="entry 0 holds address 0x1234, outside"):
        tensor.gather()


def test_program_reads_back_its_pointer_table(run: Run):
    program = f"""
    func.func @main() -> memref<3xi32> {{
      %tables = memory.alloc_storage [64] : !memory.storage<"global">
      %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
      %t = memory.alloc_discontiguous_tensor table %tables[4], blocks %data[512, 0, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {DISC}
      memory.kill %t : {DISC}
      %raw = memory.alloc_tensor %tables[4] : !memory.storage<"global"> to memref<3xi32>
      func.return %raw : memref<3xi32>
    }}
    """
    (entries,) = run(program).results
    assert isinstance(entries, np.ndarray)
    base = int(entries[1])
    assert list(entries) == [base + 512, base, base + 1024]
    assert base % get_target().alignment("global.vtcm") == 0


def test_overwriting_a_live_table_makes_the_tensor_unusable(run: Run):
    program = f"""
    func.func @main() -> memref<3x4xi32> {{
      %c0 = arith.constant 0 : i32
      %tables = memory.alloc_storage [64] : !memory.storage<"global">
      %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
      %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[512, 0, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {DISC}
      %raw = memory.alloc_tensor %tables[0] : !memory.storage<"global"> to memref<3xi32>
      linalg.fill ins(%c0 : i32) outs(%raw : memref<3xi32>)
      %out = memref.alloc() : memref<3x4xi32>
      memory.copy %t, %out : {DISC} to memref<3x4xi32>
      func.return %out : memref<3x4xi32>
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=r"memory.copy \(in @main\): uses the tensor allocated by memory.alloc_discontiguous_tensor %t .* bytes \[0, 12\)",
    ):
        run(program)


BLOCKED = 'memref<3x50xi32, #memory.discontiguous<64>, "global.vtcm">'
"""150 elements in blocks of 64: two full blocks of 256 bytes, a last of 88."""


def test_blocks_of_a_size_hold_row_major_runs_with_a_partial_last_block():
    model = _model()
    op = ModuleOp([])
    table = model.allocate_storage(op, "global", 64, 64)
    data = model.allocate_storage(op, "global.vtcm", 1024, 2048)
    tensor = model.place_discontiguous(
        op, table, 0, data, [512, 0, 256], (3, 50), np.dtype(np.int32), 4, 64
    )
    values = np.arange(150, dtype=np.int32).reshape(3, 50)
    tensor.scatter(values)
    assert list(data.buffer[512:768].view(np.int32)) == list(range(64))
    assert list(data.buffer[0:256].view(np.int32)) == list(range(64, 128))
    assert list(data.buffer[256:344].view(np.int32)) == list(range(128, 150))
    assert not data.buffer[344:512].any()
    np.testing.assert_array_equal(tensor.gather(), values)


def test_program_on_blocked_tensors_matches_contiguous_results(run: Run):
    program = f"""
    func.func @main() -> (memref<3x50xi32>, i32) {{
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c7 = arith.constant 7 : i32
      %tables = memory.alloc_storage [64] : !memory.storage<"global">
      %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
      %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {BLOCKED}
      %b = memory.alloc_discontiguous_tensor table %tables[16], blocks %data[256, 1536, 768] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {BLOCKED}
      linalg.fill ins(%c7 : i32) outs(%a : {BLOCKED})
      memref.store %c7, %a[%c2, %c1] : {BLOCKED}
      %x = memref.load %a[%c1, %c2] : {BLOCKED}
      %y = arith.addi %x, %x : i32
      memref.store %y, %a[%c2, %c2] : {BLOCKED}
      linalg.add ins(%a, %a : {BLOCKED}, {BLOCKED}) outs(%b : {BLOCKED})
      %out = memref.alloc() : memref<3x50xi32>
      memory.copy %b, %out : {BLOCKED} to memref<3x50xi32>
      %last = memref.load %b[%c2, %c2] : {BLOCKED}
      func.return %out, %last : memref<3x50xi32>, i32
    }}
    """
    out, last = run(program).results
    expected = np.full((3, 50), 14, np.int32)
    expected[2, 2] = 28
    np.testing.assert_array_equal(out, expected)
    assert last == 28


def test_subview_of_a_blocked_tensor_is_a_clean_error(run: Run):
    program = f"""
    func.func @main() {{
      %tables = memory.alloc_storage [64] : !memory.storage<"global">
      %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
      %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[1024, 0, 512] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {BLOCKED}
      %v = "memref.subview"(%a) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 1, 50>, static_strides = array<i64: 1, 1>}}> : ({BLOCKED}) -> memref<1x50xi32, strided<[50, 1]>, "global.vtcm">
      func.return
    }}
    """
    with pytest.raises(
        InterpretationError,
        match=r"memref.subview %v \(in @main\): subviews of discontiguous tensors are not supported",
    ):
        run(program)


@pytest.mark.parametrize(
    "write",
    [
        f"linalg.fill ins(%c7 : i32) outs(%r : {DISC})",
        f"memref.store %c7, %r[%i1, %i2] : {DISC}",
    ],
    ids=["fill", "store"],
)
def test_a_read_only_to_buffer_of_a_discontiguous_tensor_refuses_writes(
    run: Run, write: str
):
    def program(read_only: str) -> str:
        return f"""
        func.func @main() -> memref<3x4xi32> {{
          %c7 = arith.constant 7 : i32
          %i1 = arith.constant 1 : index
          %i2 = arith.constant 2 : index
          %tables = memory.alloc_storage [64] : !memory.storage<"global">
          %data = memory.alloc_storage [2048] : !memory.storage<"global.vtcm">
          %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %data[512, 0, 1024] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to {DISC}
          linalg.fill ins(%c7 : i32) outs(%t : {DISC})
          %v = bufferization.to_tensor %t : {DISC} to tensor<3x4xi32>
          %r = bufferization.to_buffer %v {read_only} : tensor<3x4xi32> to {DISC}
          {write}
          %out = memref.alloc() : memref<3x4xi32>
          memory.copy %r, %out : {DISC} to memref<3x4xi32>
          func.return %out : memref<3x4xi32>
        }}
        """

    (written,) = run(program("")).results
    np.testing.assert_array_equal(written, np.full((3, 4), 7))
    with pytest.raises(InterpretationError, match=re.escape(READ_ONLY_WRITE)):
        run(program("read_only"))

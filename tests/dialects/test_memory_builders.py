"""The memory dialect's Python constructors build ops that verify and print."""

from io import StringIO

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    f16,
    f32,
    i1,
    i8,
    i32,
)
from xdsl.dialects.test import TestOp as OpaqueOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    CopyOp,
    DiscontiguousLayoutAttr,
    KillOp,
    StorageType,
    element_bytes,
    is_discontiguous,
    scope_of,
    static_byte_size,
)

VTCM = "global.vtcm"


def vtcm_memref(shape: list[int], element=i32) -> MemRefType:
    return MemRefType(element, shape, memory_space=StringAttr(VTCM))


def printed(*ops) -> str:
    module = ModuleOp(list(ops))
    module.verify()
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_alloc_storage_with_static_size_reports_size_and_scope():
    storage = AllocStorageOp(4096, VTCM, alignment=2048)
    assert storage.static_size_bytes() == 4096
    assert storage.scope == VTCM
    assert storage.result.type == StorageType(VTCM)
    assert "memory.alloc_storage [4096] align 2048" in printed(storage)


def test_alloc_storage_with_dynamic_size_has_no_static_size():
    size = OpaqueOp(result_types=[IndexType()])
    storage = AllocStorageOp(size, device=2)
    assert storage.static_size_bytes() is None
    assert list(storage.dynamic_size) == [size.results[0]]
    assert "device 2" in printed(size, storage)


def test_alloc_tensor_places_tensor_at_static_offset():
    storage = AllocStorageOp(4096, VTCM)
    tensor = AllocTensorOp(storage, 1024, vtcm_memref([4, 64]))
    assert tensor.static_offset_bytes() == 1024
    assert "memory.alloc_tensor %0[1024]" in printed(storage, tensor)


def test_alloc_tensor_with_dynamic_offset_and_sizes():
    index = OpaqueOp(result_types=[IndexType(), IndexType()])
    storage = AllocStorageOp(index.results[0])
    tensor = AllocTensorOp(
        storage,
        index.results[0],
        MemRefType(f16, [DYNAMIC_INDEX, 8]),
        dynamic_sizes=[index.results[1]],
    )
    assert tensor.static_offset_bytes() is None
    assert "memory.alloc_tensor %2[%0][%1]" in printed(index, storage, tensor)


def test_alloc_tensor_rejects_offset_past_storage_end():
    storage = AllocStorageOp(64)
    tensor = AllocTensorOp(storage, 56, MemRefType(i32, [4]))
    with pytest.raises(VerifyException, match="ends at byte 72, past the end"):
        tensor.verify()


def test_discontiguous_tensor_counts_block_bytes():
    table = AllocStorageOp(64)
    data = AllocStorageOp(4096, VTCM)
    result = MemRefType(i32, [4, 64], DiscontiguousLayoutAttr(), StringAttr(VTCM))
    tensor = AllocDiscontiguousTensorOp(
        table, 16, data, [1536, 1280, 3328, 2560], result
    )
    assert tensor.block_sizes() == [256] * 4
    assert tensor.static_table_offset_bytes() == 16
    assert is_discontiguous(tensor.result.type)
    assert "table %0[16], blocks %1[1536, 1280, 3328, 2560]" in printed(
        table, data, tensor
    )


def test_discontiguous_tensor_rejects_overlapping_blocks():
    table = AllocStorageOp(64)
    data = AllocStorageOp(4096, VTCM)
    result = MemRefType(i32, [2, 64], DiscontiguousLayoutAttr(), StringAttr(VTCM))
    tensor = AllocDiscontiguousTensorOp(table, 0, data, [0, 128], result)
    with pytest.raises(VerifyException, match="blocks 0 and 1 overlap"):
        tensor.verify()


def test_discontiguous_layout_has_no_affine_map():
    with pytest.raises(VerifyException, match="pointer table"):
        DiscontiguousLayoutAttr().get_affine_map()


def test_kill_and_copy_build_on_tensors():
    storage = AllocStorageOp(2048, VTCM)
    a = AllocTensorOp(storage, 0, vtcm_memref([4, 64]))
    b = AllocTensorOp(storage, 1024, vtcm_memref([4, 64]))
    copy = CopyOp(a, b)
    kills = [KillOp(a), KillOp(b), KillOp(storage)]
    text = printed(storage, a, b, copy, *kills)
    assert "memory.copy %1, %2" in text
    assert 'memory.kill %0 : !memory.storage<"global.vtcm">' in text


def test_scope_of_treats_missing_memory_space_as_global():
    assert scope_of(MemRefType(i32, [4])) == "global"
    assert scope_of(MemRefType(i32, [4], memory_space=StringAttr("global"))) == "global"
    assert scope_of(vtcm_memref([4])) == VTCM
    assert scope_of(StorageType(VTCM)) == VTCM


def test_element_bytes_rounds_sub_byte_types_up():
    assert element_bytes(i1) == 1
    assert element_bytes(i8) == 1
    assert element_bytes(f16) == 2
    assert element_bytes(f32) == 4
    assert element_bytes(IndexType()) == 8


@pytest.mark.parametrize(
    ("bits", "size"),
    [(4, 1), (12, 2), (17, 4), (24, 4), (33, 8), (40, 8), (56, 8), (64, 8), (96, 16)],
)
def test_element_bytes_is_llvm_s_allocation_size(bits: int, size: int):
    # The step between elements once MLIR lowers the memref to LLVM: whole
    # bytes rounded up to a power of two (i24 -> 4, i40 -> 8).
    assert element_bytes(IntegerType(bits)) == size


def test_static_byte_size_is_none_for_dynamic_shapes():
    assert static_byte_size(MemRefType(i32, [4, 64])) == 1024
    assert static_byte_size(MemRefType(i32, [DYNAMIC_INDEX, 64])) is None

"""memory-verify on IR the dialect verifier cannot reject, and its helpers."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.passes.placements import address_alignment
from memplan.passes.verify import MemoryVerifyPass

STORAGE = '!memory.storage<"global.vtcm">'


def context() -> Context:
    return memplan_context(allow_unregistered=True)


def parse_unverified(source: str) -> ModuleOp:
    """Parse without verifying, as IR built by a buggy pass would be."""
    return Parser(context(), source).parse_module()


def problems(source: str) -> list[str]:
    try:
        MemoryVerifyPass().apply(context(), parse_unverified(source))
    except PassFailedException as failure:
        return str(failure).splitlines()
    return []


def test_out_of_bounds_tensor_is_reported_even_without_dialect_verification():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[512] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [512, 1536) of %vtcm) is "
        "out of bounds: expected bytes within [0, 1024)"
    ]


def test_blocks_and_table_out_of_bounds_are_reported_by_their_layout_sizes():
    blocked = 'memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">'
    found = problems(
        f"""
func.func @f() {{
  %tables = memory.alloc_storage [4] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[0, 960] : !memory.storage<"global">, {STORAGE} to {blocked}
  "test.op"(%t) : ({blocked}) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_discontiguous_tensor %t (pointer table, "
        "bytes [0, 8) of %tables) is out of bounds: expected bytes within [0, 4)",
        "memory-verify: in @f, memory.alloc_discontiguous_tensor %t (block 1, "
        "bytes [960, 1048) of %vtcm) is out of bounds: expected bytes within [0, 1024)",
    ]


def test_tensor_below_its_requested_alignment_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[32] align 256 : {STORAGE} to memref<4xi32, "global.vtcm">
  "test.op"(%a) : (memref<4xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [32, 48) of %vtcm, "
        "storage aligned to 2048) is only 32-byte aligned: expected a multiple of "
        "256 bytes"
    ]


def test_offset_misaligned_for_its_elements_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[2] : {STORAGE} to memref<4xi32, "global.vtcm">
  "test.op"(%a) : (memref<4xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [2, 18) of %vtcm, storage "
        "aligned to 2048) is only 2-byte aligned: expected a multiple of 4 bytes"
    ]


def test_every_problem_of_every_function_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  %b = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  func.return
}}
func.func @g() {{
  %big = memory.alloc_storage [16777216] align 2048 : {STORAGE}
  func.return
}}"""
    )
    assert [line.split(",")[0] for line in found] == [
        "memory-verify: in @f",
        "memory-verify: in @g",
    ]
    assert "overlaps %a" in found[0]
    assert "holds 16777216 bytes" in found[1]


def test_use_after_kill_is_reported_also_when_nested():
    found = problems(
        f"""
func.func @f(%cond: i1) {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  memory.kill %a : memref<256xi32, "global.vtcm">
  scf.if %cond {{
    "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  }}
  memory.kill %a : memref<256xi32, "global.vtcm">
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, %a is used by test.op after the memory.kill that ended "
        "its life: expected no use after a kill",
        "memory-verify: in @f, %a is killed again after the memory.kill that ended "
        "its life: expected no use after a kill",
    ]


def test_clean_module_is_unchanged():
    source = f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  %b = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%b) : (memref<256xi32, "global.vtcm">) -> ()
  memory.kill %vtcm : {STORAGE}
  func.return
}}"""
    module = parse_unverified(source)
    MemoryVerifyPass().apply(context(), module)
    assert module.is_structurally_equivalent(parse_unverified(source))


@pytest.mark.parametrize(
    ("storage_alignment", "offset", "expected"),
    [(2048, 0, 2048), (2048, 64, 64), (64, 128, 64), (2048, 1536, 512), (1, 8, 1)],
)
def test_address_alignment(storage_alignment: int, offset: int, expected: int):
    assert address_alignment(storage_alignment, offset) == expected

"""memory-coalesce: the packing arithmetic, the options, and idempotence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocTensorOp
from memplan.passes.coalesce import MemoryCoalescePass
from memplan.passes.rounding import pack_in_order
from memplan.planning.buffers import align_up
from memplan.universe import PASSES

alignments = st.integers(0, 12).map(lambda k: 1 << k)


@given(st.integers(0, 10_000), alignments)
def test_align_up_is_the_next_multiple(offset: int, alignment: int) -> None:
    rounded = align_up(offset, alignment)
    assert rounded % alignment == 0
    assert offset <= rounded < offset + alignment


@given(st.lists(st.tuples(st.integers(0, 5000), alignments), max_size=8))
def test_pack_in_order_places_each_block_at_the_first_aligned_byte_after_the_last(
    blocks: list[tuple[int, int]],
) -> None:
    sizes = [size for size, _ in blocks]
    aligns = [alignment for _, alignment in blocks]
    offsets, total = pack_in_order(sizes, aligns)
    end = 0
    for offset, size, alignment in zip(offsets, sizes, aligns, strict=True):
        assert offset == align_up(end, alignment)
        end = offset + size
    assert total == end


PROGRAM = """
func.func @f() {
  %a = memory.alloc_storage [12] align 8 : !memory.storage<"global.vtcm">
  %b = memory.alloc_storage [4] align 8 : !memory.storage<"global.vtcm">
  %ta = memory.alloc_tensor %a[0] : !memory.storage<"global.vtcm"> to memref<3xf32, "global.vtcm">
  %tb = memory.alloc_tensor %b[0] : !memory.storage<"global.vtcm"> to memref<1xf32, "global.vtcm">
  "test.op"(%ta, %tb) : (memref<3xf32, "global.vtcm">, memref<1xf32, "global.vtcm">) -> ()
  memory.kill %a : !memory.storage<"global.vtcm">
  memory.kill %b : !memory.storage<"global.vtcm">
  func.return
}
"""


def _coalesced(spec: str) -> ModuleOp:
    ctx = memplan_context()
    ctx.allow_unregistered = True
    module = Parser(ctx, PROGRAM).parse_module()
    PassPipeline.parse_spec(PASSES, spec).apply(ctx, module)
    return module


def _tensor_offsets(module: ModuleOp) -> list[int | None]:
    return [
        op.static_offset_bytes()
        for op in module.walk()
        if isinstance(op, AllocTensorOp)
    ]


@pytest.mark.parametrize(
    ("spec", "offsets"),
    [
        ("memory-coalesce", [0, 2048]),
        ("memory-coalesce{alignment=8}", [0, 16]),
        ("memory-coalesce{alignment=8 target=hexagon-v65}", [0, 16]),
    ],
)
def test_alignment_option_replaces_the_target_default(
    spec: str, offsets: list[int]
) -> None:
    assert _tensor_offsets(_coalesced(spec)) == offsets


def test_coalescing_twice_changes_nothing() -> None:
    once = _coalesced("memory-coalesce")
    twice = _coalesced("memory-coalesce,memory-coalesce")
    assert str(twice) == str(once)


@pytest.mark.parametrize(
    ("coalesce", "message"),
    [
        (
            MemoryCoalescePass(alignment=24),
            "alignment 24 is not a positive power of two",
        ),
        (
            MemoryCoalescePass(alignment=0),
            "alignment 0 is not a positive power of two",
        ),
        (
            MemoryCoalescePass(alignment=2**63),
            f"alignment {2**63} does not fit in 64 bits",
        ),
        (MemoryCoalescePass(target="hexagon-v1"), "unknown target 'hexagon-v1'"),
    ],
)
def test_impossible_options_fail_the_pass(
    coalesce: MemoryCoalescePass, message: str
) -> None:
    module = Parser(memplan_context(), "func.func @f() { func.return }").parse_module()
    with pytest.raises(PassFailedException, match=message):
        coalesce.apply(memplan_context(), module)

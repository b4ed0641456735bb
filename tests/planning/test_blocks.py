"""Discontiguous buffers (memplan.planning.blocks): unit cases and properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import examples, traces
from stable_strategies import one_of_values

from memplan.planning import Buffer, BufferId, TraceError, lower_bound, plan
from memplan.planning.blocks import (
    MAX_BLOCKS,
    BlockPlan,
    TooManyBlocks,
    block_count,
    blocks_lower_bound,
    plan_with_blocks,
    table_buffers,
    validate_block_plan,
)
from memplan.planning.buffers import align_up

UNIT = 64


def fragmenting_trace() -> list[Buffer]:
    """At most 4 units live at once, but no contiguous plan is under 5 units:
    the long one-unit buffers are pinned apart by the wide short ones."""
    spans = {
        "l0": (2, 4, 1),
        "l1": (1, 5, 1),
        "l2": (0, 4, 1),
        "l3": (2, 6, 1),
        "f0": (0, 1, 3),
        "f1": (1, 2, 2),
        "f4": (4, 5, 2),
        "f5": (5, 6, 3),
    }
    return [Buffer(k, lo, hi, units * UNIT) for k, (lo, hi, units) in spans.items()]


def test_block_count_rounds_up_and_needs_no_block_for_no_bytes() -> None:
    assert [block_count(s, 64) for s in (0, 1, 64, 65, 128)] == [0, 1, 1, 2, 2]


def test_too_many_blocks_is_an_error_not_an_exhausted_memory() -> None:
    huge = [Buffer("a", 0, 2, 2**62), Buffer("b", 1, 3, 8)]
    with pytest.raises(TooManyBlocks, match="more than the 16,777,216 a plan"):
        plan_with_blocks(huge, block_size=4, mode="always")
    # Only the buffers that may be split count: "a" is not one of them.
    result = plan_with_blocks(huge, block_size=4, mode="always", splittable={"b"})
    assert list(result.blocks) == ["b"] and MAX_BLOCKS == 2**24


def test_auto_splits_buffers_where_contiguous_packing_cannot_fit() -> None:
    buffers = fragmenting_trace()
    capacity = lower_bound(buffers)
    assert plan(buffers, capacity).height > capacity
    result = plan_with_blocks(buffers, block_size=UNIT, capacity=capacity)
    assert result.fits and result.height <= capacity
    assert 0 < len(result.blocks) < len(buffers)
    assert validate_block_plan(buffers, result) == []


def test_auto_splits_a_single_buffer_when_one_is_enough() -> None:
    buffers = fragmenting_trace()
    capacity = lower_bound(buffers)
    alone = [
        b.id
        for b in buffers
        if plan_with_blocks(
            buffers, block_size=UNIT, capacity=capacity, splittable={b.id}
        ).fits
    ]
    assert alone  # some buffer suffices on its own
    result = plan_with_blocks(buffers, block_size=UNIT, capacity=capacity)
    assert len(result.blocks) == 1 and set(result.blocks) <= set(alone)


def test_auto_splits_part_when_splitting_everything_does_not_fit() -> None:
    # Four 16-byte buffers alive throughout would each waste most of a block.
    tiny = [Buffer(f"tiny{k}", 0, 6, 16) for k in range(4)]
    buffers = fragmenting_trace() + tiny
    capacity = lower_bound(buffers)
    assert plan(buffers, capacity).height > capacity
    everything = plan_with_blocks(
        buffers, block_size=UNIT, capacity=capacity, mode="always"
    )
    assert not everything.fits
    result = plan_with_blocks(buffers, block_size=UNIT, capacity=capacity)
    assert result.fits and not any(b.id in result.blocks for b in tiny)
    assert validate_block_plan(buffers, result) == []


def test_blocks_take_consecutive_slots_when_as_low_as_single_ones() -> None:
    # At time 1 slots 1, 3 and 4 are free: "q" takes 3-4 (consecutive, no
    # higher than the slots already in use) rather than the lowest, 1 and 3.
    buffers = [Buffer(f"p{k}", 0, 3 if k in (0, 2) else 1, 64) for k in range(5)]
    buffers.append(Buffer("q", 1, 3, 128))
    result = plan_with_blocks(buffers, block_size=64, mode="always")
    assert [result.blocks[f"p{k}"] for k in range(5)] == [(k * 64,) for k in range(5)]
    assert result.blocks["q"] == (192, 256)
    assert result.height == blocks_lower_bound(buffers, 64)
    assert validate_block_plan(buffers, result) == []


def test_auto_keeps_the_contiguous_plan_when_it_fits() -> None:
    buffers = fragmenting_trace()
    contiguous = plan(buffers)
    result = plan_with_blocks(buffers, block_size=UNIT, capacity=contiguous.height)
    assert result.blocks == {} and result.tables == {}
    assert result.offsets == contiguous.offsets and result.fits


def test_auto_reports_no_fit_without_raising() -> None:
    buffers = fragmenting_trace()
    result = plan_with_blocks(buffers, block_size=UNIT, capacity=UNIT)
    assert not result.fits and result.height > UNIT
    assert validate_block_plan(buffers, result) == []


def test_always_reaches_the_most_live_blocks() -> None:
    buffers = [
        Buffer("a", 0, 3, 100),
        Buffer("b", 1, 4, 64),
        Buffer("c", 3, 6, 200),
        Buffer("d", 0, 1, 1),
    ]
    result = plan_with_blocks(buffers, block_size=64, mode="always")
    # live blocks: t0 a(2)+d(1), t1-2 a(2)+b(1), t3 b(1)+c(4): 5 blocks.
    assert result.height == 5 * 64 == blocks_lower_bound(buffers, 64)
    assert set(result.blocks) == {"a", "b", "c", "d"} and result.offsets == {}
    assert [len(result.blocks[k]) for k in "abcd"] == [2, 1, 4, 1]
    assert result.split_bytes == 8 * 64  # whole blocks, partial last ones too
    assert validate_block_plan(buffers, result) == []


def test_tables_in_the_arena_sit_above_the_blocks() -> None:
    buffers = [Buffer("a", 0, 2, 256), Buffer("b", 1, 3, 128)]
    outside = plan_with_blocks(buffers, block_size=64, mode="always", pointer_width=8)
    inside = plan_with_blocks(
        buffers, block_size=64, mode="always", tables_in_arena=True, pointer_width=8
    )
    assert outside.tables == {} and outside.height == 6 * 64
    assert outside.table_bytes == inside.table_bytes == (4 + 2) * 8
    assert inside.height == outside.height + inside.table_bytes
    assert all(offset >= outside.height for offset in inside.tables.values())
    assert validate_block_plan(buffers, inside, pointer_width=8) == []


def test_buffers_that_may_not_split_stay_contiguous() -> None:
    buffers = [
        Buffer("a", 0, 2, 100),
        Buffer("b", 0, 2, 100),
        Buffer("wide", 0, 2, 64, alignment=128),
        Buffer("empty", 0, 2, 0),
    ]
    result = plan_with_blocks(
        buffers, block_size=64, mode="always", splittable={"a", "wide", "empty"}
    )
    assert set(result.blocks) == {"a"}
    assert set(result.offsets) == {"b", "wide", "empty"}
    assert validate_block_plan(buffers, result) == []


def test_table_buffers_have_one_pointer_per_block() -> None:
    buffers = [Buffer("a", 0, 2, 130), Buffer("b", 1, 3, 10)]
    tables = table_buffers(buffers, {"a": (0, 64, 128)}, pointer_width=4)
    assert tables == [Buffer("a", 0, 2, 12, 4)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"block_size": 0}, "block_size must be a positive power of two, got 0"),
        ({"block_size": 48}, "block_size must be a positive power of two, got 48"),
        ({"pointer_width": 3}, "pointer_width must be a positive power of two, got 3"),
        ({"mode": "never"}, "mode must be one of auto, always, got 'never'"),
        ({"capacity": -1}, "capacity must be >= 0, got -1"),
        ({"budget": -1}, "budget must be >= 0 search nodes, got -1"),
        ({"algorithm": "magic"}, "unknown algorithm 'magic'"),
        ({"splittable": {"zz"}}, "splittable names unknown buffer 'zz'"),
        ({"split_cost": {"zz": 1.0}}, "split_cost names unknown buffer 'zz'"),
        (
            {"split_cost": {"a": float("nan")}},
            "split_cost of buffer 'a' must be a finite number >= 0, got nan",
        ),
    ],
)
def test_bad_arguments_raise_value_error_naming_them(
    arguments: dict[str, object], message: str
) -> None:
    options: dict[str, object] = {"block_size": 64, **arguments}
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        plan_with_blocks([Buffer("a", 0, 1, 8)], **options)  # type: ignore[arg-type]


def test_malformed_buffers_raise_trace_error() -> None:
    with pytest.raises(TraceError, match="lower 2 must be below upper 1"):
        plan_with_blocks([Buffer("a", 2, 1, 8)], block_size=64)


def test_validation_names_shared_blocks_and_wrong_counts() -> None:
    buffers = [Buffer("a", 0, 2, 100), Buffer("b", 1, 3, 10)]
    shared = BlockPlan(128, {}, {"a": (0, 64), "b": (64,)}, {}, 64, True)
    problems = validate_block_plan(buffers, shared)
    assert (
        len(problems) == 1
        and "'a' block 1" in problems[0]
        and "'b' block 0" in problems[0]
    )
    short = BlockPlan(128, {"b": 0}, {"a": (70,)}, {}, 64, True)
    assert validate_block_plan(buffers, short) == [
        "buffer 'a' has 1 blocks, expected 2 of 64 bytes",
        "buffer 'a': block 0 at 70 is negative or not a multiple of the block size 64",
    ]


def test_validation_names_tables_that_clash_or_are_missing() -> None:
    buffers = [Buffer("a", 0, 2, 100), Buffer("b", 1, 3, 10)]
    blocks: dict[BufferId, tuple[int, ...]] = {"a": (0, 64), "b": (128,)}
    clash = BlockPlan(200, {}, blocks, {"a": 192, "b": 196}, 64, True)
    problems = validate_block_plan(buffers, clash)
    assert len(problems) == 1 and "table of 'a'" in problems[0]
    assert "table of 'b'" in problems[0] and "overlap" in problems[0]
    missing = BlockPlan(200, {}, blocks, {"a": 192}, 64, True)
    assert validate_block_plan(buffers, missing) == ["buffer 'b' has no pointer table"]
    wrong = BlockPlan(100, {}, blocks, {}, 64, False, capacity=50)
    assert validate_block_plan(buffers, wrong) == [
        "plan height 100, but its pieces end at 192",
    ]


def block_sizes() -> st.SearchStrategy[int]:
    return one_of_values([1, 2, 4, 8])


@settings(max_examples=examples(80, 1000), deadline=None)
@given(traces(), block_sizes(), st.booleans(), one_of_values([1, 4]))
def test_always_plans_are_valid_and_reach_the_block_bound(
    buffers: list[Buffer], block_size: int, tables: bool, pointer_width: int
) -> None:
    result = plan_with_blocks(
        buffers,
        block_size=block_size,
        mode="always",
        tables_in_arena=tables,
        pointer_width=pointer_width,
    )
    assert validate_block_plan(buffers, result, pointer_width) == []
    split = [b for b in buffers if b.id in result.blocks]
    if len(split) == sum(1 for b in buffers if b.size):  # nothing kept contiguous
        blocks_height = blocks_lower_bound(buffers, block_size)
        if tables:
            table_plan = plan(table_buffers(buffers, result.blocks, pointer_width))
            base = align_up(blocks_height, pointer_width)
            assert result.height == base + table_plan.height
        else:
            assert result.height == blocks_height


@settings(max_examples=examples(60, 800), deadline=None)
@given(
    traces(max_buffers=8, max_time=8), block_sizes(), st.integers(0, 40), st.booleans()
)
def test_auto_is_valid_and_never_worse_than_contiguous_at_a_capacity(
    buffers: list[Buffer], block_size: int, capacity: int, tables: bool
) -> None:
    result = plan_with_blocks(
        buffers, block_size=block_size, capacity=capacity, tables_in_arena=tables
    )
    assert validate_block_plan(buffers, result) == []
    contiguous = plan(buffers, capacity)
    if contiguous.height <= capacity:
        assert result.blocks == {} and result.fits
    else:
        assert result.height <= contiguous.height


@settings(max_examples=examples(30, 300), deadline=None)
@given(traces(), block_sizes(), st.integers(0, 40), one_of_values(["auto", "always"]))
def test_same_inputs_give_the_same_plan(
    buffers: list[Buffer], block_size: int, capacity: int, mode: str
) -> None:
    def run() -> BlockPlan:
        return plan_with_blocks(
            buffers,
            block_size=block_size,
            capacity=capacity,
            mode=mode,  # type: ignore[arg-type]
        )

    assert run() == run()

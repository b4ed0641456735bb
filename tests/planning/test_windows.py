"""Large traces cut into time windows around pinned buffers (`windows`, `best`)."""

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from packing_strategies import examples, overlaps_in_time, traces

from memplan.planning import Buffer, decision, lower_bound, plan, validate
from memplan.planning import best as best_module
from memplan.planning.greedy import greedy_offsets
from memplan.planning.windows import choose_cuts, split

PURE = "MEMPLAN_PURE_PYTHON"


def alive_across(buffer: Buffer, point: int) -> bool:
    return buffer.lower < point < buffer.upper


def chain(blocks: int, seed: int = 0) -> list[Buffer]:
    """Blocks of short buffers (3-8 bytes), each joined to the next by one thin
    buffer alive across the boundary: a valley where at most 1 byte is."""
    rng = random.Random(seed)
    buffers = []
    for k in range(blocks):
        start = 10 * k
        for j in range(6):
            lower = start + rng.randrange(8)
            upper = min(lower + 1 + rng.randrange(3), start + 9)
            buffers.append(Buffer(f"{k}.{j}", lower, upper, rng.choice([3, 4, 5, 8])))
        buffers.append(Buffer(f"{k}.thin", start + 8, start + 12, 1))
    return buffers


@contextmanager
def small_windows() -> Iterator[pytest.MonkeyPatch]:
    """`best` cuts every trace into windows of about 4 buffers."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
        patch.setattr(best_module, "SLICE_BUFFERS", 4)
        yield patch


def test_a_point_where_nothing_is_alive_across_is_always_a_cut() -> None:
    buffers = [Buffer("a", 0, 3, 4), Buffer("b", 1, 4, 4), Buffer("c", 4, 6, 2)]
    assert choose_cuts(buffers, window=1_000) == [4]
    windows = split(buffers, [4])
    assert windows.pinned == []
    assert [w.members for w in windows.windows] == [[0, 1], [2]]
    assert all(not any(w.obstacles) for w in windows.windows)


def test_a_long_stretch_is_cut_in_its_valleys() -> None:
    buffers = chain(6)
    cuts = choose_cuts(buffers, window=14)
    assert cuts
    # At most the thin buffer (1 byte) is alive across a cut, never a block's.
    for point in cuts:
        assert sum(b.size for b in buffers if alive_across(b, point)) <= 1


@settings(max_examples=examples(60, 600), deadline=None)
@given(traces(max_buffers=16, max_time=12), st.integers(1, 6))
def test_every_buffer_is_pinned_or_in_one_window_clear_of_the_cuts(
    buffers: list[Buffer], window: int
) -> None:
    sized = [b for b in buffers if b.size]
    cuts = choose_cuts(sized, window)
    windows = split(sized, cuts)
    members = [i for w in windows.windows for i in w.members]
    assert sorted(members + windows.pinned) == list(range(len(sized)))
    for i in windows.pinned:
        assert any(alive_across(sized[i], point) for point in cuts)
    for i in members:
        assert not any(alive_across(sized[i], point) for point in cuts)
    pinned = {
        sized[i].id: o
        for i, o in zip(windows.pinned, windows.pinned_offsets, strict=True)
    }
    assert validate([sized[i] for i in windows.pinned], pinned) is None


@settings(max_examples=examples(60, 600), deadline=None)
@given(traces(max_buffers=16, max_time=12), st.integers(1, 6))
def test_the_obstacles_of_a_buffer_are_the_pinned_buffers_it_meets(
    buffers: list[Buffer], window: int
) -> None:
    sized = [b for b in buffers if b.size]
    windows = split(sized, choose_cuts(sized, window))
    pins = list(zip(windows.pinned, windows.pinned_offsets, strict=True))
    for w in windows.windows:
        for i, obstacles in zip(w.members, w.obstacles, strict=True):
            met = sorted(
                (offset, offset + sized[j].size)
                for j, offset in pins
                if overlaps_in_time(sized[i], sized[j])
            )
            assert obstacles == met


@settings(max_examples=examples(60, 600), deadline=None)
@given(traces(max_buffers=12, max_time=10))
def test_greedy_fits_around_fixed_buffers(buffers: list[Buffer]) -> None:
    # Every third buffer fixed, valid among themselves, with a hole below them.
    pins = buffers[::3]
    pinned = greedy_offsets(pins)
    fixed = [(b, pinned[b.id] + 8) for b in pins]
    rest = [b for b in buffers if all(b is not p for p in pins)]
    offsets = greedy_offsets(rest, fixed)
    assert set(offsets) == {b.id for b in rest}
    everything = {**offsets, **{b.id: offset for b, offset in fixed}}
    assert validate(buffers, everything) is None


# Windows that fit a capacity above greedy's height once kept their plan.
WINDOWS_FIT_ABOVE_GREEDY = [
    *(Buffer(f"b{i}", 0, 1, 1) for i in (0, 1)),
    Buffer("b2", 2, 3, 1),
    Buffer("b3", 0, 3, 1),
    *(Buffer(f"b{i}", 0, 1, 1) for i in (4, 5)),
    Buffer("b6", 1, 2, 4, alignment=2),
]


@settings(max_examples=examples(40, 400), deadline=None)
@given(traces(max_buffers=16, max_time=12), st.one_of(st.none(), st.integers(0, 40)))
@example(WINDOWS_FIT_ABOVE_GREEDY, 6)
def test_window_by_window_plans_are_valid_deterministic_and_never_worse_than_greedy(
    buffers: list[Buffer], capacity: int | None
) -> None:
    greedy = plan(buffers, algorithm="greedy")
    with small_windows():
        result = plan(buffers, capacity=capacity, budget=500)
        again = plan(buffers, capacity=capacity, budget=500)
    assert validate(buffers, result.offsets) is None
    assert result.height <= greedy.height
    assert result.height >= result.lower_bound >= lower_bound(buffers)
    assert (again.offsets, again.nodes) == (result.offsets, result.nodes)


@settings(max_examples=examples(25, 250), deadline=None)
@given(traces(max_buffers=14, max_time=10))
def test_window_by_window_fits_are_monotone_in_the_capacity(
    buffers: list[Buffer],
) -> None:
    with small_windows():
        heights = [
            plan(buffers, capacity=c, budget=300).height for c in range(0, 41, 4)
        ]
    fits = [h <= c for h, c in zip(heights, range(0, 41, 4), strict=True)]
    assert fits == sorted(fits)  # once it fits, every larger capacity fits


@settings(max_examples=examples(20, 200), deadline=None)
@given(traces(max_buffers=14, max_time=10))
def test_both_search_paths_give_the_same_window_by_window_plan(
    buffers: list[Buffer],
) -> None:
    pytest.importorskip("memplan.planning.search_kernel")
    with small_windows() as patch:
        patch.delenv(PURE, raising=False)
        patch.setattr(decision, "PURE_PYTHON_SECONDS", 0)
        compiled = plan(buffers, budget=1_000)
        patch.setenv(PURE, "1")
        pure = plan(buffers, budget=1_000)
    assert compiled.offsets == pure.offsets and compiled.nodes == pure.nodes


def ml_like(count: int, seed: int) -> list[Buffer]:
    """About 8 buffers alive at a time, lifetimes exponential, 1-64 bytes."""
    rng = random.Random(seed)
    buffers = []
    for k in range(count):
        lower = rng.randrange(count)
        upper = lower + 1 + int(rng.expovariate(1 / 8))
        buffers.append(Buffer(k, lower, upper, rng.randint(1, 64)))
    return buffers


def test_windows_reach_the_bound_where_greedy_does_not() -> None:
    buffers = ml_like(400, seed=1)
    greedy = plan(buffers, algorithm="greedy")
    with small_windows() as patch:
        patch.setattr(best_module, "SLICE_BUFFERS", 40)
        result = plan(buffers)
    windows = split(buffers, choose_cuts(buffers, 40))
    assert windows.pinned and len(windows.windows) > 5  # cut through live buffers
    assert validate(buffers, result.offsets) is None
    assert result.height == lower_bound(buffers) < greedy.height

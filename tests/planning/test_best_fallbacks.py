"""What `best` keeps when it cannot finish: the lowest plan found, slice by slice."""

import time
from collections.abc import Sequence
from typing import cast

import pytest

from memplan.planning import Buffer, plan, validate
from memplan.planning import best as best_module

SPANS = [(0, 2), (3, 4), (0, 4), (3, 4)]


def pattern(tag: str, start: int, sizes: tuple[int, ...]) -> list[Buffer]:
    """Four buffers where best-fit by size is one step above the optimum."""
    return [
        Buffer(f"{tag}{k}", start + lower, start + upper, size)
        for k, ((lower, upper), size) in enumerate(zip(SPANS, sizes, strict=True))
    ]


# Two independent time slices: "a" (greedy 33, optimum 30) and, later, "c"
# (greedy 31, optimum 30); nothing is alive across time 5..10.
A_SLICE = pattern("a", 0, (15, 12, 9, 9))
C_SLICE = pattern("c", 10, (13, 12, 9, 9))
TWO_SLICES = A_SLICE + C_SLICE


def test_the_fixture_is_what_it_claims() -> None:
    assert plan(A_SLICE, algorithm="greedy").height == 33
    assert plan(C_SLICE, algorithm="greedy").height == 31
    assert plan(TWO_SLICES, algorithm="greedy").height == 33
    result = plan(TWO_SLICES, time_limit=5)
    assert result.height == 30 and result.optimal


def test_an_unsolved_slice_keeps_greedy_and_a_solved_one_keeps_its_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_solve = best_module._solve
    searched: list[str] = []

    def solve_all_but_c(
        buffers: Sequence[Buffer], structure, incumbent, floor, capacity, deadline
    ):  # type: ignore[no-untyped-def]
        searched.append(str(buffers[0].id)[0])
        if str(buffers[0].id).startswith("c"):
            return list(incumbent), False  # as if it ran out of time
        return real_solve(buffers, structure, incumbent, floor, capacity, deadline)

    monkeypatch.setattr(best_module, "_solve", solve_all_but_c)
    monkeypatch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
    greedy = plan(TWO_SLICES, algorithm="greedy")
    result = plan(TWO_SLICES, time_limit=5)
    # The highest slice first; "c" gets the time "a" left over, then is given up.
    assert searched == ["a", "c", "c"]
    assert validate(TWO_SLICES, result.offsets) is None
    assert result.height == 31 < greedy.height
    assert not result.optimal
    for buffer in C_SLICE:
        assert result.offsets[buffer.id] == greedy.offsets[buffer.id]
    assert max(result.offsets[b.id] + b.size for b in A_SLICE) == 30


def test_slices_below_the_target_are_not_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_solve = best_module._solve
    searched: list[str] = []

    def spy(buffers, structure, incumbent, floor, capacity, deadline):  # type: ignore[no-untyped-def]
        searched.append(str(buffers[0].id)[0])
        return real_solve(buffers, structure, incumbent, floor, capacity, deadline)

    monkeypatch.setattr(best_module, "_solve", spy)
    monkeypatch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
    # With capacity 31, slice "c" already fits under greedy: only "a" is searched.
    result = plan(TWO_SLICES, capacity=31, time_limit=5)
    assert searched == ["a"]
    assert result.height <= 31 and result.optimal


def test_a_capacity_out_of_reach_still_gets_the_lowest_plan() -> None:
    # 29 is below the optimum (30): the search proves it and then minimizes.
    result = plan(A_SLICE, capacity=29, time_limit=5)
    assert result.height == 30 and not result.optimal
    assert validate(A_SLICE, result.offsets) is None


def test_a_capacity_search_out_of_time_hands_over_to_minimizing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As if fitting 30 ran out of its share of the time without an answer:
    # the rest of the time lowers greedy's 33 to at most 31.
    monkeypatch.setattr(best_module, "_fit_tight_first", lambda *args: (None, False))
    result = plan(A_SLICE, capacity=30, time_limit=5)
    assert result.height <= 31 < plan(A_SLICE, algorithm="greedy").height
    assert validate(A_SLICE, result.offsets) is None


def test_a_large_sliced_trace_improves_on_greedy_under_a_short_limit() -> None:
    # 1,500 small slices (greedy 11, already under the lower bound of 30) and
    # one slice greedy gets wrong (33 instead of 30): only that one is searched.
    buffers = [
        buffer
        for k in range(1_500)
        for buffer in pattern(f"s{k}.", 10 * k, (5, 4, 3, 3))
    ] + pattern("top", 10 * 1_500, (15, 12, 9, 9))
    greedy = plan(buffers, algorithm="greedy")
    result = plan(buffers, time_limit=1.0)
    assert validate(buffers, result.offsets) is None
    assert greedy.height == 33
    assert result.height == 30 and result.optimal


def test_the_last_minimizing_step_gets_all_the_time_left() -> None:
    # Floor 28, incumbent 30: the step trying 28 and 29 is the last whatever
    # happens, so it must not leave half of the time unused.
    calls: list[tuple[list[int], float]] = []

    class Stuck:
        buffers = (Buffer("x", 0, 1, 30),)

        def fit(self, targets: list[int], deadline: float) -> list[int] | None:
            calls.append((targets, deadline))
            raise best_module._OutOfTime

    deadline = time.perf_counter() + 100
    solver = cast(best_module._Solver, Stuck())
    offsets, proved = best_module._minimize(solver, 28, [0], 30, deadline)
    assert calls == [([28, 29], deadline)]
    assert offsets == [0] and not proved

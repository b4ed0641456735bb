"""What `best` keeps when it cannot finish: the lowest plan found, slice by slice."""

from itertools import pairwise
from typing import cast

import pytest

from memplan.planning import Buffer, decision, plan, validate
from memplan.planning import best as best_module
from memplan.planning.budget import Budget, OutOfBudget

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
    result = plan(TWO_SLICES)
    assert result.height == 30 and result.optimal


def test_an_unsolved_slice_keeps_greedy_and_a_solved_one_keeps_its_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_minimize = best_module._minimize
    searched: list[str] = []

    def minimize_all_but_c(solver, floor, incumbent, *args):  # type: ignore[no-untyped-def]
        searched.append(str(solver.buffers[0].id)[0])
        if str(solver.buffers[0].id).startswith("c"):
            return list(incumbent), floor  # as if its budget ran out
        return real_minimize(solver, floor, incumbent, *args)

    monkeypatch.setattr(best_module, "_minimize", minimize_all_but_c)
    monkeypatch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
    greedy = plan(TWO_SLICES, algorithm="greedy")
    result = plan(TWO_SLICES)
    # The highest slice first; "c" gets the budget "a" left over, then is given up.
    assert searched == ["a", "c", "c"]
    assert validate(TWO_SLICES, result.offsets) is None
    assert result.height == 31 < greedy.height
    assert not result.optimal
    for buffer in C_SLICE:
        assert result.offsets[buffer.id] == greedy.offsets[buffer.id]
    assert max(result.offsets[b.id] + b.size for b in A_SLICE) == 30


def test_the_search_stops_once_every_slice_fits_the_capacity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_minimize = best_module._minimize
    searched: list[str] = []

    def spy(solver, *args):  # type: ignore[no-untyped-def]
        searched.append(str(solver.buffers[0].id)[0])
        return real_minimize(solver, *args)

    monkeypatch.setattr(best_module, "_minimize", spy)
    monkeypatch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
    # With capacity 31, slice "c" already fits under greedy: once "a" is
    # lowered to 30 the plan fits, and "c" is never searched.
    result = plan(TWO_SLICES, capacity=31)
    assert searched == ["a"]
    assert result.height == 31 and result.optimal


def test_a_capacity_out_of_reach_still_gets_the_lowest_plan() -> None:
    # 29 is below the optimum (30): the search still lowers greedy's 33 to 30.
    result = plan(A_SLICE, capacity=29)
    assert result.height == 30 and not result.optimal
    assert result.lower_bound == 30  # proved: nothing lower fits
    assert validate(A_SLICE, result.offsets) is None


def test_a_large_sliced_trace_improves_on_greedy_within_a_small_budget() -> None:
    # 1,500 small slices (greedy 11, already under the lower bound of 30) and
    # one slice greedy gets wrong (33 instead of 30): only that one is searched.
    buffers = [
        buffer
        for k in range(1_500)
        for buffer in pattern(f"s{k}.", 10 * k, (5, 4, 3, 3))
    ] + pattern("top", 10 * 1_500, (15, 12, 9, 9))
    greedy = plan(buffers, algorithm="greedy")
    result = plan(buffers, budget=100)
    assert validate(buffers, result.offsets) is None
    assert greedy.height == 33
    assert result.height == 30 and result.optimal
    assert 0 < result.nodes <= 100


def test_the_last_minimizing_step_gets_all_the_budget_left() -> None:
    # Floor 28, incumbent 30: the step trying 28 and 29 is the last whatever
    # happens, so it must not leave half of the budget unused.
    calls: list[tuple[list[int], int]] = []

    class Stuck:
        buffers = (Buffer("x", 0, 1, 30),)
        budget = Budget(1_000)
        proved_impossible = -1

        def fit(self, targets: list[int], mark: int) -> list[int] | None:
            calls.append((targets, mark))
            raise OutOfBudget

    solver = cast(decision.Solver, Stuck())
    offsets, closed = best_module._minimize(solver, 28, [0], 30, 1_000)
    assert calls == [([28, 29], 1_000)]
    assert offsets == [0] and closed == 28


def test_an_earlier_step_gets_half_of_the_budget_left() -> None:
    calls: list[tuple[list[int], int]] = []

    class Stuck:
        buffers = (Buffer("x", 0, 1, 60),)
        budget = Budget(1_000)
        proved_impossible = -1

        def fit(self, targets: list[int], mark: int) -> list[int] | None:
            calls.append((targets, mark))
            self.budget.spent = mark
            raise OutOfBudget

    solver = cast(decision.Solver, Stuck())
    best_module._minimize(solver, 20, [0], 60, 1_000)
    # Floor, midpoint and a quarter of the gap below the incumbent; then the
    # floor moves above the highest target that ran out.
    assert calls[0] == ([20, 40, 50], 500)
    assert calls[1][0][0] == 51


def test_a_capacity_a_search_exhausts_raises_the_proved_floor() -> None:
    # Each step exhausts its lowest capacity and finds a plan at its highest:
    # the floor the next step starts from, and the one returned, are proved.
    calls: list[list[int]] = []

    class Exhausts:
        buffers = (Buffer("x", 0, 1, 1),)
        budget = Budget(1_000)
        proved_impossible = -1

        def fit(self, targets: list[int], mark: int) -> list[int] | None:
            calls.append(targets)
            self.budget.spent += 10
            self.proved_impossible = max(self.proved_impossible, targets[0])
            if len(targets) == 1:
                return None  # all exhausted
            return [targets[-1] - 1]  # height targets[-1]

    solver = cast(decision.Solver, Exhausts())
    offsets, closed = best_module._minimize(solver, 20, [59], 60, 1_000)
    assert calls[0] == [20, 40, 50]
    assert all(b[0] == a[0] + 1 for a, b in pairwise(calls))
    # It ends proved optimal: the floor closed up to the plan's height.
    assert closed == calls[-1][0] + 1 == offsets[0] + 1


def test_a_trace_too_crowded_to_search_keeps_greedy_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(best_module, "MAX_OVERLAP_PAIRS", 0)
    result = plan(A_SLICE)
    assert (result.height, result.nodes) == (33, 0)
    assert result.unsearched == "more than 0 pairs of buffers alive together"


def test_a_window_too_crowded_to_search_keeps_its_layout_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_sweep = best_module.sweep

    def crowded_a(part, limit):  # type: ignore[no-untyped-def]
        if str(part[0].id).startswith("a"):
            raise best_module.TooManyOverlaps
        return real_sweep(part, limit)

    monkeypatch.setattr(best_module, "sweep", crowded_a)
    monkeypatch.setattr(best_module, "SLICE_MIN_BUFFERS", 0)
    result = plan(TWO_SLICES)
    # "c" is still searched (0 < nodes); "a" keeps best-fit's 33 and says why.
    assert result.height == 33 and result.nodes > 0
    assert result.unsearched == (
        "in 1 window: more than 1,000,000 pairs of buffers alive together"
    )


def test_a_searched_trace_has_no_reason_not_to_be_searched() -> None:
    result = plan(A_SLICE)
    assert result.height == 30
    assert result.unsearched == ""

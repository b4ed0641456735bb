"""The relaxation ladder of `best`: excision, rungs, and the climb itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import MINIMALLOC, brute_force_height, examples, traces

from memplan.planning import Buffer, lower_bound, validate
from memplan.planning.budget import Budget
from memplan.planning.decision import Solver
from memplan.planning.ladder import Ladder, Search, excise, rungs
from memplan.planning.sections import TimeStructure, restrict, sweep
from memplan.planning.trace_csv import read_trace

NODES = 10**7
D = "D.1048576.csv"


def sized(buffers: list[Buffer]) -> list[Buffer]:
    return [b for b in buffers if b.size]


def sized_traces(max_buffers: int, max_time: int) -> st.SearchStrategy[list[Buffer]]:
    """Random traces without zero-size buffers, never empty."""
    return traces(max_buffers=max_buffers, max_time=max_time).map(sized).filter(bool)


def test_excise_stacks_the_buffers_meeting_all_others_at_the_bottom() -> None:
    buffers = [
        Buffer("long", 0, 10, 4),
        Buffer("a", 0, 5, 3),
        Buffer("b", 5, 10, 2),
        Buffer("also_long", 0, 10, 1),
    ]
    cut = excise(buffers, sweep(buffers, 100))
    assert [b.id for b in cut.kept] == ["a", "b"]
    assert cut.bottom == [("long", 0), ("also_long", 4)]
    assert cut.removed == 5


def test_excise_keeps_a_buffer_whose_size_would_misalign_the_rest() -> None:
    buffers = [Buffer("odd", 0, 10, 3), Buffer("even", 0, 5, 4, alignment=4)]
    # Both meet each other; only a multiple of 4 bytes may be cut.
    cut = excise(buffers, sweep(buffers, 100))
    assert [b.id for b in cut.kept] == ["odd"]
    assert cut.bottom == [("even", 0)]


@settings(max_examples=examples(60, 600), deadline=None)
@given(sized_traces(6, 4))
def test_excising_lowers_the_optimum_by_exactly_the_bytes_cut(
    buffers: list[Buffer],
) -> None:
    cut = excise(buffers, sweep(buffers, 100))
    assert brute_force_height(buffers) == brute_force_height(cut.kept) + cut.removed


def test_rungs_grow_from_the_fullest_sections_to_all_of_them() -> None:
    buffers = [
        Buffer("a", 0, 2, 5),
        Buffer("b", 1, 3, 2),
        Buffer("c", 2, 4, 3),
        Buffer("d", 4, 5, 1),
        Buffer("e", 5, 6, 7),
    ]
    structure = sweep(buffers, 100)
    assert structure.section_totals == [7, 5, 1, 7]
    assert rungs(buffers, structure) == [[0, 3], [0, 1, 3], [0, 1, 2, 3]]


def exhaustive(buffers: list[Buffer]) -> Search:
    """Searches without the failure memo, so an exhausted rung is a proof."""
    solver = Solver(buffers, sweep(buffers, 10_000), Budget(NODES))
    return lambda part, structure, order, room, limit: solver._try_order(
        part, structure, order, room, limit, NODES, memo=False
    )


def climb(buffers: list[Buffer], capacity: int) -> tuple[bool, Ladder]:
    """Steps until the ladder answers: with no node limit to speak of, every
    try fits its rung or exhausts it."""
    ladder = Ladder(buffers, sweep(buffers, 10_000), capacity)
    search = exhaustive(buffers)
    for _ in ladder.rungs:
        answer = ladder.step(search, NODES)
        if answer is not None:
            return answer, ladder
    raise AssertionError("the ladder did not answer with unlimited tries")


@settings(max_examples=examples(40, 400), deadline=None)
@given(sized_traces(7, 6))
def test_the_ladder_fits_the_optimum_and_proves_one_byte_less_impossible(
    buffers: list[Buffer],
) -> None:
    optimum = brute_force_height(buffers)
    fits, ladder = climb(buffers, optimum)
    assert fits
    offsets = dict(zip((b.id for b in buffers), ladder.offsets(), strict=True))
    assert validate(buffers, offsets, capacity=optimum) is None
    assert climb(buffers, optimum - 1)[0] is False


def test_a_fit_moves_up_a_rung_and_a_failed_try_turns_to_the_whole_trace() -> None:
    # Two sections of 6 bytes (nothing in them meets all the others), one of
    # 2 and one of 1: three rungs.
    buffers = [Buffer(f"a{k}", 0, 2, k) for k in (1, 2, 3)]
    buffers += [Buffer(f"b{k}", 2, 4, k) for k in (1, 2, 3)]
    buffers += [Buffer("c", 4, 5, 2), Buffer("d", 5, 6, 1)]
    structure = sweep(buffers, 1000)
    exact = exhaustive(buffers)
    given: list[list[str]] = []

    def search(
        part: list[Buffer],
        structure: TimeStructure,
        order: list[int],
        room: int,
        limit: int,
    ) -> tuple[bool | None, list[int]]:
        given.append([str(b.id) for b in part])
        return exact(part, structure, order, room, limit)

    ladder = Ladder(buffers, structure, 6)
    assert len(ladder.rungs) == 3
    assert ladder.step(search, NODES) is None
    assert (ladder.rung, ladder.tries) == (1, 0)
    # The guide is the plan of rung 0: every buffer alive in its sections.
    assert sorted(ladder.plans[-1]) == sorted(
        b.id for b in restrict(buffers, structure, ladder.rungs[0])
    )
    assert ladder.step(search, 1) is None  # one node cannot place seven buffers
    assert (ladder.rung, ladder.tries) == (1, 1)
    assert ladder.step(search, NODES) is True
    assert [len(part) for part in given] == [6, 7, 8]


def d_solver(obstructed: bool) -> Solver:
    buffers = sized(read_trace(MINIMALLOC / "challenging" / D).buffers)
    # Far above any plan: they change no offset, only whether the ladder may run.
    obstacles = [[(2**40, 2**40 + 1)] for _ in buffers] if obstructed else None
    return Solver(buffers, sweep(buffers, 10**6), Budget(20_000), obstacles)


def test_a_climb_stops_at_the_budget_with_the_rungs_it_fitted() -> None:
    solver = d_solver(obstructed=False)
    answer, ladder = solver.climb(lower_bound(solver.buffers), 20_000)
    assert answer is None
    assert ladder.rung > 0
    assert len(ladder.plans) == ladder.rung
    assert solver.budget.spent >= 20_000
    assert solver.proved_impossible == -1


def test_a_climb_refuses_obstacles_its_plans_would_ignore() -> None:
    solver = d_solver(obstructed=True)
    with pytest.raises(ValueError, match="obstacles"):
        solver.climb(lower_bound(solver.buffers), 20_000)


@settings(max_examples=examples(30, 300), deadline=None)
@given(sized_traces(7, 6))
def test_a_climb_with_the_memo_fits_the_optimum(buffers: list[Buffer]) -> None:
    optimum = brute_force_height(buffers)
    solver = Solver(buffers, sweep(buffers, 10_000), Budget(NODES))
    answer, ladder = solver.climb(optimum, NODES)
    assert answer
    offsets = dict(zip((b.id for b in buffers), ladder.offsets(), strict=True))
    assert validate(buffers, offsets, capacity=optimum) is None

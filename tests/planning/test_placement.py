"""The placement algorithms on plain data (no IR): moves, costs, capacity."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stable_strategies import one_of_values

from memplan.planning import placement
from memplan.planning.placement import (
    DDR,
    VTCM,
    CostedOp,
    Entity,
    PlacementProblem,
    Slot,
    Unit,
    all_ddr,
    evaluate,
    moves,
    place_heuristic,
    vtcm_peak,
)
from memplan.planning.placement_exact import place_exact

highspy = pytest.importorskip("highspy")

UNIT = (Unit(tuple((point, point) for point in range(40))),)


def _problem(
    entities: list[Entity], ops: list[CostedOp], capacity: int | None, **extra
) -> PlacementProblem:
    return PlacementProblem(tuple(entities), tuple(ops), UNIT, 40, capacity, **extra)


def _tensor(size: int, points: list[int], start: int, **extra) -> Entity:
    slots = tuple(Slot(p, p, reads=i > 0) for i, p in enumerate(points))
    return Entity(
        "t",
        size,
        4,
        0,
        slots,
        start=start,
        splittable=(True,) * (len(points) - 1),
        copy_cycles=extra.pop("copy_cycles", 50.0),
        **extra,
    )


def _saves(entity: int, slot: int, ddr: float = 500.0, vtcm: float = 100.0) -> CostedOp:
    return CostedOp(((entity, slot),), (ddr, vtcm))


def test_a_tensor_that_fits_lives_in_vtcm_for_its_whole_life() -> None:
    problem = _problem(
        [_tensor(1000, [1, 2, 3], 0)], [_saves(0, s) for s in range(3)], 4096
    )
    placed = place_heuristic(problem)
    assert placed.states == ((VTCM,) * 5,)
    assert placed.copies == 0
    assert placed.cycles == 300.0
    assert placed.peak == 2048  # one arena, rounded to the VTCM alignment


def test_nothing_moves_without_capacity() -> None:
    problem = _problem([_tensor(1000, [1, 2], 0)], [_saves(0, 0), _saves(0, 1)], 0)
    placed = place_heuristic(problem)
    assert placed.states == all_ddr(problem)
    assert placed.peak == 0


def test_a_tensor_leaves_vtcm_over_a_gap_where_another_needs_the_room() -> None:
    # a: used at 1 and 20; b: used at 5..6.  Only one fits at a time.
    a = _tensor(1500, [1, 20], 0)
    b = _tensor(1500, [5, 6], 4)
    ops = [_saves(0, 0), _saves(0, 1), _saves(1, 0), _saves(1, 1)]
    problem = _problem([a, b], ops, 2048, tensor_cycles=10.0)
    placed = place_heuristic(problem)
    assert placed.states == ((VTCM, DDR, VTCM), (VTCM, VTCM, VTCM))
    assert placed.copies == 2  # evicted after slot 0, prefetched before slot 1
    assert placed.peak <= 2048


def test_evicting_data_that_is_overwritten_next_needs_no_copy() -> None:
    a = _tensor(1500, [1, 20], 0)
    a = Entity(
        **{**a.__dict__, "slots": (Slot(1, 1, False), Slot(20, 20, reads=False))}
    )
    b = _tensor(1500, [5, 6], 4)
    ops = [_saves(0, 0), _saves(0, 1), _saves(1, 0), _saves(1, 1)]
    placed = place_heuristic(_problem([a, b], ops, 2048, tensor_cycles=10.0))
    assert placed.states[0] == (VTCM, DDR, VTCM)
    assert placed.copies == 0


def test_prefetched_data_is_copied_in_and_only_copied_back_when_written() -> None:
    read_only = Entity(
        "x",
        1000,
        4,
        0,
        (Slot(1, 1, True, False), Slot(2, 2, True, False)),
        observable=True,
        splittable=(True,),
        copy_cycles=50.0,
    )
    assert moves(_problem([read_only], [], None), 0, (VTCM, VTCM, VTCM)) == (50.0, 1)
    written = Entity(**{**read_only.__dict__, "slots": (Slot(1, 1), Slot(2, 2))})
    assert moves(_problem([written], [], None), 0, (VTCM, VTCM, VTCM)) == (100.0, 2)
    # Back in DDR at slot 1: the write must reach DDR before it.
    assert moves(_problem([written], [], None), 0, (VTCM, DDR, DDR)) == (100.0, 2)


def test_a_fresh_slot_copies_nothing_in_but_its_writes_still_reach_ddr() -> None:
    """Nothing wrote the data before a fresh slot: no copy into VTCM there,
    but what it writes is copied back for a later DDR use and at the end."""
    entity = Entity(
        "x",
        1000,
        4,
        0,
        (Slot(1, 1, fresh=True), Slot(2, 2, ddr_only=True)),
        observable=True,
        splittable=(True,),
        copy_cycles=50.0,
    )
    assert moves(_problem([entity], [], None), 0, (VTCM, DDR, DDR)) == (50.0, 1)
    alone = Entity(**{**entity.__dict__, "slots": entity.slots[:1], "splittable": ()})
    assert moves(_problem([alone], [], None), 0, (VTCM,)) == (50.0, 1)
    read = Entity(**{**alone.__dict__, "slots": (Slot(1, 1, writes=False),)})
    assert moves(_problem([read], [], None), 0, (VTCM,)) == (50.0, 1)


def test_a_ddr_only_slot_and_an_unsplittable_gap_constrain_locations() -> None:
    entity = Entity(
        "x",
        100,
        4,
        0,
        (Slot(1, 1), Slot(2, 2, ddr_only=True), Slot(3, 3)),
        start=0,
        splittable=(False, True),
        copy_cycles=5.0,
    )
    problem = _problem([entity], [_saves(0, 0), _saves(0, 2)], None)
    assert moves(problem, 0, (VTCM, VTCM, VTCM, VTCM, VTCM)) is None  # ddr_only
    assert moves(problem, 0, (VTCM, DDR, DDR, DDR, VTCM)) is None  # tied gap
    placed = place_heuristic(problem)
    assert placed.states[0][:3] == (DDR, DDR, DDR)
    assert placed.states[0][4] == VTCM


def test_the_packed_arenas_not_the_live_bytes_must_fit() -> None:
    # Three 1100-byte tensors with 4-byte alignment: live bytes fit 3 * 1100,
    # but one arena of 3300 bytes rounds up to 4096 > 3400.
    entities = [_tensor(1100, [1, 2], 0) for _ in range(3)]
    ops = [_saves(e, s) for e in range(3) for s in range(2)]
    problem = _problem(entities, ops, 3400)
    placed = place_heuristic(problem)
    assert placed.peak <= 3400
    assert sum(VTCM in row for row in placed.states) == 1


def test_a_refused_placement_that_fits_is_placed_again_under_a_lower_limit() -> None:
    # Three 1500-byte tensors live at once fit 8192 in a 6144-byte arena;
    # memory-place found memory-plan refusing that: that placement is
    # refused, the next fits an arena alignment lower (two tensors in 4096
    # bytes), and refusing every try leaves all-DDR.
    entities = [_tensor(1500, [1, 2], 0) for _ in range(3)]
    ops = [_saves(e, s) for e in range(3) for s in range(2)]
    problem = _problem(entities, ops, 8192)
    first = place_heuristic(problem)
    assert (sum(VTCM in row for row in first.states), first.peak) == (3, 6144)
    again = place_heuristic(problem, refused=1)
    assert (sum(VTCM in row for row in again.states), again.peak) == (2, 4096)
    assert place_heuristic(problem, refused=12).states == all_ddr(problem)
    assert place_exact(problem, refused=12).states == all_ddr(problem)


def test_the_same_problem_gives_the_same_placement() -> None:
    entities = [_tensor(700 + 100 * i, [i, i + 3, i + 9], i) for i in range(6)]
    ops = [_saves(e, s) for e in range(6) for s in range(3)]
    problem = _problem(entities, ops, 4096, tensor_cycles=10.0, arena_cycles=220.0)
    assert place_heuristic(problem) == place_heuristic(problem)
    assert place_exact(problem) == place_exact(problem)


def test_a_placement_counted_again_reuses_the_moves_of_each_entity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: list[tuple[int, ...]] = []
    count_moves = placement._count_moves

    def spy(problem: PlacementProblem, entity: Entity, locations: tuple[int, ...]):
        counted.append(locations)
        return count_moves(problem, entity, locations)

    monkeypatch.setattr(placement, "_count_moves", spy)
    entities = [_tensor(700 + 100 * i, [i, i + 3], i) for i in range(3)]
    problem = _problem(entities, [_saves(e, s) for e in range(3) for s in range(2)], 0)
    states = ((VTCM, VTCM, VTCM), (DDR, DDR, DDR), (VTCM, DDR, DDR))
    first = evaluate(problem, states)
    assert len(counted) == 3
    assert evaluate(problem, states) == first
    evaluate(problem, (*states[:2], all_ddr(problem)[2]))
    assert len(counted) == 4  # only the entity whose locations changed


@st.composite
def problems(draw: st.DrawFn) -> PlacementProblem:
    count = draw(st.integers(1, 3))
    entities: list[Entity] = []
    ops: list[CostedOp] = []
    for index in range(count):
        points = sorted(draw(st.sets(st.integers(1, 30), min_size=1, max_size=3)))
        start = draw(st.integers(0, points[0]))
        fixed_data = draw(st.booleans())
        slots = tuple(
            Slot(
                p,
                p,
                draw(st.booleans()),
                draw(st.booleans()),
                fresh=fixed_data and i == 0 and draw(st.booleans()),
            )
            for i, p in enumerate(points)
        )
        entities.append(
            Entity(
                index,
                draw(one_of_values([500, 1000, 1500])),
                4,
                0,
                slots,
                start=None if fixed_data else start,
                observable=fixed_data,
                splittable=tuple(draw(st.booleans()) for _ in points[1:]),
                copy_cycles=draw(one_of_values([10.0, 100.0, 400.0])),
            )
        )
        for slot in range(len(points)):
            ddr = float(draw(st.integers(100, 600)))
            ops.append(
                CostedOp(((index, slot),), (ddr, ddr - draw(st.integers(0, 300))))
            )
    if count > 1:
        ops.append(CostedOp(((0, 0), (1, 0)), (600.0, 500.0, 500.0, 50.0)))
    capacity = draw(one_of_values([None, 0, 2048, 4096]))
    return _problem(entities, ops, capacity)


def _brute_force(problem: PlacementProblem) -> float:
    choices = [
        itertools.product((DDR, VTCM), repeat=e.positions) for e in problem.entities
    ]
    best = float("inf")
    for states in itertools.product(*choices):
        if all(moves(problem, i, s) is not None for i, s in enumerate(states)):
            best = min(best, evaluate(problem, states)[0])
    return best


@settings(max_examples=60, deadline=None)
@given(problem=problems())
def test_exact_is_optimal_and_the_heuristic_never_worse_than_all_ddr(
    problem: PlacementProblem,
) -> None:
    heuristic = place_heuristic(problem)
    exact = place_exact(problem)
    ddr = evaluate(problem, all_ddr(problem))[0]
    assert exact.cycles <= heuristic.cycles <= ddr
    for placed in (heuristic, exact):
        assert evaluate(problem, placed.states) == (placed.cycles, placed.copies)
        if problem.capacity is not None:
            assert vtcm_peak(problem, placed.states) <= problem.capacity
    if problem.capacity is None:
        assert exact.cycles == pytest.approx(_brute_force(problem))

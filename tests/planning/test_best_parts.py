"""Each part of the exact search orders its buffers by the bytes still unplaced."""

import random

import pytest
from packing_strategies import MINIMALLOC

from memplan.planning import Buffer, lower_bound, validate
from memplan.planning import best as best_module
from memplan.planning import decision as decision_module
from memplan.planning.sections import sweep
from memplan.planning.trace_csv import read_trace

CAPACITY = 1_048_576
# The crowd-first order whose ties go by lifetime, then area (MiniMalloc's "TWA").
CROWD_LENGTH_AREA = 2


def decision(
    buffers: list[Buffer], k: int, reorder: bool, capacity: int, nodes: int
) -> tuple[decision_module._DecisionSearch, list[int]]:
    """The pure-Python search with order k, and that order (buffer indices by rank)."""
    structure = sweep(buffers, best_module.MAX_OVERLAP_PAIRS)
    order = decision_module._preorders(buffers, structure)[k]
    ties = decision_module._tie_orders(buffers, structure)[k] if reorder else None
    problem = decision_module._renumber(buffers, structure, order, ties)
    return decision_module._DecisionSearch(problem, capacity, nodes), order


def test_file_i_fits_once_every_part_is_ordered_by_crowd_again() -> None:
    # Regression: with the root's order kept in every part that a decomposition
    # splits off, no order fitted MiniMalloc's file I in 60 s (millions of
    # nodes).  Ordering each part afresh by its unplaced bytes, as MiniMalloc
    # does, fits it in 1,791 nodes (0.2 s in pure Python).
    path = MINIMALLOC / "challenging" / f"I.{CAPACITY}.csv"
    buffers = read_trace(path).buffers
    search, order = decision(buffers, CROWD_LENGTH_AREA, True, CAPACITY, 5_000)
    assert search.run()
    offsets = {buffers[i].id: search.solution[rank] for rank, i in enumerate(order)}
    assert validate(buffers, offsets, capacity=CAPACITY) is None
    static, _ = decision(buffers, CROWD_LENGTH_AREA, False, CAPACITY, 5_000)
    with pytest.raises(decision_module._OutOfNodes):
        static.run()


def test_priorities_are_given_back_after_every_part() -> None:
    rng = random.Random(3)
    for _ in range(40):
        buffers = []
        for k in range(rng.randint(2, 14)):
            lower = rng.randrange(8)
            upper = rng.randint(lower + 1, 9)
            buffers.append(Buffer(k, lower, upper, rng.randint(1, 6)))
        for order in range(6):
            search, _ = decision(buffers, order, True, lower_bound(buffers), 10_000)
            before = search.prio.copy()
            search.run()
            assert (search.prio == before).all()

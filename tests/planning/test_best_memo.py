"""The failure memo of the decision search: it only cuts failed states, and
a failure it cut is no proof."""

import random

import pytest
from packing_strategies import random_trace

from memplan.planning import Buffer, decision, lower_bound, validate
from memplan.planning import best as best_module
from memplan.planning.budget import Budget, OutOfBudget
from memplan.planning.sections import sweep

# Nine buffers that do not fit at their max-live bound, 41: the search in
# rank order fails in 269 nodes, or 162 with the memo (54 of them hits).
TIGHT = [
    Buffer(0, 2, 7, 16),
    Buffer(1, 11, 14, 16, 2),
    Buffer(2, 12, 14, 16),
    Buffer(3, 0, 9, 4, 2),
    Buffer(4, 0, 5, 16),
    Buffer(5, 1, 3, 5, 8),
    Buffer(6, 6, 12, 2),
    Buffer(7, 7, 10, 4, 8),
    Buffer(8, 8, 10, 2),
]


def memo_problem(
    buffers: list[Buffer], order: list[int], memo: bool
) -> decision._Problem:
    """The problem of `order`, static priorities, the memo on or off."""
    structure = sweep(buffers, best_module.MAX_OVERLAP_PAIRS)
    return decision._renumber(buffers, structure, order, None, memo=memo)


def run(search: decision._DecisionSearch | decision._CompiledSearch) -> bool | None:
    """Found, failed, or None when out of nodes."""
    try:
        return search.run()
    except decision._OutOfNodes:
        return None


def search(
    problem: decision._Problem, capacity: int, nodes: int
) -> decision._DecisionSearch | decision._CompiledSearch:
    """The compiled search if numba is there (it visits the same nodes), else
    the pure-Python one."""
    kernel = decision.compiled_kernel()
    if kernel is None:
        return decision._DecisionSearch(problem, capacity, nodes)
    return decision._CompiledSearch(kernel, problem, capacity, nodes)


def test_the_memo_only_cuts_what_fails_the_same_plan_comes_first() -> None:
    # A sound memo cuts only subtrees that fail: the depth-first search finds
    # the same first plan, or fails, as without it, in no more nodes.
    rng = random.Random(3)
    for _ in range(100):
        buffers = random_trace(rng)
        structure = sweep(buffers, best_module.MAX_OVERLAP_PAIRS)
        for order in decision._preorders(buffers, structure):
            for extra in (0, 1, 3, 8):
                capacity = lower_bound(buffers) + extra
                plain, memo = (
                    search(memo_problem(buffers, order, on), capacity, 3_000)
                    for on in (False, True)
                )
                answer = run(plain)
                if answer is None:
                    continue
                assert run(memo) == answer
                assert memo.nodes <= plain.nodes
                if answer:
                    assert memo.solution == plain.solution
                    offsets = {
                        buffers[i].id: memo.solution[r] for r, i in enumerate(order)
                    }
                    assert validate(buffers, offsets, capacity=capacity) is None


def test_the_memo_cuts_nodes_of_a_failing_search() -> None:
    order = list(range(len(TIGHT)))
    capacity = lower_bound(TIGHT)
    plain, memo = (
        decision._DecisionSearch(memo_problem(TIGHT, order, memo), capacity, 10_000)
        for memo in (False, True)
    )
    assert not plain.run() and not memo.run()
    assert memo.memo_hits > 0
    assert memo.nodes < plain.nodes
    assert plain.exhaustive and not memo.exhaustive


def test_a_failure_the_memo_cut_proves_nothing_to_the_solver() -> None:
    structure = sweep(TIGHT, best_module.MAX_OVERLAP_PAIRS)
    capacity = lower_bound(TIGHT)
    order = list(range(len(TIGHT)))
    for memo in (False, True):
        solver = decision.Solver(TIGHT, structure, Budget(20_000))
        # One order, in rank order: its search fails, with memo hits if on.
        solver.orders = [order]
        solver.problems[0] = memo_problem(TIGHT, order, memo)
        if memo:
            with pytest.raises(OutOfBudget):
                solver.fit([capacity], 20_000)
            assert solver.proved_impossible == -1
        else:
            assert solver.fit([capacity], 20_000) is None
            assert solver.proved_impossible == capacity


def test_the_memo_refuses_priorities_that_change() -> None:
    structure = sweep(TIGHT, best_module.MAX_OVERLAP_PAIRS)
    order = list(range(len(TIGHT)))
    with pytest.raises(ValueError, match="static priorities"):
        decision._renumber(TIGHT, structure, order, order, memo=True)

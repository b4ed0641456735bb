"""The failure memo of the decision search: it only cuts failed states, and
a failure it cut is no proof."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import examples, traces

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


def run(search: decision._DecisionSearch) -> bool | None:
    """Found, failed, or None when out of nodes."""
    try:
        return search.run()
    except decision._OutOfNodes:
        return None


@settings(max_examples=examples(60, 600), deadline=None)
@given(
    traces(max_buffers=12, max_time=10),
    st.integers(0, 5),
    st.sampled_from([0, 0, 1, 2, 6]),
)
def test_the_memo_never_changes_whether_a_capacity_fits(
    buffers: list[Buffer], order: int, extra: int
) -> None:
    sized = [b for b in buffers if b.size]
    if not sized:
        return
    structure = sweep(sized, best_module.MAX_OVERLAP_PAIRS)
    orders = decision._preorders(sized, structure)
    ranked = orders[order % len(orders)]
    capacity = lower_bound(sized) + extra
    answers = []
    for memo in (False, True):
        search = decision._DecisionSearch(
            memo_problem(sized, ranked, memo), capacity, 3_000
        )
        answers.append(run(search))
        if answers[-1]:
            offsets = {sized[i].id: search.solution[r] for r, i in enumerate(ranked)}
            assert validate(sized, offsets, capacity=capacity) is None
    if None not in answers:
        assert answers[0] == answers[1]


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

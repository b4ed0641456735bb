"""A capacity never makes `best` weaker than minimizing: the search takes the same
course and stops at the first plan that fits, so for one budget the fits are
monotone in the capacity."""

from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import examples, traces
from stable_strategies import one_of_values

from memplan.planning import Buffer, lower_bound, plan, validate
from memplan.planning import best as best_module


@st.composite
def crowded_traces(draw: st.DrawFn) -> tuple[list[Buffer], int]:
    """Traces greedy often packs above the optimum, with a budget of a few nodes
    per buffer: small enough that the search often stops between the two."""
    count = draw(st.integers(6, 16))
    horizon = draw(st.integers(3, 10))
    buffers = []
    for index in range(count):
        lower = draw(st.integers(0, horizon - 1))
        upper = draw(st.integers(lower + 1, horizon))
        size = draw(st.integers(1, 40))
        buffers.append(
            Buffer(index, lower, upper, size, draw(one_of_values([1, 1, 4])))
        )
    return buffers, count * draw(one_of_values([0, 1, 2, 4, 8, 16, 1_000]))


def fits(buffers: list[Buffer], capacity: int, budget: int) -> bool:
    result = plan(buffers, capacity=capacity, budget=budget)
    assert validate(buffers, result.offsets) is None
    assert result.optimal == (result.height <= capacity)
    return result.height <= capacity


def check_every_capacity(buffers: list[Buffer], budget: int) -> None:
    free = plan(buffers, budget=budget)
    greedy = plan(buffers, algorithm="greedy")
    answers = [
        fits(buffers, capacity, budget)
        for capacity in range(lower_bound(buffers), greedy.height + 2)
    ]
    # A fit at C implies a fit at every larger C...
    assert answers == sorted(answers)
    # ...and the capacity fits exactly when minimizing reaches it.
    assert answers.index(True) == free.height - lower_bound(buffers)


@settings(max_examples=examples(60, 600), deadline=None)
@given(crowded_traces())
def test_fits_are_monotone_in_the_capacity_and_match_minimizing(
    trace: tuple[list[Buffer], int],
) -> None:
    check_every_capacity(*trace)


@settings(max_examples=examples(30, 300), deadline=None)
@given(crowded_traces())
def test_slice_by_slice_fits_are_monotone_too(
    trace: tuple[list[Buffer], int],
) -> None:
    threshold = best_module.SLICE_MIN_BUFFERS
    best_module.SLICE_MIN_BUFFERS = 0
    try:
        check_every_capacity(*trace)
    finally:
        best_module.SLICE_MIN_BUFFERS = threshold


@settings(max_examples=examples(40, 400), deadline=None)
@given(traces(max_buffers=12, max_time=10), one_of_values([0, 5, 50, 5_000]))
def test_a_greedy_plan_within_the_capacity_always_fits(
    buffers: list[Buffer], budget: int
) -> None:
    greedy = plan(buffers, algorithm="greedy")
    assert fits(buffers, greedy.height, budget)

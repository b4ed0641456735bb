"""Random traces: every plan is valid, best never loses to greedy, best is exact."""

from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import LARGE_ALIGNMENTS, brute_force_height, examples, traces
from stable_strategies import one_of_values

from memplan.planning import ALGORITHMS, Buffer, lower_bound, plan, validate
from memplan.planning import best as best_module


@settings(max_examples=examples(60, 1000), deadline=None)
@given(traces(), one_of_values(sorted(ALGORITHMS)))
def test_every_algorithm_gives_a_valid_plan(
    buffers: list[Buffer], algorithm: str
) -> None:
    result = plan(buffers, algorithm=algorithm)
    assert validate(buffers, result.offsets) is None
    assert result.height >= lower_bound(buffers)
    assert set(result.offsets) == {b.id for b in buffers}


@settings(max_examples=examples(40, 500), deadline=None)
@given(traces(max_buffers=20, max_time=8))
def test_best_is_never_worse_than_greedy(buffers: list[Buffer]) -> None:
    greedy = plan(buffers, algorithm="greedy")
    best = plan(buffers, algorithm="best")
    assert validate(buffers, best.offsets) is None
    assert best.height <= greedy.height


@settings(max_examples=examples(150, 3000), deadline=None)
@given(traces(max_buffers=6, max_time=6))
def test_best_reaches_the_brute_force_optimum(buffers: list[Buffer]) -> None:
    result = plan(buffers, algorithm="best")
    assert result.height == brute_force_height(buffers)
    assert result.optimal


@settings(max_examples=examples(40, 500), deadline=None)
@given(traces(max_buffers=6, max_time=6), st.integers(0, 40))
def test_best_fits_a_capacity_exactly_when_the_optimum_does(
    buffers: list[Buffer], capacity: int
) -> None:
    result = plan(buffers, capacity=capacity)
    assert validate(buffers, result.offsets) is None
    fits = brute_force_height(buffers) <= capacity
    assert (result.height <= capacity) == fits
    assert result.optimal == fits


@settings(max_examples=examples(60, 1000), deadline=None)
@given(traces(max_buffers=3, max_time=5), st.integers(1, 2))
def test_best_reaches_the_optimum_with_identical_buffers(
    buffers: list[Buffer], copies: int
) -> None:
    # Twins (same lifetime, size, alignment) are placed in a fixed order by the
    # search; that symmetry breaking must not lose the optimum.
    twins = [
        Buffer(f"{b.id}.{k}", b.lower, b.upper, b.size, b.alignment)
        for b in buffers
        for k in range(copies)
    ]
    result = plan(twins, algorithm="best")
    assert validate(twins, result.offsets) is None
    assert result.height == brute_force_height(twins)
    assert result.optimal


@settings(max_examples=examples(100, 2000), deadline=None)
@given(traces(max_buffers=6, max_time=6), st.one_of(st.none(), st.integers(0, 40)))
def test_slice_by_slice_search_is_exact_too(
    buffers: list[Buffer], capacity: int | None
) -> None:
    # Large traces are searched one independent time slice at a time; force
    # that path on tiny traces, where brute force knows the answer.
    threshold = best_module.SLICE_MIN_BUFFERS
    best_module.SLICE_MIN_BUFFERS = 0
    try:
        result = plan(buffers, capacity=capacity)
    finally:
        best_module.SLICE_MIN_BUFFERS = threshold
    assert validate(buffers, result.offsets) is None
    optimum = brute_force_height(buffers)
    if capacity is None:
        assert result.height == optimum and result.optimal
    else:
        assert (result.height <= capacity) == (optimum <= capacity)
        assert result.height == optimum or result.height <= capacity


@settings(max_examples=examples(60, 1000), deadline=None)
@given(
    st.one_of(
        traces(max_buffers=8, max_time=6),
        traces(max_buffers=6, max_time=4, alignments=LARGE_ALIGNMENTS),
    ),
    one_of_values([0, 3, 20, 10_000]),
)
def test_the_reported_lower_bound_is_never_above_the_optimum(
    buffers: list[Buffer], budget: int
) -> None:
    result = plan(buffers, algorithm="best", budget=budget)
    optimum = brute_force_height(buffers)
    assert lower_bound(buffers) <= result.lower_bound <= optimum
    assert result.proved_optimal == (result.height == result.lower_bound)
    if result.proved_optimal:
        assert result.height == optimum

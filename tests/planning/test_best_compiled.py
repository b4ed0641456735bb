"""The numba search kernel against the pure-Python search it replaces."""

import os
import random
import subprocess
import sys

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import MINIMALLOC, examples, random_trace, traces
from stable_strategies import one_of_values

from memplan.planning import (
    Buffer,
    decision,
    kernel_state,
    lower_bound,
    plan,
    search_aot,
    validate,
)
from memplan.planning import best as best_module
from memplan.planning.budget import DEFAULT_NODES
from memplan.planning.greedy import greedy_offsets
from memplan.planning.sections import sweep
from memplan.planning.trace_csv import read_trace

KERNEL = pytest.importorskip("memplan.planning.search_kernel")
CAPACITY = 1_048_576
PURE = "MEMPLAN_PURE_PYTHON"


@pytest.fixture
def compiled_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`plan` on the compiled path from the first node, its kernel already
    compiled or loaded from the cache."""
    monkeypatch.delenv(PURE, raising=False)
    monkeypatch.setattr(decision, "PURE_PYTHON_SECONDS", 0)
    # Greedy packs these one step above the optimum, so `best` has to search.
    buffers = [Buffer(0, 0, 2, 15), Buffer(1, 3, 4, 12), Buffer(2, 0, 4, 9)]
    assert plan([*buffers, Buffer(3, 3, 4, 9)]).height == 30


def outcome(search: decision._DecisionSearch | decision._CompiledSearch):
    """(found, failed or out of nodes) and the offsets when found."""
    try:
        found = search.run()
    except decision._OutOfNodes:
        return "out of nodes", None
    return found, list(search.solution) if found else None


def both_searches(
    buffers: list[Buffer],
    order: int,
    capacity: int,
    nodes: int,
    obstacles: list[list[tuple[int, int]]] | None = None,
    memo: bool = False,
):
    """The pure-Python and the compiled search of order k; with `memo`, both
    keep the failure memo, and priorities stay static (no ties order)."""
    sized = [b for b in buffers if b.size]
    structure = sweep(sized, best_module.MAX_OVERLAP_PAIRS)
    orders = decision._preorders(sized, structure)
    ties = decision._tie_orders(sized, structure)
    k = order % len(orders)
    problem = decision._renumber(
        sized, structure, orders[k], None if memo else ties[k], obstacles, memo=memo
    )
    pure = decision._DecisionSearch(problem, capacity, nodes)
    kernel = decision.compiled_kernel()
    assert kernel is not None
    compiled = decision._CompiledSearch(kernel, problem, capacity, nodes)
    return pure, compiled


def wide_trace(seed: int) -> list[Buffer]:
    """One long buffer under many short ones: nodes with dozens of candidates."""
    rng = random.Random(seed)
    buffers = [Buffer("long", 0, 60, 3)]
    for k in range(50):
        lower = rng.randrange(60)
        upper = min(60, lower + 1 + rng.randrange(4))
        buffers.append(Buffer(k, lower, upper, rng.choice([1, 2, 4, 5, 8])))
    return buffers


def test_the_environment_variable_forces_pure_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(PURE, raising=False)
    assert decision.compiled_kernel() is not None
    monkeypatch.setenv(PURE, "1")
    assert decision.compiled_kernel() is None


@settings(max_examples=examples(60, 1000), deadline=None)
@given(
    traces(max_buffers=14, max_time=10),
    st.integers(0, 5),
    st.integers(0, 6),
    one_of_values([1, 4, 30, 10_000]),
)
def test_compiled_search_visits_the_same_nodes_as_pure_python(
    buffers: list[Buffer], order: int, extra: int, nodes: int
) -> None:
    if not any(b.size for b in buffers):
        return
    capacity = lower_bound(buffers) + extra
    pure, compiled = both_searches(buffers, order, capacity, nodes)
    assert outcome(pure) == outcome(compiled)
    assert compiled.nodes == pure.nodes


@settings(max_examples=examples(60, 1000), deadline=None)
@given(
    traces(max_buffers=14, max_time=10),
    st.integers(0, 5),
    st.integers(0, 6),
    one_of_values([1, 30, 10_000]),
)
def test_with_the_memo_both_searches_visit_the_same_nodes_and_hits(
    buffers: list[Buffer], order: int, extra: int, nodes: int
) -> None:
    if not any(b.size for b in buffers):
        return
    capacity = lower_bound(buffers) + extra
    pure, compiled = both_searches(buffers, order, capacity, nodes, memo=True)
    assert outcome(pure) == outcome(compiled)
    assert (compiled.nodes, compiled.memo_hits) == (pure.nodes, pure.memo_hits)


def test_the_kernel_compiled_ahead_of_time_visits_the_jit_kernels_nodes() -> None:
    ahead = search_aot.load() or search_aot.build()
    if ahead is None:
        pytest.skip("numba.pycc could not build the module (no C compiler?)")
    rng = random.Random(5)
    for _ in range(20):
        buffers = [b for b in random_trace(rng) if b.size]
        structure = sweep(buffers, best_module.MAX_OVERLAP_PAIRS)
        order = list(range(len(buffers)))
        for extra, memo in ((0, False), (3, False), (0, True)):
            problem = decision._renumber(buffers, structure, order, memo=memo)
            capacity = lower_bound(buffers) + extra
            runs = [
                decision._CompiledSearch(run, problem, capacity, 1_000)
                for run in (KERNEL.run, ahead)
            ]
            assert outcome(runs[0]) == outcome(runs[1])
            assert runs[0].nodes == runs[1].nodes
            assert runs[0].memo_hits == runs[1].memo_hits


def test_a_process_loads_the_kernel_compiled_ahead_of_time_without_numba() -> None:
    if search_aot.load() is None and search_aot.build() is None:
        pytest.skip("numba.pycc could not build the module (no C compiler?)")
    check = (
        "import sys; from memplan.planning.decision import compiled_kernel;"
        " assert compiled_kernel() is not None; print('numba' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != PURE}
    done = subprocess.run(
        [sys.executable, "-c", check], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_the_ahead_of_time_module_the_jit_kernel_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(PURE, raising=False)
    monkeypatch.setattr(decision, "_LOADED", {})
    monkeypatch.setattr(search_aot, "load", lambda: None)
    monkeypatch.setattr(search_aot, "build", lambda: None)
    assert decision.compiled_kernel() is KERNEL.run


def test_compiled_search_matches_pure_python_on_random_traces() -> None:
    rng = random.Random(7)
    for _ in range(30):
        buffers = random_trace(rng)
        for order in range(6):
            for extra in (0, 3):
                capacity = lower_bound(buffers) + extra
                pure, compiled = both_searches(buffers, order, capacity, 1_000)
                assert outcome(pure) == outcome(compiled)
                assert compiled.nodes == pure.nodes


def obstructed_part(
    trace: list[Buffer],
) -> tuple[list[Buffer], list[list[tuple[int, int]]]]:
    """Every fourth buffer pinned where greedy puts it: the others, and the
    (offset, end) ranges of the pins each of them meets in time."""
    pins, buffers = trace[::4], [b for k, b in enumerate(trace) if k % 4]
    pinned = greedy_offsets(pins)
    obstacles = [
        sorted(
            (pinned[p.id], pinned[p.id] + p.size)
            for p in pins
            if p.lower < b.upper and b.lower < p.upper
        )
        for b in buffers
    ]
    return buffers, obstacles


def test_compiled_search_matches_pure_python_around_obstacles() -> None:
    rng = random.Random(11)
    for _ in range(30):
        trace = [b for b in random_trace(rng) if b.size]
        buffers, obstacles = obstructed_part(trace)
        if not buffers:
            continue
        for order in range(6):
            for extra in (0, 3, 20):
                capacity = lower_bound(trace) + extra
                pure, compiled = both_searches(
                    buffers, order, capacity, 1_000, obstacles
                )
                assert outcome(pure) == outcome(compiled)
                assert compiled.nodes == pure.nodes


@pytest.mark.parametrize("obstructed", [False, True])
def test_with_the_memo_compiled_search_matches_pure_python_on_random_traces(
    monkeypatch: pytest.MonkeyPatch, obstructed: bool
) -> None:
    # Slices of one node: the kernel pauses at every node, which must not
    # change what its memo holds.
    monkeypatch.setattr(decision, "FIRST_SLICE_NODES", 1)
    monkeypatch.setattr(decision, "_next_slice", lambda nodes, seconds: 1)
    rng = random.Random(13)
    hits = 0
    for _ in range(30):
        trace = [b for b in random_trace(rng) if b.size]
        buffers, obstacles = trace, None
        if obstructed:
            buffers, obstacles = obstructed_part(trace)
        if not buffers:
            continue
        for order in range(6):
            for extra in (0, 1, 3):
                capacity = lower_bound(trace) + extra
                pure, compiled = both_searches(
                    buffers, order, capacity, 2_000, obstacles, memo=True
                )
                assert outcome(pure) == outcome(compiled)
                assert compiled.nodes == pure.nodes
                assert compiled.memo_hits == pure.memo_hits
                hits += pure.memo_hits
    assert hits


@pytest.mark.parametrize("seed", range(3))
def test_compiled_search_matches_on_wide_nodes_with_a_growing_stack(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # Root candidate lists above SHORT_LIST take the heapsort, and a stack of
    # one row makes the kernel ask for more (GROW) again and again.
    monkeypatch.setattr(decision, "CANDIDATE_ROWS", 0)
    buffers = wide_trace(seed)
    capacity = lower_bound(buffers)
    for order in range(6):
        pure, compiled = both_searches(buffers, order, capacity, 3_000)
        assert outcome(pure) == outcome(compiled)
        assert compiled.nodes == pure.nodes


@settings(max_examples=examples(25, 300), deadline=None)
@given(traces(max_buffers=12, max_time=8), st.one_of(st.none(), st.integers(0, 30)))
def test_both_paths_return_the_same_valid_plan_never_above_greedy(
    buffers: list[Buffer], capacity: int | None
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(PURE, raising=False)
        patch.setattr(decision, "PURE_PYTHON_SECONDS", 0)
        compiled = plan(buffers, capacity=capacity, budget=2_000)
        patch.setenv(PURE, "1")
        pure = plan(buffers, capacity=capacity, budget=2_000)
    greedy = plan(buffers, capacity=capacity, algorithm="greedy")
    for result in (compiled, pure):
        assert validate(buffers, result.offsets) is None
        assert result.height <= greedy.height
    assert compiled == pure  # offsets, height, bound and nodes


def challenging(letter: str) -> list[Buffer]:
    path = MINIMALLOC / "challenging" / f"{letter}.{CAPACITY}.csv"
    return read_trace(path).buffers


@pytest.mark.usefixtures("compiled_path")
@pytest.mark.parametrize("letter", ["A", "I", "J"])
def test_compiled_search_fits_challenging_files_with_the_default_budget(
    letter: str,
) -> None:
    buffers = challenging(letter)
    result = plan(buffers, capacity=CAPACITY)
    assert validate(buffers, result.offsets, capacity=CAPACITY) is None
    assert 0 < result.nodes <= DEFAULT_NODES


@pytest.mark.usefixtures("compiled_path")
def test_the_wall_clock_cap_cuts_the_compiled_search_and_says_so() -> None:
    # File D's lowest height is not proved within the default budget: a
    # quarter of a second cannot be enough, whatever the machine.
    buffers = challenging("D")
    result = plan(buffers, time_limit=0.25)
    assert result.time_limited
    assert result.nodes < DEFAULT_NODES
    assert validate(buffers, result.offsets) is None
    assert result.height <= plan(buffers, algorithm="greedy").height


def test_the_floor_check_hints_never_change_the_nodes() -> None:
    # WITNESS (where each section's last witness was) and FAILED_SECTION are
    # hints: started anywhere valid, the kernel visits the same nodes.
    rng = random.Random(5)
    for _ in range(20):
        buffers = random_trace(rng)
        for order in range(6):
            capacity = lower_bound(buffers) + rng.randrange(3)
            pure, compiled = both_searches(buffers, order, capacity, 1_000)
            starts = compiled.search.problem[kernel_state.MEMBER_STARTS]
            witness = compiled.search.state[kernel_state.WITNESS]
            for s in range(len(witness)):
                if starts[s + 1] > starts[s]:
                    witness[s] = rng.randrange(starts[s], starts[s + 1])
            compiled.search.scalars[kernel_state.FAILED_SECTION] = rng.randrange(
                len(witness)
            )
            assert outcome(pure) == outcome(compiled)
            assert compiled.nodes == pure.nodes


def test_compiled_search_matches_when_the_priority_stack_grows() -> None:
    # Each part saves the priorities it replaces; a stack of one entry makes
    # the kernel ask for more (GROW) at almost every part.
    rng = random.Random(11)
    grown = 0
    for _ in range(20):
        buffers = random_trace(rng)
        for order in range(6):
            pure, compiled = both_searches(buffers, order, lower_bound(buffers), 1_000)
            state = compiled.search.state
            small = numpy.zeros(1, dtype=numpy.int64)
            compiled.search.state = (*state[: kernel_state.PRIO_SAVED], small)
            assert outcome(pure) == outcome(compiled)
            assert compiled.nodes == pure.nodes
            grown += len(compiled.search.state[kernel_state.PRIO_SAVED]) > 1
    assert grown

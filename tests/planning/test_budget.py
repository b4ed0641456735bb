"""The `best` search is limited by work (search nodes), so its plans never depend
on the machine's load; a wall-clock cap is opt-in and says when it cut."""

import json
import threading

import pytest
from packing_strategies import MINIMALLOC

from memplan.planning import Buffer, Plan, decision, plan, validate
from memplan.planning.trace_csv import read_trace

PURE = "MEMPLAN_PURE_PYTHON"
# File D without a capacity: the search never closes the gap, so it goes
# through many decision searches and budget shares.
TRACE = read_trace(MINIMALLOC / "challenging" / "D.1048576.csv").buffers
BUDGET = 600


def fingerprint(result: Plan) -> str:
    """Everything a caller can see of a plan but the seconds, as text."""
    return json.dumps(
        {
            "offsets": result.offsets,
            "height": result.height,
            "optimal": result.optimal,
            "lower_bound": result.lower_bound,
            "nodes": result.nodes,
            "time_limited": result.time_limited,
        }
    )


def spin(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1_000))


def quiet_then_busy(budget: int) -> tuple[str, str]:
    quiet = fingerprint(plan(TRACE, budget=budget))
    stop = threading.Event()
    thread = threading.Thread(target=spin, args=(stop,))
    thread.start()
    try:
        busy = fingerprint(plan(TRACE, budget=budget))
    finally:
        stop.set()
        thread.join()
    return quiet, busy


def test_the_same_search_slowed_down_gives_the_same_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(PURE, "1")
    quiet, busy = quiet_then_busy(BUDGET)
    assert quiet == busy
    assert 0 < json.loads(quiet)["nodes"] <= BUDGET


def test_the_compiled_search_slowed_down_gives_the_pure_python_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("memplan.planning.search_kernel")
    monkeypatch.setenv(PURE, "1")
    pure = fingerprint(plan(TRACE, budget=BUDGET))
    monkeypatch.delenv(PURE)
    monkeypatch.setattr(decision, "PURE_PYTHON_SECONDS", 0)
    quiet, busy = quiet_then_busy(BUDGET)
    assert quiet == busy == pure


def test_a_zero_budget_keeps_greedy_plan() -> None:
    result = plan(TRACE, budget=0)
    assert result.offsets == plan(TRACE, algorithm="greedy").offsets
    assert result.nodes == 0 and not result.time_limited


def test_the_budget_is_never_overspent() -> None:
    for budget in (1, 10, 100, 777):
        result = plan(TRACE, budget=budget)
        assert 0 < result.nodes <= budget
        assert validate(TRACE, result.offsets) is None


def test_a_wall_clock_cap_that_cuts_says_so() -> None:
    result = plan(TRACE, time_limit=0)
    assert result.time_limited
    assert validate(TRACE, result.offsets) is None


def test_a_wall_clock_cap_that_does_not_cut_changes_nothing() -> None:
    small = [Buffer(0, 0, 2, 15), Buffer(1, 3, 4, 12), Buffer(2, 0, 4, 9)]
    buffers = [*small, Buffer(3, 3, 4, 9)]  # greedy 33, optimum 30
    capped = plan(buffers, time_limit=60)
    assert not capped.time_limited
    assert fingerprint(capped) == fingerprint(plan(buffers))


def test_bad_budgets_and_time_limits_are_rejected() -> None:
    with pytest.raises(ValueError, match="budget must be >= 0"):
        plan(TRACE, budget=-1)
    for limit in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time limit must be a finite number"):
            plan(TRACE, time_limit=limit)


def test_the_kernel_taking_over_a_pure_python_search_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("memplan.planning.search_kernel")
    monkeypatch.setenv(PURE, "1")
    pure = fingerprint(plan(TRACE, budget=BUDGET))
    monkeypatch.delenv(PURE)
    # As in a fresh process: pure Python first, the kernel not loaded yet; the
    # head start ends at the 50th node of the first search, whatever the clock.
    monkeypatch.setattr(decision, "_LOADED", {})
    monkeypatch.setattr(decision.search_aot, "built", lambda: False)
    monkeypatch.setattr(decision, "PURE_PYTHON_SECONDS", 1e9)
    handed_over: list[int] = []
    real_search = decision._DecisionSearch._search
    real_run = decision._DecisionSearch.run

    def search(self: decision._DecisionSearch, *args):  # type: ignore[no-untyped-def]
        if self.nodes == 50 and self.give_up_at is not None:
            self.give_up_at = 0.0
        return real_search(self, *args)

    def run(self: decision._DecisionSearch) -> bool:
        try:
            return real_run(self)
        except decision._HeadStartOver:
            handed_over.append(self.nodes)
            raise

    monkeypatch.setattr(decision._DecisionSearch, "_search", search)
    monkeypatch.setattr(decision._DecisionSearch, "run", run)
    assert fingerprint(plan(TRACE, budget=BUDGET)) == pure
    assert handed_over == [51]  # dropped in the middle of the first search

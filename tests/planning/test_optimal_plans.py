"""The plans in bench/data/minimalloc/optimal/ prove what docs/planning.md
says they prove: each is a valid plan of its challenging trace whose height
equals the max-live lower bound, so that height is the trace's optimum."""

from __future__ import annotations

from pathlib import Path

import pytest

from memplan.planning import lower_bound, validate
from memplan.planning.trace_csv import read_trace

DATA = Path(__file__).parents[2] / "bench" / "data" / "minimalloc"
OPTIMAL = sorted((DATA / "optimal").glob("*.csv"))


def test_the_optimal_plans_are_there() -> None:
    assert [path.name for path in OPTIMAL] == ["D.986112.csv"]


@pytest.mark.parametrize("path", OPTIMAL, ids=lambda path: path.stem)
def test_optimal_plan_is_valid_and_meets_the_lower_bound(path: Path) -> None:
    name, height = path.stem.split(".")
    plan = read_trace(path)
    trace = read_trace(DATA / "challenging" / f"{name}.1048576.csv")
    assert plan.buffers == trace.buffers
    assert plan.offsets is not None
    assert validate(plan.buffers, plan.offsets) is None
    assert max(plan.offsets[b.id] + b.size for b in plan.buffers) == int(height)
    assert lower_bound(plan.buffers) == int(height)

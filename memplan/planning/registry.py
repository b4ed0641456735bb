"""The algorithms by name, and `plan`, the one entry point callers need."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from memplan.planning.best import best_plan
from memplan.planning.budget import SearchObserver
from memplan.planning.buffers import Buffer, Plan, check_buffers
from memplan.planning.greedy import greedy_plan
from memplan.planning.token import token_plan


class Algorithm(Protocol):
    def __call__(
        self,
        buffers: Sequence[Buffer],
        capacity: int | None = None,
        time_limit: float | None = None,
        budget: int | None = None,
        observer: SearchObserver | None = None,
    ) -> Plan: ...


ALGORITHMS: dict[str, Algorithm] = {
    "token": token_plan,
    "greedy": greedy_plan,
    "best": best_plan,
}


def get_algorithm(name: str) -> Algorithm:
    """The algorithm called `name`; ValueError lists the known names otherwise."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise ValueError(f"unknown algorithm {name!r} (known: {known})") from None


def plan(
    buffers: Sequence[Buffer],
    capacity: int | None = None,
    algorithm: str = "best",
    time_limit: float | None = None,
    budget: int | None = None,
    observer: SearchObserver | None = None,
) -> Plan:
    """Assign offsets so that buffers alive together never share a byte.

    With a capacity the plan tries to fit it (check `plan.height <= capacity`);
    without one it minimizes the height.  `budget` bounds the `best` search in
    search nodes (default `budget.DEFAULT_NODES`): the plan depends on nothing
    else.  `time_limit` is an opt-in wall-clock cap on top; when it cuts the
    search short, `plan.time_limited` is set and the plan depends on the
    machine's load.  `observer` follows a long search.
    Raises TraceError for malformed buffers, ValueError for bad arguments.
    """
    run = get_algorithm(algorithm)
    if capacity is not None and capacity < 0:
        raise ValueError(f"capacity must be >= 0, got {capacity}")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit >= 0):
        raise ValueError(f"time limit must be a finite number >= 0, got {time_limit}")
    if budget is not None and budget < 0:
        raise ValueError(f"budget must be >= 0 search nodes, got {budget}")
    check_buffers(buffers)
    return run(buffers, capacity, time_limit, budget, observer)

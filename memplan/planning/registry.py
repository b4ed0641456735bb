"""The algorithms by name, and `plan`, the one entry point callers need."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memplan.planning.best import best_plan
from memplan.planning.buffers import Buffer, Plan, check_buffers
from memplan.planning.greedy import greedy_plan
from memplan.planning.token import token_plan

Algorithm = Callable[[Sequence[Buffer], int | None, float | None], Plan]

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
) -> Plan:
    """Assign offsets so that buffers alive together never share a byte.

    With a capacity the plan tries to fit it (check `plan.height <= capacity`);
    without one it minimizes the height.  `time_limit` bounds the `best` search.
    Raises TraceError for malformed buffers, ValueError for bad arguments.
    """
    run = get_algorithm(algorithm)
    if capacity is not None and capacity < 0:
        raise ValueError(f"capacity must be >= 0, got {capacity}")
    if time_limit is not None and time_limit < 0:
        raise ValueError(f"time limit must be >= 0, got {time_limit}")
    check_buffers(buffers)
    return run(buffers, capacity, time_limit)

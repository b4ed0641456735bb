"""How much work the `best` search may do, counted so that plans never depend on load.

The budget is a number of search nodes: the compiled and the pure-Python
search visit the same nodes, so the same input and budget give the same plan
on any machine, under any load.  A wall-clock cap exists only as an opt-in
safety net; when it cuts the search short the plan says so
(`Plan.time_limited`), because from then on the result depends on the load.
"""

from __future__ import annotations

import time
from typing import Protocol

DEFAULT_NODES = 1_000_000
"""Search nodes of `plan(..., algorithm="best")` when no budget is given: enough
for every MiniMalloc challenging file to fit 1 MiB (see docs/planning.md)."""

PROGRESS_SECONDS = 0.1
"""An observer hears about the search at most this often."""


class SearchObserver(Protocol):
    """Whoever wants to follow a long search (e.g. a status line on a terminal)."""

    def loading_kernel(self, compiling: bool) -> None:
        """The compiled search is about to be loaded (compiling: no usable cache)."""
        ...

    def searching(self, height: int, nodes: int, seconds: float) -> None:
        """Best height so far, search nodes spent and seconds since the start."""
        ...


class OutOfBudget(Exception):
    """A search reached its share of the node budget, or the wall-clock cap."""


class Budget:
    """Search nodes spent against a total, plus the opt-in wall-clock cap.

    Shares of the budget are node marks: a step that may use half of what is
    left runs until `spent` reaches `share(mark, 1, 2)`.
    """

    def __init__(
        self,
        nodes: int,
        time_limit: float | None = None,
        observer: SearchObserver | None = None,
    ):
        self.total = nodes
        self.spent = 0
        self.started = time.perf_counter()
        self._search_cpu_started: float | None = None
        self.wall_deadline = None if time_limit is None else self.started + time_limit
        self.time_limited = False
        self.observer = observer
        self.height = 0  # best height so far, for the observer
        self._next_report = self.started + PROGRESS_SECONDS
        # Only a cap or an observer needs the clock inside the search.
        self.watching = time_limit is not None or observer is not None

    def search_cpu_started(self) -> float:
        """The process CPU time when the first search of this plan started (set by
        the first call): imports and setup before it are not search time."""
        if self._search_cpu_started is None:
            self._search_cpu_started = time.process_time()
        return self._search_cpu_started

    def share(self, mark: int, numerator: int, denominator: int) -> int:
        """The mark `numerator / denominator` of the way from now to `mark`."""
        return self.spent + max(mark - self.spent, 0) * numerator // denominator

    def past(self, mark: int) -> bool:
        """Whether `mark` is reached, or the wall-clock cap has passed."""
        return self.spent >= mark or self.out_of_time()

    def out_of_time(self) -> bool:
        if self.wall_deadline is not None and not self.time_limited:
            self.time_limited = time.perf_counter() > self.wall_deadline
        return self.time_limited

    def tick(self, running: int) -> bool:
        """Called during a search that has spent `running` nodes so far: tells the
        observer now and then, and says whether the wall-clock cap has passed."""
        if not self.watching:
            return False
        now = time.perf_counter()
        if self.observer is not None and now >= self._next_report:
            self._next_report = now + PROGRESS_SECONDS
            self.observer.searching(
                self.height, self.spent + running, now - self.started
            )
        return self.out_of_time()

    def pause_clock(self, seconds: float) -> None:
        """Keep `seconds` of one-off work (loading the kernel) out of the cap."""
        if self.wall_deadline is not None:
            self.wall_deadline += seconds

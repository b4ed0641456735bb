"""`best`: the lowest arena within a budget of search nodes, from greedy's plan down.

All work is counted in search nodes (`budget.Budget`), never in seconds, so
a plan depends only on the input and the budget.  Decision problems
(`decision.Solver`) are iterated from the max-live lower bound up to the
incumbent, starting from the greedy plan, so the result is never worse than
greedy and is proved optimal when the search closes the gap.  A capacity
does not change that course: the search stops at the first plan that fits
it.  So whatever height the search reaches within a budget, every capacity
at or above it fits, and a fit at C implies a fit at any larger C.

A large trace is cut into time windows (`windows`), searched one by one,
each keeping its best-fit layout if its share of the budget runs out; the
whole is never worse than greedy's plan.  Zero-size buffers stay at offset
0, outside the search.  numpy and the search load only when greedy's plan
is not already optimal.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memplan.planning.budget import (
    DEFAULT_NODES,
    Budget,
    OutOfBudget,
    SearchObserver,
)
from memplan.planning.buffers import (
    INT64_MAX,
    Buffer,
    BufferId,
    Plan,
    lower_bound,
    make_plan,
    plan_height,
)
from memplan.planning.greedy import greedy_offsets
from memplan.planning.sections import TimeStructure, TooManyOverlaps, sweep
from memplan.planning.windows import Windows, choose_cuts, split, window_offsets

if TYPE_CHECKING:
    from memplan.planning.decision import Solver

# Above this many buffer pairs alive together the search keeps the greedy plan.
MAX_OVERLAP_PAIRS = 1_000_000
# Why greedy's plan is kept when its height is beyond the search's int64 arrays.
TOO_HIGH = "heights reach 2^62 bytes, beyond the search's int64 arithmetic"
# From this many buffers on, the trace is cut into time windows searched one
# by one (see _Slicer).  Below it one search covers the whole trace (it still
# splits where nothing is alive across, inside): one binary search over the
# height shares the budget better than one per window.
SLICE_MIN_BUFFERS = 5_000
# Windows hold about this many buffers (between half and 1.5 times as many),
# unless a point where nothing is alive across ends them earlier.
SLICE_BUFFERS = 2_000


def _minimize(
    solver: Solver,
    floor: int,
    incumbent: list[int],
    height: int,
    mark: int,
    stop_at: int = -1,
    others: int = 0,
) -> tuple[list[int], int]:
    """Decision problems between `floor` and the incumbent's height, until the
    budget reaches `mark` or the whole plan is at or below `stop_at`.

    `others` is the height of the rest of the plan (other time slices), which
    this search cannot change.  Returns (offsets, closed floor): no height
    below the closed floor fits, or it is the `floor` given.  Each step lets
    three capacities take turns for half the budget left: the lowest still
    open (tight, so strongly pruned and often reachable), the midpoint and a
    quarter of the gap below the incumbent (easy, so the height keeps going
    down).  A capacity a search exhausts closes the floor up to it; a step
    that runs out of budget moves the search above its highest capacity
    without proving anything.  A step whose highest capacity is one byte
    below the incumbent gets all the budget left: it is the last.
    """
    budget = solver.budget
    sizes = [b.size for b in solver.buffers]
    proved_floor = search_floor = floor
    while search_floor < height and max(height, others) > stop_at:
        if budget.past(mark):
            break
        gap = height - search_floor
        targets = sorted(
            {search_floor, search_floor + gap // 2, height - max(gap // 4, 1)}
        )
        last_step = targets[-1] + 1 == height
        try:
            found = solver.fit(targets, mark if last_step else budget.share(mark, 1, 2))
        except OutOfBudget:
            found = None
            search_floor = targets[-1] + 1
        # Infeasibility is monotone: nothing at or below an exhausted capacity fits.
        proved_floor = max(proved_floor, solver.proved_impossible + 1)
        search_floor = max(search_floor, proved_floor)
        if found is not None:
            incumbent = found
            height = max(o + s for o, s in zip(found, sizes, strict=True))
            budget.height = max(height, others)
    return incumbent, proved_floor


def _height(buffers: Sequence[Buffer], offsets: list[int]) -> int:
    return max((o + b.size for b, o in zip(buffers, offsets, strict=True)), default=0)


@dataclass(eq=False)
class _Slice:
    """One time window of a large trace, searched on its own."""

    group: list[int]  # indices into the sized buffers
    part: list[Buffer]
    # Per buffer, the byte ranges of the pinned buffers it meets; None: none.
    obstacles: list[list[tuple[int, int]]] | None
    height: int  # of its current layout
    floor: int = 0  # its max-live bound, once it may be searched
    target: int = 0  # the floor its search starts from
    structure: TimeStructure | None = None


class _Slicer:
    """Time windows searched one by one, each from its best-fit layout around the
    pinned buffers: given those, windows never meet, so any mix of per-window
    layouts is valid.

    A window the search lowers keeps the search's layout, one whose share of
    the budget runs out keeps best-fit's.  Only windows above the whole
    trace's lower bound (and then above the highest window height reached so
    far) are searched, the highest first, each with a share of the budget
    left in proportion to its buffers; budget that windows finishing early
    leave over goes back to the open windows that still set the height.  A
    capacity only ends the course early, once every window is at or below it.
    Only a window that meets no pinned buffer proves a bound for the trace
    when its search exhausts a capacity.
    """

    def __init__(
        self,
        buffers: Sequence[Buffer],
        windows: Windows,
        budget: Budget,
        stop_at: int,
        bound: int,
    ):
        self.buffers = buffers
        self.offsets = [0] * len(buffers)
        for i, offset in zip(windows.pinned, windows.pinned_offsets, strict=True):
            self.offsets[i] = offset
        self.pinned_height = max(
            (self.offsets[i] + buffers[i].size for i in windows.pinned), default=0
        )
        self.budget = budget
        self.stop_at = stop_at
        self.slices = []
        for window in windows.windows:
            part = [buffers[i] for i in window.members]
            layout = window_offsets(buffers, windows, window)
            for i, offset in zip(window.members, layout, strict=True):
                self.offsets[i] = offset
            obstacles = window.obstacles if any(window.obstacles) else None
            self.slices.append(
                _Slice(window.members, part, obstacles, _height(part, layout))
            )
        self.bound = bound
        self.crowded = 0  # windows to search that were too crowded for it

    def height(self) -> int:
        return max([self.pinned_height, *(s.height for s in self.slices)])

    def fits(self) -> bool:
        return self.height() <= self.stop_at

    def run(self, mark: int) -> tuple[list[int], int]:
        """(offsets, proved lower bound of the whole trace)."""
        floor = self.bound
        todo = [s for s in self.slices if s.height > floor]
        for item in todo:
            item.floor = lower_bound(item.part)
        todo = [s for s in todo if s.height != s.floor]
        todo.sort(key=lambda s: -s.height)
        bar = floor
        open_slices: list[_Slice] = []
        for k, item in enumerate(todo):
            if item.height <= bar:
                continue  # below a slice that could not be lowered: it does not matter
            if self.fits() or self.budget.past(mark):
                break
            try:
                item.structure = sweep(item.part, MAX_OVERLAP_PAIRS)
            except TooManyOverlaps:
                self.crowded += 1
                continue
            waiting = sum(len(s.part) for s in todo[k:] if s.height > bar)
            item.target = max(item.floor, bar)
            if not self._search(item, self.budget.share(mark, len(item.part), waiting)):
                open_slices.append(item)
            bar = max(bar, item.height)
        self._retry(open_slices, mark)
        return self.offsets, self.bound

    def _retry(self, open_slices: list[_Slice], mark: int) -> None:
        """Budget left (slices that finished early): back to the open slices
        that still set the height."""
        while open_slices and not self.fits() and not self.budget.past(mark):
            top = self.height()
            again = [s for s in open_slices if s.height >= top]
            if not again:
                break
            before = sum(s.height for s in open_slices)
            sizes = [len(s.part) for s in again]
            still_open = [
                item
                for k, item in enumerate(again)
                if not self._search(
                    item, self.budget.share(mark, sizes[k], sum(sizes[k:]))
                )
            ]
            open_slices = [s for s in open_slices if s not in again] + still_open
            after = sum(s.height for s in open_slices)
            if after >= before and len(still_open) == len(again):
                break  # no progress with a fair share of the budget: keep what we have

    def _search(self, item: _Slice, mark: int) -> bool:
        """Lower one slice from its current layout; whether it is closed (nothing
        between its target and its height fits)."""
        assert item.structure is not None
        if self.fits():
            return True
        others = max(
            [self.pinned_height, *(s.height for s in self.slices if s is not item)]
        )
        from memplan.planning.decision import Solver

        found, closed = _minimize(
            Solver(item.part, item.structure, self.budget, item.obstacles),
            item.target,
            [self.offsets[i] for i in item.group],
            item.height,
            mark,
            self.stop_at,
            others,
        )
        for i, offset in zip(item.group, found, strict=True):
            self.offsets[i] = offset
        item.height = _height(item.part, found)
        # Proved by the search, not just where it started, and for the trace.
        if closed > item.target and item.obstacles is None:
            self.bound = max(self.bound, closed)
        return closed >= item.height


def best_plan(
    buffers: Sequence[Buffer],
    capacity: int | None = None,
    time_limit: float | None = None,
    budget: int | None = None,
    observer: SearchObserver | None = None,
) -> Plan:
    """Fit `capacity` (or minimize the height) exactly, within `budget` search nodes
    (default DEFAULT_NODES) and, if given, `time_limit` seconds of wall clock."""
    started = time.perf_counter()
    work = Budget(DEFAULT_NODES if budget is None else budget, time_limit, observer)
    floor = lower_bound(buffers)
    sized = [b for b in buffers if b.size]
    if len(sized) >= SLICE_MIN_BUFFERS:
        return _best_by_windows(buffers, sized, capacity, floor, work, started)
    greedy = greedy_offsets(buffers)
    height = plan_height(buffers, greedy)
    if height == floor or (capacity is not None and height <= capacity):
        return make_plan(buffers, greedy, "best", capacity, started, bound=floor)
    structure, unsearched = _structure(sized, height)
    incumbent = [greedy[b.id] for b in sized]
    if structure is None or work.out_of_time():
        return _plan_from(
            buffers, sized, incumbent, capacity, started, floor, work, unsearched
        )
    work.height = height
    stop_at = -1 if capacity is None else capacity
    from memplan.planning.decision import Solver

    with _recursion_for(sized):
        offsets, bound = _minimize(
            Solver(sized, structure, work),
            floor,
            incumbent,
            height,
            work.total,
            stop_at,
        )
    return _plan_from(buffers, sized, offsets, capacity, started, bound, work)


def _structure(sized: list[Buffer], height: int) -> tuple[TimeStructure | None, str]:
    """The search's view of the trace, or None and why greedy's plan is kept:
    too crowded a trace, or heights beyond the search's int64 arrays."""
    if height > INT64_MAX // 2:
        return None, TOO_HIGH
    try:
        return sweep(sized, MAX_OVERLAP_PAIRS), ""
    except TooManyOverlaps:
        return None, _too_crowded()


def _too_crowded(windows: int = 0) -> str:
    """Why a trace, or `windows` of its time windows, kept their first layout."""
    where = f"in {windows} window{'s' if windows > 1 else ''}: " if windows else ""
    return f"{where}more than {MAX_OVERLAP_PAIRS:,} pairs of buffers alive together"


def _best_by_windows(
    buffers: Sequence[Buffer],
    sized: list[Buffer],
    capacity: int | None,
    floor: int,
    work: Budget,
    started: float,
) -> Plan:
    """`best` on a large trace: window by window (see _Slicer), then greedy's plan
    of the whole if the windows did not reach the bound and greedy is lower
    (also when the windows fit a capacity: `best` is never above greedy)."""
    slicer = _Slicer(
        sized,
        split(sized, choose_cuts(sized, SLICE_BUFFERS)),
        work,
        -1 if capacity is None else capacity,
        floor,
    )
    height = slicer.height()
    unsearched = TOO_HIGH
    if height <= INT64_MAX // 2:
        unsearched = ""
        work.height = height
        with _recursion_for(max((s.part for s in slicer.slices), key=len, default=[])):
            slicer.run(work.total)
        height = slicer.height()
        if slicer.crowded:
            unsearched = _too_crowded(slicer.crowded)
    offsets = slicer.offsets
    if height > slicer.bound:
        greedy = greedy_offsets(sized)
        if plan_height(sized, greedy) < height:
            offsets = [greedy[b.id] for b in sized]
    return _plan_from(
        buffers, sized, offsets, capacity, started, slicer.bound, work, unsearched
    )


@contextlib.contextmanager
def _recursion_for(buffers: Sequence[Buffer]) -> Iterator[None]:
    """Room for the pure-Python search, which recurses about once per buffer."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * len(buffers) + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old_limit)


def _plan_from(
    buffers: Sequence[Buffer],
    sized: list[Buffer],
    offsets: list[int],
    capacity: int | None,
    started: float,
    bound: int,
    work: Budget,
    unsearched: str = "",
) -> Plan:
    by_id: dict[BufferId, int] = {b.id: 0 for b in buffers}
    for buffer, offset in zip(sized, offsets, strict=True):
        by_id[buffer.id] = offset
    return make_plan(
        buffers,
        by_id,
        "best",
        capacity,
        started,
        bound=bound,
        nodes=work.spent,
        time_limited=work.time_limited,
        unsearched=unsearched,
    )

"""Exact search for the lowest arena, after the ideas of MiniMalloc (Moffitt, ASPLOS 2024).

The decision problem "do these buffers fit in C bytes?" is solved by a depth-first
search over canonical solutions: each step picks an unplaced buffer and puts it
at its lowest offset on top of the placed buffers it meets in time, and steps go
in non-decreasing (offset, preorder rank), so each packing is enumerated once.
Pruning:

* cross-section bound: in every time section, the floor plus the bytes still
  unplaced there must fit under C (and no future buffer goes below the current
  offset, so the current offset plus those bytes must fit too);
* dominance: a buffer is never placed at or above the lowest end any other
  unplaced buffer could reach, as that would leave a gap that buffer could fill;
* decomposition: once no unplaced buffer crosses a section boundary, the two
  sides are independent sub-problems, solved one after the other.

Several static buffer orders take turns under doubling node budgets (each
hard instance tends to be easy for one of them).  With a capacity above the
lower bound, the lower bound itself takes turns too: tighter problems prune
harder.  Without a capacity, decision problems are iterated from the max-live
lower bound (binary search up to the incumbent), starting from the greedy plan,
so the result is never worse than greedy and is proved optimal when the search
closes the gap in time.  Zero-size buffers stay at offset 0, outside the search.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy
import numpy.typing

from memplan.planning.buffers import (
    Buffer,
    BufferId,
    Plan,
    lower_bound,
    make_plan,
    plan_height,
)
from memplan.planning.greedy import greedy_offsets
from memplan.planning.sections import TimeStructure, TooManyOverlaps, sweep

DEFAULT_TIME_LIMIT = 10.0
# Above this many buffer pairs alive together the search keeps the greedy plan.
MAX_OVERLAP_PAIRS = 1_000_000
_PLACED = numpy.iinfo(numpy.int64).max // 2

IntArray = numpy.typing.NDArray[numpy.int64]
# The ufunc reductions themselves: ndarray.max() and friends add a Python-level
# wrapper call that shows in a search making hundreds of thousands of them.
_max = numpy.maximum.reduce
_min = numpy.minimum.reduce
_any = numpy.logical_or.reduce


class _OutOfTime(Exception):
    pass


class _OutOfNodes(Exception):
    pass


@dataclass(frozen=True)
class _Problem:
    """Nonzero-size buffers renumbered by a preorder rank (rank = index), as arrays."""

    sizes: IntArray
    alignments: IntArray
    aligned: bool  # any alignment above 1
    first_section: list[int]
    last_section: list[int]
    first_section_array: IntArray
    last_section_array: IntArray
    overlaps: list[IntArray]
    section_totals: IntArray
    # Members of section s: section_members[member_starts[s] : member_starts[s + 1]].
    section_members: IntArray
    member_starts: IntArray
    cuts: IntArray


class _DecisionSearch:
    """One depth-first search for a packing under `capacity`, within a node budget.

    State lives in numpy arrays so each step costs a few vectorized operations
    instead of Python loops over neighbours and sections.
    """

    def __init__(
        self, problem: _Problem, capacity: int, deadline: float, node_limit: int
    ):
        self.problem = problem
        self.capacity = capacity
        self.deadline = deadline
        self.nodes_left = node_limit
        count = len(problem.sizes)
        # Lowest offset each unplaced buffer can take; _PLACED once it is placed,
        # so placed buffers drop out of minimums and are never lifted.
        self.min_offsets = numpy.zeros(count, dtype=numpy.int64)
        self.solution = [0] * count
        self.totals = problem.section_totals.copy()
        self.cuts = problem.cuts.copy()

    def run(self) -> bool:
        cut_points = (numpy.flatnonzero(self.cuts[:-1] == 0) + 1).tolist()
        everyone = numpy.arange(len(self.solution), dtype=numpy.int64)
        return self._solve_parts(everyone, 0, len(self.totals), cut_points)

    def _solve_parts(
        self, members: IntArray, lo: int, hi: int, cut_points: list[int]
    ) -> bool:
        """Solve the independent sub-problems between consecutive cut points."""
        if not cut_points:
            return self._search(members, lo, hi, (-1, -1))
        bounds = [lo, *cut_points, hi]
        part_of = numpy.searchsorted(
            bounds, self.problem.first_section_array[members], side="right"
        )
        for k in range(len(bounds) - 1):
            group = members[part_of == k + 1]
            if len(group) and not self._search(
                group, bounds[k], bounds[k + 1], (-1, -1)
            ):
                return False
        return True

    def _search(
        self, members: IntArray, lo: int, hi: int, last: tuple[int, int]
    ) -> bool:
        if not len(members):
            return True
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise _OutOfNodes
        if time.perf_counter() > self.deadline:  # cheap next to a node's array work
            raise _OutOfTime
        problem = self.problem
        capacity = self.capacity
        offsets = self.min_offsets[members]
        sizes = problem.sizes[members]
        min_height = int(_min(offsets + sizes))
        part = self.totals[lo:hi]
        prefix = numpy.maximum.accumulate(part)
        # Every later placement is at or above this one's offset, so a candidate
        # must leave room for the fullest section bar (at most) its own bytes.
        slack = capacity - int(prefix[-1]) + int(_max(sizes))
        order = offsets.argsort(kind="stable")  # members are sorted: ties go by rank
        offsets, members_by_offset = offsets[order], members[order]
        # Canonical order: skip candidates before the last placement (offset, rank),
        # and stop at the first offset that dominance or the slack rule out.
        last_offset, last_rank = last
        start = int(offsets.searchsorted(last_offset))
        ties = int(offsets.searchsorted(last_offset, side="right"))
        start += int(
            members_by_offset[start:ties].searchsorted(last_rank, side="right")
        )
        stop = int(offsets.searchsorted(min(min_height, slack + 1)))
        if start >= stop:
            return False
        candidates = members_by_offset[start:stop]
        candidate_offsets = offsets[start:stop]
        # The fullest section outside each candidate's own sections, which its
        # placement leaves untouched: max over [lo, first) and [last, hi).
        zero = numpy.zeros(1, dtype=numpy.int64)
        before = numpy.concatenate((zero, prefix))
        after = numpy.concatenate((numpy.maximum.accumulate(part[::-1])[::-1], zero))
        outside = numpy.maximum(
            before[problem.first_section_array[candidates] - lo],
            after[problem.last_section_array[candidates] - lo],
        )
        viable = candidate_offsets + outside <= capacity
        for offset, i in zip(
            candidate_offsets[viable].tolist(), candidates[viable].tolist(), strict=True
        ):
            if self._try_place(i, offset, members, lo, hi):
                return True
        return False

    def _try_place(
        self, i: int, offset: int, members: IntArray, lo: int, hi: int
    ) -> bool:
        problem = self.problem
        size = int(problem.sizes[i])
        first, last = problem.first_section[i], problem.last_section[i]
        totals = self.totals
        if offset + int(_max(totals[first:last])) > self.capacity:
            return False  # its end plus the bytes still to place beside it
        totals[first:last] -= size
        min_offsets = self.min_offsets
        min_offsets[i] = _PLACED
        self.solution[i] = offset
        raised, old_offsets = self._raise_neighbours(i, offset + size)
        found = False
        if self._floors_fit(raised, first, last):
            crossings = self.cuts[first : last - 1]  # boundaries buffer i crosses
            crossings -= 1
            cut_points = (numpy.flatnonzero(crossings == 0) + first + 1).tolist()
            rest = members[members != i]
            if cut_points:
                found = self._solve_parts(rest, lo, hi, cut_points)
            else:
                found = self._search(rest, lo, hi, (offset, i))
            crossings += 1
        min_offsets[raised] = old_offsets
        min_offsets[i] = offset
        totals[first:last] += size
        return found

    def _raise_neighbours(self, i: int, end: int) -> tuple[IntArray, IntArray]:
        """Lift unplaced neighbours in time above buffer i; returns them and their old offsets."""
        neighbours = self.problem.overlaps[i]
        min_offsets = self.min_offsets
        old = min_offsets[neighbours]
        lifted = old < end
        raised = neighbours[lifted]
        if self.problem.aligned:
            alignments = self.problem.alignments[raised]
            min_offsets[raised] = -(-end // alignments) * alignments
        else:
            min_offsets[raised] = end
        return raised, old[lifted]

    def _floors_fit(self, raised: IntArray, first: int, last: int) -> bool:
        """Cross-section bound in every section where a minimum offset moved.

        No unplaced buffer of a section goes below the lowest of their minimum
        offsets (its floor), so the floor plus the section's unplaced bytes must fit.
        """
        if not len(raised):
            return True
        problem = self.problem
        lo = min(first, int(_min(problem.first_section_array[raised])))
        hi = max(last, int(_max(problem.last_section_array[raised])))
        starts = problem.member_starts
        members = problem.section_members[starts[lo] : starts[hi]]
        floors = numpy.minimum.reduceat(
            self.min_offsets[members], starts[lo:hi] - starts[lo]
        )
        totals = self.totals[lo:hi]
        return not _any((floors + totals > self.capacity) & (totals > 0))


PreorderKey = Callable[[int], tuple[int, ...]]


def _preorders(buffers: Sequence[Buffer], structure: TimeStructure) -> list[list[int]]:
    """Static orders tried in round robin: hard buffers first, "hard" measured differently.

    No single order wins everywhere (on the MiniMalloc suite each file is solved
    in a few hundred nodes by some order and not in thousands by others), so a
    portfolio with doubling node budgets beats any one order.
    """
    totals = structure.section_totals
    first, last = structure.first_section, structure.last_section
    crowd = [max(totals[first[i] : last[i]]) for i in range(len(buffers))]
    width = [last[i] - first[i] for i in range(len(buffers))]
    length = [b.upper - b.lower for b in buffers]
    area = [b.size * (b.upper - b.lower) for b in buffers]
    size = [b.size for b in buffers]
    overlaps = [len(o) for o in structure.overlaps]
    keys: list[PreorderKey] = [
        lambda i: (-crowd[i], -area[i], i),
        lambda i: (-crowd[i], -width[i], -area[i], i),
        lambda i: (-crowd[i], -length[i], i),
        lambda i: (-crowd[i], -overlaps[i], i),
        lambda i: (-length[i], -size[i], i),
        lambda i: (-overlaps[i], -size[i], i),
    ]
    return [sorted(range(len(buffers)), key=key) for key in keys]


def _renumber(
    buffers: Sequence[Buffer], structure: TimeStructure, order: list[int]
) -> _Problem:
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.arange(len(order))
    member_lists = [numpy.sort(rank[m]) for m in structure.section_members]
    starts = numpy.cumsum([0] + [len(m) for m in member_lists])
    first_section = [structure.first_section[i] for i in order]
    last_section = [structure.last_section[i] for i in order]
    return _Problem(
        sizes=numpy.array([buffers[i].size for i in order], dtype=numpy.int64),
        aligned=any(buffers[i].alignment > 1 for i in order),
        alignments=numpy.array(
            [buffers[i].alignment for i in order], dtype=numpy.int64
        ),
        first_section=first_section,
        last_section=last_section,
        first_section_array=numpy.array(first_section, dtype=numpy.int64),
        last_section_array=numpy.array(last_section, dtype=numpy.int64),
        overlaps=[
            rank[numpy.array(structure.overlaps[i], dtype=numpy.int64)] for i in order
        ],
        section_totals=numpy.array(structure.section_totals, dtype=numpy.int64),
        section_members=numpy.concatenate(member_lists),
        member_starts=starts,
        cuts=numpy.array(structure.cuts, dtype=numpy.int64),
    )


class _Solver:
    """Decision problems over one set of nonzero-size buffers, heuristics in round robin."""

    def __init__(self, buffers: Sequence[Buffer], structure: TimeStructure):
        self.buffers = buffers
        self.structure = structure
        self.orders = _preorders(buffers, structure)
        self.problems: dict[int, _Problem] = {}

    def _problem(self, k: int, deadline: float) -> _Problem:
        """The arrays for order k, built on first use (a short time limit may never need them)."""
        if k not in self.problems:
            if time.perf_counter() > deadline:
                raise _OutOfTime
            self.problems[k] = _renumber(self.buffers, self.structure, self.orders[k])
        return self.problems[k]

    def fit(self, capacities: list[int], deadline: float) -> list[int] | None:
        """Offsets (by buffer index) fitting one of `capacities`, or None when all are
        proved impossible.

        Raises _OutOfTime at the deadline.  Node budgets double each round and the
        orders (and capacities) take turns, so whichever combination is easy
        finishes early, as in MiniMalloc.
        """
        open_capacities = list(capacities)
        node_limit = max(len(self.buffers), 1)
        while open_capacities:
            node_limit *= 2
            for capacity in list(open_capacities):
                for k, order in enumerate(self.orders):
                    problem = self._problem(k, deadline)
                    search = _DecisionSearch(problem, capacity, deadline, node_limit)
                    try:
                        found = search.run()
                    except _OutOfNodes:
                        continue
                    if not found:  # and so is every smaller capacity
                        open_capacities = [c for c in open_capacities if c > capacity]
                        break
                    offsets = [0] * len(order)
                    for position, i in enumerate(order):
                        offsets[i] = search.solution[position]
                    return offsets
        return None


def _minimize(
    solver: _Solver, floor: int, incumbent: list[int], height: int, deadline: float
) -> tuple[list[int], bool]:
    """Binary search on the capacity between `floor` and the incumbent's height.

    Returns (offsets, proved optimal).  Each step lets the lowest open capacity
    (tight, so strongly pruned and often reachable) and the midpoint (easier)
    take turns for half the time left; running out of time moves the search
    above the midpoint without proving anything.
    """
    sizes = [b.size for b in solver.buffers]
    proved_floor = search_floor = floor
    while search_floor < height:
        now = time.perf_counter()
        if now >= deadline:
            break
        targets = sorted({search_floor, (search_floor + height) // 2})
        try:
            found = solver.fit(targets, now + (deadline - now) / 2)
        except _OutOfTime:
            search_floor = targets[-1] + 1
        else:
            if found is None:
                # Infeasibility is monotone: nothing at or below the targets fits.
                proved_floor = search_floor = targets[-1] + 1
            else:
                incumbent = found
                height = max(o + s for o, s in zip(found, sizes, strict=True))
    return incumbent, proved_floor >= height


def _fit_tight_first(
    solver: _Solver, floor: int, capacity: int, deadline: float
) -> list[int] | None:
    """Offsets within `capacity`, or None (proved impossible or out of time).

    A slack capacity weakens the cross-section bound, so the search can wander
    longer than at the lower bound itself: both take turns.
    """
    try:
        return solver.fit(sorted({floor, capacity}), deadline)
    except _OutOfTime:
        return None


def best_plan(
    buffers: Sequence[Buffer],
    capacity: int | None = None,
    time_limit: float | None = None,
) -> Plan:
    """Fit `capacity` (or minimize the height) exactly, within `time_limit` seconds."""
    started = time.perf_counter()
    deadline = started + (DEFAULT_TIME_LIMIT if time_limit is None else time_limit)
    greedy = greedy_offsets(buffers)
    height = plan_height(buffers, greedy)
    floor = lower_bound(buffers)
    if height == floor or (capacity is not None and height <= capacity):
        return make_plan(
            buffers, greedy, "best", capacity, started, proved_optimal=True
        )
    sized = [b for b in buffers if b.size]
    structure = None
    # Greedy alone may use up a short limit; too crowded a trace keeps greedy's plan.
    if time.perf_counter() < deadline:
        with contextlib.suppress(TooManyOverlaps):
            structure = sweep(sized, MAX_OVERLAP_PAIRS)
    if structure is None or time.perf_counter() >= deadline:
        return make_plan(buffers, greedy, "best", capacity, started)
    solver = _Solver(sized, structure)
    incumbent = [greedy[b.id] for b in sized]
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * len(sized) + 1000))
    try:
        if capacity is not None and floor <= capacity:
            found = _fit_tight_first(solver, floor, capacity, deadline)
            if found is not None:
                return _plan_from(buffers, sized, found, capacity, started, proved=True)
            floor = capacity + 1
        offsets, proved = _minimize(solver, floor, incumbent, height, deadline)
    finally:
        sys.setrecursionlimit(old_limit)
    return _plan_from(buffers, sized, offsets, capacity, started, proved)


def _plan_from(
    buffers: Sequence[Buffer],
    sized: list[Buffer],
    offsets: list[int],
    capacity: int | None,
    started: float,
    proved: bool,
) -> Plan:
    by_id: dict[BufferId, int] = {b.id: 0 for b in buffers}
    for buffer, offset in zip(sized, offsets, strict=True):
        by_id[buffer.id] = offset
    return make_plan(buffers, by_id, "best", capacity, started, proved_optimal=proved)

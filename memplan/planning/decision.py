"""The decision search of `best`: do these buffers fit in C bytes?

After the ideas of MiniMalloc (Moffitt, ASPLOS 2024): a depth-first search
over canonical solutions.  Each step picks an unplaced buffer and puts it at
its lowest offset on top of the placed buffers it meets in time, and steps
go in non-decreasing (offset, priority), so each packing is enumerated once.
As in MiniMalloc, each independent part of the search (the whole trace, then
each part a decomposition splits off) gives its buffers priorities afresh:
for the crowd-first orders, by the unplaced bytes now in their fullest
section, ties by the rest of the order (file I only fits this way).
Pruning:

* cross-section bound: in every time section, the floor plus the bytes still
  unplaced there must fit under C (and no future buffer goes below the current
  offset, so the current offset plus those bytes must fit too);
* dominance: a buffer is never placed at or above the lowest end any other
  unplaced buffer could reach, as that would leave a gap that buffer could fill;
* decomposition: once no unplaced buffer crosses a section boundary, the two
  sides are independent sub-problems, solved one after the other;
* hatless buffers: a buffer whose neighbours in time are all placed has a
  final offset; if placing it fails, or the canonical order has passed it,
  the node fails;
* twins: of buffers identical but for the id, the lower priority goes first;
* failure memo (off unless the problem asks for it, and only with static
  priorities): below a node, the search depends only on its part, its
  unplaced buffers and their lowest offsets, and on its last placement,
  a higher one leaving only fewer candidates; so a node whose state failed
  before with its last placement at or below this one's fails at once.
  States are stored by a 128-bit hash in a fixed table (`kernel_state`), so
  a collision could cut a search wrongly: a failure that a memo hit cut is
  no proof (Solver counts it as undecided); a plan found is valid anyway.

Several static buffer orders take turns under growing node limits (each
hard instance tends to be easy for one of them), all counted on the plan's
`budget.Budget`.

Each search runs in `search_kernel`, compiled by numba, when the `fast`
extra is installed: it visits exactly the nodes _DecisionSearch visits,
30-100 times faster.  Compiled ahead of time (`search_aot`), it loads in a
millisecond; until that module is built, loading the jit kernel costs about
0.7 s, so _DecisionSearch runs the first PURE_PYTHON_SECONDS of every plan
(easy traces never pay for loading numba).  It is also the fallback without
numba, and MEMPLAN_PURE_PYTHON=1 forces it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy
import numpy.typing

from memplan.planning import search_aot
from memplan.planning.budget import Budget, OutOfBudget, SearchObserver
from memplan.planning.buffers import Buffer
from memplan.planning.kernel_state import (
    FAILED,
    FOUND,
    GOLDEN,
    MEMO_FIELDS,
    MEMO_SLOTS,
    MIX1,
    MIX2,
    SEED1,
    SEED2,
    KernelRun,
    KernelSearch,
    memo_covers,
    memo_slot,
    memo_write,
)
from memplan.planning.ladder import Ladder
from memplan.planning.sections import TimeStructure, sweep

# Node budgets grow by this factor each round of the portfolio of orders (the
# first round allows twice as many nodes as buffers).  A round repeats the work
# of all earlier ones for every order; 4 wastes less of it than 2 on the
# MiniMalloc suite (A and B run about twice as fast), and costs little on the
# files that one order solves in a few hundred nodes.
NODE_BUDGET_GROWTH = 4
# A try of the relaxation ladder (`Solver.climb`) stops after at most this
# many nodes by default: many short tries with more and more noise find plans
# that long ones miss.
LADDER_TRY_NODES = 300_000
# Pure Python searches for the first PURE_PYTHON_SECONDS of CPU time of every
# plan's searches (counted from the first one, so importing numpy and building
# the tables do not eat it) when the kernel is not compiled ahead of time yet
# (`search_aot`): loading the jit kernel costs a process 0.6-0.7 s of CPU,
# more than most small searches take.  A pure-Python search still
# running then is dropped and run again from its start by the kernel; both
# visit the same nodes, so the plan never depends on when the switch happened.
# CPU time, not wall time: on a busy machine the head start lasts as long.
PURE_PYTHON_SECONDS = 0.2
_PLACED = numpy.iinfo(numpy.int64).max // 2
# The compiled search returns to Python about this often (to check the
# wall-clock cap, tell an observer, let Ctrl-C through), after
# FIRST_SLICE_NODES nodes the first time.  Slicing never changes the nodes.
SLICE_SECONDS = 0.01
FIRST_SLICE_NODES = 1024
# Candidate stack rows per buffer the compiled search starts with; it doubles
# the stack whenever the kernel asks for more.
CANDIDATE_ROWS = 4
PURE_PYTHON = "MEMPLAN_PURE_PYTHON"

IntArray = numpy.typing.NDArray[numpy.int64]
WordArray = numpy.typing.NDArray[numpy.uint64]
# The ufunc reductions themselves: ndarray.max() and friends add a Python-level
# wrapper call that shows in a search making hundreds of thousands of them.
_max = numpy.maximum.reduce
_min = numpy.minimum.reduce
_any = numpy.logical_or.reduce
_all = numpy.logical_and.reduce


class _OutOfNodes(Exception):
    """A decision search reached the node limit of its round of the portfolio."""


class _HeadStartOver(Exception):
    """Pure Python's head start is over: the compiled kernel takes the search over."""


@dataclass(frozen=True)
class _Problem:
    """Nonzero-size buffers renumbered by a preorder rank (rank = index), as arrays."""

    sizes: IntArray
    alignments: IntArray
    # Lowest offset of each buffer before anything is placed: clear of its
    # obstacles, else 0.
    floors: IntArray
    # Obstacles: byte ranges taken, while a buffer lives, by buffers pinned
    # outside this problem (see windows.py).  Those of rank i are
    # obstacle_offsets/ends[obstacle_starts[i] : obstacle_starts[i + 1]], by offset.
    obstructed: bool  # any obstacle at all
    obstacle_starts: IntArray
    obstacle_offsets: IntArray
    obstacle_ends: IntArray
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
    # The next lower rank with the same lifetime, size and alignment, else -1.
    twin_before: IntArray
    # Each part of the search (the whole trace, then every independent part a
    # decomposition splits off) orders its buffers by priority
    # -crowd * crowd_weight + tie_rank, crowd being the most unplaced bytes in
    # any of the buffer's sections when the part starts (see _priorities).
    tie_rank: IntArray
    crowd_weight: int
    # For the compiled search: overlaps[i] is
    # overlap_list[overlap_starts[i] : overlap_starts[i + 1]], and the ranks
    # starting in section s are by_first[first_starts[s] : first_starts[s + 1]].
    overlap_starts: IntArray
    overlap_list: IntArray
    by_first: IntArray
    first_starts: IntArray
    # Keep the failure memo (see _DecisionSearch._search): only with
    # crowd_weight 0, where a buffer's priority never changes.
    memo: bool
    # Each rank's word in the memo's two hashes (kernel_state.RANK_WORDS1/2).
    rank_words: IntArray


class _DecisionSearch:
    """One depth-first search for a packing under `capacity`, within a node limit.

    It stops after `cap` nodes (at most `node_limit`): at `node_limit` with
    _OutOfNodes (the round of the portfolio is over), before it with
    OutOfBudget (the plan's budget is).  State lives in numpy arrays so each
    step costs a few vectorized operations instead of Python loops over
    neighbours and sections.

    With `problem.memo`, a failed answer proves nothing fits only if
    `exhaustive` (no memo hit cut the search: the memo's keys are hashes).
    """

    def __init__(
        self,
        problem: _Problem,
        capacity: int,
        node_limit: int,
        budget: Budget | None = None,
        cap: int | None = None,
        give_up_at: float | None = None,
    ):
        self.problem = problem
        self.capacity = capacity
        self.node_limit = node_limit
        self.cap = node_limit if cap is None else min(cap, node_limit)
        self.budget = budget
        # A time.process_time() reading after which the search hands over to
        # the compiled kernel (_HeadStartOver); None: it never does.
        self.give_up_at = give_up_at
        self.nodes = 0
        count = len(problem.sizes)
        # Lowest offset each unplaced buffer can take; _PLACED once it is placed,
        # so placed buffers drop out of minimums and are never lifted.
        self.min_offsets = problem.floors.copy()
        self.solution = [0] * count
        self.totals = problem.section_totals.copy()
        self.cuts = problem.cuts.copy()
        # Unplaced buffers alive with each buffer; 0 means nothing can ever land
        # on it, so its lowest offset is final ("hatless").
        self.open_neighbours = numpy.array(
            [len(o) for o in problem.overlaps], dtype=numpy.int64
        )
        # Order of the unplaced buffers within the current part (ties of the
        # canonical order); set by _solve_parts as each part starts.
        self.prio = problem.tie_rank.copy()
        self.memo_table = numpy.zeros(
            MEMO_SLOTS * MEMO_FIELDS if problem.memo else 0, dtype=numpy.int64
        )
        self.memo_hits = 0

    @property
    def exhaustive(self) -> bool:
        """Whether a failure proves that nothing fits: no memo hit cut the search."""
        return not self.memo_hits

    def run(self) -> bool:
        cut_points = (numpy.flatnonzero(self.cuts[:-1] == 0) + 1).tolist()
        everyone = numpy.arange(len(self.solution), dtype=numpy.int64)
        return self._solve_parts(everyone, 0, len(self.totals), cut_points)

    def _solve_parts(
        self, members: IntArray, lo: int, hi: int, cut_points: list[int]
    ) -> bool:
        """Solve the independent sub-problems between consecutive cut points.

        Each part orders its buffers afresh, by the bytes still unplaced in
        their sections (as MiniMalloc preorders every sub-problem): on
        MiniMalloc's file I, keeping the root's order instead loses the fit.
        """
        bounds = [lo, *cut_points, hi]
        part_of = numpy.searchsorted(
            bounds, self.problem.first_section_array[members], side="right"
        )
        prio = self.prio
        for k in range(len(bounds) - 1):
            group = members[part_of == k + 1]
            if not len(group):
                continue
            saved = prio[group]
            prio[group] = self._priorities(group)
            found = self._search(
                group[prio[group].argsort()], bounds[k], bounds[k + 1], (-1, -1)
            )
            prio[group] = saved
            if not found:
                return False
        return True

    def _priorities(self, group: IntArray) -> IntArray:
        """-crowd * crowd_weight + tie_rank: the crowd of a buffer is the most
        unplaced bytes in any of its sections now."""
        problem = self.problem
        if not problem.crowd_weight:
            return problem.tie_rank[group]
        totals = self.totals
        first, last = problem.first_section, problem.last_section
        crowd = numpy.array(
            [int(_max(totals[first[i] : last[i]])) for i in group.tolist()],
            dtype=numpy.int64,
        )
        return problem.tie_rank[group] - crowd * problem.crowd_weight

    def _search(
        self, members: IntArray, lo: int, hi: int, last: tuple[int, int]
    ) -> bool:
        if not len(members):
            return True
        if self.nodes >= self.cap:
            raise _OutOfNodes if self.nodes >= self.node_limit else OutOfBudget
        self.nodes += 1
        if self.budget is not None and self.budget.tick(self.nodes):
            raise OutOfBudget
        if self.give_up_at is not None and time.process_time() > self.give_up_at:
            raise _HeadStartOver
        if not self.problem.memo:
            return self._branch(members, lo, hi, last)
        # Failure memo: below this node, the search depends only on (lo, hi)
        # and the members' lowest offsets (priorities never change), and a
        # higher last placement only leaves fewer candidates.  So a node
        # whose state failed before at or below `last` fails.
        key1, key2 = _memo_key(self.problem, members, lo, hi, self.min_offsets)
        memo = self.memo_table
        if memo_covers(memo, memo_slot(memo, key1, key2), key1, key2, *last):
            self.memo_hits += 1
            return False
        if self._branch(members, lo, hi, last):
            return True
        base = memo_slot(memo, key1, key2)  # the subtree filled slots since
        if not memo_covers(memo, base, key1, key2, *last):
            memo_write(memo, base, key1, key2, *last)
        return False

    def _branch(
        self, members: IntArray, lo: int, hi: int, last: tuple[int, int]
    ) -> bool:
        """The candidates of a node, each placed and searched below in turn."""
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
        order = offsets.argsort(kind="stable")  # members are sorted: ties go by prio
        offsets, members_by_offset = offsets[order], members[order]
        # Canonical order: skip candidates before the last placement (offset, prio),
        # and stop at the first offset that dominance or the slack rule out.
        last_offset, last_prio = last
        start = int(offsets.searchsorted(last_offset))
        ties = int(offsets.searchsorted(last_offset, side="right"))
        start += int(
            self.prio[members_by_offset[start:ties]].searchsorted(
                last_prio, side="right"
            )
        )
        # A hatless buffer behind the last placement can never be placed: its
        # offset will not rise above it, and placements only go up.
        if start and not _all(self.open_neighbours[members_by_offset[:start]]):
            return False
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
        # Symmetry: of identical buffers, the lower rank goes first whenever it
        # can (it always has the same lowest offset), unless it is behind the
        # last placement (same offset, lower prio), where only a twin can go.
        # Twins share their priority's crowd and keep their rank order in tie_rank.
        twins = problem.twin_before[candidates]
        waiting = (twins >= 0) & (self.min_offsets[twins] != _PLACED)
        if _any(waiting):
            behind = (candidate_offsets == last_offset) & (self.prio[twins] < last_prio)
            viable &= ~(waiting & ~behind)
        candidates = candidates[viable]
        hatless = (self.open_neighbours[candidates] == 0).tolist()
        for offset, i, final in zip(
            candidate_offsets[viable].tolist(),
            candidates.tolist(),
            hatless,
            strict=True,
        ):
            if self._try_place(i, offset, members, lo, hi):
                return True
            if final:  # every later candidate would leave it behind (see above)
                return False
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
        neighbours = problem.overlaps[i]
        self.open_neighbours[neighbours] -= 1
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
                found = self._search(rest, lo, hi, (offset, int(self.prio[i])))
            crossings += 1
        min_offsets[raised] = old_offsets
        self.open_neighbours[neighbours] += 1
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
        if self.problem.obstructed:
            for j in raised.tolist():
                min_offsets[j] = _clear(self.problem, j, int(min_offsets[j]))
        return raised, old[lifted]

    def _floors_fit(self, raised: IntArray, first: int, last: int) -> bool:
        """Cross-section bound in every section where a minimum offset moved.

        No unplaced buffer of a section goes below the lowest of their minimum
        offsets (its floor), so the floor plus the section's unplaced bytes must fit.
        """
        if not len(raised):
            return True
        problem = self.problem
        if _any(self.min_offsets[raised] + problem.sizes[raised] > self.capacity):
            return False
        lo = min(first, int(_min(problem.first_section_array[raised])))
        hi = max(last, int(_max(problem.last_section_array[raised])))
        starts = problem.member_starts
        members = problem.section_members[starts[lo] : starts[hi]]
        floors = numpy.minimum.reduceat(
            self.min_offsets[members], starts[lo:hi] - starts[lo]
        )
        totals = self.totals[lo:hi]
        return not _any((floors + totals > self.capacity) & (totals > 0))


def _memo_key(
    problem: _Problem, members: IntArray, lo: int, hi: int, min_offsets: IntArray
) -> tuple[int, int]:
    """The memo key of a node (as `search_kernel._memo_cuts`): per hash, the
    XOR of one mixed word for the part and one per member (rank, offset)."""
    ranks = problem.rank_words[:, members].view(numpy.uint64)
    words = _mix(ranks ^ min_offsets[members].view(numpy.uint64))
    part = _mix(numpy.uint64((lo << 32) + hi) + _SEEDS)
    keys = (numpy.bitwise_xor.reduce(words, axis=1) ^ part).view(numpy.int64)
    return int(keys[0]), int(keys[1]) | 1


def _rank_words(count: int) -> IntArray:
    """Each rank's word in the memo's two hashes: mix(rank * GOLDEN + seed)."""
    ranks = numpy.arange(count, dtype=numpy.uint64)
    return _mix(ranks * _GOLDEN + _SEEDS[:, None]).view(numpy.int64)


def _mix(z: WordArray) -> WordArray:
    """splitmix64's finalizer, word by word (uint64 arrays wrap silently)."""
    z = (z ^ (z >> _SHIFTS[0])) * _MIX1
    z = (z ^ (z >> _SHIFTS[1])) * _MIX2
    return z ^ (z >> _SHIFTS[2])


def _word(value: int) -> numpy.uint64:
    """The uint64 with the bits of the int64 `value`."""
    return numpy.uint64(value % 2**64)


_MIX1, _MIX2, _GOLDEN = _word(MIX1), _word(MIX2), _word(GOLDEN)
_SEEDS = numpy.array([SEED1, SEED2], dtype=numpy.uint64)
_SHIFTS = numpy.array([30, 27, 31], dtype=numpy.uint64)


def _clear(problem: _Problem, i: int, offset: int) -> int:
    """The lowest offset from `offset` up where rank i misses its obstacles: one
    pass by obstacle offset, stopping at the first one wholly above it."""
    size = int(problem.sizes[i])
    alignment = int(problem.alignments[i])
    starts = problem.obstacle_starts
    for k in range(int(starts[i]), int(starts[i + 1])):
        if problem.obstacle_offsets[k] >= offset + size:
            break
        end = int(problem.obstacle_ends[k])
        if end > offset:
            offset = -(-end // alignment) * alignment
    return offset


def _kernel_possible() -> bool:
    """Whether the compiled search may run: numba installed, not switched off."""
    return (
        os.environ.get(PURE_PYTHON) != "1"
        and importlib.util.find_spec("numba") is not None
    )


def compiled_kernel(observer: SearchObserver | None = None) -> KernelRun | None:
    """The compiled search's `run` (`memplan[fast]`), or None: numba missing or
    MEMPLAN_PURE_PYTHON=1.

    Read on every call, so a test can switch paths with the environment.  The
    kernel comes back loaded (see `_load_kernel`); `observer` hears about it
    first when this call is the one that compiles it.
    """
    if os.environ.get(PURE_PYTHON) == "1":
        return None
    if "kernel" not in _LOADED:
        _LOADED["kernel"] = _load_kernel(observer)
    return _LOADED["kernel"]


# The kernel once loaded in this process (None: numba is not installed).
_LOADED: dict[str, KernelRun | None] = {}


def _load_kernel(observer: SearchObserver | None) -> KernelRun | None:
    """The kernel compiled ahead of time (`search_aot`; built the first time,
    numba needed), else the jit one (loaded from numba's cache or compiled),
    warmed up by one tiny search, once per process."""
    run = search_aot.load()
    told = False
    if run is None:
        if importlib.util.find_spec("numba") is None:
            return None
        if observer is not None:
            observer.loading_kernel(compiling=True)
            told = True
        run = search_aot.build()
    if run is None:
        try:
            kernel = importlib.import_module("memplan.planning.search_kernel")
        except ImportError:
            return None
        if observer is not None and not told:
            observer.loading_kernel(compiling=not _kernel_cached(kernel))
        run = kernel.run
    buffers = [Buffer(0, 0, 2, 1), Buffer(1, 1, 3, 1)]
    structure = sweep(buffers, len(buffers) ** 2)
    problem = _renumber(buffers, structure, list(range(len(buffers))))
    _CompiledSearch(run, problem, 2, 100).run()
    return run


def _kernel_cached(kernel: ModuleType) -> bool:
    """Whether numba's cache holds the jit kernel, newer than its source (a guess:
    numba's cache index is not public API; unsure means "not cached")."""
    source = kernel.__file__
    try:
        index = Path(kernel.run._cache._cache_file._index_path)
        return (
            source is not None and index.stat().st_mtime >= Path(source).stat().st_mtime
        )
    except (AttributeError, OSError, TypeError):
        return False


class _CompiledSearch:
    """The search of _DecisionSearch run by the numba kernel, in slices of nodes.

    Same nodes, same limits: it stops after `cap` nodes (at most
    `node_limit`) with the same exceptions.  The kernel cannot read the clock,
    so it returns after a slice of nodes, sized to take about SLICE_SECONDS,
    for the wall-clock cap and the observer; where it pauses changes nothing.
    """

    def __init__(
        self,
        kernel: KernelRun,
        problem: _Problem,
        capacity: int,
        node_limit: int,
        budget: Budget | None = None,
        cap: int | None = None,
    ):
        self.node_limit = node_limit
        self.cap = node_limit if cap is None else min(cap, node_limit)
        self.budget = budget
        self.search = KernelSearch(
            kernel,
            _kernel_arrays(problem),
            problem.section_totals,
            problem.cuts,
            capacity,
            CANDIDATE_ROWS * len(problem.sizes) + 1,
            problem.crowd_weight,
            problem.floors,
            problem.memo,
        )
        self.solution: list[int] = []

    @property
    def nodes(self) -> int:
        return self.search.nodes

    @property
    def memo_hits(self) -> int:
        return self.search.memo_hits

    @property
    def exhaustive(self) -> bool:
        """Whether a failure proves that nothing fits (as _DecisionSearch's)."""
        return not self.memo_hits

    def run(self) -> bool:
        search = self.search
        slice_nodes = FIRST_SLICE_NODES
        while True:
            started = time.perf_counter()
            status = search.step(min(self.cap, search.nodes + slice_nodes))
            if status == FOUND:
                self.solution = search.solution.tolist()
                return True
            if status == FAILED:
                return False
            if search.nodes >= self.cap:
                raise _OutOfNodes if search.nodes >= self.node_limit else OutOfBudget
            if self.budget is not None and self.budget.tick(search.nodes):
                raise OutOfBudget
            slice_nodes = _next_slice(slice_nodes, time.perf_counter() - started)


def _kernel_arrays(problem: _Problem) -> tuple[IntArray, ...]:
    """The problem arrays in the order of the kernel's SIZES ... RANK_WORDS2."""
    return (
        problem.sizes,
        problem.alignments,
        problem.first_section_array,
        problem.last_section_array,
        problem.overlap_starts,
        problem.overlap_list,
        problem.member_starts,
        problem.section_members,
        problem.twin_before,
        problem.by_first,
        problem.first_starts,
        problem.tie_rank,
        problem.obstacle_starts,
        problem.obstacle_offsets,
        problem.obstacle_ends,
        problem.rank_words[0],
        problem.rank_words[1],
    )


def _next_slice(nodes: int, seconds: float) -> int:
    """Aim at slices of about SLICE_SECONDS, whatever a node costs on this trace."""
    if seconds < SLICE_SECONDS / 2:
        return 2 * nodes
    if seconds > 2 * SLICE_SECONDS:
        return max(nodes // 2, 1)
    return nodes


PreorderKey = Callable[[int], tuple[int, ...]]


def _preorders(buffers: Sequence[Buffer], structure: TimeStructure) -> list[list[int]]:
    """Static orders tried in round robin: hard buffers first, "hard" measured differently.

    No single order wins everywhere (on the MiniMalloc suite each file is solved
    in a few hundred nodes by some order and not in thousands by others), so a
    portfolio with growing node budgets beats any one order.  The first ones
    put the most crowded buffers first (crowd: the fullest of their sections),
    then break ties by a key of `_tie_orders`.
    """
    crowd, tie_keys, other_keys = _preorder_keys(buffers, structure)
    crowded = [
        sorted(range(len(buffers)), key=lambda i, key=key: (-crowd[i], *key(i)))
        for key in tie_keys
    ]
    return crowded + [sorted(range(len(buffers)), key=key) for key in other_keys]


def _tie_orders(
    buffers: Sequence[Buffer], structure: TimeStructure
) -> list[list[int] | None]:
    """For each order of `_preorders` that puts crowded buffers first, the order of
    its tie-break alone, else None.

    The search orders every part a decomposition splits off by crowd again,
    with the bytes still unplaced (see _DecisionSearch._solve_parts), and breaks
    ties by this order.
    """
    _, tie_keys, other_keys = _preorder_keys(buffers, structure)
    ties: list[list[int] | None] = [
        sorted(range(len(buffers)), key=key) for key in tie_keys
    ]
    return ties + [None] * len(other_keys)


def _preorder_keys(
    buffers: Sequence[Buffer], structure: TimeStructure
) -> tuple[list[int], list[PreorderKey], list[PreorderKey]]:
    """(crowd, tie-break keys of the crowd-first orders, keys of the other orders)."""
    totals = structure.section_totals
    first, last = structure.first_section, structure.last_section
    crowd = [max(totals[first[i] : last[i]]) for i in range(len(buffers))]
    width = [last[i] - first[i] for i in range(len(buffers))]
    length = [b.upper - b.lower for b in buffers]
    area = [b.size * (b.upper - b.lower) for b in buffers]
    size = [b.size for b in buffers]
    overlaps = [len(o) for o in structure.overlaps]
    tie_keys: list[PreorderKey] = [
        lambda i: (-area[i], i),
        lambda i: (-width[i], -area[i], i),
        lambda i: (-length[i], -area[i], i),  # MiniMalloc's "TWA"
        lambda i: (-overlaps[i], i),
    ]
    other_keys: list[PreorderKey] = [
        lambda i: (-length[i], -size[i], i),
        lambda i: (-overlaps[i], -size[i], i),
    ]
    return crowd, tie_keys, other_keys


def _renumber(
    buffers: Sequence[Buffer],
    structure: TimeStructure,
    order: list[int],
    ties: list[int] | None = None,
    obstacles: Sequence[Sequence[tuple[int, int]]] | None = None,
    memo: bool = False,
) -> _Problem:
    """The arrays of `order`; `ties` (from _tie_orders) makes each part of the
    search order its buffers by crowd again, else they keep the rank order.
    `obstacles` (by buffer index): (offset, end) ranges each buffer must miss.
    `memo`: searches keep the failure memo, for which the buffers must keep
    the rank order (ValueError otherwise)."""
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.arange(len(order))
    tie_rank = numpy.arange(len(order), dtype=numpy.int64)
    if ties is not None:
        tie_rank[rank[ties]] = numpy.arange(len(order))
    # Priorities must fit in int64 (else the parts keep the rank order).
    overflows = max(structure.section_totals, default=0) * len(order) >= 2**62
    member_lists = [numpy.sort(rank[m]) for m in structure.section_members]
    starts = numpy.cumsum([0] + [len(m) for m in member_lists])
    first_section = [structure.first_section[i] for i in order]
    last_section = [structure.last_section[i] for i in order]
    overlaps = [
        rank[numpy.array(structure.overlaps[i], dtype=numpy.int64)] for i in order
    ]
    first_array = numpy.array(first_section, dtype=numpy.int64)
    by_first = numpy.argsort(first_array, kind="stable")
    crowd_weight = len(order) if ties is not None and not overflows else 0
    if memo and crowd_weight:
        raise ValueError("the failure memo needs static priorities (no ties order)")
    problem = _Problem(
        sizes=numpy.array([buffers[i].size for i in order], dtype=numpy.int64),
        aligned=any(buffers[i].alignment > 1 for i in order),
        alignments=numpy.array(
            [buffers[i].alignment for i in order], dtype=numpy.int64
        ),
        floors=numpy.zeros(len(order), dtype=numpy.int64),
        obstructed=obstacles is not None,
        obstacle_starts=numpy.cumsum(
            [0] + [0 if obstacles is None else len(obstacles[i]) for i in order],
            dtype=numpy.int64,
        ),
        obstacle_offsets=numpy.array(
            [o for i in order for o, _ in obstacles[i]] if obstacles else [],
            dtype=numpy.int64,
        ),
        obstacle_ends=numpy.array(
            [e for i in order for _, e in obstacles[i]] if obstacles else [],
            dtype=numpy.int64,
        ),
        first_section=first_section,
        last_section=last_section,
        first_section_array=first_array,
        last_section_array=numpy.array(last_section, dtype=numpy.int64),
        overlaps=overlaps,
        section_totals=numpy.array(structure.section_totals, dtype=numpy.int64),
        section_members=numpy.concatenate(member_lists),
        member_starts=starts,
        cuts=numpy.array(structure.cuts, dtype=numpy.int64),
        twin_before=_twins([buffers[i] for i in order]),
        tie_rank=tie_rank,
        crowd_weight=crowd_weight,
        overlap_starts=numpy.cumsum(
            [0] + [len(o) for o in overlaps], dtype=numpy.int64
        ),
        overlap_list=numpy.concatenate([numpy.zeros(0, dtype=numpy.int64), *overlaps]),
        by_first=by_first.astype(numpy.int64),
        first_starts=numpy.searchsorted(
            first_array[by_first], numpy.arange(len(structure.section_totals) + 1)
        ).astype(numpy.int64),
        memo=memo,
        rank_words=_rank_words(len(order)),
    )
    if obstacles is not None:
        for r, i in enumerate(order):
            if obstacles[i]:
                problem.floors[r] = _clear(problem, r, 0)
    return problem


def _twins(buffers: Sequence[Buffer]) -> IntArray:
    """For each buffer, the previous one identical to it but for the id, else -1."""
    previous: dict[tuple[int, int, int, int], int] = {}
    twins = numpy.full(len(buffers), -1, dtype=numpy.int64)
    for rank, b in enumerate(buffers):
        key = (b.lower, b.upper, b.size, b.alignment)
        if key in previous:
            twins[rank] = previous[key]
        previous[key] = rank
    return twins


class Solver:
    """Decision problems over one set of nonzero-size buffers, heuristics in round robin.

    `obstacles` (by buffer index, each sorted by offset) are the (offset, end)
    byte ranges of buffers pinned outside the problem that the buffer meets in
    time: it never goes there, so a plan found is valid next to them, but an
    exhausted capacity proves nothing about the trace they come from (the
    search only tries the lowest offset clear of them).
    """

    def __init__(
        self,
        buffers: Sequence[Buffer],
        structure: TimeStructure,
        budget: Budget,
        obstacles: Sequence[Sequence[tuple[int, int]]] | None = None,
    ):
        self.buffers = buffers
        self.structure = structure
        self.budget = budget
        self.obstacles = obstacles
        self.orders = _preorders(buffers, structure)
        self.ties = _tie_orders(buffers, structure)
        self.problems: dict[int, _Problem] = {}
        # The highest capacity a search has exhausted: nothing at or below it fits.
        self.proved_impossible = -1

    def _compiled(self) -> KernelRun | None:
        """The kernel, loaded on first use (out of the wall-clock cap), or None."""
        loading = time.perf_counter()
        kernel = compiled_kernel(self.budget.observer)
        self.budget.pause_clock(time.perf_counter() - loading)
        return kernel

    def _search(
        self, problem: _Problem, capacity: int, node_limit: int, cap: int
    ) -> _DecisionSearch | _CompiledSearch:
        """Compiled if numba is there and either the kernel is compiled ahead of
        time (loading it costs next to nothing) or pure Python's head start is
        over; else pure Python, until that head start is over."""
        give_up_at = None
        if _kernel_possible():
            give_up_at = self.budget.search_cpu_started() + PURE_PYTHON_SECONDS
            if (
                "kernel" in _LOADED
                or search_aot.built()
                or time.process_time() > give_up_at
            ):
                kernel = self._compiled()
                if kernel is not None:
                    return _CompiledSearch(
                        kernel, problem, capacity, node_limit, self.budget, cap
                    )
                give_up_at = None
        return _DecisionSearch(
            problem, capacity, node_limit, self.budget, cap, give_up_at
        )

    def _problem(self, k: int, mark: int) -> _Problem:
        """The arrays for order k, built on first use (a small budget may never need them)."""
        if k not in self.problems:
            if self.budget.past(mark):
                raise OutOfBudget
            self.problems[k] = _renumber(
                self.buffers,
                self.structure,
                self.orders[k],
                self.ties[k],
                self.obstacles,
            )
        return self.problems[k]

    def _run(
        self, problem: _Problem, capacity: int, node_limit: int, mark: int
    ) -> tuple[bool | None, list[int]]:
        """One decision search up to `node_limit` nodes or to `mark` on the budget,
        whichever comes first: (its answer, None when it used up its round or
        failed without proof, cut by its failure memo; the offsets by rank when
        found).  Its nodes go on the budget."""
        budget = self.budget
        cap = min(node_limit, max(mark - budget.spent, 0))
        search = self._search(problem, capacity, node_limit, cap)
        try:
            try:
                found = search.run()
            except (
                _HeadStartOver
            ):  # its nodes are dropped: the kernel visits them again
                kernel = self._compiled()
                assert kernel is not None  # _search checked it can load
                search = _CompiledSearch(
                    kernel, problem, capacity, node_limit, budget, cap
                )
                found = search.run()
        except _OutOfNodes:
            return None, []
        finally:
            budget.spent += search.nodes
        if not found and not search.exhaustive:
            return None, []
        return found, search.solution

    def fit(self, capacities: list[int], mark: int) -> list[int] | None:
        """Offsets (by buffer index) fitting one of `capacities`, or None when all are
        proved impossible.

        Raises OutOfBudget when the budget reaches `mark`.  Node limits grow by
        NODE_BUDGET_GROWTH each round and the orders (and capacities) take
        turns, so whichever combination is easy finishes early, as in MiniMalloc.
        """
        open_capacities = list(capacities)
        node_limit = max(len(self.buffers) // 2, 1)
        while open_capacities:
            node_limit *= NODE_BUDGET_GROWTH
            for capacity in list(open_capacities):
                for k, order in enumerate(self.orders):
                    problem = self._problem(k, mark)
                    found, solution = self._run(problem, capacity, node_limit, mark)
                    if found is None:
                        continue
                    if not found:  # and so is every smaller capacity
                        self._impossible(capacity)
                        open_capacities = [c for c in open_capacities if c > capacity]
                        break
                    return _by_index(order, solution)
        return None

    def _impossible(self, capacity: int) -> None:
        self.proved_impossible = max(self.proved_impossible, capacity)

    def climb(
        self, capacity: int, mark: int, try_limit: int = LADDER_TRY_NODES
    ) -> tuple[bool | None, Ladder]:
        """Climb the relaxation ladder of `capacity` (see `ladder`), tries of at
        most `try_limit` nodes, until the budget reaches `mark`: (True when the
        whole trace fits, see `Ladder.offsets`; False when a rung is proved not
        to, and so the capacity; None when the budget ran out), and the ladder.

        Not with obstacles: the ladder's plans would ignore them.
        """
        if self.obstacles is not None:
            raise ValueError("the relaxation ladder cannot keep clear of obstacles")
        ladder = Ladder(self.buffers, self.structure, capacity)
        answer = None
        try:
            while answer is None:
                answer = ladder.step(
                    lambda buffers, structure, order, room, limit: self._try_order(
                        buffers, structure, order, room, limit, mark
                    ),
                    try_limit,
                )
        except OutOfBudget:
            return None, ladder
        if not answer:
            self._impossible(capacity)
        return answer, ladder

    def _try_order(
        self,
        buffers: list[Buffer],
        structure: TimeStructure,
        order: list[int],
        capacity: int,
        node_limit: int,
        mark: int,
        memo: bool = True,
    ) -> tuple[bool | None, list[int]]:
        """One search of `buffers` in a fixed priority `order`, with the failure
        memo unless told otherwise: (its answer, the offsets by buffer index
        when found)."""
        if not buffers:
            return True, []
        problem = _renumber(buffers, structure, order, memo=memo)
        found, solution = self._run(problem, capacity, node_limit, mark)
        return found, _by_index(order, solution) if found else []


def _by_index(order: list[int], solution: list[int]) -> list[int]:
    """Offsets by buffer index from offsets by rank in `order`."""
    offsets = [0] * len(order)
    for position, i in enumerate(order):
        offsets[i] = solution[position]
    return offsets

"""The arrays of the compiled search (`search_kernel.run`) and `KernelSearch`,
which sets them up and drives `run`; no numba here, so a process that loads
the kernel compiled ahead of time (`search_aot`) never imports it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy

# Problem arrays, in the tuple `run` takes; every buffer is named by its rank.
SIZES, ALIGNMENTS, FIRST, LAST = 0, 1, 2, 3
# CSR lists: overlaps of rank i are OVERLAPS[OVERLAP_STARTS[i]:OVERLAP_STARTS[i + 1]].
OVERLAP_STARTS, OVERLAPS = 4, 5
MEMBER_STARTS, SECTION_MEMBERS = 6, 7
TWIN_BEFORE = 8
# Ranks sorted by first section (then rank); those starting in section s are
# BY_FIRST[FIRST_STARTS[s]:FIRST_STARTS[s + 1]].
BY_FIRST, FIRST_STARTS = 9, 10
# Tie-break of the priorities each part gives its buffers (see `_next_part`).
TIE_RANK = 11
# Obstacles (byte ranges of buffers pinned outside the problem) of rank i, by
# offset: OBSTACLE_OFFSETS/ENDS[OBSTACLE_STARTS[i]:OBSTACLE_STARTS[i + 1]].
OBSTACLE_STARTS, OBSTACLE_OFFSETS, OBSTACLE_ENDS = 12, 13, 14
# The memo's word of each rank, one per hash (see below).
RANK_WORDS1, RANK_WORDS2 = 15, 16

# State arrays, in the second tuple.  RAISED/RAISED_OLD: the stack of lifted
# neighbours and their old lowest offsets; BOUNDS: part bounds of parts
# frames; PREFIX/SUFFIX: scratch for one node's running maxima; PRIO: each
# buffer's priority in its part (ties of the canonical order); WITNESS: for
# each section, where in SECTION_MEMBERS the last buffer proving it has room
# was (checked first next time: a hint, never an answer); MEMO: the failure
# memo (see below; empty when it is off); PRIO_SAVED (last, as it may grow):
# the stack of the priorities the parts under way replaced.
MIN_OFFSETS, SOLUTION, TOTALS, CUTS, OPEN_NEIGHBOURS = 0, 1, 2, 3, 4
RAISED, RAISED_OLD, BOUNDS, PREFIX, SUFFIX, SCALARS = 5, 6, 7, 8, 9, 10
PRIO, WITNESS, MEMO, PRIO_SAVED = 11, 12, 13, 14
# Entries of the SCALARS array.
DEPTH, MODE, RESULT, NODES, CAND_TOP, RAISE_TOP, BOUNDS_TOP, CAPACITY = range(8)
PRIO_TOP, CROWD_WEIGHT = 8, 9
# The section whose floor check failed last (a hint: `_floors_fit` asks it first).
FAILED_SECTION = 10
# MEMO_ON: 1 when the search keeps the failure memo; MEMO_HITS: nodes it cut.
MEMO_ON, MEMO_HITS = 11, 12
SCALAR_COUNT = 13

# Frame fields (one row of `frames` each).  LAST_PRIO: the priority of the
# last placement, which the canonical order compares.  KEY1, KEY2: the memo
# key of a search frame's node (set when the memo is on).
KIND, LO, HI, LAST_OFFSET, LAST_PRIO = 0, 1, 2, 3, 4
CAND_START, CAND_STOP, CAND_POS = 5, 6, 7
PLACED_RANK, PLACED_OFFSET, PLACED_HATLESS, RAISE_START = 8, 9, 10, 11
BOUNDS_START, BOUNDS_STOP, PART, PRIO_START = 12, 13, 14, 15
KEY1, KEY2 = 16, 17
FRAME_FIELDS = 18
SEARCH_FRAME, PARTS_FRAME = 0, 1
# Candidate fields (one row of `cands` each).
CAND_RANK, CAND_OFFSET, CAND_HATLESS, CAND_PRIO = 0, 1, 2, 3
CAND_FIELDS = 4

# What the top of the stack does next.
EXPAND, NEXT_CANDIDATE, NEXT_PART, RETURN = 0, 1, 2, 3
# What `run` returns: FOUND/FAILED end the search, PAUSED means the node cap
# was reached, GROW that `cands` or PRIO_SAVED must grow before the search can
# go on.
FOUND, FAILED, PAUSED, GROW, RUNNING = 0, 1, 2, 3, 4

PLACED = numpy.iinfo(numpy.int64).max // 2

# The failure memo (`decision._DecisionSearch` and the kernel share it, so
# both visit the same nodes): a node's key is two 64-bit hashes of its part
# (lo, hi) and of its unplaced members' (rank, lowest offset), each the XOR of
# one word for the part, mix((lo << 32) + hi + seed), and one per member,
# mix(rank word ^ offset), where a rank's word is mix(rank * GOLDEN + seed)
# (RANK_WORDS1/2) and mix is splitmix64's finalizer.  Words are int64 here,
# as in the kernel; the arithmetic wraps, and shifts are logical.  The
# table: MEMO_SLOTS slots of MEMO_FIELDS int64 (key1, key2, the failed node's
# last placement offset and priority); a key goes to slot key1 mod MEMO_SLOTS
# or one of the MEMO_PROBES - 1 after it.  key2 is odd, so an empty (zero)
# slot matches no key.
MEMO_SLOTS = 2**20
MEMO_PROBES = 4
MEMO_FIELDS = 4
MEMO_KEY1, MEMO_KEY2, MEMO_OFFSET, MEMO_PRIO = 0, 1, 2, 3
_WORD = 2**64
# splitmix64's multipliers and increment, and one seed per hash, as int64.
MIX1 = 0xBF58476D1CE4E5B9 - _WORD
MIX2 = 0x94D049BB133111EB - _WORD
GOLDEN = 0x9E3779B97F4A7C15 - _WORD
SEED1 = 0x2545F4914F6CDD1D
SEED2 = 0x5851F42D4C957F2D


def memo_slot(table: numpy.ndarray, key1: int, key2: int) -> int:
    """Where the key's slot starts in `table`: the slot holding the key, else
    the first empty one of its probes, else its home slot.

    These three are plain Python over the int64 table: `decision` calls them
    as they are, the kernel compiles them.
    """
    home = key1 & (MEMO_SLOTS - 1)
    for probe in range(MEMO_PROBES):
        base = ((home + probe) & (MEMO_SLOTS - 1)) * MEMO_FIELDS
        if table[base + MEMO_KEY2] == 0 or (
            table[base + MEMO_KEY1] == key1 and table[base + MEMO_KEY2] == key2
        ):
            return base
    return home * MEMO_FIELDS


def memo_covers(
    table: numpy.ndarray,
    base: int,
    key1: int,
    key2: int,
    last_offset: int,
    last_prio: int,
) -> bool:
    """Whether the slot at `base` holds the key of a node that failed with its
    last placement at or below (last_offset, last_prio): a node with that key
    and that last placement fails too, and storing it would add nothing."""
    if table[base + MEMO_KEY1] != key1 or table[base + MEMO_KEY2] != key2:
        return False
    offset, prio = table[base + MEMO_OFFSET], table[base + MEMO_PRIO]
    return last_offset > offset or (last_offset == offset and last_prio >= prio)


def memo_write(
    table: numpy.ndarray,
    base: int,
    key1: int,
    key2: int,
    last_offset: int,
    last_prio: int,
) -> None:
    """Store a failed node's key and last placement in the slot at `base`."""
    table[base + MEMO_KEY1] = key1
    table[base + MEMO_KEY2] = key2
    table[base + MEMO_OFFSET] = last_offset
    table[base + MEMO_PRIO] = last_prio


KernelRun = Callable[..., int]
"""`search_kernel.run`: (problem, state, frames, cands, node_cap) -> status."""


class KernelSearch:
    """The arrays of one decision search, set up at its root, and `run` over them.

    `run` is the jit-compiled `search_kernel.run` or the same function compiled
    ahead of time; both take contiguous int64 arrays (the ahead-of-time one
    only those).  `memo`: keep the failure memo, which needs priorities that
    never change (crowd_weight 0; `decision._renumber` checks it).
    """

    def __init__(
        self,
        run: KernelRun,
        problem: tuple[numpy.ndarray, ...],
        section_totals: numpy.ndarray,
        cuts: numpy.ndarray,
        capacity: int,
        candidate_rows: int,
        crowd_weight: int = 0,
        floors: numpy.ndarray | None = None,
        memo: bool = False,
    ):
        self.run = run
        problem = tuple(numpy.ascontiguousarray(a, dtype=numpy.int64) for a in problem)
        count = len(problem[SIZES])
        sections = len(section_totals)
        overlap_count = len(problem[OVERLAPS])
        self.problem = problem
        self.scalars = numpy.zeros(SCALAR_COUNT, dtype=numpy.int64)
        self.solution = numpy.zeros(count, dtype=numpy.int64)
        self.state = (
            numpy.zeros(count, dtype=numpy.int64) if floors is None else floors.copy(),
            self.solution,
            section_totals.copy(),
            cuts.copy(),
            numpy.diff(problem[OVERLAP_STARTS]),
            numpy.zeros(overlap_count, dtype=numpy.int64),
            numpy.zeros(overlap_count, dtype=numpy.int64),
            # At most every boundary once, plus two ends per parts frame.
            numpy.zeros(sections + 2 * count + 4, dtype=numpy.int64),
            numpy.zeros(sections + 1, dtype=numpy.int64),
            numpy.zeros(sections + 1, dtype=numpy.int64),
            self.scalars,
            problem[TIE_RANK].copy(),
            problem[MEMBER_STARTS][:-1].copy(),
            # Zeros: all slots empty (and untouched pages cost nothing).
            numpy.zeros(MEMO_SLOTS * MEMO_FIELDS if memo else 0, dtype=numpy.int64),
            # Parts nest, each inside the last, so this may grow (GROW).
            numpy.zeros(2 * count + 16, dtype=numpy.int64),
        )
        # At most one search and one parts frame per placed buffer, plus the root.
        self.frames = numpy.zeros((2 * count + 2, FRAME_FIELDS), dtype=numpy.int64)
        self.cands = numpy.zeros((candidate_rows, CAND_FIELDS), dtype=numpy.int64)
        self._push_root(cuts)
        self.scalars[CAPACITY] = capacity
        self.scalars[CROWD_WEIGHT] = crowd_weight
        self.scalars[MEMO_ON] = memo

    def _push_root(self, cuts: numpy.ndarray) -> None:
        """A parts frame over the whole trace, split where nothing crosses a boundary."""
        inner = (numpy.flatnonzero(cuts[:-1] == 0) + 1).tolist()
        bounds = [0, *inner, len(cuts)]
        self.state[BOUNDS][: len(bounds)] = bounds
        self.frames[0, KIND] = PARTS_FRAME
        self.frames[0, BOUNDS_STOP] = len(bounds)
        self.scalars[BOUNDS_TOP] = len(bounds)
        self.scalars[DEPTH] = 1
        self.scalars[MODE] = NEXT_PART

    @property
    def nodes(self) -> int:
        return int(self.scalars[NODES])

    @property
    def memo_hits(self) -> int:
        return int(self.scalars[MEMO_HITS])

    def step(self, node_cap: int) -> int:
        """Run until FOUND, FAILED or PAUSED at `node_cap` nodes, growing `cands` as asked."""
        while True:
            status = self.run(
                self.problem, self.state, self.frames, self.cands, node_cap
            )
            if status != GROW:
                return status
            self.cands = numpy.concatenate((self.cands, numpy.zeros_like(self.cands)))
            saved = self.state[PRIO_SAVED]
            self.state = (
                *self.state[:PRIO_SAVED],
                numpy.concatenate((saved, numpy.zeros_like(saved))),
            )

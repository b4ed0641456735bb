"""The `best` decision search compiled with numba (the optional `fast` extra).

It is the search of `decision._DecisionSearch`, step for step (same candidates in
the same order, same pruning, same node count), written as plain loops over
int64 arrays so numba can compile it: the Python version pays for numpy calls
on short arrays at every node, this one visits 30-100 times more nodes per
second.  tests/planning/test_best_compiled.py checks that both visit the
same nodes.

Recursion becomes an explicit stack of frames, so `run` can stop after any
number of nodes and be called again to go on: the caller checks the clock in
between.  A search frame is one call of `_search` (a node and its candidate
list); a parts frame is one call of `_solve_parts` (independent sub-problems
solved one after the other).  The members of a search frame are not stored:
they are the unplaced buffers whose first section lies in its range, as in
the Python search (placements are undone when a frame returns, found or not).
A parts frame gives each part's buffers their priorities as the part starts
and gives the old ones back when it returns (PRIO, PRIO_SAVED).

With the failure memo on (MEMO_ON), a search frame hashes its node's state
into KEY1/KEY2 when it expands, fails at once if the memo holds that key
from a failure at or below its last placement, and stores its key when it
returns failed; a pause stores nothing, so where the caller slices the
search still changes nothing.  The hashes and the table are those of
`kernel_state` (memo_slot, memo_covers, memo_write), which the Python
search uses too.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from memplan.planning.kernel_state import (
    ALIGNMENTS,
    BOUNDS,
    BOUNDS_START,
    BOUNDS_STOP,
    BOUNDS_TOP,
    BY_FIRST,
    CAND_FIELDS,
    CAND_HATLESS,
    CAND_OFFSET,
    CAND_POS,
    CAND_PRIO,
    CAND_RANK,
    CAND_START,
    CAND_STOP,
    CAND_TOP,
    CAPACITY,
    CROWD_WEIGHT,
    CUTS,
    DEPTH,
    EXPAND,
    FAILED,
    FAILED_SECTION,
    FIRST,
    FIRST_STARTS,
    FOUND,
    GROW,
    HI,
    KEY1,
    KEY2,
    KIND,
    LAST,
    LAST_OFFSET,
    LAST_PRIO,
    LO,
    MEMBER_STARTS,
    MEMO,
    MEMO_HITS,
    MEMO_ON,
    MIN_OFFSETS,
    MIX1,
    MIX2,
    MODE,
    NEXT_CANDIDATE,
    NEXT_PART,
    NODES,
    OBSTACLE_ENDS,
    OBSTACLE_OFFSETS,
    OBSTACLE_STARTS,
    OPEN_NEIGHBOURS,
    OVERLAP_STARTS,
    OVERLAPS,
    PART,
    PARTS_FRAME,
    PAUSED,
    PLACED,
    PLACED_HATLESS,
    PLACED_OFFSET,
    PLACED_RANK,
    PREFIX,
    PRIO,
    PRIO_SAVED,
    PRIO_START,
    PRIO_TOP,
    RAISE_START,
    RAISE_TOP,
    RAISED,
    RAISED_OLD,
    RANK_WORDS1,
    RANK_WORDS2,
    RESULT,
    RETURN,
    RUNNING,
    SCALARS,
    SEARCH_FRAME,
    SECTION_MEMBERS,
    SEED1,
    SEED2,
    SIZES,
    SOLUTION,
    SUFFIX,
    TIE_RANK,
    TOTALS,
    TWIN_BEFORE,
    WITNESS,
    memo_covers,
    memo_slot,
    memo_write,
)

# Candidate lists up to this long are insertion-sorted, longer ones heapsorted.
SHORT_LIST = 32

# The kernel allocates nothing, so numba's reference counting is switched off
# (_nrt=False): it took a quarter of the time.  Helpers are inlined into `run`.
_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}
_compiled = njit(**_OPTIONS)
_inlined = njit(inline="always", **_OPTIONS)
_memo_slot = _inlined(memo_slot)
_memo_covers = _inlined(memo_covers)
_memo_write = _inlined(memo_write)
# Masks that turn the arithmetic right shifts of int64 into logical ones.
_LOW30, _LOW27, _LOW31 = (1 << 34) - 1, (1 << 37) - 1, (1 << 33) - 1


@_compiled
def run(problem, state, frames, cands, node_cap):
    """Search on until the stack empties, `node_cap` nodes are spent, or `cands` is full."""
    scalars = state[SCALARS]
    while True:
        mode = scalars[MODE]
        if mode == RETURN:
            if scalars[DEPTH] == 0:
                return FOUND if scalars[RESULT] else FAILED
            _deliver(problem, state, frames)
        elif mode == NEXT_PART:
            status = _next_part(problem, state, frames)
            if status != RUNNING:
                return status
        elif mode == EXPAND:
            status = _expand(problem, state, frames, cands, node_cap)
            if status != RUNNING:
                return status
        else:
            _next_candidate(problem, state, frames, cands)


@_inlined
def _pop(state, frames, result):
    """Return `result` from the top frame, freeing its candidates or bounds; a
    search frame that failed goes in the memo (if on; after a memo hit, that
    changes nothing)."""
    scalars = state[SCALARS]
    top = scalars[DEPTH] - 1
    if frames[top, KIND] == SEARCH_FRAME:
        scalars[CAND_TOP] = frames[top, CAND_START]
        if scalars[MEMO_ON] and not result:
            _memo_store(state, frames, top)
    else:
        scalars[BOUNDS_TOP] = frames[top, BOUNDS_START]
    scalars[DEPTH] = top
    scalars[RESULT] = result
    scalars[MODE] = RETURN


@_inlined
def _push_search(state, frames, lo, hi, last_offset, last_prio):
    scalars = state[SCALARS]
    f = scalars[DEPTH]
    frames[f, KIND] = SEARCH_FRAME
    frames[f, LO] = lo
    frames[f, HI] = hi
    frames[f, LAST_OFFSET] = last_offset
    frames[f, LAST_PRIO] = last_prio
    frames[f, CAND_START] = scalars[CAND_TOP]
    frames[f, CAND_STOP] = scalars[CAND_TOP]
    frames[f, CAND_POS] = scalars[CAND_TOP]
    frames[f, PLACED_RANK] = -1
    scalars[DEPTH] = f + 1
    scalars[MODE] = EXPAND


@_inlined
def _deliver(problem, state, frames):
    """Hand a child's result to the frame below it (a parts or a search frame)."""
    scalars = state[SCALARS]
    f = scalars[DEPTH] - 1
    result = scalars[RESULT]
    if frames[f, KIND] == PARTS_FRAME:
        _restore_priorities(problem, state, frames, f)
        if result:
            scalars[MODE] = NEXT_PART
        else:
            _pop(state, frames, 0)
        return
    i = frames[f, PLACED_RANK]
    _unplace(problem, state, i, frames[f, PLACED_OFFSET], frames[f, RAISE_START])
    _open_neighbours(problem, state, i, 1)
    _restore_cuts(problem, state, i)
    if result or frames[f, PLACED_HATLESS]:
        _pop(state, frames, result)
    else:
        scalars[MODE] = NEXT_CANDIDATE


@_inlined
def _next_part(problem, state, frames):
    """Start the next independent part of a parts frame; all solved means found.

    The part's unplaced buffers get priorities -crowd * CROWD_WEIGHT + TIE_RANK
    (crowd: the most unplaced bytes in any of their sections now), as
    `_DecisionSearch._solve_parts` does; the old ones go on PRIO_SAVED.
    """
    scalars = state[SCALARS]
    f = scalars[DEPTH] - 1
    bounds = state[BOUNDS]
    k = frames[f, BOUNDS_START] + frames[f, PART]
    if k + 1 >= frames[f, BOUNDS_STOP]:
        _pop(state, frames, 1)
        return RUNNING
    lo, hi = bounds[k], bounds[k + 1]
    by_first, starts = problem[BY_FIRST], problem[FIRST_STARTS]
    saved = state[PRIO_SAVED]
    top = scalars[PRIO_TOP]
    if top + starts[hi] - starts[lo] > saved.shape[0]:
        return GROW
    first, last, tie_rank = problem[FIRST], problem[LAST], problem[TIE_RANK]
    min_offsets, totals, prio = state[MIN_OFFSETS], state[TOTALS], state[PRIO]
    weight = scalars[CROWD_WEIGHT]
    frames[f, PRIO_START] = top
    for m in range(starts[lo], starts[hi]):
        i = by_first[m]
        if min_offsets[i] == PLACED:
            continue
        saved[top] = prio[i]
        top += 1
        crowd = 0
        if weight:
            for s in range(first[i], last[i]):
                crowd = max(crowd, totals[s])
        prio[i] = tie_rank[i] - crowd * weight
    scalars[PRIO_TOP] = top
    frames[f, PART] += 1
    _push_search(state, frames, lo, hi, -1, -1)
    return RUNNING


@_inlined
def _restore_priorities(problem, state, frames, f):
    """Give back the priorities that the part parts frame f just finished replaced."""
    scalars = state[SCALARS]
    bounds = state[BOUNDS]
    k = frames[f, BOUNDS_START] + frames[f, PART] - 1
    lo, hi = bounds[k], bounds[k + 1]
    by_first, starts = problem[BY_FIRST], problem[FIRST_STARTS]
    min_offsets, prio, saved = state[MIN_OFFSETS], state[PRIO], state[PRIO_SAVED]
    top = frames[f, PRIO_START]
    for m in range(starts[lo], starts[hi]):
        i = by_first[m]
        if min_offsets[i] != PLACED:
            prio[i] = saved[top]
            top += 1
    scalars[PRIO_TOP] = frames[f, PRIO_START]


@_inlined
def _expand(problem, state, frames, cands, node_cap):
    """One node: list the candidates of the top search frame, as `_search` does."""
    scalars = state[SCALARS]
    f = scalars[DEPTH] - 1
    lo, hi = frames[f, LO], frames[f, HI]
    starts = problem[FIRST_STARTS]
    count, min_height, max_size = _member_stats(problem, state, lo, hi)
    if count == 0:
        _pop(state, frames, 1)
        return RUNNING
    if scalars[NODES] >= node_cap:
        return PAUSED
    if scalars[CAND_TOP] + starts[hi] - starts[lo] > cands.shape[0]:
        return GROW
    scalars[NODES] += 1
    if scalars[MEMO_ON] and _memo_cuts(problem, state, frames, f):
        scalars[MEMO_HITS] += 1
        _pop(state, frames, 0)
        return RUNNING
    peak = _running_maxima(state, lo, hi)
    bound = min(min_height, scalars[CAPACITY] - peak + max_size + 1)
    stop = _list_candidates(problem, state, frames, f, cands, bound)
    if stop < 0:
        _pop(state, frames, 0)
        return RUNNING
    _sort_candidates(cands, frames[f, CAND_START], stop)
    frames[f, CAND_STOP] = stop
    scalars[CAND_TOP] = stop
    scalars[MODE] = NEXT_CANDIDATE
    return RUNNING


@_inlined
def _member_stats(problem, state, lo, hi):
    """(count, lowest end, largest size) of the unplaced buffers starting in [lo, hi)."""
    by_first, starts = problem[BY_FIRST], problem[FIRST_STARTS]
    sizes, min_offsets = problem[SIZES], state[MIN_OFFSETS]
    count, min_height, max_size = 0, PLACED, 0
    for k in range(starts[lo], starts[hi]):
        i = by_first[k]
        if min_offsets[i] != PLACED:
            count += 1
            min_height = min(min_height, min_offsets[i] + sizes[i])
            max_size = max(max_size, sizes[i])
    return count, min_height, max_size


@_inlined
def _memo_cuts(problem, state, frames, f):
    """Hash search frame f's node into KEY1/KEY2 (as `decision._memo_key`);
    whether the memo says it fails."""
    lo, hi = frames[f, LO], frames[f, HI]
    by_first, starts = problem[BY_FIRST], problem[FIRST_STARTS]
    words1, words2 = problem[RANK_WORDS1], problem[RANK_WORDS2]
    min_offsets = state[MIN_OFFSETS]
    part = (lo << 32) + hi
    key1, key2 = _mix(part + SEED1), _mix(part + SEED2)
    for k in range(starts[lo], starts[hi]):
        i = by_first[k]
        offset = min_offsets[i]
        if offset != PLACED:
            key1 ^= _mix(words1[i] ^ offset)
            key2 ^= _mix(words2[i] ^ offset)
    key2 |= 1
    frames[f, KEY1] = key1
    frames[f, KEY2] = key2
    memo = state[MEMO]
    last_offset, last_prio = frames[f, LAST_OFFSET], frames[f, LAST_PRIO]
    base = _memo_slot(memo, key1, key2)
    return _memo_covers(memo, base, key1, key2, last_offset, last_prio)


@_inlined
def _memo_store(state, frames, f):
    """Remember that search frame f failed (as `decision._DecisionSearch._search`)."""
    memo = state[MEMO]
    key1, key2 = frames[f, KEY1], frames[f, KEY2]
    last_offset, last_prio = frames[f, LAST_OFFSET], frames[f, LAST_PRIO]
    base = _memo_slot(memo, key1, key2)
    if not _memo_covers(memo, base, key1, key2, last_offset, last_prio):
        _memo_write(memo, base, key1, key2, last_offset, last_prio)


@_inlined
def _mix(z):
    """splitmix64's finalizer on int64 (wrapping, shifts made logical)."""
    z = (z ^ ((z >> 30) & _LOW30)) * MIX1
    z = (z ^ ((z >> 27) & _LOW27)) * MIX2
    return z ^ ((z >> 31) & _LOW31)


@_inlined
def _running_maxima(state, lo, hi):
    """PREFIX[k]: fullest section in [lo, lo + k); SUFFIX[k]: in [lo + k, hi). Returns the peak."""
    totals, prefix, suffix = state[TOTALS], state[PREFIX], state[SUFFIX]
    width = hi - lo
    prefix[0] = 0
    for k in range(width):
        prefix[k + 1] = max(prefix[k], totals[lo + k])
    suffix[width] = 0
    for k in range(width - 1, -1, -1):
        suffix[k] = max(suffix[k + 1], totals[lo + k])
    return prefix[width]


@_inlined
def _list_candidates(problem, state, frames, f, cands, bound):
    """Write the viable candidates below `bound` from CAND_START on; returns where they
    stop, or -1 when a hatless buffer is behind the last placement (the node fails).
    """
    by_first, starts = problem[BY_FIRST], problem[FIRST_STARTS]
    first, last, twins = problem[FIRST], problem[LAST], problem[TWIN_BEFORE]
    min_offsets, open_neighbours = state[MIN_OFFSETS], state[OPEN_NEIGHBOURS]
    prefix, suffix, prio = state[PREFIX], state[SUFFIX], state[PRIO]
    capacity = state[SCALARS][CAPACITY]
    lo, last_offset, last_prio = (
        frames[f, LO],
        frames[f, LAST_OFFSET],
        frames[f, LAST_PRIO],
    )
    top = frames[f, CAND_START]
    for k in range(starts[lo], starts[frames[f, HI]]):
        i = by_first[k]
        offset = min_offsets[i]
        if offset == PLACED:
            continue
        if offset < last_offset or (offset == last_offset and prio[i] < last_prio):
            if open_neighbours[i] == 0:
                return -1
            continue
        if offset >= bound:
            continue
        outside = max(prefix[first[i] - lo], suffix[last[i] - lo])
        if offset + outside > capacity:
            continue
        twin = twins[i]
        waiting = twin >= 0 and min_offsets[twin] != PLACED
        if waiting and not (offset == last_offset and prio[twin] < last_prio):
            continue
        cands[top, CAND_RANK] = i
        cands[top, CAND_OFFSET] = offset
        cands[top, CAND_HATLESS] = 1 if open_neighbours[i] == 0 else 0
        cands[top, CAND_PRIO] = prio[i]
        top += 1
    return top


@_inlined
def _sort_candidates(cands, start, stop):
    """Order cands[start:stop] by (offset, prio), as the stable argsort of `_search`."""
    if stop - start > SHORT_LIST:
        _sort_long(cands, start, stop)
        return
    for k in range(start + 1, stop):
        rank, offset = cands[k, CAND_RANK], cands[k, CAND_OFFSET]
        hatless, prio = cands[k, CAND_HATLESS], cands[k, CAND_PRIO]
        j = k - 1
        while j >= start and (
            cands[j, CAND_OFFSET] > offset
            or (cands[j, CAND_OFFSET] == offset and cands[j, CAND_PRIO] > prio)
        ):
            for field in range(CAND_FIELDS):
                cands[j + 1, field] = cands[j, field]
            j -= 1
        cands[j + 1, CAND_RANK] = rank
        cands[j + 1, CAND_OFFSET] = offset
        cands[j + 1, CAND_HATLESS] = hatless
        cands[j + 1, CAND_PRIO] = prio


@_inlined
def _sort_long(cands, start, stop):
    """Heapsort by (offset, prio) in place: O(k log k) for the long lists of wide nodes."""
    count = stop - start
    for root in range(count // 2 - 1, -1, -1):
        _sift_down(cands, start, root, count)
    for end in range(count - 1, 0, -1):
        _swap(cands, start, start + end)
        _sift_down(cands, start, 0, end)


@_inlined
def _before(cands, a, b):
    """Whether row a sorts before row b: by offset, then priority."""
    if cands[a, CAND_OFFSET] != cands[b, CAND_OFFSET]:
        return cands[a, CAND_OFFSET] < cands[b, CAND_OFFSET]
    return cands[a, CAND_PRIO] < cands[b, CAND_PRIO]


@_inlined
def _swap(cands, a, b):
    for field in range(CAND_FIELDS):
        cands[a, field], cands[b, field] = cands[b, field], cands[a, field]


@_compiled
def _sift_down(cands, base, root, count):
    while True:
        child = 2 * root + 1
        if child >= count:
            return
        if child + 1 < count and _before(cands, base + child, base + child + 1):
            child += 1
        if not _before(cands, base + root, base + child):
            return
        _swap(cands, base + root, base + child)
        root = child


@_inlined
def _next_candidate(problem, state, frames, cands):
    """Place the next candidate of the top search frame and push its child, or fail."""
    scalars = state[SCALARS]
    f = scalars[DEPTH] - 1
    while frames[f, CAND_POS] < frames[f, CAND_STOP]:
        k = frames[f, CAND_POS]
        frames[f, CAND_POS] = k + 1
        i, offset = cands[k, CAND_RANK], cands[k, CAND_OFFSET]
        hatless = cands[k, CAND_HATLESS]
        if _try_place(problem, state, frames, f, i, offset):
            frames[f, PLACED_HATLESS] = hatless
            return
        if hatless:
            break
    _pop(state, frames, 0)


@_inlined
def _try_place(problem, state, frames, f, i, offset):
    """Place rank i at `offset` and push the search below; False if a bound prunes it."""
    first, last = problem[FIRST], problem[LAST]
    totals = state[TOTALS]
    scalars = state[SCALARS]
    capacity = scalars[CAPACITY]
    peak = 0
    for s in range(first[i], last[i]):
        peak = max(peak, totals[s])
    if offset + peak > capacity:
        return False
    raise_start = scalars[RAISE_TOP]
    if not (
        _place(problem, state, i, offset)
        and _floors_fit(problem, state, i, raise_start)
    ):
        _unplace(problem, state, i, offset, raise_start)
        return False
    # Only now: most placements fail the bounds, and nothing above reads these.
    _open_neighbours(problem, state, i, -1)
    frames[f, PLACED_RANK] = i
    frames[f, PLACED_OFFSET] = offset
    frames[f, RAISE_START] = raise_start
    if _cut_at(problem, state, frames, f, i):
        return True
    _push_search(state, frames, frames[f, LO], frames[f, HI], offset, state[PRIO][i])
    return True


@_inlined
def _place(problem, state, i, offset):
    """Take rank i's bytes out of its sections and lift its unplaced neighbours;
    False, at the first one lifted past the capacity, if one is (`_unplace`
    undoes it all the same)."""
    sizes, alignments = problem[SIZES], problem[ALIGNMENTS]
    overlap_starts, overlaps = problem[OVERLAP_STARTS], problem[OVERLAPS]
    totals, min_offsets, scalars = state[TOTALS], state[MIN_OFFSETS], state[SCALARS]
    raised, raised_old = state[RAISED], state[RAISED_OLD]
    capacity = scalars[CAPACITY]
    size = sizes[i]
    for s in range(problem[FIRST][i], problem[LAST][i]):
        totals[s] -= size
    min_offsets[i] = PLACED
    state[SOLUTION][i] = offset
    end = offset + size
    top = scalars[RAISE_TOP]
    for k in range(overlap_starts[i], overlap_starts[i + 1]):
        j = overlaps[k]
        if min_offsets[j] < end:
            raised[top] = j
            raised_old[top] = min_offsets[j]
            top += 1
            mask = alignments[j] - 1  # a power of two: round up without a division
            min_offsets[j] = _clear(problem, j, (end + mask) & ~mask)
            if min_offsets[j] + sizes[j] > capacity:
                scalars[RAISE_TOP] = top
                return False
    scalars[RAISE_TOP] = top
    return True


@_inlined
def _open_neighbours(problem, state, i, change):
    """Count rank i's neighbours in time as one placed buffer more or less open."""
    overlap_starts, overlaps = problem[OVERLAP_STARTS], problem[OVERLAPS]
    open_neighbours = state[OPEN_NEIGHBOURS]
    for k in range(overlap_starts[i], overlap_starts[i + 1]):
        open_neighbours[overlaps[k]] += change


@_inlined
def _clear(problem, j, offset):
    """The lowest offset from `offset` up where rank j misses its obstacles (as
    `decision._clear`): one pass by offset, up to the first one wholly above."""
    starts = problem[OBSTACLE_STARTS]
    lows, highs = problem[OBSTACLE_OFFSETS], problem[OBSTACLE_ENDS]
    size, mask = problem[SIZES][j], problem[ALIGNMENTS][j] - 1
    for k in range(starts[j], starts[j + 1]):
        if lows[k] >= offset + size:
            break
        if highs[k] > offset:
            offset = (highs[k] + mask) & ~mask
    return offset


@_inlined
def _unplace(problem, state, i, offset, raise_start):
    """Undo `_place`: the state is exactly as before it."""
    sizes = problem[SIZES]
    totals, min_offsets, scalars = state[TOTALS], state[MIN_OFFSETS], state[SCALARS]
    raised, raised_old = state[RAISED], state[RAISED_OLD]
    for k in range(raise_start, scalars[RAISE_TOP]):
        min_offsets[raised[k]] = raised_old[k]
    scalars[RAISE_TOP] = raise_start
    min_offsets[i] = offset
    for s in range(problem[FIRST][i], problem[LAST][i]):
        totals[s] += sizes[i]


@_inlined
def _floors_fit(problem, state, i, raise_start):
    """Cross-section bound in the sections of rank i and of the neighbours it lifted
    (`_place` checked that each of those fits below the capacity).

    The section that failed last is checked first: the answer is the same in
    any order, and a section that just failed tends to fail again.
    """
    scalars = state[SCALARS]
    if scalars[RAISE_TOP] == raise_start:
        return True
    first, last = problem[FIRST], problem[LAST]
    min_offsets, raised = state[MIN_OFFSETS], state[RAISED]
    capacity = scalars[CAPACITY]
    lo, hi = first[i], last[i]
    for k in range(raise_start, scalars[RAISE_TOP]):
        j = raised[k]
        lo = min(lo, first[j])
        hi = max(hi, last[j])
    totals, witness = state[TOTALS], state[WITNESS]
    s = scalars[FAILED_SECTION]
    if (
        lo <= s < hi
        and totals[s]
        and not _has_room(problem, min_offsets, witness, s, capacity - totals[s])
    ):
        return False
    for s in range(lo, hi):
        if totals[s] and not _has_room(
            problem, min_offsets, witness, s, capacity - totals[s]
        ):
            scalars[FAILED_SECTION] = s
            return False
    return True


@_inlined
def _has_room(problem, min_offsets, witness, s, highest):
    """Whether some unplaced buffer of section s can start at or below `highest`.

    That is "floor + unplaced bytes <= capacity", stopping at the first witness.
    The section's last witness is asked first: deep in the search most members
    are placed or lifted, and a scan from the start passes dozens of them.
    """
    members = problem[SECTION_MEMBERS]
    if min_offsets[members[witness[s]]] <= highest:
        return True
    starts = problem[MEMBER_STARTS]
    for k in range(witness[s] + 1, starts[s + 1]):
        if min_offsets[members[k]] <= highest:
            witness[s] = k
            return True
    for k in range(starts[s], witness[s]):
        if min_offsets[members[k]] <= highest:
            witness[s] = k
            return True
    return False


@_inlined
def _cut_at(problem, state, frames, f, i):
    """Drop rank i from the boundary counts; if that frees boundaries, push a parts frame."""
    cuts, bounds, scalars = state[CUTS], state[BOUNDS], state[SCALARS]
    top = scalars[BOUNDS_TOP]
    bounds[top] = frames[f, LO]
    count = top + 1
    for s in range(problem[FIRST][i], problem[LAST][i] - 1):
        cuts[s] -= 1
        if cuts[s] == 0:
            bounds[count] = s + 1
            count += 1
    if count == top + 1:
        return False
    bounds[count] = frames[f, HI]
    depth = scalars[DEPTH]
    frames[depth, KIND] = PARTS_FRAME
    frames[depth, BOUNDS_START] = top
    frames[depth, BOUNDS_STOP] = count + 1
    frames[depth, PART] = 0
    scalars[BOUNDS_TOP] = count + 1
    scalars[DEPTH] = depth + 1
    scalars[MODE] = NEXT_PART
    return True


@_inlined
def _restore_cuts(problem, state, i):
    cuts = state[CUTS]
    for s in range(problem[FIRST][i], problem[LAST][i] - 1):
        cuts[s] += 1

"""Time windows of a large trace, each small enough for `best` to search on its own.

The search's cost per node grows with the buffers of the part it works on,
and its tables with the pairs of buffers alive together, so a trace of 100k
buffers is never searched whole.  It is cut in time instead:

* at every point no buffer is alive across (windows that never meet), and
* about every SLICE_BUFFERS buffers, at the point in reach where the fewest
  bytes are alive across: a valley of the live-bytes curve, far below the
  peak that sets the height.

Buffers alive across a cut are *pinned*: they get their offsets first,
best-fit among themselves (all those of one cut are alive together, so they
stack from 0), and every window is then planned around them: the byte
ranges of the pinned buffers a window buffer meets are its obstacles.
Given the pins, windows are independent, so any mix of per-window layouts
is a valid plan.  A cut in a valley costs little: the pinned bytes are few
where bytes are short of the peak anyway.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from memplan.planning.buffers import Buffer
from memplan.planning.greedy import greedy_offsets


@dataclass
class Window:
    """The buffers (indices into the trace) of one window, with their obstacles."""

    members: list[int]
    # Per member, the (offset, end) of the pinned buffers it meets, by offset.
    obstacles: list[list[tuple[int, int]]]


@dataclass
class Windows:
    """A trace cut in time: pinned buffers with their offsets, and the windows."""

    cuts: list[int]  # time points
    pinned: list[int]  # indices into the trace
    pinned_offsets: list[int]
    windows: list[Window]


def choose_cuts(buffers: Sequence[Buffer], window: int) -> list[int]:
    """Time points to cut at: every point no buffer is alive across, and, within a
    longer stretch, a point with the fewest bytes alive across among those that
    leave between window/2 and 3*window/2 buffers starting since the last cut
    (the earliest of equals)."""
    points, across, before = _crossings(buffers)
    total = len(buffers)
    cuts: list[int] = []
    last = 0  # buffers starting before the last cut
    k = 0
    while k < len(points):
        if across[k] == 0:
            cuts.append(points[k])
            last = before[k]
            k += 1
            continue
        # The next free cut ends this stretch; cut it down to windows before it.
        end = k
        while end < len(points) and across[end] != 0:
            end += 1
        stretch_end = before[end] if end < len(points) else total
        while stretch_end - last > 3 * window // 2:
            lo = bisect_left(before, last + window // 2, k, end)
            hi = bisect_right(
                before, min(last + 3 * window // 2, stretch_end - window // 2), lo, end
            )
            if lo >= hi:
                break
            pick = min(range(lo, hi), key=lambda j: (across[j], j))
            cuts.append(points[pick])
            last = before[pick]
            k = pick + 1
        k = end
    return cuts


def _crossings(buffers: Sequence[Buffer]) -> tuple[list[int], list[int], list[int]]:
    """Candidate cut points (every start but the first), the bytes alive across each
    (alive before and after it), and how many buffers start before each."""
    starts = sorted((b.lower, b.size) for b in buffers)
    ends = sorted((b.upper, b.size) for b in buffers)
    points: list[int] = []
    across: list[int] = []
    before: list[int] = []
    live = 0
    s = e = 0
    while s < len(starts):
        point = starts[s][0]
        while e < len(ends) and ends[e][0] <= point:
            live -= ends[e][1]
            e += 1
        if s:
            points.append(point)
            across.append(live)
            before.append(s)
        while s < len(starts) and starts[s][0] == point:
            live += starts[s][1]
            s += 1
    return points, across, before


def split(buffers: Sequence[Buffer], cuts: list[int]) -> Windows:
    """Pin the buffers alive across a cut (best-fit among themselves) and group the
    others by window, each with the pinned buffers it meets as obstacles."""
    pinned: list[int] = []
    groups: list[list[int]] = [[] for _ in range(len(cuts) + 1)]
    for i, b in enumerate(buffers):
        k = bisect_right(cuts, b.lower)
        if k < len(cuts) and cuts[k] < b.upper:
            pinned.append(i)
        else:
            groups[k].append(i)
    pinned_buffers = [buffers[i] for i in pinned]
    by_id = greedy_offsets(pinned_buffers)
    pinned_offsets = [by_id[b.id] for b in pinned_buffers]
    # Pinned buffers meeting window k: alive across cut k - 1 (left) or cut k (right).
    left: list[list[tuple[int, int, int]]] = [[] for _ in groups]
    right: list[list[tuple[int, int, int]]] = [[] for _ in groups]
    for b, offset in zip(pinned_buffers, pinned_offsets, strict=True):
        first, last = bisect_right(cuts, b.lower), bisect_left(cuts, b.upper)
        for k in range(first, last + 1):
            if k > first:
                left[k].append((b.upper, offset, offset + b.size))
            else:
                right[k].append((b.lower, offset, offset + b.size))
    windows = [
        Window(group, _obstacles([buffers[i] for i in group], left[k], right[k]))
        for k, group in enumerate(groups)
        if group
    ]
    return Windows(cuts, pinned, pinned_offsets, windows)


def _obstacles(
    members: list[Buffer],
    left: list[tuple[int, int, int]],
    right: list[tuple[int, int, int]],
) -> list[list[tuple[int, int]]]:
    """The (offset, end) of the pinned buffers each member meets, by offset: `left`
    are (upper, offset, end) of pinned buffers alive since before the window
    (met by members starting before their upper), `right` (lower, offset, end)
    of those alive after it (met by members ending after their lower)."""
    left.sort()
    right.sort()
    left_uppers = [upper for upper, _, _ in left]
    right_lowers = [lower for lower, _, _ in right]
    found = []
    for b in members:
        met = left[bisect_right(left_uppers, b.lower) :]
        met += right[: bisect_left(right_lowers, b.upper)]
        found.append(sorted([(offset, end) for _, offset, end in met]) if met else [])
    return found


def window_offsets(
    buffers: Sequence[Buffer], windows: Windows, window: Window
) -> list[int]:
    """Best-fit offsets of one window's buffers around the pinned ones it meets."""
    members = [buffers[i] for i in window.members]
    lo = min(b.lower for b in members)
    hi = max(b.upper for b in members)
    fixed = [
        (buffers[i], offset)
        for i, offset in zip(windows.pinned, windows.pinned_offsets, strict=True)
        if buffers[i].lower < hi and lo < buffers[i].upper
    ]
    by_id = greedy_offsets(members, fixed)
    return [by_id[b.id] for b in members]

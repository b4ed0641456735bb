"""Time structure of a packing problem: cross sections, overlaps and cuts.

A section is a maximal set of buffers alive together (a time slice whose live
set is not contained in its neighbour's), so every pair of buffers that meets
in time shares a section, and each buffer spans a contiguous run of sections.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from memplan.planning.buffers import Buffer


class TooManyOverlaps(Exception):
    """The overlap lists would outgrow the budget; the caller falls back."""


@dataclass
class TimeStructure:
    """Per-buffer section ranges [first, last) and overlap lists, per-section sizes."""

    first_section: list[int]
    last_section: list[int]
    overlaps: list[list[int]]
    section_totals: list[int]
    section_members: list[list[int]]
    # cuts[s]: how many buffers live in both section s and section s + 1.
    cuts: list[int]


def sweep(buffers: Sequence[Buffer], max_overlaps: int) -> TimeStructure:
    """Build the time structure of nonzero-size buffers in one pass over events."""
    count = len(buffers)
    events = sorted(
        [(b.lower, 1, i) for i, b in enumerate(buffers)]
        + [(b.upper, 0, i) for i, b in enumerate(buffers)]
    )
    first_section = [0] * count
    last_section = [0] * count
    overlaps: list[list[int]] = [[] for _ in range(count)]
    section_totals: list[int] = []
    section_members: list[list[int]] = []
    live: set[int] = set()
    live_bytes = 0
    started_since_section = False
    pairs = 0
    for _, is_start, i in events:
        if is_start:
            for other in live:
                overlaps[other].append(i)
            overlaps[i].extend(live)
            pairs += len(live)
            if pairs > max_overlaps:
                raise TooManyOverlaps
            live.add(i)
            live_bytes += buffers[i].size
            first_section[i] = len(section_totals)
            started_since_section = True
            continue
        if started_since_section:
            section_totals.append(live_bytes)
            section_members.append(sorted(live))
            started_since_section = False
        live.discard(i)
        live_bytes -= buffers[i].size
        last_section[i] = len(section_totals)
    cuts = [0] * len(section_totals)
    for first, last in zip(first_section, last_section, strict=True):
        if last - first > 1:
            cuts[first] += 1
            cuts[last - 1] -= 1
    running = 0
    for s, delta in enumerate(cuts):
        running += delta
        cuts[s] = running
    return TimeStructure(
        first_section, last_section, overlaps, section_totals, section_members, cuts
    )


def restrict(
    buffers: Sequence[Buffer], structure: TimeStructure, sections: Sequence[int]
) -> list[Buffer]:
    """The buffers alive in any of `sections` (ascending indices into `structure`),
    each alive from the first to the last of them it spans, time counted in
    positions of `sections`.

    Two of them meet in time only if both are alive in a kept section, so they
    meet in the whole trace too: any plan of the whole is a plan of this
    relaxation, and a height it cannot reach the whole cannot reach either.
    Kept consecutive sections give the buffers of a time window, clipped to it.
    """
    kept = []
    for i, buffer in enumerate(buffers):
        lower = bisect_left(sections, structure.first_section[i])
        upper = bisect_left(sections, structure.last_section[i])
        if lower < upper:
            kept.append(Buffer(buffer.id, lower, upper, buffer.size, buffer.alignment))
    return kept

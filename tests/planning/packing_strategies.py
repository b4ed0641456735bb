"""Shared test helpers: random traces (hypothesis) and an exhaustive optimum."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from pathlib import Path

from hypothesis import strategies as st
from stable_strategies import one_of_values

from memplan.planning import Buffer

SLOW = os.environ.get("MEMPLAN_SLOW") == "1"
MINIMALLOC = Path(__file__).resolve().parents[2] / "bench" / "data" / "minimalloc"


def examples(quick: int, slow: int) -> int:
    """Hypothesis example count: quick by default, larger with MEMPLAN_SLOW=1."""
    return slow if SLOW else quick


SMALL_ALIGNMENTS = (1, 1, 1, 2, 4, 8)
# Up to the largest the search's int64 arithmetic cannot reach (see best.py).
LARGE_ALIGNMENTS = (1, 1, 2, 8, 16, 64, 2**40, 2**62)


@st.composite
def traces(
    draw: st.DrawFn,
    max_buffers: int = 12,
    max_time: int = 12,
    alignments: Sequence[int] = SMALL_ALIGNMENTS,
) -> list[Buffer]:
    """Small traces rich in ties: equal sizes, back-to-back lifetimes, zero sizes, alignments."""
    count = draw(st.integers(0, max_buffers))
    sizes = one_of_values([0, 1, 2, 3, 4, 4, 5, 8, 16])
    buffers: list[Buffer] = []
    for index in range(count):
        lower = draw(st.integers(0, max_time - 1))
        upper = draw(st.integers(lower + 1, max_time))
        alignment = draw(one_of_values(alignments))
        buffers.append(Buffer(f"b{index}", lower, upper, draw(sizes), alignment))
    return buffers


def random_trace(rng: random.Random) -> list[Buffer]:
    """Up to 25 nonzero-size buffers over up to 20 steps, from a seeded `rng`."""
    count, horizon = rng.randint(1, 25), rng.randint(2, 20)
    buffers = []
    for k in range(count):
        lower = rng.randrange(horizon)
        upper = rng.randint(lower + 1, min(horizon, lower + 1 + rng.randrange(horizon)))
        size = rng.choice([1, 2, 3, 4, 4, 5, 8, 16])
        buffers.append(Buffer(k, lower, upper, size, rng.choice([1, 1, 1, 2, 4, 8])))
    return buffers


def overlaps_in_time(a: Buffer, b: Buffer) -> bool:
    return a.lower < b.upper and b.lower < a.upper


def brute_force_height(buffers: Sequence[Buffer]) -> int:
    """The optimal height by exhaustive search (only for a handful of buffers).

    Any packing can be let down by gravity, in order of offset, until each
    buffer rests on address 0 or on (the aligned end of) a buffer below it;
    so trying every buffer order with those resting places finds the optimum.
    """
    sized = [b for b in buffers if b.size]
    best = sum(b.size + b.alignment for b in sized)
    placed: list[tuple[Buffer, int]] = []

    def fits(buffer: Buffer, offset: int) -> bool:
        return all(
            offset + buffer.size <= other_offset or other_offset + other.size <= offset
            for other, other_offset in placed
            if overlaps_in_time(buffer, other)
        )

    def place(remaining: list[Buffer], height: int) -> None:
        nonlocal best
        if height >= best:
            return
        if not remaining:
            best = height
            return
        for k, buffer in enumerate(remaining):
            rests = {0} | {
                -(-(offset + other.size) // buffer.alignment) * buffer.alignment
                for other, offset in placed
                if overlaps_in_time(buffer, other)
            }
            for offset in sorted(rests):
                if fits(buffer, offset):
                    placed.append((buffer, offset))
                    place(
                        remaining[:k] + remaining[k + 1 :],
                        max(height, offset + buffer.size),
                    )
                    placed.pop()

    place(sized, 0)
    return best if sized else 0

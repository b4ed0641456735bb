"""The relaxation ladder: fit a capacity by fitting ever more of the
trace's fullest sections, each rung's search ordered by the plan of the rung
below.

A relaxation keeps the sections holding at least L live bytes
(`sections.restrict`): any plan of the trace is a plan of it, so when the
capacity fits, every rung fits too, and a rung whose search is exhausted
proves that the capacity does not fit.  The fullest sections are where a
tight capacity is decided; their plan says where the crowded buffers go, and
ordering the next rung's buffers by those offsets (plus noise that grows with
each failed try) lets short searches extend it.  A prototype found
MiniMalloc's D at its max-live height this way, from the plan of its 71
fullest sections, where plain restarts of the whole trace found nothing;
this ladder has not repeated that draw (docs/planning.md, "What is proved").
`best` does not climb: `Solver.climb` runs it on request (bench/ladder.py).

Every try is a decision search capped at a node limit, its noise drawn from
a generator seeded by the rung and the try, so the course depends only on the
trace, the capacity and the limits.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memplan.planning.buffers import Buffer, BufferId
from memplan.planning.sections import TimeStructure, restrict, sweep

# The noise added to a buffer's key grows by capacity / NOISE_STEPS per try.
NOISE_STEPS = 320
# A fresh order's noise weighs one of these times capacity / NOISE_STEPS, and
# one of these shares of a buffer's size is taken off its crowd.
FRESH_NOISE = (0, 2, 7, 20)
FRESH_SIZE_SHARES = (0.0, 0.2, 1.0)


@dataclass(frozen=True)
class Excised:
    """A part of a trace without the buffers that meet all others in time.

    Such a buffer shares no byte with any other in any plan, so its byte range
    can be cut out of a plan and the buffer stacked at the bottom instead:
    the rest fits `removed` bytes lower.  Only sizes that are a multiple of
    every alignment are cut, so the cut keeps every offset aligned.
    """

    kept: list[Buffer]
    bottom: list[tuple[BufferId, int]]  # (id, offset) of the buffers cut out
    removed: int


def excise(buffers: Sequence[Buffer], structure: TimeStructure) -> Excised:
    """Stack the buffers that meet all others in time at the bottom."""
    step = math.lcm(*(b.alignment for b in buffers)) if buffers else 1
    kept: list[Buffer] = []
    bottom: list[tuple[BufferId, int]] = []
    removed = 0
    for buffer, overlaps in zip(buffers, structure.overlaps, strict=True):
        if len(overlaps) == len(buffers) - 1 and buffer.size % step == 0:
            bottom.append((buffer.id, removed))
            removed += buffer.size
        else:
            kept.append(buffer)
    return Excised(kept, bottom, removed)


def rungs(buffers: Sequence[Buffer], structure: TimeStructure) -> list[list[int]]:
    """The sections of each rung, from the fullest sections alone up to all of
    them: those holding at least L live bytes, for each section total L."""
    totals = structure.section_totals
    return [
        [s for s, total in enumerate(totals) if total >= level]
        for level in sorted(set(totals), reverse=True)
    ]


# One decision search: (buffers, their structure, priority order, capacity,
# node limit) -> True with offsets by buffer index, False when exhausted (a
# proof), None when it reached its node limit.
Search = Callable[
    [list[Buffer], TimeStructure, list[int], int, int], tuple[bool | None, list[int]]
]


class Ladder:
    """The climb towards one capacity, one try per `step`, kept between steps."""

    def __init__(
        self,
        buffers: Sequence[Buffer],
        structure: TimeStructure,
        capacity: int,
    ):
        self.buffers = buffers
        self.structure = structure
        self.capacity = capacity
        self.rungs = rungs(buffers, structure)
        self.rung = 0
        self.tries = 0
        # The plan of each rung fitted so far, by buffer id; the last is the guide.
        self.plans: list[dict[BufferId, int]] = []
        self._parts: dict[int, tuple[Excised, TimeStructure]] = {}

    def _part(self, rung: int) -> tuple[Excised, TimeStructure]:
        """A rung's buffers once cut (see `excise`), and their structure."""
        if rung not in self._parts:
            part = restrict(self.buffers, self.structure, self.rungs[rung])
            # A part of a swept trace: no cap on the pairs alive together needed.
            cut = excise(part, sweep(part, len(part) ** 2))
            self._parts[rung] = cut, sweep(cut.kept, len(cut.kept) ** 2)
        return self._parts[rung]

    def step(self, search: Search, node_limit: int) -> bool | None:
        """One try: True once the whole trace fits (see `offsets`), False when
        a rung is proved not to fit, else None.

        Tries take turns: the current rung guided by the plan of the rung
        below; the whole trace guided by the plan of one of the rungs fitted so
        far, the newest first (a rung's plan may lead the whole trace to a fit
        while the rungs above it stay hard: D's whole trace fits from the plan
        of its 71 fullest sections); and the current rung ordered afresh by
        crowd with random noise (a plan unlike the guide, when the guide leads
        nowhere).
        """
        top = len(self.rungs) - 1
        turn, round_ = self.tries % 3, self.tries // 3
        rung = top if turn == 1 else self.rung
        cut, structure = self._part(rung)
        if cut.removed > self.capacity:
            return False
        guide: dict[BufferId, int] = {}
        if self.plans and turn != 2:
            guide = self.plans[-1 - (round_ % len(self.plans) if turn == 1 else 0)]
        order = self._order(cut.kept, structure, rung, guide)
        found, offsets = search(
            cut.kept, structure, order, self.capacity - cut.removed, node_limit
        )
        if not found:
            self.tries += 1
            return found
        plan = dict(cut.bottom)
        for buffer, offset in zip(cut.kept, offsets, strict=True):
            plan[buffer.id] = offset + cut.removed
        self.plans.append(plan)
        self.tries = 0
        self.rung = rung + 1
        self._parts = {k: v for k, v in self._parts.items() if k == top}
        return True if self.rung > top else None

    def offsets(self) -> list[int]:
        """The whole trace's plan, by buffer index, once `step` said it fits."""
        return [self.plans[-1][b.id] for b in self.buffers]

    def _order(
        self,
        buffers: list[Buffer],
        structure: TimeStructure,
        rung: int,
        guide: dict[BufferId, int],
    ) -> list[int]:
        """Buffers by their offset in the `guide` plus noise growing with the
        tries (those it does not have after them, the most crowded first);
        without a guide by crowd minus noise of a randomly chosen weight, and
        some of their size."""
        rng = random.Random((self.rung * 1_000_003 + rung) * 1_000_003 + self.tries)
        unit = max(self.capacity // NOISE_STEPS, 1)
        totals = structure.section_totals
        crowd = [
            max(totals[structure.first_section[i] : structure.last_section[i]])
            for i in range(len(buffers))
        ]
        if not guide:
            weight = rng.choice(FRESH_NOISE) * unit
            share = rng.choice(FRESH_SIZE_SHARES)
            key = [
                -crowd[i] - weight * rng.random() - share * b.size
                for i, b in enumerate(buffers)
            ]
            return sorted(range(len(buffers)), key=lambda i: (key[i], i))
        scale = self.tries * unit
        noise = [rng.random() * scale for _ in buffers]

        def guided(i: int) -> tuple[int, float, int, int]:
            offset = guide.get(buffers[i].id)
            if offset is None:
                return (1, -crowd[i], -crowd[i], i)
            return (0, offset + noise[i], -crowd[i], i)

        return sorted(range(len(buffers)), key=guided)

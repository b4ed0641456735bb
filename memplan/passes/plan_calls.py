"""`memory-plan` around calls: which functions to plan first, and where a
run's one arena would leave a callee too little room.

Functions are planned callees first (`plan_order`), so a caller knows what
each callee holds at its peak.  An arena held across a call where the
arena, what else is held there (`Around`) and the callee's peak exceed the
scope's capacity is *pressed* at that call (`CallPressure`); `memory-plan`
then splits its run so that only the tensors live across the call are
held there, and judges a split by the arenas it makes live together
(`CallPressure.pressed_together`, `fit_together`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.ir import Operation

from memplan.dialects.memory import AllocStorageOp
from memplan.ir_walk import walk
from memplan.passes.arena import Room
from memplan.passes.held_vtcm import Held, held_list, module_callees
from memplan.passes.liveness import FunctionLiveness
from memplan.passes.scope_usage import CallSite, Holding, ModuleUsage, Window
from memplan.planning.buffers import align_up
from memplan.planning.call_graph import callees_first
from memplan.targets import VTCM_SCOPE, Target

if TYPE_CHECKING:
    from memplan.passes.plan import UnitArena

__all__ = [
    "Around",
    "CallPressure",
    "arena_room",
    "arena_span",
    "fit_together",
    "free_bytes",
    "holds_bounded",
    "plan_order",
]


def arena_room(window: Window, target: Target, held: list[Held]) -> Room:
    """The room of an arena of a scope on a device (`window`): VTCM `held`
    all through the function, which is device 0's, takes its bytes from the
    capacity of device 0's VTCM."""
    room = Room(target.capacity(window[0]))
    if window == (VTCM_SCOPE, 0):
        for (_, size, _), holder in zip(held, held_list(held), strict=True):
            room = room.holding(size, holder)
    return room


def arena_span(liveness: FunctionLiveness, arena: UnitArena) -> tuple[int, int]:
    """The program points from the arena's allocation to its kill."""
    return liveness.index[arena.first], liveness.end[arena.last]


@dataclass(frozen=True)
class Around:
    """What a function holds in each scope beside an arena: the memory
    `HeldVtcm.of` finds all through it and the storages left unplanned."""

    liveness: FunctionLiveness
    unplanned: list[Holding]
    why_held: Mapping[Operation | str, str]
    held: list[Held]
    target: Target

    def room(
        self, span: tuple[int, int], window: Window, shallower: list[UnitArena]
    ) -> Room:
        """The room of a scope on a device (`window`) less what is held there
        over the points of `span` (an arena's, or a call's): the arenas of
        enclosing blocks (of `shallower`, the arenas of blocks less deeply
        nested; not nested in one) and the storages left unplanned, each from
        an address of its alignment, as the window has them."""
        room = arena_room(window, self.target, self.held)
        alignment = self.target.alignment(window[0])
        for other in shallower:
            other_span = arena_span(self.liveness, other)
            if (
                other.host is None
                and (other.scope, other.device) == window
                and other_span[0] <= span[1]
                and span[0] <= other_span[1]
            ):
                size = align_up(other.size, alignment)
                room = room.holding(size, f"an enclosing arena of {size} bytes")
        for storage in self.unplanned:
            if (
                storage.window == window
                and storage.start <= span[1]
                and span[0] <= storage.end
            ):
                size = align_up(storage.size, max(alignment, storage.alignment))
                why = self.why_held.get(storage.origin)
                room = room.holding(
                    size * storage.copies,
                    f"{storage.at} ({storage.listed_bytes}, {size * storage.copies} "
                    "with its alignment padding"
                    + (f"; memory-plan leaves it: {why}" if why else "")
                    + ")",
                )
        return room


class CallPressure:
    """The calls of a function to callees already planned, with what each
    callee holds at its peak, found by program point."""

    def __init__(self, calls: list[CallSite], callees: ModuleUsage):
        self.callees = callees
        self.calls = [call for call in calls if call.callee in callees.peaks]
        self.points = [call.point for call in self.calls]

    def pressed(
        self,
        liveness: FunctionLiveness,
        arena: UnitArena,
        room: Room,
        around: Around,
        shallower: list[UnitArena],
    ) -> list[int]:
        """The points of the ops of the arena's block that make calls where
        the arena, what else is held there (`around`, `shallower`) and the
        bytes the callee's peak needs in the arena's window exceed the
        scope's capacity.  `room` is what is left over the arena's whole
        span: a call within it is looked at closer only when it does not
        fit there."""
        first, last = arena_span(liveness, arena)
        window = arena.scope, arena.device
        size = align_up(arena.size, around.target.alignment(arena.scope))
        pressed: list[int] = []
        start = bisect_left(self.points, first)
        stop = bisect_right(self.points, last)
        for call in self.calls[start:stop]:
            peak = self.callees.peaks[call.callee].get(window)
            if not peak:
                continue
            needed = size + self.callees.needed(peak)
            if needed <= free_bytes(room):
                continue
            at_call = around.room((call.point, call.point), window, shallower)
            if needed <= free_bytes(at_call):
                continue
            anchor = liveness.op_at(arena.block, call.point)
            assert anchor is not None
            pressed.append(liveness.index[anchor])
        return pressed

    def pressed_together(
        self,
        liveness: FunctionLiveness,
        arenas: list[UnitArena],
        around: Around,
        shallower: list[UnitArena],
    ) -> set[int]:
        """The points of the ops of the arenas' block (they share one) that
        make calls where the `arenas` live there together (those an arena is
        split into), what else is held there and the callee's peak in their
        window exceed the scope's capacity, as `pressed` finds them for one
        arena."""
        window = arenas[0].scope, arenas[0].device
        spans = _aligned_spans(liveness, arenas, around.target.alignment(window[0]))
        start = bisect_left(self.points, min(span[0] for span, _ in spans))
        stop = bisect_right(self.points, max(span[1] for span, _ in spans))
        calls = self.calls[start:stop]
        pressed: set[int] = set()
        for call, held in zip(
            calls, _held_at(spans, [call.point for call in calls]), strict=True
        ):
            peak = self.callees.peaks[call.callee].get(window)
            if not peak or not held:
                continue
            at_call = around.room((call.point, call.point), window, shallower)
            if held + self.callees.needed(peak) <= free_bytes(at_call):
                continue
            anchor = liveness.op_at(arenas[0].block, call.point)
            assert anchor is not None
            pressed.add(liveness.index[anchor])
        return pressed


def fit_together(
    liveness: FunctionLiveness,
    arenas: list[UnitArena],
    around: Around,
    shallower: list[UnitArena],
) -> bool:
    """Whether the `arenas` (those an arena is split into), each from an
    address of their scope's alignment, fit in what `around` and the
    enclosing arenas in `shallower` leave of their window wherever they are
    live: at the first point of each, as the most are live at one of those."""
    window = arenas[0].scope, arenas[0].device
    spans = _aligned_spans(liveness, arenas, around.target.alignment(window[0]))
    starts = sorted({span[0] for span, _ in spans})
    return all(
        held <= free_bytes(around.room((point, point), window, shallower))
        for point, held in zip(starts, _held_at(spans, starts), strict=True)
    )


def _held_at(spans: list[tuple[tuple[int, int], int]], points: list[int]) -> list[int]:
    """The bytes live at each of `points` (ascending) of `spans`, each the
    first and last point a number of bytes is live over."""
    by_start = sorted(spans)
    live: list[tuple[int, int]] = []
    held = 0
    taken = 0
    found: list[int] = []
    for point in points:
        while taken < len(by_start) and by_start[taken][0][0] <= point:
            (_, end), size = by_start[taken]
            heappush(live, (end, size))
            held += size
            taken += 1
        while live and live[0][0] < point:
            held -= heappop(live)[1]
        found.append(held)
    return found


def _aligned_spans(
    liveness: FunctionLiveness, arenas: list[UnitArena], alignment: int
) -> list[tuple[tuple[int, int], int]]:
    """Each arena's span and its size rounded up to `alignment`."""
    return [
        (arena_span(liveness, arena), align_up(arena.size, alignment))
        for arena in arenas
    ]


def free_bytes(room: Room) -> int:
    free = room.free
    assert free is not None
    return free


def plan_order(
    functions: list[func.FuncOp],
    callers: Mapping[str, list[func.CallOp]],
    target: Target,
) -> tuple[list[list[func.FuncOp]], set[func.FuncOp]]:
    """The functions with a body, callees before callers, those calling
    each other in a cycle together in module order
    (`memplan.planning.call_graph`); and those whose peaks a caller may
    need: called, directly or not, by a function holding a storage of a
    scope with a capacity."""
    by_name = {f.sym_name.data: f for f in functions if f.body.blocks}
    callees = module_callees(callers)
    calls = {name: callees.get(name, []) for name in by_name}
    order = callees_first(calls)
    wanted: set[str] = set()
    for component in reversed(order):
        if any(
            name in wanted or holds_bounded(by_name[name], target)
            for name in component
            if calls[name]
        ):
            wanted.update(
                callee
                for name in component
                for callee in calls[name]
                if callee in by_name
            )
    return (
        [[by_name[name] for name in component] for component in order],
        {by_name[name] for name in wanted},
    )


def holds_bounded(function: func.FuncOp, target: Target) -> bool:
    """Whether `function` allocates a storage of a scope with a capacity."""
    return any(
        isinstance(op, AllocStorageOp) and target.capacity(op.scope) is not None
        for op in walk(function)
    )

"""VTCM placement as plain data: which tensor data sits in fast memory, when.

The `memory-place` pass turns a function into a `PlacementProblem` and back;
nothing here knows the IR.  An `Entity` is the data of one tensor (or of a
group of tensors that must share a scope) seen as a sequence of uses, its
`Slot`s, in program points.  A placement gives every position of an entity,
each slot and each gap between two slots, a location: DDR or VTCM.  Between
positions the data moves with copies:

* into VTCM before a slot that reads it (a prefetch), unless the data does
  not exist yet (a tensor allocated in VTCM from the start, or a `fresh`
  slot: nothing wrote the DDR tensor, whose bytes are undefined);
* back to DDR when it was written in VTCM and is read again later in DDR,
  or must be in DDR at the end (arguments, globals, results); leaving a
  clean VTCM copy costs nothing (DDR still holds the data).

So a tensor can live in VTCM for its whole life (promotion, no copies),
move to VTCM for a stretch of uses (prefetch, and copy back if written), or
leave VTCM over a long gap between uses (evict, prefetch back): a split.

Costs are modeled cycles: each `CostedOp` has a table of its cycles for
every combination of DDR/VTCM of the entities it touches (the pass fills it
from the cost model), times its execution count; copies and the ops that
make a new tensor cost cycles too.  A placement must fit the VTCM capacity
after `memory-plan` packs each planning unit's VTCM tensors into arenas: the
check (`vtcm_peak`) forms the same arenas (one per run of chained live
ranges per unit), packs each with the planning library's greedy packer and
adds up the arenas live at each point, each rounded to the arena alignment.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memplan.planning.buffers import Buffer, align_up
from memplan.planning.registry import plan

DDR = 0
VTCM = 1

# Data states of an entity between positions (see `_step`).
NOTHING = 0
"""No data yet, no tensor: a tensor allocated here may start in either scope."""
IN_DDR = 1
"""The data is in the DDR tensor."""
CLEAN = 2
"""In a VTCM tensor, and the DDR tensor holds the same data."""
DIRTY = 3
"""In a VTCM tensor, written there; a DDR tensor exists but is stale."""
VTCM_ONLY = 4
"""In a VTCM tensor and nowhere else: no DDR tensor was made yet."""
STATES = (NOTHING, IN_DDR, CLEAN, DIRTY, VTCM_ONLY)
IN_VTCM = (CLEAN, DIRTY, VTCM_ONLY)

MAX_CAPACITY_ROUNDS = 12
"""Times a placement is redone with a smaller live-bytes budget when the
packed arenas exceed the capacity; after that the all-DDR placement is kept."""


@dataclass(frozen=True)
class Slot:
    """One use of an entity: the program points [lo, hi] of the op holding it."""

    lo: int
    hi: int
    reads: bool = True
    """The use may read the data (False: it only overwrites all of it)."""
    writes: bool = True
    ddr_only: bool = False
    """The data must be in DDR here (an op that may see it by another name)."""
    fresh: bool = False
    """Nothing wrote the data before this use (its tensor was just allocated):
    entering VTCM here copies nothing in.  Unlike `reads`, this says nothing
    of what the use does, so the copies back to DDR stay as they were."""


@dataclass(frozen=True)
class Occupant:
    """Bytes an entity holds in VTCM over program points [start, end]."""

    start: int
    end: int
    size: int
    alignment: int
    unit: int


@dataclass(frozen=True)
class Entity:
    """The data of a tensor over its uses.

    `start` is the allocation point of a tensor that the pass may retype
    (its data does not exist before, so it may start in VTCM for free); None
    for data that starts in DDR (a function argument, a global, a result).
    `observable`: the data must be back in DDR after the last slot if it was
    changed in VTCM.  `splittable[i]` says whether the location may change
    between slot i and slot i + 1.  An entity with `whole` occupants is a
    group of tensors placed together for their whole lives: it has one slot
    and holds those occupants when in VTCM.
    """

    key: Hashable
    size: int
    alignment: int
    unit: int
    slots: tuple[Slot, ...]
    start: int | None = None
    observable: bool = False
    splittable: tuple[bool, ...] = ()
    copy_cycles: float = 0.0
    """Cycles of one copy of the data between DDR and VTCM."""
    weight: float = 1.0
    """Executions of the block that holds the slots (copies run that often)."""
    whole: tuple[Occupant, ...] | None = None

    @property
    def positions(self) -> int:
        return 2 * len(self.slots) - 1


@dataclass(frozen=True)
class CostedOp:
    """An executed op whose cycles depend on where some entities are.

    `refs[i]` is (entity index, slot index) of the i-th entity it touches;
    `cycles[mask]` its cycles when the entities whose bit is set in `mask` are
    in VTCM.  `weight` is how often it runs; `certain` says it runs at least
    once whenever the function does (not in a branch or a loop that may not
    run), so its gains are certain."""

    refs: tuple[tuple[int, int], ...]
    cycles: tuple[float, ...]
    weight: float = 1.0
    certain: bool = True


@dataclass(frozen=True)
class Unit:
    """A planning unit of `memory-plan`: the point spans of the ops of its block."""

    anchors: tuple[tuple[int, int], ...]
    weight: float = 1.0
    """Executions of the unit's block: an arena is allocated that often."""
    parent: int | None = None
    """The unit holding the conditional op of this unit's block (None for the
    function body): `memory-plan` may nest this unit's arenas in its arenas."""
    _lows: list[int] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lows", [lo for lo, _ in self.anchors])

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Points of the unit's ops that hold `start` and `end`."""
        first = self.anchors[max(bisect.bisect_right(self._lows, start) - 1, 0)]
        last = self.anchors[max(bisect.bisect_right(self._lows, end) - 1, 0)]
        return first[0], max(last[1], end)


@dataclass(frozen=True)
class Reserved:
    """VTCM bytes held over points [lo, hi] outside the arenas of the problem."""

    lo: int
    hi: int
    size: int


@dataclass(frozen=True)
class PlacementProblem:
    entities: tuple[Entity, ...]
    ops: tuple[CostedOp, ...]
    units: tuple[Unit, ...]
    points: int
    capacity: int | None
    """VTCM bytes; None means unbounded."""
    fixed: tuple[Occupant, ...] = ()
    """Tensors that stay in VTCM whatever the placement (they share arenas)."""
    ddr_fixed: tuple[Occupant, ...] = ()
    """Planned DDR tensors that are not entities (they share DDR arenas)."""
    reserved: tuple[Reserved, ...] = ()
    arena_alignment: int = 2048
    tensor_cycles: float = 0.0
    """Cycles of the ops that place and kill one more tensor in an arena."""
    arena_cycles: float = 0.0
    """Cycles of allocating and freeing one arena (per run of either scope)."""
    _refs: list[list[list[tuple[int, int]]]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )
    _moves: dict[tuple[int, tuple[int, ...]], tuple[float, int] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """`moves` of each entity and locations seen (a search re-counts whole
    placements that differ in one entity)."""
    _held: dict[tuple[int, tuple[int, ...]], tuple[list[Occupant], list[Occupant]]] = (
        field(default_factory=dict, init=False, repr=False, compare=False)
    )
    """`occupants` and `ddr_occupants` of each entity and locations seen."""

    def __post_init__(self) -> None:
        refs: list[list[list[tuple[int, int]]]] = [
            [[] for _ in entity.slots] for entity in self.entities
        ]
        for index, op in enumerate(self.ops):
            for bit, (entity, slot) in enumerate(op.refs):
                refs[entity][slot].append((index, bit))
        object.__setattr__(self, "_refs", refs)

    def uses_of(self, entity: int, slot: int) -> list[tuple[int, int]]:
        """(op index, bit) of the ops touching `entity` at `slot`."""
        return self._refs[entity][slot]


States = tuple[tuple[int, ...], ...]
"""A placement: for each entity, DDR or VTCM at each position."""


@dataclass(frozen=True)
class Placement:
    """A placement with what it costs: the result of an algorithm."""

    states: States
    cycles: float
    """Modeled cycles of the ops and of the copies and tensors the placement adds."""
    copies: int
    """Copies inserted (static count)."""
    peak: int
    """VTCM bytes after packing: arenas live at once plus reserved bytes."""
    algorithm: str
    optimal: bool = False
    """Proved optimal for the live-bytes capacity it was solved for."""
    work: int = 0
    """Work units spent (DP steps, or solver nodes)."""


def all_ddr(problem: PlacementProblem) -> States:
    return tuple((DDR,) * entity.positions for entity in problem.entities)


def slot_location(states: States, entity: int, slot: int) -> int:
    return states[entity][2 * slot]


@dataclass(frozen=True)
class Step:
    """A state change at one position and what it costs."""

    state: int
    cycles: float
    copies: int


def _step(
    problem: PlacementProblem, entity: Entity, before: int, position: int, where: int
) -> Step | None:
    """The data state after `position` when it is in `where`, coming from the
    state `before`; None when that is not possible."""
    slots = entity.slots
    index = position // 2
    copy = entity.copy_cycles * entity.weight
    tensor = problem.tensor_cycles * entity.weight
    if position % 2:  # a gap between slot index and slot index + 1
        if where == VTCM:
            return Step(before, 0.0, 0) if before in IN_VTCM else None
        needed = slots[index + 1].reads
        if before == DIRTY:
            return Step(IN_DDR, copy, 1) if needed else Step(IN_DDR, 0.0, 0)
        if before == VTCM_ONLY:
            if needed:
                return Step(IN_DDR, copy + tensor, 1)
            return Step(NOTHING, 0.0, 0)
        return Step(IN_DDR if before != NOTHING else NOTHING, 0.0, 0)
    slot = slots[index]
    if where == VTCM and slot.ddr_only:
        return None
    if where == DDR:
        if before == NOTHING:
            first = position == 0 and entity.start is not None
            return Step(IN_DDR, 0.0 if first else tensor, 0)
        if before == DIRTY:
            return Step(IN_DDR, copy, 1) if slot.reads else Step(IN_DDR, 0.0, 0)
        if before == VTCM_ONLY:
            copies = 1 if slot.reads else 0
            return Step(IN_DDR, tensor + copy * copies, copies)
        return Step(IN_DDR, 0.0, 0)
    if before == NOTHING:
        first = position == 0 and entity.start is not None
        return Step(VTCM_ONLY, 0.0 if first else tensor, 0)
    if before == IN_DDR:
        copies = 1 if slot.reads and not slot.fresh else 0
        after = DIRTY if slot.writes else CLEAN
        return Step(after, tensor + copy * copies, copies)
    after = DIRTY if before == CLEAN and slot.writes else before
    return Step(after, 0.0, 0)


def _tied(entity: Entity, position: int) -> bool:
    """The location at `position` must be the one before it: a gap that is
    not splittable keeps the location of the slots on both sides."""
    if position == 0:
        return False
    gap = position // 2 if position % 2 else position // 2 - 1
    return not entity.splittable[gap]


def _initial(entity: Entity) -> int:
    return NOTHING if entity.start is not None else IN_DDR


def _final(entity: Entity, state: int) -> Step:
    if entity.observable and state == DIRTY:
        return Step(IN_DDR, entity.copy_cycles * entity.weight, 1)
    return Step(state, 0.0, 0)


def moves(
    problem: PlacementProblem, index: int, locations: Sequence[int]
) -> tuple[float, int] | None:
    """Cycles and copies of the moves of entity `index` for `locations`
    (one per position), or None when they are not a valid placement."""
    key = (index, tuple(locations))
    if key not in problem._moves:
        problem._moves[key] = _count_moves(problem, problem.entities[index], key[1])
    return problem._moves[key]


def _count_moves(
    problem: PlacementProblem, entity: Entity, locations: tuple[int, ...]
) -> tuple[float, int] | None:
    state = _initial(entity)
    cycles, copies = 0.0, 0
    for position, where in enumerate(locations):
        if _tied(entity, position) and where != locations[position - 1]:
            return None
        step = _step(problem, entity, state, position, where)
        if step is None:
            return None
        state, cycles, copies = step.state, cycles + step.cycles, copies + step.copies
    end = _final(entity, state)
    return cycles + end.cycles, copies + end.copies


def op_cycles(problem: PlacementProblem, states: States) -> float:
    total = 0.0
    for op in problem.ops:
        mask = 0
        for bit, (entity, slot) in enumerate(op.refs):
            mask |= states[entity][2 * slot] << bit  # slot_location, inlined
        total += op.weight * op.cycles[mask]
    return total


def evaluate(problem: PlacementProblem, states: States) -> tuple[float, int]:
    """Modeled cycles and copies of a placement (ValueError if invalid)."""
    cycles = op_cycles(problem, states) + arena_overhead(problem, states)
    copies = 0
    for index in range(len(problem.entities)):
        moved = moves(problem, index, states[index])
        if moved is None:
            raise ValueError(f"invalid locations for entity {index}")
        cycles += moved[0]
        copies += moved[1]
    return cycles, copies


def _position_points(entity: Entity, position: int) -> tuple[int, int]:
    """Points [lo, hi] a position covers (hi < lo: an empty gap)."""
    index = position // 2
    slots = entity.slots
    if position % 2:
        return slots[index].hi + 1, slots[index + 1].lo - 1
    lo = slots[index].lo
    if position == 0 and entity.start is not None:
        lo = min(lo, entity.start)
    return lo, slots[index].hi


def occupants(entity: Entity, locations: Sequence[int]) -> list[Occupant]:
    """What the entity holds in VTCM: one occupant per stretch of VTCM positions."""
    if entity.whole is not None:
        return list(entity.whole) if locations[0] == VTCM else []
    found: list[Occupant] = []
    first: int | None = None
    for position, where in enumerate([*locations, DDR]):
        if where == VTCM and first is None:
            first = position
        elif where == DDR and first is not None:
            lo = _position_points(entity, first)[0]
            hi = _position_points(entity, position - 1)[1]
            found.append(Occupant(lo, hi, entity.size, entity.alignment, entity.unit))
            first = None
    return found


def ddr_occupants(entity: Entity, locations: Sequence[int]) -> list[Occupant]:
    """The DDR tensor a retypable entity keeps (for counting DDR arenas): from
    the first position that uses it to the last, or its whole tensors."""
    if entity.whole is not None:
        return list(entity.whole) if locations[0] == DDR else []
    if entity.start is None:
        return []
    touched = [
        position
        for position, where in enumerate(locations)
        if where == DDR and position % 2 == 0
    ]
    if not touched:
        return []
    lo = _position_points(entity, touched[0])[0]
    hi = _position_points(entity, min(touched[-1] + 1, entity.positions - 1))[1]
    return [Occupant(lo, max(hi, lo), entity.size, entity.alignment, entity.unit)]


def _runs(
    problem: PlacementProblem, found: Sequence[Occupant]
) -> list[tuple[int, int, int, list[Occupant]]]:
    """(unit, first point, last point, occupants) of each arena `memory-plan`
    makes: per unit, occupants sorted by start form runs whose unit-level
    spans overlap in a chain."""
    by_unit: dict[int, list[Occupant]] = {}
    for occupant in found:
        by_unit.setdefault(occupant.unit, []).append(occupant)
    runs: list[tuple[int, int, int, list[Occupant]]] = []
    for unit_index in sorted(by_unit):
        unit = problem.units[unit_index]
        run: list[Occupant] = []
        span = (0, -1)
        for occupant in sorted(by_unit[unit_index], key=lambda o: (o.start, o.end)):
            lo, hi = unit.span(occupant.start, occupant.end)
            if run and lo > span[1]:
                runs.append((unit_index, span[0], span[1], run))
                run = []
            span = (lo, hi) if not run else (span[0], max(span[1], hi))
            run.append(occupant)
        if run:
            runs.append((unit_index, span[0], span[1], run))
    return runs


def _held(
    problem: PlacementProblem, index: int, locations: Sequence[int]
) -> tuple[list[Occupant], list[Occupant]]:
    """`occupants` and `ddr_occupants` of entity `index` at `locations`."""
    key = (index, tuple(locations))
    if key not in problem._held:
        entity = problem.entities[index]
        problem._held[key] = (
            occupants(entity, key[1]),
            ddr_occupants(entity, key[1]),
        )
    return problem._held[key]


def vtcm_occupants(problem: PlacementProblem, states: States) -> list[Occupant]:
    found = list(problem.fixed)
    for index in range(len(problem.entities)):
        found.extend(_held(problem, index, states[index])[0])
    return found


def arenas(problem: PlacementProblem, states: States) -> list[tuple[int, int, int]]:
    """(first point, last point, bytes) of each VTCM arena `memory-plan` makes,
    each packed by the greedy packer and rounded up to the arena alignment.
    Branch arenas count on top of enclosing ones (memory-plan may nest them:
    never more bytes)."""
    return [
        (lo, hi, _packed(problem, run))
        for _, lo, hi, run in _runs(problem, vtcm_occupants(problem, states))
    ]


def arena_overhead(problem: PlacementProblem, states: States) -> float:
    """Cycles of allocating and freeing the arenas of both scopes."""
    return sum(sum(by_unit.values()) for by_unit in _arena_overheads(problem, states))


def _arena_overheads(
    problem: PlacementProblem, states: States
) -> tuple[dict[int, float], dict[int, float]]:
    """Arena cycles by unit, for VTCM and for DDR."""
    ddr = list(problem.ddr_fixed)
    for index in range(len(problem.entities)):
        ddr.extend(_held(problem, index, states[index])[1])
    overheads: list[dict[int, float]] = []
    for found in (vtcm_occupants(problem, states), ddr):
        by_unit: dict[int, float] = {}
        for unit, _, _, _ in _runs(problem, found):
            by_unit[unit] = (
                by_unit.get(unit, 0.0)
                + problem.units[unit].weight * problem.arena_cycles
            )
        overheads.append(by_unit)
    return overheads[0], overheads[1]


def _sure_arena_gain(problem: PlacementProblem, states: States) -> float:
    """Arena cycles `states` saves against all-DDR, counting only what is
    sure.  Arenas of the function's own block count in full.  `memory-plan`
    nests a branch's arena in an enclosing arena of its scope when that one
    does not grow, so a branch arena the model counts may cost nothing, in
    all-DDR as in `states`.  While `states` leaves the tensors of a scope in
    the enclosing unit and its branches as they are, the branch's arenas of
    that scope are the same in both; once it moves one (which may stop the
    nesting: the enclosing arena shrinks), they count as a loss in full and
    what all-DDR spent on them counts zero."""
    baseline = all_ddr(problem)
    gain = 0.0
    for before, after, moved in zip(
        _arena_overheads(problem, baseline),
        _arena_overheads(problem, states),
        _moved_units(problem, baseline, states),
        strict=True,
    ):
        for unit in before.keys() | after.keys():
            parent = problem.units[unit].parent
            if parent is None:
                gain += before.get(unit, 0.0) - after.get(unit, 0.0)
            elif parent in moved:
                gain -= after.get(unit, 0.0)
    return gain


def _moved_units(
    problem: PlacementProblem, baseline: States, states: States
) -> tuple[set[int], set[int]]:
    """Units, for VTCM and for DDR, that hold or enclose a unit holding a
    tensor of that scope that `states` moves from where `baseline` has it."""
    found: tuple[set[int], set[int]] = (set(), set())
    for index, entity in enumerate(problem.entities):
        if states[index] == baseline[index]:
            continue
        for locations in (baseline[index], states[index]):
            found[0].update(o.unit for o in occupants(entity, locations))
            found[1].update(o.unit for o in ddr_occupants(entity, locations))
    for units in found:
        for unit in list(units):
            parent = problem.units[unit].parent
            while parent is not None and parent not in units:
                units.add(parent)
                parent = problem.units[parent].parent
    return found


def _packed(problem: PlacementProblem, run: list[Occupant]) -> int:
    buffers = [
        Buffer(
            index,
            occupant.start,
            occupant.end + 1,
            align_up(occupant.size, occupant.alignment),
            occupant.alignment,
        )
        for index, occupant in enumerate(run)
    ]
    height = plan(buffers, None, "greedy").height
    return align_up(height, problem.arena_alignment)


def vtcm_peak(problem: PlacementProblem, states: States) -> int:
    """Most VTCM bytes held at once after `memory-plan`: arenas and reserved."""
    return _peak_point(problem, states)[0]


def _peak_point(problem: PlacementProblem, states: States) -> tuple[int, int]:
    """The VTCM peak and the first point where it is reached."""
    spans = [(lo, hi, size) for lo, hi, size in arenas(problem, states)]
    spans += [(r.lo, r.hi, r.size) for r in problem.reserved]
    events: list[tuple[int, int]] = []
    for lo, hi, size in spans:
        events.append((lo, size))
        events.append((hi + 1, -size))
    events.sort()
    live = peak = point = 0
    for at, delta in events:
        live += delta
        if live > peak:
            peak, point = live, at
    return peak, point


class Demand:
    """Live VTCM bytes per program point, for quick "does it fit" checks."""

    def __init__(self, problem: PlacementProblem):
        self.bytes = np.zeros(problem.points + 1, dtype=np.int64)
        for occupant in problem.fixed:
            self.add(occupant, 1)
        for reserved in problem.reserved:
            self.bytes[reserved.lo : reserved.hi + 1] += reserved.size

    def add(self, occupant: Occupant, sign: int) -> None:
        size = align_up(occupant.size, occupant.alignment)
        self.bytes[occupant.start : occupant.end + 1] += sign * size

    def highest(self, lo: int, hi: int) -> int:
        if hi < lo:
            return 0
        return int(self.bytes[lo : hi + 1].max())


@dataclass
class _Search:
    """State of the heuristic: current locations, demand, work done."""

    problem: PlacementProblem
    budget: int | None
    locations: list[list[int]]
    demand: Demand
    work: int = 0

    def states(self) -> States:
        return tuple(tuple(row) for row in self.locations)

    def slot_gain(self, index: int, slot: int) -> float:
        """Cycles of the ops at `slot` with the entity in VTCM minus in DDR,
        the other entities where they are now."""
        problem = self.problem
        delta = 0.0
        for op_index, bit in problem.uses_of(index, slot):
            op = problem.ops[op_index]
            mask = 0
            for other_bit, (entity, other_slot) in enumerate(op.refs):
                if other_bit != bit:
                    where = self.locations[entity][2 * other_slot]
                    mask |= where << other_bit
            delta += op.weight * (op.cycles[mask | 1 << bit] - op.cycles[mask])
        return delta

    def fits(self, entity: Entity, position: int, limit: int | None) -> bool:
        if limit is None:
            return True
        lo, hi = _position_points(entity, position)
        size = align_up(entity.size, entity.alignment)
        return self.demand.highest(lo, hi) + size <= limit

    def whole_fits(self, entity: Entity, limit: int | None) -> bool:
        if limit is None or entity.whole is None:
            return True
        for occupant in entity.whole:
            self.demand.add(occupant, 1)
        highest = max(self.demand.highest(o.start, o.end) for o in entity.whole)
        for occupant in entity.whole:
            self.demand.add(occupant, -1)
        return highest <= limit

    def best_locations(self, index: int, limit: int | None) -> list[int]:
        """The cheapest locations of one entity, others fixed, within `limit`
        live VTCM bytes: a shortest path over (position, state)."""
        problem = self.problem
        entity = problem.entities[index]
        gains = [self.slot_gain(index, slot) for slot in range(len(entity.slots))]
        whole_ok = self.whole_fits(entity, limit)
        # best[state] = (cycles, locations so far); ties prefer DDR (listed first).
        best: dict[int, tuple[float, list[int]]] = {_initial(entity): (0.0, [])}
        for position in range(entity.positions):
            self.work += 1
            allowed = [DDR]
            if whole_ok and self.fits(entity, position, limit):
                allowed.append(VTCM)
            following: dict[int, tuple[float, list[int]]] = {}
            for state, (cycles, path) in sorted(best.items()):
                for where in allowed:
                    if _tied(entity, position) and where != path[-1]:
                        continue
                    step = _step(problem, entity, state, position, where)
                    if step is None:
                        continue
                    total = cycles + step.cycles
                    if where == VTCM and position % 2 == 0:
                        total += gains[position // 2]
                    known = following.get(step.state)
                    if known is None or total < known[0] - 1e-9:
                        following[step.state] = (total, [*path, where])
            best = following
        finals = []
        for state, (cycles, path) in sorted(best.items()):
            finals.append((cycles + _final(entity, state).cycles, path))
        return min(finals, key=lambda item: (item[0], sum(item[1])))[1]

    def set_locations(self, index: int, locations: list[int]) -> None:
        entity = self.problem.entities[index]
        for occupant in occupants(entity, self.locations[index]):
            self.demand.add(occupant, -1)
        self.locations[index] = locations
        for occupant in occupants(entity, locations):
            self.demand.add(occupant, 1)


ORDERS = ("density", "gain")
"""Orders the heuristic tries when the capacity binds: cycles saved per VTCM
byte-point, and cycles saved."""


def _priority(problem: PlacementProblem, search: _Search, order: str) -> list[int]:
    """Entities by what they save alone, most first: per byte-point held in
    VTCM ("density") or in all ("gain")."""
    scored: list[tuple[float, int]] = []
    for index, entity in enumerate(problem.entities):
        locations = search.best_locations(index, None)
        held = sum(
            (o.end - o.start + 1) * align_up(o.size, o.alignment)
            for o in occupants(entity, locations)
        )
        if not held:
            scored.append((0.0, index))
            continue
        baseline = [DDR] * entity.positions
        gain = _entity_cycles(search, index, baseline) - _entity_cycles(
            search, index, locations
        )
        scored.append((-gain / held if order == "density" else -gain, index))
    scored.sort()
    return [index for _, index in scored]


def _entity_cycles(search: _Search, index: int, locations: list[int]) -> float:
    """Cycles that depend on entity `index` alone when it is at `locations`."""
    problem = search.problem
    moved = moves(problem, index, locations)
    assert moved is not None
    total = moved[0]
    for slot in range(len(problem.entities[index].slots)):
        if locations[2 * slot] == VTCM:
            total += search.slot_gain(index, slot)
    return total


HEURISTIC_PASSES = 2
"""Rounds over all entities: the second sees where the others went."""


def _greedy(
    problem: PlacementProblem, limit: int | None, budget: int | None, order: str
) -> _Search:
    search = _Search(
        problem,
        budget,
        [list(row) for row in all_ddr(problem)],
        Demand(problem),
    )
    ranking = _priority(problem, search, order)
    for round_ in range(HEURISTIC_PASSES):
        for index in ranking:
            if budget is not None and search.work >= budget:
                return search
            search.set_locations(index, [DDR] * problem.entities[index].positions)
            search.set_locations(index, search.best_locations(index, limit))
        if round_ == 0:
            _joint_moves(search, limit)
    return search


JOINT_TRIES = 32
"""Ops tried with all their entities in VTCM at once, after the first round."""


def _joint_moves(search: _Search, limit: int | None) -> None:
    """Move together the entities of ops that save most when all of them are
    in VTCM (an op pays DDR latency while any operand is in DDR, so moving
    one alone may not pay, e.g. copies into VTCM feeding one op)."""
    problem = search.problem
    candidates: list[tuple[float, int]] = []
    for index, op in enumerate(problem.ops):
        if len(op.refs) < 2:
            continue
        full = (1 << len(op.refs)) - 1
        separate = sum(
            op.cycles[0] - op.cycles[1 << bit] for bit in range(len(op.refs))
        )
        synergy = op.weight * (op.cycles[0] - op.cycles[full] - separate)
        if synergy > 0:
            candidates.append((-synergy, index))
    candidates.sort()
    current = evaluate(problem, search.states())[0]
    for _, op_index in candidates[:JOINT_TRIES]:
        search.work += 1
        kept: dict[int, list[int]] = {}
        for entity_index, slot in problem.ops[op_index].refs:
            entity = problem.entities[entity_index]
            locations = list(search.locations[entity_index])
            if entity.start is not None:
                wanted = [VTCM] * entity.positions
            elif entity.slots[slot].ddr_only:
                break
            else:
                wanted = list(locations)
                wanted[2 * slot] = VTCM
            if wanted != locations and moves(problem, entity_index, wanted) is not None:
                kept[entity_index] = locations
                search.set_locations(entity_index, wanted)
        trial = evaluate(problem, search.states())[0] if kept else current
        if kept and trial < current and _within(search, kept, limit):
            current = trial
            continue
        for entity_index, locations in kept.items():
            search.set_locations(entity_index, locations)


def _within(search: _Search, changed: dict[int, list[int]], limit: int | None) -> bool:
    """The live VTCM bytes stay within `limit` where the changed entities are."""
    if limit is None:
        return True
    for index in changed:
        entity = search.problem.entities[index]
        for occupant in occupants(entity, search.locations[index]):
            if search.demand.highest(occupant.start, occupant.end) > limit:
                return False
    return True


def guaranteed_gain(problem: PlacementProblem, states: States) -> float:
    """Cycles saved against all-DDR counting only what is sure: gains of ops
    that may not run count zero, losses and added moves count in full; so do
    added arenas, while arenas saved count only in the function's own block
    (`_sure_arena_gain`)."""
    baseline = all_ddr(problem)
    gain = _sure_arena_gain(problem, states)
    for op in problem.ops:
        mask = 0
        for bit, (entity, slot) in enumerate(op.refs):
            mask |= slot_location(states, entity, slot) << bit
        delta = op.cycles[0] - op.cycles[mask]
        if delta < 0 or op.certain:
            gain += op.weight * delta
    for index in range(len(problem.entities)):
        moved = moves(problem, index, states[index])
        unmoved = moves(problem, index, baseline[index])
        assert moved is not None and unmoved is not None
        gain -= moved[0] - unmoved[0]
    return gain


PRUNE_TRIES = 64
"""Entities (the smallest in VTCM) tried back in DDR after the search, to
catch promotions whose savings an extra arena eats up."""


def _pruned(problem: PlacementProblem, states: States) -> States:
    current = [list(row) for row in states]
    baseline = all_ddr(problem)
    moved = [i for i, row in enumerate(states) if VTCM in row]
    moved.sort(key=lambda i: (problem.entities[i].size, i))
    cycles = evaluate(problem, states)[0]
    for index in moved[:PRUNE_TRIES]:
        kept = current[index]
        current[index] = list(baseline[index])
        trial = evaluate(problem, tuple(map(tuple, current)))[0]
        if trial < cycles:
            cycles = trial
        else:
            current[index] = kept
    return tuple(tuple(row) for row in current)


SAFETY_TRIES = 64
"""Entities sent back to DDR one by one before the check gives up and keeps
all-DDR (each try re-counts the whole placement)."""


def safe(problem: PlacementProblem, states: States) -> States:
    """`states`, with entities sent back to DDR (latest first) until the
    placement is sure never to cost more cycles than all-DDR."""
    current = [list(row) for row in states]
    baseline = all_ddr(problem)
    moved = [i for i in reversed(range(len(current))) if VTCM in current[i]]
    for index in [None, *moved[:SAFETY_TRIES]]:
        if index is not None:
            current[index] = list(baseline[index])
        result = tuple(tuple(row) for row in current)
        if guaranteed_gain(problem, result) >= 0:
            return result
    return baseline


def finish(
    problem: PlacementProblem,
    states: States,
    algorithm: str,
    optimal: bool = False,
    work: int = 0,
) -> Placement:
    """The placement with its figures, after the pruning and the safety check."""
    states = safe(problem, _pruned(problem, states))
    cycles, copies = evaluate(problem, states)
    peak = vtcm_peak(problem, states)
    return Placement(states, cycles, copies, peak, algorithm, optimal, work)


def within_capacity(
    problem: PlacementProblem,
    solve: Callable[[int | None], Placement],
    refused: int = 0,
) -> Placement:
    """Run `solve(limit)` with the capacity as the live-bytes limit; while the
    packed arenas exceed the capacity, again with the limit lowered by the
    excess, twice as far when the peak did not drop (`MAX_CAPACITY_ROUNDS`
    tries in all).  All-DDR when no try fits.

    The first `refused` placements that fit are refused too, each as over by
    one arena alignment (its limit lowered from its peak): the caller found
    that `memory-plan` refuses them, for holes between arenas and pinned
    memory that live bytes do not show."""
    capacity = problem.capacity
    if capacity is None:
        return solve(None)
    limit = capacity
    step = 0
    previous: int | None = None
    for _ in range(MAX_CAPACITY_ROUNDS):
        if limit < 0:
            break
        placement = solve(limit)
        if placement.peak <= capacity:
            if not refused:
                return placement
            refused -= 1
            excess = problem.arena_alignment
            limit = min(limit, placement.peak)
        else:
            excess = placement.peak - capacity
        # Lower by the excess; twice as far each time the peak did not drop.
        step = excess if previous is None or placement.peak < previous else 2 * step
        previous = placement.peak
        limit -= step
    return finish(problem, all_ddr(problem), "all-ddr")


def place_heuristic(
    problem: PlacementProblem, budget: int | None = None, refused: int = 0
) -> Placement:
    """The default algorithm: entities in order of cycles saved per VTCM
    byte-point, each given its cheapest locations (a shortest path over its
    positions) among those that fit what earlier ones left; joint moves of
    the entities of an op; a second round.  When the capacity keeps some
    entity out of VTCM, the same again in order of cycles saved, and the
    cheaper placement is kept."""

    def solve(limit: int | None) -> Placement:
        found: list[Placement] = []
        for order in ORDERS:
            search = _greedy(problem, limit, budget, order)
            found.append(
                finish(problem, search.states(), "heuristic", work=search.work)
            )
            if limit is None or not _capacity_binds(problem, search):
                break
        fits = [
            p for p in found if problem.capacity is None or p.peak <= problem.capacity
        ]
        return min(fits or found, key=lambda p: p.cycles)

    return within_capacity(problem, solve, refused)


def _capacity_binds(problem: PlacementProblem, search: _Search) -> bool:
    """Some entity would choose other locations without the capacity."""
    for index in range(len(problem.entities)):
        if search.best_locations(index, None) != search.locations[index]:
            return True
    return False

"""The exact placement: a mixed-integer program solved by HiGHS (`highspy`).

The reference the heuristic is measured against, for small programs.  Each
entity's locations are a path through its (position, data state) graph, the
same moves and costs as `placement._step`, as a unit flow whose VTCM arcs
at a position add up to one binary variable.  An op's cycles are a table
over the entities it touches: one mode variable per row of the table, forced
to the row the binaries select.  Live VTCM bytes stay within the limit at
every point where some occupant starts; `within_capacity` then checks the
packed arenas exactly as for the heuristic.

HiGHS runs on one thread with a node budget and no time limit, so the same
problem gives the same answer on any machine and under any load.  The
heuristic's placement is the starting solution: exact is never worse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memplan.planning.buffers import align_up
from memplan.planning.placement import (
    DDR,
    VTCM,
    Demand,
    Placement,
    PlacementProblem,
    States,
    _final,
    _initial,
    _position_points,
    _step,
    finish,
    place_heuristic,
    within_capacity,
)

DEFAULT_NODES = 20_000
"""Branch-and-bound nodes HiGHS may explore; past them the best placement
found so far is kept and not marked optimal."""


class SolverMissing(RuntimeError):
    """`algorithm=exact` needs the optional `exact` extra (highspy)."""


@dataclass
class _Model:
    """Columns and rows of the MILP, built in Python lists."""

    cost: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    rows: list[tuple[float, float, dict[int, float]]] = field(default_factory=list)
    constant: float = 0.0

    def column(self, cost: float = 0.0, integer: bool = False) -> int:
        self.cost.append(cost)
        self.upper.append(1.0)
        self.integer.append(integer)
        return len(self.cost) - 1

    def row(self, lower: float, upper: float, terms: dict[int, float]) -> None:
        self.rows.append((lower, upper, terms))


@dataclass
class _EntityColumns:
    locations: list[int]
    """Binary column per position: 1 = VTCM."""
    arcs: list[dict[tuple[int, int], int]]
    """Per position: (state before, location) -> arc column."""
    finals: dict[int, int]


def _entity_columns(
    model: _Model, problem: PlacementProblem, index: int
) -> _EntityColumns:
    entity = problem.entities[index]
    columns = _EntityColumns([], [], {})
    reached = {_initial(entity): [-1]}  # state -> arc columns flowing into it
    source = True
    for position in range(entity.positions):
        location = model.column(integer=True)
        columns.locations.append(location)
        arcs: dict[tuple[int, int], int] = {}
        following: dict[int, list[int]] = {}
        for state in sorted(reached):
            outgoing: dict[int, float] = {}
            for where in (DDR, VTCM):
                step = _step(problem, entity, state, position, where)
                if step is None:
                    continue
                arc = model.column(step.cycles)
                arcs[state, where] = arc
                outgoing[arc] = 1.0
                following.setdefault(step.state, []).append(arc)
            # Flow into the state equals flow out of it.
            incoming = {arc: -1.0 for arc in reached[state] if arc >= 0}
            if source:
                model.row(1.0, 1.0, outgoing)
            else:
                model.row(0.0, 0.0, {**outgoing, **incoming})
        source = False
        vtcm = {arc: 1.0 for (_, where), arc in arcs.items() if where == VTCM}
        model.row(0.0, 0.0, {**vtcm, location: -1.0})
        columns.arcs.append(arcs)
        reached = following
    for state in sorted(reached):
        final = model.column(_final(entity, state).cycles)
        columns.finals[state] = final
        model.row(0.0, 0.0, {final: 1.0, **{arc: -1.0 for arc in reached[state]}})
    for gap, splittable in enumerate(entity.splittable):
        if not splittable:
            for neighbour in (2 * gap, 2 * gap + 2):
                model.row(
                    0.0,
                    0.0,
                    {
                        columns.locations[2 * gap + 1]: 1.0,
                        columns.locations[neighbour]: -1.0,
                    },
                )
    return columns


def _op_columns(
    model: _Model, problem: PlacementProblem, entities: list[_EntityColumns]
) -> list[list[int]]:
    """Mode columns of each op (empty when a single binary prices it)."""
    modes: list[list[int]] = []
    for op in problem.ops:
        binaries = [entities[e].locations[2 * slot] for e, slot in op.refs]
        if len(binaries) == 1:
            model.constant += op.weight * op.cycles[0]
            model.cost[binaries[0]] += op.weight * (op.cycles[1] - op.cycles[0])
            modes.append([])
            continue
        if not binaries:
            model.constant += op.weight * op.cycles[0]
            modes.append([])
            continue
        columns = [model.column(op.weight * c) for c in op.cycles]
        model.row(1.0, 1.0, dict.fromkeys(columns, 1.0))
        for mask, column in enumerate(columns):
            for bit, binary in enumerate(binaries):
                if mask >> bit & 1:
                    model.row(-1.0, 0.0, {column: 1.0, binary: -1.0})
                else:
                    model.row(-1.0, 1.0, {column: 1.0, binary: 1.0})
        modes.append(columns)
    return modes


def _capacity_rows(
    model: _Model,
    problem: PlacementProblem,
    entities: list[_EntityColumns],
    limit: int,
) -> None:
    """Live VTCM bytes within `limit` at every point where an occupant starts."""
    spans: list[tuple[int, int, int, int]] = []  # lo, hi, bytes, column
    for index, entity in enumerate(problem.entities):
        columns = entities[index]
        if entity.whole is not None:
            for occupant in entity.whole:
                size = align_up(occupant.size, occupant.alignment)
                spans.append((occupant.start, occupant.end, size, columns.locations[0]))
            continue
        size = align_up(entity.size, entity.alignment)
        for position in range(entity.positions):
            lo, hi = _position_points(entity, position)
            if lo <= hi:
                spans.append((lo, hi, size, columns.locations[position]))
    base = Demand(problem)
    for point in sorted({lo for lo, _, _, _ in spans}):
        terms: dict[int, float] = {}
        for lo, hi, size, column in spans:
            if lo <= point <= hi:
                terms[column] = terms.get(column, 0.0) + size
        room = limit - int(base.bytes[point])
        model.row(-float("inf"), float(room), terms)


def _start_values(
    model: _Model,
    problem: PlacementProblem,
    entities: list[_EntityColumns],
    modes: list[list[int]],
    states: States,
) -> list[float]:
    values = [0.0] * len(model.cost)
    for index, entity in enumerate(problem.entities):
        columns = entities[index]
        state = _initial(entity)
        for position, where in enumerate(states[index]):
            values[columns.locations[position]] = float(where)
            values[columns.arcs[position][state, where]] = 1.0
            step = _step(problem, entity, state, position, where)
            assert step is not None
            state = step.state
        values[columns.finals[state]] = 1.0
    for op, columns in zip(problem.ops, modes, strict=True):
        if columns:
            mask = sum(
                states[e][2 * slot] << bit for bit, (e, slot) in enumerate(op.refs)
            )
            values[columns[mask]] = 1.0
    return values


def _solve(
    problem: PlacementProblem, limit: int | None, start: States, nodes: int
) -> tuple[States, bool, int]:
    try:
        import highspy
    except ImportError:
        raise SolverMissing(
            "algorithm=exact needs the highspy package: pip install 'memplan[exact]'"
        ) from None
    model = _Model()
    entities = [
        _entity_columns(model, problem, i) for i in range(len(problem.entities))
    ]
    modes = _op_columns(model, problem, entities)
    if limit is not None:
        _capacity_rows(model, problem, entities, limit)
    lp = highspy.HighsLp()
    lp.num_col_ = len(model.cost)
    lp.num_row_ = len(model.rows)
    lp.col_cost_ = model.cost
    lp.col_lower_ = [0.0] * lp.num_col_
    lp.col_upper_ = model.upper
    lp.offset_ = model.constant
    lp.integrality_ = [
        highspy.HighsVarType.kInteger if flag else highspy.HighsVarType.kContinuous
        for flag in model.integer
    ]
    starts, indices, values = [0], [], []
    lower, upper = [], []
    for low, high, terms in model.rows:
        for column in sorted(terms):
            indices.append(column)
            values.append(terms[column])
        starts.append(len(indices))
        lower.append(low)
        upper.append(high)
    lp.row_lower_ = lower
    lp.row_upper_ = upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = starts
    lp.a_matrix_.index_ = indices
    lp.a_matrix_.value_ = values
    highs = highspy.Highs()
    for option, value in (
        ("output_flag", False),
        ("threads", 1),
        ("parallel", "off"),
        ("random_seed", 0),
        ("mip_rel_gap", 0.0),
        ("mip_max_nodes", nodes),
    ):
        highs.setOptionValue(option, value)
    highs.passModel(lp)
    solution = highspy.HighsSolution()
    solution.col_value = _start_values(model, problem, entities, modes, start)
    solution.value_valid = True
    highs.setSolution(solution)
    highs.run()
    status = highs.getModelStatus()
    spent = int(highs.getInfo().mip_node_count)
    if highs.getInfo().primal_solution_status != 2:  # no feasible solution
        return start, False, spent
    found = highs.getSolution().col_value
    states = tuple(
        tuple(round(found[column]) for column in columns.locations)
        for columns in entities
    )
    return states, status == highspy.HighsModelStatus.kOptimal, spent


def place_exact(
    problem: PlacementProblem, budget: int | None = None, refused: int = 0
) -> Placement:
    """Optimal placement for the live-bytes limit (within `budget` nodes),
    started from the heuristic's placement."""
    nodes = DEFAULT_NODES if budget is None else budget
    heuristic = place_heuristic(problem, refused=refused)
    if not problem.entities:
        return finish(problem, heuristic.states, "exact", optimal=True)

    def solve(limit: int | None) -> Placement:
        start = heuristic.states
        if limit is not None and limit != problem.capacity:
            start = tuple((DDR,) * e.positions for e in problem.entities)
        states, optimal, spent = _solve(problem, limit, start, nodes)
        return finish(problem, states, "exact", optimal, spent)

    placement = within_capacity(problem, solve, refused)
    return placement if placement.cycles <= heuristic.cycles else heuristic


PLACEMENT_ALGORITHMS: dict[
    str, Callable[[PlacementProblem, int | None, int], Placement]
] = {
    "heuristic": place_heuristic,
    "exact": place_exact,
}

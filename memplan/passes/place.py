"""`memory-place`: decide what lives in VTCM, under its capacity, for fewer cycles.

Runs between `memory-manifest` and `memory-plan`.  Each function (callees
first) becomes a `PlacementProblem` (`place_model`): tensors that may move,
DDR data that may be prefetched, memory pinned to VTCM.  An algorithm of
`memplan.planning.placement` picks locations that minimize the cost model's
cycles while the VTCM arenas `memory-plan` will make fit the capacity, and
`place_rewrite` carries them out: scope groups are retyped, and where data
moves, new tensors, `memory.copy` ops and kills are inserted.

Where VTCM is pinned, frees in any order leave holes in first fit's window
that the model's live bytes miss: the placed module is planned on a clone
as `memory-plan` would plan it, and placed again, from the module as it
was, with lower limits for the functions that plan refuses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from memplan.dialects.memory import AllocStorageOp, static_byte_size
from memplan.interpreter.cost import CostModelError, program_scopes, with_cost_file
from memplan.ir_walk import walk
from memplan.passes.call_aliases import CallAliases
from memplan.passes.capacity_check import planned_capacity_problems
from memplan.passes.diagnostics import named_op
from memplan.passes.held_vtcm import (
    Held,
    HeldVtcm,
    held_list,
    module_callees,
    remark_dynamic_held,
)
from memplan.passes.options import (
    MemplanPass,
    check_count,
    check_power_of_two,
    resolve_target,
)
from memplan.passes.ownership import held_copies
from memplan.passes.place_model import (
    FunctionModel,
    PinnedDynamic,
    build_model,
    frequency,
    written_globals,
)
from memplan.passes.place_rewrite import move_entity, move_group
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.retype import ALLOCATING_OPS, ScopeGroups, global_name
from memplan.passes.surely_held import SurelyHeld, surely_held
from memplan.planning.buffers import align_up
from memplan.planning.placement import (
    Placement,
    all_ddr,
    arenas,
    evaluate,
    vtcm_peak,
)
from memplan.planning.placement_exact import PLACEMENT_ALGORITHMS, SolverMissing
from memplan.targets import DEFAULT_TARGET, GLOBAL_SCOPE, VTCM_SCOPE, Target

PROGRESS_ENTITIES = 1000
"""Functions with at least this many tensors say so on a terminal's stderr."""


@dataclass
class FunctionReport:
    """What the pass did to one function (for benchmarks and tests)."""

    name: str
    ddr_cycles: float
    cycles: float
    copies: int
    peak: int
    algorithm: str
    optimal: bool


@dataclass
class PlaceReport:
    functions: list[FunctionReport] = field(default_factory=list[FunctionReport])


@dataclass(frozen=True)
class MemoryPlacePass(MemplanPass):
    """Place tensors in VTCM ("global.vtcm") or DDR ("global") under the VTCM
    capacity, with the copies that moving data needs, for the fewest modeled
    cycles."""

    name = "memory-place"

    target: str = DEFAULT_TARGET
    """Target that gives the VTCM capacity, alignments and cost parameters."""

    capacity: int | None = None
    """VTCM capacity in bytes, overriding the target's (like memplan-run's
    --vtcm-size)."""

    cost_model: str | None = None
    """JSON file of cost-parameter overrides, as memplan-run --cost-model."""

    algorithm: str = "heuristic"
    """"heuristic" (default: fast, deterministic) or "exact" (a MILP solved
    by HiGHS, for small programs; needs the `exact` extra)."""

    budget: int | None = None
    """Work budget: heuristic steps, or branch-and-bound nodes for "exact"."""

    tensor_alignment: int | None = None
    """The `tensor-alignment` the `memory-plan` after it will use (default: the
    element size): the arenas it counts against the capacity are packed with
    it."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.place(op)

    def place(self, module: ModuleOp) -> PlaceReport:
        """Place `module` in place; the report says what it cost."""
        if self.algorithm not in PLACEMENT_ALGORITHMS:
            known = ", ".join(PLACEMENT_ALGORITHMS)
            raise PassFailedException(
                f"memory-place: unknown algorithm '{self.algorithm}', expected one of: {known}"
            )
        check_count(self.name, "budget", self.budget)
        check_power_of_two(self.name, "tensor-alignment", self.tensor_alignment)
        target = self._target(module)
        refused: dict[str, int] = {}
        placer = self._placer(module, target, refused)
        if target.capacity(VTCM_SCOPE) is None or not placer.pins_vtcm():
            return placer.run()
        # Only pinned memory leaves holes: placed again from the module as
        # it was while memory-plan refuses a function with some in VTCM.
        pristine = module.clone()
        while True:
            report = placer.run()
            if not placer.in_vtcm:
                return report
            again = placer.to_place_again(self._refused_by_plan(module, target))
            if not again:
                return report
            for name in again:
                refused[name] = refused.get(name, 0) + 1
            module.body.erase_block(0, safe_erase=False)
            pristine.clone().body.move_blocks(module.body)
            placer = self._placer(module, target, refused)

    def _placer(
        self, module: ModuleOp, target: Target, refused: dict[str, int]
    ) -> _Placer:
        return _Placer(
            module,
            target,
            self.algorithm,
            self.budget,
            self.tensor_alignment,
            refused,
        )

    def _refused_by_plan(self, module: ModuleOp, target: Target) -> set[str]:
        """The functions `memory-plan` with the same target and
        `tensor-alignment` refuses in `module`, planned on a clone as it would
        plan it: an arena over the room it finds, or a function over a
        capacity in its final check (the holes first fit leaves around
        pinned memory, which the live bytes of the placement model miss)."""
        planned = module.clone()
        plan = MemoryPlanPass(tensor_alignment=self.tensor_alignment)
        refused = {
            function.sym_name.data
            for function, failure in plan.plan_functions(planned, target)
            if failure is not None
        }
        problems = planned_capacity_problems(planned, target)
        return refused | {name for name, found in problems.items() if found}

    def _target(self, module: ModuleOp) -> Target:
        target = resolve_target(self.name, self.target, self.capacity)
        if self.cost_model is None:
            return target
        try:
            with open(self.cost_model, "rb") as file:
                data = file.read()
        except OSError as error:
            raise PassFailedException(
                f"memory-place: cost-model={self.cost_model}: cannot read the file "
                f"({error.strerror})"
            ) from None
        try:
            return with_cost_file(target, data, program_scopes(module))
        except CostModelError as error:
            raise PassFailedException(
                f"memory-place: cost-model={self.cost_model}: {error}"
            ) from None


@dataclass
class _Placer:
    module: ModuleOp
    target: Target
    algorithm: str
    budget: int | None
    tensor_alignment: int | None
    refused: dict[str, int]
    """Per function, how many of the placements that fit the model
    `memory-plan` was found to refuse (`within_capacity` skips as many)."""
    report: PlaceReport = field(default_factory=PlaceReport)
    peaks: dict[str, int] = field(default_factory=dict[str, int])
    held: dict[str, list[Held]] = field(default_factory=dict[str, list[Held]])
    """Per function, the VTCM `HeldVtcm.of` takes from its capacity."""
    in_vtcm: set[str] = field(default_factory=set[str])
    """The functions placed with some of their movable data in VTCM."""
    groups: ScopeGroups = field(init=False)
    calls: CallAliases = field(init=False)
    """What the module's functions return, found before any is placed
    (placing one never makes it return an argument it did not)."""

    def __post_init__(self) -> None:
        self.groups = ScopeGroups(self.module)
        self.calls = CallAliases(self.module)

    def pins_vtcm(self) -> bool:
        """Some VTCM memory stays where it is, whatever the placement: a
        fixed group in VTCM, or VTCM held all through a function."""
        if any(g.fixed is not None and VTCM_SCOPE in g.scopes() for g in self.groups):
            return True
        held = HeldVtcm(self.module)
        alignment = self.target.alignment(VTCM_SCOPE)
        return any(
            held.of(f, self.groups.callers.get(f.sym_name.data, []), alignment)
            for f in walk(self.module)
            if isinstance(f, func.FuncOp) and not f.is_declaration
        )

    def to_place_again(self, refused: set[str]) -> set[str]:
        """The functions with data in VTCM among those `memory-plan` refused
        and the functions they call, directly or not (what a callee holds at
        a call may be what finds no room)."""
        callees = module_callees(self.groups.callers)
        found: set[str] = set()
        pending = list(refused)
        while pending:
            name = pending.pop()
            if name not in found:
                found.add(name)
                pending += callees.get(name, [])
        return found & self.in_vtcm

    def run(self) -> PlaceReport:
        functions = [f for f in walk(self.module) if isinstance(f, func.FuncOp)]
        order, cyclic = _callees_first(functions, self.groups)
        weights = _weights(order, self.groups)
        get_globals = [op for op in walk(self.module) if global_name(op) is not None]
        written = written_globals(self.groups, get_globals)
        handled: set[int] = set()
        module_order = {op: i for i, op in enumerate(walk(self.module))}
        held_in_module = HeldVtcm(self.module)
        for function in order:
            if function.is_declaration:
                continue
            name = function.sym_name.data
            callers = self.groups.callers.get(name, [])
            held = held_in_module.of(
                function, callers, self.target.alignment(VTCM_SCOPE)
            )
            self.held[name] = held
            capacity = self.target.capacity(VTCM_SCOPE)
            if capacity is not None:
                remark_dynamic_held("memory-place", function, callers)
            if len(function.body.blocks) != 1 or name in cyclic:
                self.peaks[name] = self._unplaced(function, handled, name in cyclic)
                continue
            if capacity is not None:
                capacity -= sum(size for _, size, _ in held)
            try:
                model = build_model(
                    function,
                    self.groups,
                    self.target,
                    weights.get(name, 1.0),
                    capacity,
                    self.peaks,
                    written,
                    handled,
                    module_order,
                    self.tensor_alignment,
                    self.calls.forward,
                )
            except PinnedDynamic as error:
                raise PassFailedException(f"memory-place: {error}") from None
            if sys.stderr.isatty() and len(model.problem.entities) >= PROGRESS_ENTITIES:
                print(
                    f"memory-place: @{name}: placing {len(model.problem.entities)} tensors",
                    file=sys.stderr,
                    flush=True,
                )
            self.peaks[name] = self._place(model)
        return self.report

    def _place(self, model: FunctionModel) -> int:
        problem = model.problem
        name = model.function.sym_name.data
        baseline = all_ddr(problem)
        capacity = problem.capacity
        low = vtcm_peak(problem, baseline)
        if capacity is not None and low > capacity:
            raise PassFailedException(_pinned_message(model, low, self.held[name]))
        try:
            placement: Placement = PLACEMENT_ALGORITHMS[self.algorithm](
                problem, self.budget, self.refused.get(name, 0)
            )
        except SolverMissing as error:
            raise PassFailedException(f"memory-place: {error}") from None
        if placement.states != baseline:
            self.in_vtcm.add(name)
        for group in model.demoted:
            move_group(self.groups, group, GLOBAL_SCOPE, self.target)
        copies = 0
        for index, locations in enumerate(placement.states):
            copies += move_entity(
                problem, model, index, locations, self.groups, self.target
            )
        self.report.functions.append(
            FunctionReport(
                name,
                evaluate(problem, baseline)[0],
                placement.cycles,
                copies,
                placement.peak,
                placement.algorithm,
                placement.optimal,
            )
        )
        return placement.peak

    def _unplaced(self, function: func.FuncOp, handled: set[int], cyclic: bool) -> int:
        """A function the pass does not place (several blocks, recursion):
        movable VTCM memory goes to DDR, pinned memory counts without reuse
        (for its callers), and what it certainly holds at once must fit."""
        self._check_unplaced(function, cyclic)
        total = 0
        for op in walk(function):
            if op.name not in ALLOCATING_OPS:
                continue
            group = self.groups.group_of(op.results[0])
            if id(group) in handled:
                continue
            handled.add(id(group))
            if group.fixed is None:
                move_group(self.groups, group, GLOBAL_SCOPE, self.target)
                continue
            if group.scope != VTCM_SCOPE:
                continue
            for allocation in group.allocations():
                size = _static_bytes(allocation)
                if size is None:
                    raise PassFailedException(
                        f"memory-place: {allocation.name} in @{function.sym_name.data} "
                        f'allocates "{VTCM_SCOPE}" memory of a dynamic size that '
                        f"cannot move to DDR ({group.fixed}): expected a static size"
                    )
                alignment = self.target.alignment(VTCM_SCOPE)
                total += align_up(size, alignment) * held_copies(allocation)[0]
        callees = [
            self.peaks.get(op.callee.string_value(), 0)
            for op in walk(function)
            if isinstance(op, func.CallOp)
        ]
        return total + max(callees, default=0)

    def _check_unplaced(self, function: func.FuncOp, cyclic: bool) -> None:
        """Fail when `function` holds more pinned VTCM than the capacity
        whenever it runs: what its entry block certainly holds at once
        (`surely_held`), or any one allocation, with what is held all
        through the function.  Say on stderr what this leaves unchecked."""
        capacity = self.target.capacity(VTCM_SCOPE)
        if capacity is None:
            return
        alignment = self.target.alignment(VTCM_SCOPE)
        pinned: dict[Operation, int] = {}
        for op in walk(function):
            if op.name not in ALLOCATING_OPS:
                continue
            group = self.groups.group_of(op.results[0])
            size = _static_bytes(op)
            if (
                group.fixed is not None
                and group.scope == VTCM_SCOPE
                and size is not None
            ):
                pinned[op] = align_up(size, alignment) * held_copies(op)[0]
        name = function.sym_name.data
        sure = surely_held(function, pinned.get, self.calls.forward)
        largest = max(pinned, key=lambda op: pinned[op], default=None)
        if largest is not None and pinned[largest] > sure.peak:
            sure = SurelyHeld(pinned[largest], largest, [(largest, pinned[largest])])
        held = self.held[name]
        if sure.peak + sum(size for _, size, _ in held) > capacity:
            listed = [
                (op, size, self.groups.group_of(op.results[0]).fixed or "")
                for op, size in sure.holders
            ]
            raise PassFailedException(
                _over_capacity(name, sure.peak, sure.at, capacity, held, listed)
            )
        entry = function.body.blocks[0]
        alone = sum(op.parent_block() is not entry for op in pinned)
        if alone:
            why = (
                "it is in a call cycle"
                if cyclic
                else f"it has {len(function.body.blocks)} blocks"
            )
            print(
                f"memory-place: remark: in @{name}, {alone} allocation(s) of "
                f'memory that must stay in "{VTCM_SCOPE}" outside the top level '
                "of the entry block are checked against the capacity one at a "
                f"time only: memory-place does not place @{name} ({why}); "
                "memory-verify checks what is held at once",
                file=sys.stderr,
            )


def _static_bytes(allocation: Operation) -> int | None:
    if isinstance(allocation, AllocStorageOp):
        return allocation.static_size_bytes()
    type_ = allocation.results[0].type
    assert isinstance(type_, MemRefType)
    return static_byte_size(type_)


def _callees_first(
    functions: list[func.FuncOp], groups: ScopeGroups
) -> tuple[list[func.FuncOp], set[str]]:
    """Functions with every callee before its callers (module order otherwise),
    and the names of those in call cycles."""
    by_name = {f.sym_name.data: f for f in functions}
    callees = module_callees(groups.callers)
    order: list[func.FuncOp] = []
    state: dict[str, int] = {}
    cyclic: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cyclic.update(path[path.index(name) :])
            return
        state[name] = 1
        for callee in callees[name]:
            visit(callee, [*path, callee])
        state[name] = 2
        order.append(by_name[name])

    for name in by_name:
        visit(name, [name])
    return order, cyclic


def _weights(order: list[func.FuncOp], groups: ScopeGroups) -> dict[str, float]:
    """Runs of each function per run of the entry points (callers first)."""
    weights: dict[str, float] = {}
    for function in reversed(order):
        name = function.sym_name.data
        calls = groups.callers.get(name, [])
        if not calls:
            weights[name] = 1.0
            continue
        total = 0.0
        for call in calls:
            caller = call.parent_op()
            while caller is not None and not isinstance(caller, func.FuncOp):
                caller = caller.parent_op()
            caller_weight = weights.get(caller.sym_name.data, 1.0) if caller else 1.0
            total += caller_weight * frequency(call).count
        weights[name] = total
    return weights


def _pinned_message(model: FunctionModel, peak: int, held: list[Held]) -> str:
    """The problem's peak is over its capacity: where, and what is pinned."""
    problem = model.problem
    assert problem.capacity is not None
    spans = [(lo, hi, size) for lo, hi, size in arenas(problem, all_ddr(problem))]
    spans += [(r.lo, r.hi, r.size) for r in problem.reserved]
    worst = max(
        {lo for lo, _, _ in spans},
        key=lambda point: (sum(s for lo, hi, s in spans if lo <= point <= hi), -point),
        default=None,
    )
    at = (
        None
        if worst is None
        else model.liveness.op_at(model.function.body.block, worst)
    )
    return _over_capacity(
        model.function.sym_name.data,
        peak,
        at,
        problem.capacity + sum(size for _, size, _ in held),
        held,
        model.pinned,
    )


def _over_capacity(
    name: str,
    peak: int,
    at: Operation | None,
    capacity: int,
    held: list[Held],
    pinned: list[tuple[Operation, int, str]],
) -> str:
    """`held` (`HeldVtcm.of`) adds to the `peak` of `pinned` memory at `at`; it
    is listed first."""
    peak += sum(size for _, size, _ in held)
    where = "" if at is None else f" at {named_op(at)}"
    listed = "; ".join(
        held_list(held)
        + [f"{named_op(op)} of {size} bytes ({reason})" for op, size, reason in pinned]
    )
    return (
        f'memory-place: in @{name}, memory that must stay in "{VTCM_SCOPE}" needs '
        f"{peak} bytes{where}, over the capacity of {capacity} bytes: {listed}"
    )

"""How many bytes of each scope a function holds at once, callees included.

A storage is held from its `memory.alloc_storage` to its `memory.kill`; a
`func.call` holds, for an instant, the most its callee (and the callee's own
callees) ever holds.  Functions that call each other in a cycle (recursion)
hold storages once per level: that is unbounded unless no storage is held
across the calls that close the cycle, and is reported as such.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects import func

from memplan.dialects.memory import AllocStorageOp, KillOp
from memplan.passes.diagnostics import describe
from memplan.passes.liveness import FunctionLiveness
from memplan.targets import Target


@dataclass(frozen=True)
class Holding:
    """`size` bytes of `scope` held over program points [start, end]."""

    scope: str
    start: int
    end: int
    size: int
    at: str
    """How a diagnostic names the point: "memory.alloc_storage %arena"."""
    listed: str
    """How a diagnostic lists it among others: "%arena"."""


@dataclass(frozen=True)
class CallSite:
    call: func.CallOp
    point: int
    callee: str


@dataclass
class FunctionUsage:
    """The storages a function holds and the calls it makes, by program point."""

    name: str
    storages: list[Holding]
    calls: list[CallSite]


def function_usage(liveness: FunctionLiveness) -> FunctionUsage:
    """Static storages of the function with the points from their allocation
    to their kill, and its calls.  Only a kill in the storage's own block
    frees it on every path; a storage killed only inside a branch or a loop
    is held to the end of the function.  Dynamic sizes count as zero."""
    storages: list[Holding] = []
    calls: list[CallSite] = []
    for op, point in liveness.index.items():
        if isinstance(op, func.CallOp):
            calls.append(CallSite(op, point, op.callee.string_value()))
        if not isinstance(op, AllocStorageOp):
            continue
        size = op.static_size_bytes()
        if size is None:
            continue
        kill_points = [
            liveness.index[use.operation]
            for use in op.result.uses
            if isinstance(use.operation, KillOp)
            and use.operation.parent_block() is op.parent_block()
        ]
        end = min(kill_points) if kill_points else liveness.last_point
        name = describe(op.result)
        at = f"{op.name} {name}" if op.result.name_hint else name
        storages.append(Holding(op.scope, point, end, size, at, name))
    return FunctionUsage(liveness.function.sym_name.data, storages, calls)


def _sweep(holdings: Iterable[Holding]) -> Iterator[tuple[Holding, list[Holding]]]:
    """Each holding with everything held at its start, in program order."""
    live: list[Holding] = []
    for holding in sorted(holdings, key=lambda h: (h.start, h.end)):
        live = [h for h in live if h.end >= holding.start] + [holding]
        yield holding, live


def _by_scope(holdings: Iterable[Holding]) -> dict[str, list[Holding]]:
    by_scope: defaultdict[str, list[Holding]] = defaultdict(list)
    for holding in holdings:
        by_scope[holding.scope].append(holding)
    return by_scope


class ModuleUsage:
    """Per-scope peaks of every function of a module, callees included."""

    def __init__(self, usages: list[FunctionUsage]):
        self.usages = {usage.name: usage for usage in usages}
        self._closure = {name: self._reachable(name) for name in self.usages}
        self.peaks: dict[str, dict[str, int]] = {}
        """Per function, the most bytes of each scope it holds at once."""
        # A callee's closure is a strict subset of its caller's unless the
        # two are in one cycle, so this order sees every callee outside the
        # caller's cycle first; a cycle shares the greatest of its peaks.
        cycles: defaultdict[frozenset[str], list[str]] = defaultdict(list)
        for name in self.usages:
            cycles[self._closure[name]].append(name)
        for closure in sorted(cycles, key=len):
            members = cycles[closure]
            shared: dict[str, int] = {}
            for name in members:
                for scope, holdings in _by_scope(self.holdings(name)).items():
                    peak = max(
                        sum(h.size for h in live) for _, live in _sweep(holdings)
                    )
                    shared[scope] = max(shared.get(scope, 0), peak)
            for name in members:
                self.peaks[name] = shared

    def _reachable(self, name: str) -> frozenset[str]:
        """`name` and the functions with a body it calls, directly or not."""
        seen = {name}
        stack = [name]
        while stack:
            for call in self.usages[stack.pop()].calls:
                if call.callee in self.usages and call.callee not in seen:
                    seen.add(call.callee)
                    stack.append(call.callee)
        return frozenset(seen)

    def in_cycle(self, caller: str, callee: str) -> bool:
        return caller in self._closure.get(callee, frozenset())

    def holdings(self, name: str) -> list[Holding]:
        """The function's storages and, at each call out of its cycle, the
        callee's peak in each scope."""
        usage = self.usages[name]
        held = list(usage.storages)
        for call in usage.calls:
            if call.callee not in self.usages or self.in_cycle(name, call.callee):
                continue
            for scope, peak in self.peaks[call.callee].items():
                if peak:
                    at = f"{call.call.name} @{call.callee}"
                    listed = f"{at} ({peak} bytes)"
                    held.append(
                        Holding(scope, call.point, call.point, peak, at, listed)
                    )
        return held

    def capacity_problems(
        self, name: str, target: Target, held: Sequence[Holding] = ()
    ) -> Iterator[str]:
        """The first point where each bounded scope holds more than its
        capacity, counting `held` (memory there all through the function),
        and storages held across a call that recurses."""
        held_by_scope = _by_scope(held)
        for scope, holdings in _by_scope(self.holdings(name)).items():
            capacity = target.capacity(scope)
            if capacity is None:
                continue
            for holding, live in _sweep([*held_by_scope.pop(scope, []), *holdings]):
                total = sum(h.size for h in live)
                if total > capacity:
                    yield (
                        f'scope "{scope}" holds {total} bytes at {holding.at} '
                        f"(held: {_held_list(live)}), over its capacity of "
                        f"{capacity} bytes"
                    )
                    break
            yield from self._recursion_problems(name, scope, holdings)
        for scope, holdings in held_by_scope.items():
            capacity = target.capacity(scope)
            total = sum(h.size for h in holdings)
            if capacity is not None and total > capacity:
                yield (
                    f'scope "{scope}" holds {total} bytes before the function '
                    f"runs (held: {_held_list(holdings)}), over its capacity "
                    f"of {capacity} bytes"
                )

    def _recursion_problems(
        self, name: str, scope: str, holdings: list[Holding]
    ) -> Iterator[str]:
        for call in self.usages[name].calls:
            if not self.in_cycle(name, call.callee):
                continue
            live = [h for h in holdings if h.start <= call.point <= h.end]
            if live:
                total = sum(h.size for h in live)
                yield (
                    f"func.call @{call.callee} recurses while {total} bytes of "
                    f'scope "{scope}" are held (held: {_held_list(live)}): every '
                    "level of the recursion adds them, so no capacity bounds the "
                    "total; expected no storage of a bounded scope held across a "
                    "recursive call"
                )


def _held_list(holdings: Iterable[Holding]) -> str:
    return ", ".join(holding.listed for holding in holdings)

"""How many bytes of each scope a function holds at once, callees included,
and whether they fit the scope's address window.

Each device has its own window of a scope, as in `memplan-run`: a storage
counts in the window of its `device` (`memref` allocations, and the memory
held all through a function, in device 0's), against the scope's capacity.

A storage (`memory.alloc_storage`, or a `memref.alloc`, `memref.alloca`,
`bufferization.clone` or the new buffer of a `memref.realloc`, which
`memplan-run` allocates in the same window) is held from its allocation to
the op that frees it (`ownership.freed_at`: a `memref.alloca` to the end of
its automatic allocation scope, a buffer a `memref.realloc` replaces up to
the realloc, which allocates the new one first).  A `memref.alloca` in a
loop inside its automatic allocation scope allocates a new buffer in every
iteration, all held to that scope's end, and so does a
`memory.alloc_storage`, `memref.alloc`, `memref.realloc` or
`bufferization.clone` in a loop that does not free (kill) it,
all held to the end of the function (a free after the loop frees only the
last): it counts once per iteration (the product of the constant trip
counts of such loops; a loop whose trip count is not known cannot be
bounded and is reported).  A `func.call` holds, for an
instant, what its callee (and the callee's own callees) holds at its peak.
Functions that call each other in a cycle (recursion) hold storages once per
level: that is unbounded unless no storage is held across the calls that
close the cycle, and is reported as such.

A bounded scope is an address window where every storage starts at an
address of its alignment (at least the scope's), so padding counts as in
`memplan-run`.  Where the run's allocations are known in order (static
storages and `memref.alloca`s allocated and freed in the function's entry
block, calls made there to functions of the same kind), the check replays
them on the interpreter's own first-fit window: it refuses exactly what the
run refuses.  Elsewhere (storages in branches or loops, kills in branches,
dynamic sizes, `memref.alloc`s, `memref.realloc`s and clones of the scope,
the copies of an allocation in a loop,
which aliases may free, recursion) it uses the planning library's
alignment-aware lower bound on the storages held at once: it refuses only
what no address assignment fits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Operation

from memplan.dialects.memory import AllocStorageOp, scope_of, static_byte_size
from memplan.interpreter.model import AddressSpace, address_space
from memplan.passes.diagnostics import describe, named_op
from memplan.passes.liveness import FunctionLiveness
from memplan.passes.ownership import (
    HEAP_ALLOCATIONS,
    freed_at,
    frees_of,
    held_copies,
)
from memplan.planning.buffers import Buffer, lower_bound
from memplan.planning.call_graph import callees_first
from memplan.targets import Target

Window = tuple[str, int]
"""A scope and a device: the window storages of that scope on that device
share."""


@dataclass(frozen=True, eq=False)
class Holding:
    """`size` bytes of `scope`, aligned to `alignment`, held over program
    points [start, end] by `origin`: an allocation (`_allocated`), the
    `func.call` of a callee that holds it, or text naming memory held all
    through the function."""

    scope: str
    start: int
    end: int
    size: int
    alignment: int
    origin: Operation | str
    peak: int = 0
    """For a call: the bytes its callee holds at its peak, as listed."""
    copies: int = 1
    """How many buffers of `size` bytes it holds at once: a `memref.alloca`,
    or a storage or heap buffer its loop does not free, holds one per
    iteration of the loops around it (`ownership.held_copies`)."""
    device: int = 0
    """The device whose window of `scope` holds it."""

    @property
    def window(self) -> Window:
        return self.scope, self.device

    @property
    def bytes(self) -> int:
        return self.size * self.copies

    @property
    def at(self) -> str:
        """How a diagnostic names the point: "memory.alloc_storage %arena"."""
        if isinstance(self.origin, str):
            return self.origin
        if isinstance(self.origin, func.CallOp):
            return f"{self.origin.name} @{self.origin.callee.string_value()}"
        return named_op(self.origin)

    @property
    def listed(self) -> str:
        """How a diagnostic lists it among others: "%arena"."""
        if isinstance(self.origin, AllocStorageOp):
            name = describe(self.origin.result)
            return name if self.copies == 1 else f"{name} ({self.listed_bytes})"
        if self.peak:
            return f"{self.at} ({self.peak} bytes)"
        return f"{self.at} ({self.listed_bytes})"

    @property
    def listed_bytes(self) -> str:
        """ "4096 bytes", or the copies a loop holds."""
        if self.copies == 1:
            return f"{self.size} bytes"
        return (
            f"{self.copies} copies of {self.size} bytes, one per iteration of its loops"
        )


@dataclass(frozen=True)
class CallSite:
    call: func.CallOp
    point: int
    callee: str
    nested: bool
    """Made inside a region or a block other than the entry block."""


ALLOC, FREE, CALL = range(3)


@dataclass
class FunctionUsage:
    """The storages a function holds and the calls it makes, by program point."""

    name: str
    storages: list[Holding]
    calls: list[CallSite]
    steps: list[tuple[int, int, int]] = field(
        default_factory=list[tuple[int, int, int]]
    )
    """(point, ALLOC or FREE, storage index) or (point, CALL, call index) of
    the entry block, in program order: what a run of it allocates."""
    inexact: set[Window] = field(default_factory=set[Window])
    """Windows whose allocations the steps miss (nested, dynamic, heap buffers)."""
    unbounded: list[tuple[Holding, Operation]] = field(
        default_factory=list[tuple[Holding, Operation]]
    )
    """Each allocation held once per iteration of a loop whose trip count is
    not known (counted once in `storages`), with that loop."""


def function_usage(liveness: FunctionLiveness) -> FunctionUsage:
    """Static storages and memref allocations of the function with the
    points from their allocation to the op that frees them, and its calls.
    Only a free in the allocation's own block frees it on every path
    (`ownership.freed_at`); one freed only inside a branch or a loop is held
    to the end of the function.  A `memref.alloca` in loops its automatic
    allocation scope is around, or a storage or heap buffer in loops that
    do not free it, holds a copy per iteration
    (`ownership.held_copies`): the product of their constant trip counts,
    once where one is not known (`FunctionUsage.unbounded`), none for a loop
    that runs zero times.  Dynamic sizes count as zero."""
    entry = liveness.function.body.blocks.first
    usage = FunctionUsage(liveness.function.sym_name.data, [], [])
    for op, point in liveness.index.items():
        nested = op.parent_block() is not entry
        if isinstance(op, func.CallOp):
            usage.steps.append((point, CALL, len(usage.calls)))
            usage.calls.append(CallSite(op, point, op.callee.string_value(), nested))
        held = _allocated(op)
        if held is None:
            continue
        scope, size, alignment, device = held
        elsewhere = any(f.parent_block() is not op.parent_block() for f in frees_of(op))
        # A heap buffer may be freed through an alias `frees_of` does not
        # follow (the base buffer of a view, an scf.if result, a caller's
        # result): its window is bounded, not replayed.
        if size is None or nested or elsewhere or op.name in HEAP_ALLOCATIONS:
            usage.inexact.add((scope, device))
        if size is None:
            continue
        copies, unknown = held_copies(op)
        if not copies:
            continue
        freed = freed_at(liveness, op)
        usage.steps.append((point, ALLOC, len(usage.storages)))
        if freed is not None:
            usage.steps.append((freed, FREE, len(usage.storages)))
        end = liveness.last_point if freed is None else freed
        holding = Holding(
            scope, point, end, size, alignment, op, copies=copies, device=device
        )
        usage.storages.append(holding)
        if unknown is not None:
            usage.unbounded.append((holding, unknown))
    usage.steps = sorted(
        s for s in usage.steps if s[1] != CALL or not usage.calls[s[2]].nested
    )
    return usage


def _allocated(op: Operation) -> tuple[str, int | None, int, int] | None:
    """The scope, static size (None: dynamic), alignment and device of the
    memory a `memory.alloc_storage`, `memref.alloc`, `memref.alloca`,
    `memref.realloc` (its new buffer) or `bufferization.clone` (a buffer of
    its result's shape, on device 0) allocates, as `memplan-run` allocates
    each in its window; None for any other op (and an unranked clone, which
    `memplan-run` does not run)."""
    if isinstance(op, AllocStorageOp):
        return (
            op.scope,
            op.static_size_bytes(),
            op.alignment.value.data,
            op.device.value.data,
        )
    if op.name not in (*HEAP_ALLOCATIONS, "memref.alloca"):
        return None
    type_ = op.results[0].type
    if not isinstance(type_, MemRefType):
        return None
    alignment = op.properties.get("alignment", op.attributes.get("alignment"))
    return (
        scope_of(type_),
        static_byte_size(type_),
        alignment.value.data if isinstance(alignment, IntegerAttr) else 1,
        0,
    )


def _sweep(holdings: Iterable[Holding]) -> Iterator[tuple[Holding, list[Holding]]]:
    """Each holding with everything held at its start, in program order."""
    live: list[Holding] = []
    for holding in sorted(holdings, key=lambda h: (h.start, h.end)):
        live = [h for h in live if h.end >= holding.start] + [holding]
        yield holding, live


def _by_window(holdings: Iterable[Holding]) -> dict[Window, list[Holding]]:
    by_window: defaultdict[Window, list[Holding]] = defaultdict(list)
    for holding in holdings:
        by_window[holding.window].append(holding)
    return by_window


def scope_text(window: Window) -> str:
    """How a diagnostic names a window: 'scope "global.vtcm"' on device 0,
    'scope "global.vtcm" of device 1' on another."""
    scope, device = window
    return f'scope "{scope}"' + (f" of device {device}" if device else "")


class ModuleUsage:
    """Per-window peaks of every function of a module, callees included, and
    the capacity check of each function on `target`."""

    def __init__(self, usages: list[FunctionUsage], target: Target):
        self.target = target
        self.usages: dict[str, FunctionUsage] = {}
        self._component: dict[str, int] = {}
        """The component of the call graph of each function."""
        self._components = 0
        self.peaks: dict[str, dict[Window, list[Holding]]] = {}
        """Per function, the storages of each window held at its peak (the
        moment they need the most bytes of the window)."""
        by_name = {usage.name: usage for usage in usages}
        calls = {usage.name: [call.callee for call in usage.calls] for usage in usages}
        for component in callees_first(calls):
            self.add([by_name[name] for name in component])

    def add(self, members: Sequence[FunctionUsage]) -> None:
        """Add functions that call each other in a cycle (or one function)
        once the functions they call outside the cycle are added: their
        peaks count the callees' peaks, and a cycle shares the greatest of
        its members' peaks.  A callee not added has no body."""
        self._components += 1
        for usage in members:
            self.usages[usage.name] = usage
            self._component[usage.name] = self._components
        shared: dict[Window, list[Holding]] = {}
        for usage in members:
            for window, holdings in _by_window(self.holdings(usage.name)).items():
                if self.target.capacity(window[0]) is None:
                    continue
                peak = self.peak_of(holdings)
                if self._weight(peak) > self._weight(shared.get(window, [])):
                    shared[window] = peak
        for usage in members:
            self.peaks[usage.name] = shared

    def _weight(self, live: Sequence[Holding]) -> tuple[int, int]:
        return self.needed(live), sum(h.bytes for h in live)

    def peak_of(self, holdings: Sequence[Holding]) -> list[Holding]:
        """The first of `_sweep`'s live sets with the greatest weight.

        A set that the next one only extends weighs no more than it (both
        the bound and the bytes grow with the set), so only the last set of
        each such run is weighed, and in a run that beats the best so far
        the first set of the same weight is found by bisection: a few
        weighings per run instead of one per holding (a function that holds
        its storages to the end is one run)."""
        sets = [live for _, live in _sweep(holdings)]
        best: list[Holding] = []
        best_weight: tuple[int, int] | None = None
        first = 0
        for index, live in enumerate(sets):
            if index + 1 < len(sets) and len(sets[index + 1]) > len(live):
                continue
            weight = self._weight(live)
            if best_weight is None or weight > best_weight:
                low, high = first, index
                while low < high:
                    middle = (low + high) // 2
                    if self._weight(sets[middle]) == weight:
                        high = middle
                    else:
                        low = middle + 1
                best, best_weight = sets[low], weight
            first = index + 1
        return best

    def needed(self, live: Sequence[Holding]) -> int:
        """Bytes of the window that storages held at once need at least, each
        at an address of its alignment (`memplan.planning`'s lower bound)."""
        if not live:
            return 0
        window = address_space(live[0].scope, self.target)
        # An offset from the base is aligned no better than the base is.
        most = window.base & -window.base
        # Copies past those that fill the window change no verdict.
        buffers = [
            (h.size, min(self._storage_alignment(h), most))
            for h in live
            for _ in range(min(h.copies, window.window // max(h.size, 1) + 1))
        ]
        return lower_bound(
            [
                Buffer(index, 0, 1, size, alignment)
                for index, (size, alignment) in enumerate(buffers)
            ]
        )

    def in_cycle(self, caller: str, callee: str) -> bool:
        """Whether `callee` (called by `caller`) calls `caller` back, directly
        or not: both are in one component of the call graph."""
        component = self._component.get(callee)
        return component is not None and component == self._component.get(caller)

    def holdings(self, name: str) -> list[Holding]:
        """The function's storages and, at each call out of its cycle, the
        storages its callee holds at its peak."""
        usage = self.usages[name]
        held = list(usage.storages)
        for call in usage.calls:
            if call.callee not in self.usages or self.in_cycle(name, call.callee):
                continue
            for peak in self.peaks[call.callee].values():
                total = sum(h.bytes for h in peak)
                held.extend(
                    Holding(
                        h.scope,
                        call.point,
                        call.point,
                        h.size,
                        h.alignment,
                        call.call,
                        total,
                        h.copies,
                        h.device,
                    )
                    for h in peak
                    if total
                )
        return held

    def _replayable(self, name: str, window: Window) -> bool:
        """Whether `_replay` sees every allocation in `window` a run of `name` makes."""
        usage = self.usages[name]
        if window in usage.inexact:
            return False
        for call in usage.calls:
            if call.callee not in self.usages or window not in self.peaks[call.callee]:
                continue
            if call.nested or self.in_cycle(name, call.callee):
                return False
            if not self._replayable(call.callee, window):
                return False
        return True

    def _replay(
        self, name: str, window: Window, space: AddressSpace, live: list[Holding]
    ) -> Holding | None:
        """Allocate and free the storages in `window` of a run of `name` in
        `space` as the run does, callees included (what a callee does not
        kill stays, as in the run), adding them to `live`; the storage first
        fit cannot place, or None."""
        usage = self.usages[name]
        addresses: dict[int, int] = {}
        for _, step, index in usage.steps:
            if step == CALL:
                callee = usage.calls[index].callee
                failed = (
                    self._replay(callee, window, space, live)
                    if callee in self.usages
                    else None
                )
                if failed is not None:
                    return failed
                continue
            holding = usage.storages[index]
            if holding.window != window:
                continue
            if step == FREE:
                space.free(addresses.pop(index))
                live.remove(holding)
                continue
            live.append(holding)
            address = space.allocate(holding.size, self._storage_alignment(holding))
            if address is None:
                return holding
            addresses[index] = address
        return None

    def _storage_alignment(self, holding: Holding) -> int:
        return max(holding.alignment, self.target.alignment(holding.scope))

    def capacity_problems(
        self, name: str, held: Sequence[Holding] = ()
    ) -> Iterator[str]:
        """The first point where each window of a bounded scope holds more
        than it takes, counting `held` (memory there all through the
        function), and storages held across a call that recurses."""
        for holding, loop in self.usages[name].unbounded:
            if self.target.capacity(holding.scope) is not None:
                alloca = (
                    not isinstance(holding.origin, str)
                    and holding.origin.name == "memref.alloca"
                )
                free = (
                    "memory.kill"
                    if isinstance(holding.origin, AllocStorageOp)
                    else "memref.dealloc"
                )
                yield (
                    f"{holding.at} allocates {holding.size} bytes of "
                    f"{scope_text(holding.window)} in each iteration of an "
                    f"{loop.name}, whose trip count is not known"
                    + ("" if alloca else ", and the loop does not free it")
                    + ": the scope's use cannot be bounded; expected "
                    + (
                        "the alloca outside the loop or in a memref.alloca_scope "
                        "inside it"
                        if alloca
                        else f"a {free} of it in the loop body"
                    )
                )
        held_by_window = _by_window(held)
        for window, holdings in _by_window(self.holdings(name)).items():
            if self.target.capacity(window[0]) is None:
                continue
            before = held_by_window.pop(window, [])
            problem = self._held_problem(window, before)
            if problem is None:
                problem = (
                    self._replay_problem(name, window, before)
                    if self._replayable(name, window)
                    else self._bound_problem(window, [*before, *holdings])
                )
            if problem is not None:
                yield problem
            yield from self._recursion_problems(name, window, holdings)
        for window, holdings in held_by_window.items():
            if self.target.capacity(window[0]) is not None:
                problem = self._held_problem(window, holdings)
                if problem is not None:
                    yield problem

    def _held_problem(self, window: Window, held: list[Holding]) -> str | None:
        return self._over(window, held, "before the function runs")

    def _bound_problem(self, window: Window, holdings: list[Holding]) -> str | None:
        for holding, live in _sweep(holdings):
            problem = self._over(window, live, f"at {holding.at}")
            if problem is not None:
                return problem
        return None

    def _over(
        self, window: Window, live: list[Holding], when: str, name: str = ""
    ) -> str | None:
        """Why storages held at once cannot fit, or None."""
        capacity = self.target.capacity(window[0])
        assert capacity is not None
        total = sum(h.bytes for h in live)
        if total > capacity:
            return (
                f"{scope_text(window)} holds {total} bytes {when} (held: "
                f"{_held_list(live, name)}), over its capacity of {capacity} bytes"
            )
        needed = self.needed(live)
        if needed > capacity:
            return (
                f"{scope_text(window)} needs at least {needed} bytes of its window "
                f"{when} (held: {_held_list(live)}): {total} bytes, each "
                "starting at an address of its alignment, over its capacity of "
                f"{capacity} bytes"
            )
        return None

    def _replay_problem(
        self, name: str, window: Window, held: list[Holding]
    ) -> str | None:
        space = address_space(window[0], self.target)
        live: list[Holding] = []
        failed = None
        for holding in held:
            live.append(holding)
            if space.allocate(holding.size, self._storage_alignment(holding)) is None:
                failed = holding
                break
        if failed is None:
            failed = self._replay(name, window, space, live)
        if failed is None:
            return None
        at = failed.at + _elsewhere(failed, name)
        if sum(h.bytes for h in live) > space.window:
            return self._over(window, live, f"at {at}", name)
        alignment = self._storage_alignment(failed)
        return (
            f"{scope_text(window)} has no room for the {failed.size} bytes of {at} "
            f"(held: {_held_list(live, name)}): first fit in its {space.window}-byte "
            f"window finds no free range that holds them at a {alignment}-byte "
            f"aligned address ({space.free_bytes} bytes free in total, the "
            f"largest free range has {space.largest_free_range()} bytes), as "
            "memplan-run would; expected storages that fit with their alignment "
            "padding and the holes between them"
        )

    def _recursion_problems(
        self, name: str, window: Window, holdings: list[Holding]
    ) -> Iterator[str]:
        for call in self.usages[name].calls:
            if not self.in_cycle(name, call.callee):
                continue
            live = [h for h in holdings if h.start <= call.point <= h.end]
            if live:
                total = sum(h.bytes for h in live)
                yield (
                    f"func.call @{call.callee} recurses while {total} bytes of "
                    f"{scope_text(window)} are held (held: {_held_list(live)}): every "
                    "level of the recursion adds them, so no capacity bounds the "
                    "total; expected no storage of a bounded scope held across a "
                    "recursive call"
                )


def _held_list(holdings: Iterable[Holding], name: str = "") -> str:
    """The holdings as a message lists them: a storage of a function other
    than `name` with that function, the storages a call holds once."""
    texts: list[str] = []
    for holding in holdings:
        text = holding.listed + _elsewhere(holding, name)
        if not (isinstance(holding.origin, func.CallOp) and texts[-1:] == [text]):
            texts.append(text)
    return ", ".join(texts)


def _elsewhere(holding: Holding, name: str) -> str:
    """ " (in @f)" for a storage of a function f other than `name`."""
    if isinstance(holding.origin, str) or not name:
        return ""
    owner = holding.origin.parent_op()
    while owner is not None and not isinstance(owner, func.FuncOp):
        owner = owner.parent_op()
    if owner is None or owner.sym_name.data == name:
        return ""
    return f" (in @{owner.sym_name.data})"

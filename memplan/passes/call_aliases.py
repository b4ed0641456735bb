"""Which arguments each result of a function may be: what a `func.call`'s
results may alias, from what its callee returns.

Liveness (`liveness.forwarded_values`) takes every result of a call that may
reach memory for a possible alias of every argument.  For a call to a
function of the module with a body, `CallAliases.forward` narrows that to the
results the callee may return the argument as: an argument reaches result i
when an alias of it (`liveness.aliases`, through calls with their own
summaries) is operand i of a `func.return`.  An argument whose alias a store
writes to memory, whose address becomes an integer (`liveness.escapes_at`)
or that is passed to a declaration (which may keep it for a later call to
hand back) may come back by a way memplan does not follow: it may be every
result.  A
fresh allocation returned is no argument.  A call to a declaration, to a
symbol that is no function with a body, and any other op (a
`func.call_indirect`) keep the conservative rule.

The summary is a least fixpoint over the call graph (`returned_arguments`, on
plain data): every function starts returning no argument, and is looked at
again, following its calls with the summaries found so far, whenever the
summary of a function it calls grows.  A recursive call thus returns what
the non-recursive paths return.

A pass finds the summaries once, before it changes the module: planning and
placing rewrite allocations, never what a function returns (a summary that
keeps an argument a rewrite no longer returns is only less precise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue

from memplan.ir_walk import walk
from memplan.passes.liveness import (
    aliases,
    escapes_at,
    forwarded_values,
    may_reach_memory,
)
from memplan.symbols import lookup_symbol


@dataclass(frozen=True)
class Reach:
    """Where the aliases of one value of a function go."""

    returned: frozenset[int] = frozenset()
    """Positions of `func.return` operands among them."""
    passed: frozenset[tuple[int, int]] = frozenset()
    """(call, operand) pairs passing one to a function of the module: the
    call's number in its function (`FunctionFlow.calls`) and the operand's
    position."""
    escapes: bool = False
    """One is stored to memory, its address taken or it is passed to a
    declaration: it may come back as any result."""


@dataclass(frozen=True)
class FunctionFlow:
    """A function's body, as far as what it returns goes."""

    results: int
    """How many results the function has."""
    arguments: dict[int, Reach]
    """By position, the arguments that may reach memory."""
    calls: Sequence[tuple[int, dict[int, Reach]]]
    """Each call to a function of the module: the callee's number (its
    position in the flows) and, by position, its results that may reach
    memory."""


Summary = tuple[frozenset[int], ...]
"""For each result of a function, the positions of the arguments it may be."""


def returned_arguments(flows: Sequence[FunctionFlow]) -> list[Summary]:
    """The least summaries of `flows` such that each function's result i may
    be argument j when argument j's aliases reach result i, directly or
    through the results of calls that may be what is passed to them."""
    summaries: list[Summary] = [(frozenset(),) * flow.results for flow in flows]
    callers: list[set[int]] = [set() for _ in flows]
    for number, flow in enumerate(flows):
        for callee, _ in flow.calls:
            callers[callee].add(number)
    # Each function once, in order, then again whenever the summary of a
    # function it calls grows.
    pending = list(reversed(range(len(flows))))
    waiting = set(pending)
    while pending:
        number = pending.pop()
        waiting.discard(number)
        found = _summary(flows[number], summaries)
        if found != summaries[number]:
            summaries[number] = found
            for caller in callers[number] - waiting:
                waiting.add(caller)
                pending.append(caller)
    return summaries


def _summary(flow: FunctionFlow, summaries: Sequence[Summary]) -> Summary:
    found: list[set[int]] = [set() for _ in range(flow.results)]
    for argument, reach in flow.arguments.items():
        for result in _returned(flow, reach, summaries):
            found[result].add(argument)
    return tuple(map(frozenset, found))


def _returned(
    flow: FunctionFlow, start: Reach, summaries: Sequence[Summary]
) -> set[int]:
    """The results a value reaching `start` may be returned as."""
    returned: set[int] = set()
    seen: set[tuple[int, int]] = set()
    pending = [start]
    while pending:
        reach = pending.pop()
        if reach.escapes:
            return set(range(flow.results))
        returned |= reach.returned
        for call, operand in reach.passed:
            callee, results = flow.calls[call]
            for result, arguments in enumerate(summaries[callee]):
                if (
                    operand in arguments
                    and result in results
                    and (call, result) not in seen
                ):
                    seen.add((call, result))
                    pending.append(results[result])
    return returned


def callee_body(op: Operation) -> func.FuncOp | None:
    """The function with a body a `func.call` calls, if any."""
    if not isinstance(op, func.CallOp):
        return None
    callee = lookup_symbol(op, op.callee)
    if isinstance(callee, func.FuncOp) and callee.body.blocks:
        return callee
    return None


class CallAliases:
    """The summaries of the functions of a module, and `forward`: liveness's
    `forwarded_values` with calls to them narrowed by their summaries."""

    def __init__(self, module: Operation):
        functions = [
            op for op in walk(module) if isinstance(op, func.FuncOp) and op.body.blocks
        ]
        numbers = {function: n for n, function in enumerate(functions)}
        flows = [_flow(function, numbers) for function in functions]
        self._summaries = dict(zip(functions, returned_arguments(flows), strict=True))

    def forward(self, user: Operation, index: int) -> list[SSAValue]:
        """The values that alias operand `index` of `user`: for a call to a
        function of the module, its results that may be that argument."""
        callee = callee_body(user)
        summary = None if callee is None else self._summaries.get(callee)
        if summary is None or len(summary) != len(user.results):
            return forwarded_values(user, index)
        return [
            result
            for result, arguments in zip(user.results, summary, strict=True)
            if index in arguments and may_reach_memory(result.type)
        ]


def _flow(function: func.FuncOp, numbers: dict[func.FuncOp, int]) -> FunctionFlow:
    calls: dict[Operation, tuple[int, int]] = {}
    for op in walk(function):
        callee = callee_body(op)
        if callee is not None and callee in numbers:
            calls[op] = (len(calls), numbers[callee])

    def forward(user: Operation, index: int) -> list[SSAValue]:
        return [] if user in calls else forwarded_values(user, index)

    def reach(value: SSAValue) -> Reach:
        returned: set[int] = set()
        passed: set[tuple[int, int]] = set()
        escapes = False
        for alias in aliases(value, forward):
            for use in alias.uses:
                user = use.operation
                if user.name == "func.return":
                    returned.add(use.index)
                elif user in calls:
                    passed.add((calls[user][0], use.index))
                elif isinstance(user, func.CallOp):
                    # A declaration may keep the pointer and a later call
                    # hand it back.
                    escapes = True
                else:
                    escapes |= escapes_at(user, use.index)
        return Reach(frozenset(returned), frozenset(passed), escapes)

    def reaches(values: Sequence[SSAValue]) -> dict[int, Reach]:
        return {
            position: reach(value)
            for position, value in enumerate(values)
            if may_reach_memory(value.type)
        }

    return FunctionFlow(
        len(function.function_type.outputs),
        reaches(function.args),
        [(callee, reaches(call.results)) for call, (_, callee) in calls.items()],
    )

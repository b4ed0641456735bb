"""Running regions: blocks prepared once, one flat table of values per call.

xDSL's `run_ssacfg_region` opens a scope for every block it enters and keeps
the earlier ones as its parents, so a value defined outside a loop nest is
found by walking one scope per enclosing loop (and per branch taken: a
two-block loop of 16,000 trips took 51 s), each lookup hashing the SSA value
in Python.  Here a region that is isolated from above (a function body)
gets one table of values, keyed by `id` of the SSA value, and the regions
nested in it (loop bodies, branches) write into the same table: SSA makes
that safe, since a block only uses values of the blocks that dominate it,
whose latest run wrote them last, and only a call (an isolated region again)
can run a region while an earlier run of it is still going.

Each block is prepared the first time it runs: for each op, how to fetch
its operands, its implementation (specialized to the op when its functions
can compile one, see `CompilingFunctions`), what the listeners do around it
(worked out once per op by a `PreparingListener`) and where its results go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from typing import Any

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr, UnregisteredOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    Successor,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import InterpretationError

from memplan.interpreter.source import op_name

OpRunner = Callable[[Operation, PythonValues], OpImplResult]
"""An op's implementation, bound to the functions object that registered it
and to the interpreter."""
Compiled = Callable[[PythonValues], PythonValues]
"""A non-terminator op's implementation specialized to that op: its
operands' values to its results' values."""
Hook = Callable[[PythonValues], None]
"""What a listener does before (operands) or after (results) one op runs."""


class CompilingFunctions(InterpreterFunctions):
    """Functions that can specialize their implementation to one op."""

    def compile(self, interpreter: Interpreter, op: Operation) -> Compiled | None:
        """`op`'s implementation with what does not change between its runs
        worked out once, or None to run it through its `impl`."""
        return None


class PreparingListener(Interpreter.Listener):
    """A listener that works out once per op what it does before each run,
    instead of being called around each run."""

    def prepare(self, op: Operation) -> Hook | None:
        """What to call with the operands before each run of `op`, if anything."""
        return None


Fetch = Callable[[dict[int, Any]], PythonValues]
"""The operands' values of one op, from its call's table."""


def _no_operands(table: dict[int, Any]) -> PythonValues:
    return ()


def _fetch(values: Iterable[SSAValue]) -> Fetch:
    keys = _keys(values)
    if not keys:
        return _no_operands
    if len(keys) == 1:
        (key,) = keys
        return lambda table: (table[key],)
    return itemgetter(*keys)


@dataclass(frozen=True, slots=True)
class _PreparedBlock:
    arguments: tuple[int, ...]
    steps: tuple[
        tuple[
            Operation,
            Fetch,
            Compiled,
            Hook | None,
            Hook | None,
            int | None,
            tuple[int, ...],
        ],
        ...,
    ]
    """The non-terminator ops: op, operands, implementation, before and after
    hooks, the key of a single result (None otherwise), all result keys."""
    terminator: tuple[Operation, Fetch, OpRunner, Hook | None, Hook | None] | None


def _keys(values: Iterable[SSAValue]) -> tuple[int, ...]:
    return tuple(id(value) for value in values)


def _unimplemented(
    interpreter: Interpreter, op: Operation, args: PythonValues
) -> OpImplResult:
    """xDSL's error (its class and words) for an op nothing implements."""
    unregistered = (
        " (its dialect is not registered: --allow-unregistered-dialect lets it "
        "parse, not run)"
        if isinstance(op, UnregisteredOp)
        else ""
    )
    raise InterpretationError(
        f"Could not find interpretation function for op {op_name(op)}{unregistered}"
    )


def _checked(
    run: OpRunner, op: Operation, count: int, inputs: PythonValues
) -> PythonValues:
    """A non-terminator's `impl` returning its values, their count checked as
    xDSL's `_run_op` does."""
    results = run(op, inputs).values
    _check_count(results, count)
    return results


def _check_count(values: PythonValues, count: int) -> None:
    if len(values) != count:
        raise InterpretationError(
            f"Number of operation results ({count}) doesn't match the "
            f"number of implementation results ({len(values)})."
        )


def _chain(hooks: list[Hook]) -> Hook | None:
    if not hooks:
        return None
    if len(hooks) == 1:
        return hooks[0]

    def chained(values: PythonValues) -> None:
        for hook in hooks:
            hook(values)

    return chained


def _isolated(region: Region) -> bool:
    parent = region.parent_op()
    return parent is None or parent.has_trait(IsolatedFromAbove)


@dataclass
class RegionInterpreter(Interpreter):
    """xDSL's interpreter with one table of values per call and prepared blocks."""

    _tables: list[dict[int, Any]] = field(default_factory=lambda: [{}])
    """The values of each running call, innermost last."""
    _blocks: dict[int, _PreparedBlock] = field(default_factory=dict)
    """id(block) -> the block prepared (the module, which this interpreter
    holds, keeps its blocks and regions alive: their ids are their own)."""
    _isolated: dict[int, bool] = field(default_factory=dict)
    """id(region) -> whether it is isolated from above."""
    _runners: dict[type[Operation], OpRunner] = field(default_factory=dict)
    """Each op type's implementation, bound (one object for all its ops: a
    program of straight-line code prepares each op for a single run)."""
    _prepared_for: tuple[Interpreter.Listener, ...] = ()
    """The listeners the prepared blocks call."""
    _failure: tuple[BaseException, Operation] | None = None
    """The last error raised while an op ran, and the innermost such op."""
    _symbols: dict[str, Operation] | None = None
    """The module's symbols by name, gathered on the first lookup (the module
    does not change while it runs): xDSL's lookup scans the module on every
    `func.call`, quadratic in a run of many calls and functions."""

    def get_op_for_symbol(self, symbol: str | SymbolRefAttr) -> Operation:
        if isinstance(symbol, SymbolRefAttr):
            if symbol.nested_references.data:
                return super().get_op_for_symbol(symbol)
            symbol = symbol.root_reference.data
        if self._symbols is None:
            self._symbols = {}
            for op in self.module.ops:
                interface = op.get_trait(SymbolOpInterface)
                name = None if interface is None else interface.get_sym_attr_name(op)
                if isinstance(name, StringAttr):
                    self._symbols.setdefault(name.data, op)
        found = self._symbols.get(symbol)
        return super().get_op_for_symbol(symbol) if found is None else found

    def get_values(self, values: Iterable[SSAValue]) -> tuple[Any, ...]:
        table = self._tables[-1]
        return tuple(table[id(value)] for value in values)

    def set_values(self, pairs: Iterable[tuple[SSAValue, Any]]) -> None:
        table = self._tables[-1]
        for value, python_value in pairs:
            table[id(value)] = python_value

    def failed_op(self, error: BaseException) -> Operation | None:
        """The innermost op that was running when `error` was raised."""
        if self._failure is None or self._failure[0] is not error:
            return None
        return self._failure[1]

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        return self.region_runner(region)(args)

    def region_runner(self, region: Region) -> Callable[[PythonValues], PythonValues]:
        """What `run_ssacfg_region(region, args)` does, with what does not
        depend on `args` looked up once: for ops that run a region often."""
        block = region.blocks.first
        if block is None:
            return lambda args: ()
        isolated = self._isolated.get(id(region))
        if isolated is None:
            isolated = self._isolated[id(region)] = _isolated(region)
        if not isolated:
            return partial(self._run_blocks, block)
        return partial(self._run_call, block)

    def _run_call(self, block: Block, args: PythonValues) -> PythonValues:
        self._tables.append({})
        try:
            return self._run_blocks(block, args)
        finally:
            self._tables.pop()

    def _prepared(self, block: Block) -> _PreparedBlock:
        if self.listeners is not self._prepared_for:
            self._blocks.clear()
            self._prepared_for = self.listeners
        prepared = self._blocks.get(id(block))
        if prepared is None:
            ops = list(block.ops)
            terminator = None
            if ops and ops[-1].has_trait(IsTerminator):
                last = ops.pop()
                before, after = self._hooks(last)
                terminator = (
                    last,
                    _fetch(last.operands),
                    self._runner(last),
                    before,
                    after,
                )
            steps = tuple(
                (
                    op,
                    _fetch(op.operands),
                    self._compiled(op),
                    *self._hooks(op),
                    id(op.results[0]) if len(op.results) == 1 else None,
                    _keys(op.results),
                )
                for op in ops
            )
            prepared = _PreparedBlock(_keys(block.args), steps, terminator)
            self._blocks[id(block)] = prepared
        return prepared

    def _hooks(self, op: Operation) -> tuple[Hook | None, Hook | None]:
        """The listeners' calls before and after each run of `op`."""
        before: list[Hook] = []
        after: list[Hook] = []
        for listener in self.listeners:
            if isinstance(listener, PreparingListener):
                hook = listener.prepare(op)
                if hook is not None:
                    before.append(hook)
                continue
            before.append(partial(listener.will_interpret_op, op))
            after.append(partial(listener.did_interpret_op, op))
        return _chain(before), _chain(after)

    def _runner(self, op: Operation) -> OpRunner:
        """What xDSL's `_run_op` would call for `op`, looked up once.  An op
        without one fails when it runs, as in xDSL, not when its block is
        prepared."""
        runner = self._runners.get(type(op))
        if runner is None:
            entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
            if entry is None:
                runner = partial(_unimplemented, self)
            else:
                functions, implementation = entry
                runner = partial(implementation, functions, self)
            self._runners[type(op)] = runner
        return runner

    def _compiled(self, op: Operation) -> Compiled:
        entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
        if entry is not None and isinstance(entry[0], CompilingFunctions):
            compiled = entry[0].compile(self, op)
            if compiled is not None:
                return compiled
        return partial(_checked, self._runner(op), op, len(op.results))

    def _run_blocks(self, block: Block, args: PythonValues) -> PythonValues:
        """Run from `block`, following branches, until an op returns values.

        Each op runs as in xDSL's `_run_op` (listeners around the
        implementation, its result count checked), inlined: the calls that
        saves were about a quarter of the time of a scalar op."""
        table = self._tables[-1]
        step = None
        try:
            while True:
                prepared = self._prepared(block)
                table.update(zip(prepared.arguments, args, strict=True))
                for step in prepared.steps:
                    _, fetch, run, before, after, result, results = step
                    inputs = fetch(table)
                    if before is not None:
                        before(inputs)
                    values = run(inputs)
                    if after is not None:
                        after(values)
                    if result is not None:
                        table[result] = values[0]
                    elif results:
                        table.update(zip(results, values, strict=True))
                step = prepared.terminator
                if step is None:
                    return ()
                op, fetch, runner, before, after = step
                inputs = fetch(table)
                if before is not None:
                    before(inputs)
                values, terminator = runner(op, inputs)
                _check_count(values, len(op.results))
                if after is not None:
                    after(values)
                match terminator:
                    case ReturnedValues(returned):
                        return returned
                    case Successor(successor, successor_args):
                        block, args = successor, successor_args
                    case _:
                        return ()
        except Exception as error:
            failure = self._failure
            if step is not None and (failure is None or failure[0] is not error):
                self._failure = (error, step[0])
            raise

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
can run a region while an earlier run of it is still going.  Each block's
operands and results are listed once, the first time it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from xdsl.interpreter import (
    Interpreter,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    Successor,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import InterpretationError

OpRunner = Callable[[Interpreter, Operation, PythonValues], OpImplResult]
"""An op's implementation, bound to the functions object that registered it."""


@dataclass(frozen=True, slots=True)
class _Step:
    """One op of a block: its implementation and the keys of its values."""

    op: Operation
    run: OpRunner
    operands: tuple[int, ...]
    results: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _PreparedBlock:
    arguments: tuple[int, ...]
    steps: tuple[_Step, ...]


def _keys(values: Iterable[SSAValue]) -> tuple[int, ...]:
    return tuple(id(value) for value in values)


def _unimplemented(
    interpreter: Interpreter, op: Operation, args: PythonValues
) -> OpImplResult:
    """xDSL's error (its class and words) for an op nothing implements."""
    raise InterpretationError(
        f"Could not find interpretation function for op {op.name}"
    )


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

    def get_values(self, values: Iterable[SSAValue]) -> tuple[Any, ...]:
        table = self._tables[-1]
        return tuple(table[id(value)] for value in values)

    def set_values(self, pairs: Iterable[tuple[SSAValue, Any]]) -> None:
        table = self._tables[-1]
        for value, python_value in pairs:
            table[id(value)] = python_value

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        block = region.blocks.first
        if block is None:
            return ()
        isolated = self._isolated.get(id(region))
        if isolated is None:
            isolated = self._isolated[id(region)] = _isolated(region)
        if not isolated:
            return self._run_blocks(block, args)
        self._tables.append({})
        try:
            return self._run_blocks(block, args)
        finally:
            self._tables.pop()

    def _prepared(self, block: Block) -> _PreparedBlock:
        prepared = self._blocks.get(id(block))
        if prepared is None:
            steps = tuple(
                _Step(op, self._runner(op), _keys(op.operands), _keys(op.results))
                for op in block.ops
            )
            prepared = _PreparedBlock(_keys(block.args), steps)
            self._blocks[id(block)] = prepared
        return prepared

    def _runner(self, op: Operation) -> OpRunner:
        """What xDSL's `_run_op` would call for `op`, looked up once.  An op
        without one fails when it runs, as in xDSL, not when its block is
        prepared."""
        entry = self._impls._impl_dict.get(type(op))  # pyright: ignore[reportPrivateUsage]
        if entry is None:
            return _unimplemented
        functions, implementation = entry
        return partial(implementation, functions)

    def _run_blocks(self, block: Block, args: PythonValues) -> PythonValues:
        """Run from `block`, following branches, until an op returns values.

        Each op runs as in xDSL's `_run_op` (listeners around the
        implementation, its result count checked), inlined: the calls that
        saves were about a quarter of the time of a scalar op."""
        table = self._tables[-1]
        listeners = self.listeners
        while True:
            prepared = self._prepared(block)
            table.update(zip(prepared.arguments, args, strict=True))
            for step in prepared.steps:
                op = step.op
                inputs = tuple(map(table.__getitem__, step.operands))
                for listener in listeners:
                    listener.will_interpret_op(op, inputs)
                values, terminator = step.run(self, op, inputs)
                if len(values) != len(step.results):
                    raise InterpretationError(
                        f"Number of operation results ({len(step.results)}) doesn't "
                        "match the number of implementation results "
                        f"({len(values)})."
                    )
                for listener in listeners:
                    listener.did_interpret_op(op, values)
                table.update(zip(step.results, values, strict=True))
                if terminator is None:
                    continue
                match terminator:
                    case ReturnedValues(returned):
                        return returned
                    case Successor(successor, successor_args):
                        block, args = successor, successor_args
                        break
            else:
                return ()

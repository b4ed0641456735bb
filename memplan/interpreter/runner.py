"""Run one function of a module on the memory model and collect its stats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import numpy as np
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    impl,
    impl_callable,
    register_impls,
)
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Attribute, Operation
from xdsl.traits import CallableOpInterface

from memplan.deep_stack import call_with_deep_stack
from memplan.dialects import bufferization, memory, memref
from memplan.dialects.func import CallOp
from memplan.interpreter import libm
from memplan.interpreter.affine_impl import AffineFunctions
from memplan.interpreter.arguments import check_argument
from memplan.interpreter.arith_extended import ExtendedArithFunctions
from memplan.interpreter.arith_scalar import NumpyArithFunctions
from memplan.interpreter.cost import CostModel, LinalgBodies, profile
from memplan.interpreter.element_types import is_scalar_type
from memplan.interpreter.errors import InterpretationError, ModelError, plain_message
from memplan.interpreter.export_sizes import allowed_sizes, check_sizes
from memplan.interpreter.linalg_impl import LinalgFunctions
from memplan.interpreter.loop_vectorize import LoopVectorizer, scalar_loops_forced
from memplan.interpreter.memory_impl import MemoryFunctions
from memplan.interpreter.memref_impl import MemRefFunctions
from memplan.interpreter.model import (
    DiscontiguousTensor,
    MemoryModel,
)
from memplan.interpreter.regions import Hook, PreparingListener, RegionInterpreter
from memplan.interpreter.scf_impl import ScfFunctionsExtra
from memplan.interpreter.source import locate
from memplan.interpreter.stats import Stats
from memplan.interpreter.uninitialized import UninitializedReads
from memplan.targets import Target, get_target

PASS_THROUGH_OPS = (
    func.CallOp,
    func.ReturnOp,
    scf.ForOp,
    scf.IfOp,
    scf.WhileOp,
    scf.YieldOp,
    scf.ConditionOp,
    scf.ParallelOp,
    scf.ReduceOp,
    scf.ReduceReturnOp,
    cf.BranchOp,
    cf.ConditionalBranchOp,
    arith.SelectOp,
    bufferization.ToBufferOp,
    bufferization.ToTensorOp,
    memory.KillOp,
    memref.DeallocOp,
    memref.CastOp,
    memref.SubviewOp,
    memref.TransposeOp,
    memref.ViewOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.DimOp,
    memref.ExtractStridedMetaDataOp,
    memref.ExtractAlignedPointerAsIndexOp,
)
"""Ops that pass tensors along (or read their metadata) without reading or
writing their bytes."""


@dataclass
class RunResult:
    """The function's results (memrefs as contiguous numpy copies) and stats."""

    results: tuple[object, ...]
    stats: Stats


class _Tracker(PreparingListener):
    """Counts ops, adds up modeled cycles and refuses uses of dead tensors.

    What it does on each run of an op is worked out on the op's first
    (`prepare`): which operands may hold a tensor (numbers are never
    checked), whether the op only passes tensors along, and its cycles when
    they do not depend on its operands."""

    def __init__(
        self, model: MemoryModel, cost: CostModel, reads: UninitializedReads | None
    ):
        self.model = model
        self.cost = cost
        self.reads = reads
        self.cycles = 0.0
        self._counters: dict[float, Hook] = {}
        self._linalg_bodies = LinalgBodies()

    def prepare(self, op: Operation) -> Hook | None:
        info = profile(op, self._linalg_bodies)
        if info.kind == "body":
            return None
        stats = self.model.stats
        fixed = self.cost.fixed_cycles(info)
        touches_bytes = not isinstance(op, PASS_THROUGH_OPS)
        checked = tuple(
            index
            for index, operand in enumerate(op.operands)
            if touches_bytes and not is_scalar_type(operand.type)
        )
        # Numbers hold no bytes to check or mark.
        reads = self.reads.prepare(op) if self.reads and checked else None
        if fixed is not None and not checked:
            return self._counter(fixed)
        cycles = (
            partial(_same, fixed)
            if fixed is not None
            else self.cost.cycles_function(op, info)
        )
        check_use = self.model.check_use

        def track(args: PythonValues) -> None:
            stats.ops_executed += 1
            self.cycles += cycles(args)
            for index in checked:
                check_use(args[index])
            if reads is not None:
                reads(args)

        return track

    def op_cycles(self, op: Operation, args: PythonValues) -> float | None:
        """The cycles the hook of `op` adds for a run on `args`, None for an
        op it does not count (in a linalg body)."""
        info = profile(op, self._linalg_bodies)
        if info.kind == "body":
            return None
        fixed = self.cost.fixed_cycles(info)
        if fixed is not None:
            return fixed
        return self.cost.cycles_function(op, info)(args)

    def _counter(self, cycles: float) -> Hook:
        """The hook of ops that only count themselves and add `cycles`: one
        for all of them (straight-line code prepares each op for one run)."""
        counter = self._counters.get(cycles)
        if counter is None:
            stats = self.model.stats

            def count(args: PythonValues) -> None:
                stats.ops_executed += 1
                self.cycles += cycles

            counter = self._counters[cycles] = count
        return counter


def _same(value: float, args: PythonValues) -> float:
    return value


class _FrameFuncFunctions(FuncFunctions):
    """func from xDSL, plus freeing a function's `memref.alloca`s on return,
    and memplan's `func.call` (what memplan parses) run as xDSL's."""

    def __init__(self, memrefs: MemRefFunctions):
        self.memrefs = memrefs

    @impl(CallOp)
    def run_memplan_call(
        self, interpreter: Interpreter, op: CallOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        return interpreter.call_op(op.callee, args)

    @impl_callable(func.FuncOp)
    def call_func(
        self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]
    ):
        self.memrefs.enter_scope()
        try:
            return super().call_func(interpreter, op, args)
        finally:
            self.memrefs.leave_scope(f"the return of @{op.sym_name.data}")


_FrameFuncFunctions = register_impls(_FrameFuncFunctions)


def _result(value: object) -> object:
    if isinstance(value, DiscontiguousTensor):
        return value.gather()
    if isinstance(value, np.ndarray):
        return np.array(value, order="C")
    if isinstance(value, np.generic):
        return value.item()
    return value


LISTED_FUNCTIONS = 8
"""An error about a missing function names at most this many others."""


class Runner:
    """One interpreter over one module, with its memory model and statistics."""

    def __init__(
        self,
        module: ModuleOp,
        target: Target | None = None,
        index_bitwidth: Literal[32, 64] = 64,
        check_uninitialized: bool = False,
        vectorize_loops: bool | None = None,
        sequential_sums: bool = False,
        libm_math: bool = False,
    ):
        """`check_uninitialized` makes reading bytes that no op wrote since
        their tensor was allocated an error (see `uninitialized.py`).
        `vectorize_loops` runs loop nests of scalar code on whole arrays where
        that changes nothing (`loop_vectorize.py`); False runs them op by op,
        None (the default) unless `MEMPLAN_SCALAR_LOOPS=1` is set.
        `sequential_sums` folds float sums and products of linalg ops in
        MLIR's loop order, bit for bit what its lowered loops compute
        (`sequential_sums.py`), instead of reassociating them (BLAS).
        `libm_math` computes math functions as MLIR's compiled code does:
        by calling the C library's (`expf` on f32, ...) element by element,
        and its own expansions of the others (`libm.py`); an
        `InterpretationError` when ctypes cannot load the C library."""
        if libm_math:
            try:
                libm.c_library()
            except ModelError as error:
                raise InterpretationError(str(error)) from None
        self.libm_math = libm_math
        self.module = module
        self.target = target or get_target()
        capacity = {name: info.capacity for name, info in self.target.scopes.items()}
        self.stats = Stats(self.target.name, capacity)
        self.model = MemoryModel(self.target, self.stats, check_uninitialized)
        self.reads = UninitializedReads(self.model) if check_uninitialized else None
        self.tracker = _Tracker(self.model, CostModel(self.target), self.reads)
        self.interpreter = RegionInterpreter(
            module, index_bitwidth=index_bitwidth, listeners=(self.tracker,)
        )
        if vectorize_loops is None:
            vectorize_loops = not scalar_loops_forced()
        vectorizer = (
            LoopVectorizer(self.interpreter, self.model, self.reads, self.tracker)
            if vectorize_loops
            else None
        )
        self.vectorizer = vectorizer
        memrefs = MemRefFunctions(self.model)
        self.memrefs = memrefs
        self.interpreter.register_implementations(_FrameFuncFunctions(memrefs))
        self.interpreter.register_implementations(ScfFunctions())
        loops = ScfFunctionsExtra(self.model.iterations, memrefs, vectorizer)
        self.interpreter.register_implementations(loops, override=True)
        self.interpreter.register_implementations(CfFunctions())
        self.interpreter.register_implementations(NumpyArithFunctions())
        self.interpreter.register_implementations(ExtendedArithFunctions())
        self.interpreter.register_implementations(AffineFunctions(loops, vectorizer))
        self.interpreter.register_implementations(BuiltinFunctions())
        self.interpreter.register_implementations(memrefs, override=True)
        self.interpreter.register_implementations(
            LinalgFunctions(self.model, sequential_sums)
        )
        self.interpreter.register_implementations(MemoryFunctions(self.model))

    def function(self, symbol: str) -> Operation:
        try:
            op = self.interpreter.get_op_for_symbol(symbol)
        except Exception:
            raise InterpretationError(
                f"no function named @{symbol} in the module; {self._runnable()}"
            ) from None
        trait = op.get_trait(CallableOpInterface)
        if trait is None:
            raise InterpretationError(f"@{symbol} is not a function")
        if not trait.get_callable_region(op).blocks:
            raise InterpretationError(
                f"@{symbol} is a declaration without a body, nothing to run; "
                f"{self._runnable()}"
            )
        return op

    def _runnable(self) -> str:
        """Which functions could run instead, for a message."""
        names = [
            f"@{op.sym_name.data}"
            for op in self.module.ops
            if isinstance(op, func.FuncOp) and op.body.blocks
        ]
        if not names:
            return "the module has no function with a body"
        shown = ", ".join(names[:LISTED_FUNCTIONS])
        more = len(names) - LISTED_FUNCTIONS
        return f"the functions with a body are {shown}" + (
            f" and {more} more" if more > 0 else ""
        )

    def argument_types(self, symbol: str) -> Sequence[Attribute]:
        op = self.function(symbol)
        trait = op.get_trait(CallableOpInterface)
        assert trait is not None
        return trait.get_argument_types(op)

    def run(self, symbol: str, args: Sequence[object]) -> RunResult:
        op = self.function(symbol)
        types = self.argument_types(symbol)
        if len(args) != len(types):
            raise InterpretationError(
                f"@{symbol} takes {len(types)} argument(s), got {len(args)}"
            )
        bits = self.interpreter.index_bitwidth
        try:
            inputs = tuple(
                check_argument(value, type_, bits, i)
                for i, (value, type_) in enumerate(zip(args, types, strict=True))
            )
        except ModelError as error:
            raise InterpretationError(f"@{symbol}: {error}") from None
        try:
            shapes = [x.shape if isinstance(x, np.ndarray) else () for x in inputs]
            check_sizes(allowed_sizes(op, types), shapes)
        except ModelError as error:
            raise InterpretationError(f"@{symbol} {error}") from None
        held = self._hold_in_windows(op, symbol, inputs, types)
        try:
            results = call_with_deep_stack(partial(self._call, op, held))
        except InterpretationError:
            raise
        except Exception as error:
            raise self._located(error) from None
        for position, value in enumerate(results):
            try:
                self.model.check_use(value)
                if self.reads is not None:
                    self.reads.check_result(value, position)
            except ModelError as error:
                raise InterpretationError(
                    f"@{symbol} result {position}: {error}"
                ) from None
        self.stats.modeled_cycles = round(self.tracker.cycles)
        result = RunResult(tuple(_result(r) for r in results), self.stats)
        for given, used in zip(inputs, held, strict=True):
            if used is not given:  # back to the caller, who frees the VTCM
                assert isinstance(given, np.ndarray)
                given[...] = used
                self.model.free_memref(used, f"the return of @{symbol}")
        return result

    def _call(self, op: Operation, held: tuple[object, ...]) -> PythonValues:
        with np.errstate(all="ignore"), libm.libm_math(self.libm_math):
            return self.interpreter.call_op(op, held)

    def _hold_in_windows(
        self,
        op: Operation,
        symbol: str,
        inputs: tuple[object, ...],
        types: Sequence[Attribute],
    ) -> tuple[object, ...]:
        """The module's VTCM globals and the arguments in VTCM take their bytes
        from its window before the call (`MemRefFunctions.in_window`); an
        argument is copied back into the caller's array after it."""
        try:
            self.memrefs.hold_globals(self.module, self.interpreter.index_bitwidth)
        except ModelError as error:
            raise InterpretationError(f"before @{symbol}: {error}") from None
        held: list[object] = []
        for position, (value, type_) in enumerate(zip(inputs, types, strict=True)):
            if isinstance(value, np.ndarray) and isinstance(type_, MemRefType):
                try:
                    value = self.memrefs.in_window(op, type_, value)
                except ModelError as error:
                    raise InterpretationError(
                        f"@{symbol} argument {position}: {error}"
                    ) from None
            held.append(value)
        return tuple(held)

    def _located(self, error: Exception) -> InterpretationError:
        """Name the innermost op that was running when `error` was raised."""
        message = plain_message(error)
        op = self.interpreter.failed_op(error)
        if op is None:
            return InterpretationError(message)
        return InterpretationError(f"{locate(op)}: {message}")


def run_function(
    module: ModuleOp,
    symbol: str = "main",
    args: Sequence[object] = (),
    target: Target | None = None,
    *,
    check_uninitialized: bool = False,
    vectorize_loops: bool | None = None,
    sequential_sums: bool = False,
    libm_math: bool = False,
) -> RunResult:
    """Run `@symbol` of `module` on `target` (default: the default Hexagon).

    Memref arguments are numpy arrays, used in place and treated as
    DDR-resident (not counted as storages) unless typed in VTCM.
    `vectorize_loops=False` runs loop nests of scalar code op by op and
    `sequential_sums=True` folds float sums in MLIR's loop order and
    `libm_math=True` calls the C library's math functions (see `Runner`).
    Raises
    `InterpretationError` naming the op when the program breaks a memory rule.
    """
    return Runner(
        module,
        target,
        check_uninitialized=check_uninitialized,
        vectorize_loops=vectorize_loops,
        sequential_sums=sequential_sums,
        libm_math=libm_math,
    ).run(symbol, args)

"""The affine ops that `convert-linalg-to-loops` and `-to-affine-loops` leave.

xDSL's own affine interpreter passes every operand of `affine.apply` as a
dimension (symbols are wrong), ignores loop bounds' operands and results of
`affine.for`, and has no `affine.min`; these follow MLIR: a map's
operands are its dimensions then its symbols, a loop runs from the largest
lower bound to the smallest upper bound, and `floordiv`/`mod` round toward
negative infinity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from memplan.interpreter.memref_impl import check_indices, element_at


def apply_map(map_attr: AffineMapAttr, operands: Sequence[Any]) -> tuple[int, ...]:
    """The results of an affine map given its dimension then symbol operands."""
    affine_map = map_attr.data
    values = [int(v) for v in operands]
    dims, symbols = values[: affine_map.num_dims], values[affine_map.num_dims :]
    return tuple(affine_map.eval(dims, symbols))


@register_impls
class AffineFunctions(InterpreterFunctions):
    """affine.apply/min/max/for/yield/load/store on Python ints and numpy arrays."""

    @impl(affine.ApplyOp)
    def run_apply(
        self, interpreter: Interpreter, op: affine.ApplyOp, args: PythonValues
    ) -> PythonValues:
        return apply_map(op.map, args)

    @impl(affine.MinOp)
    def run_min(
        self, interpreter: Interpreter, op: affine.MinOp, args: PythonValues
    ) -> PythonValues:
        return (min(apply_map(op.map, args)),)

    @impl(affine.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: affine.LoadOp, args: PythonValues
    ) -> PythonValues:
        value, *operands = args
        assert op.map is not None
        index = check_indices(tuple(value.shape), apply_map(op.map, operands))
        array, inner = element_at(value, index)
        return (array[inner],)

    @impl(affine.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: affine.StoreOp, args: PythonValues
    ) -> PythonValues:
        element, value, *operands = args
        assert op.map is not None
        index = check_indices(tuple(value.shape), apply_map(op.map, operands))
        array, inner = element_at(value, index)
        array[inner] = element
        return ()

    @impl(affine.ForOp)
    def run_for(
        self, interpreter: Interpreter, op: affine.ForOp, args: PythonValues
    ) -> PythonValues:
        lower_count = len(op.lowerBoundOperands)
        upper_count = len(op.upperBoundOperands)
        lower = max(apply_map(op.lowerBoundMap, args[:lower_count]))
        upper = min(
            apply_map(op.upperBoundMap, args[lower_count : lower_count + upper_count])
        )
        carried = tuple(args[lower_count + upper_count :])
        for i in range(lower, upper, op.step.value.data):
            carried = interpreter.run_ssacfg_region(
                op.body, (i, *carried), "affine.for"
            )
        return carried

    @impl_terminator(affine.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: affine.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

"""linalg on memrefs of any scope, including discontiguous tensors.

Elementwise named ops, fill, copy, transpose, broadcast and reduce map to one
numpy call each (a float sum or product `reduce` in sequential mode to
`fold_in_order`); softmax computes MLIR's decomposition of it; pack and unpack
reshape and transpose (relayout.py).  Every other structured op of memplan's linalg dialect
(`generic`, `map`, matmuls, convolutions, poolings) runs through its body,
vectorized by `generic_vectorize` (convolutions and matmuls as matmuls,
poolings as window folds); when a body or map does not allow that, it runs
element by element through the interpreter.  Discontiguous operands are
gathered before and scattered after the op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
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
from xdsl.ir import Block, Operation

from memplan.dialects import linalg
from memplan.interpreter.element_types import is_float_dtype
from memplan.interpreter.errors import ModelError
from memplan.interpreter.float_extrema import maxnumf
from memplan.interpreter.generic_vectorize import (
    StructuredOp,
    body_memref_loads,
    loop_ranges,
    run_vectorized,
)
from memplan.interpreter.math_impl import EXP, LOG
from memplan.interpreter.memory_impl import (
    copy_tensor,
    count_copy,
    read_tensor,
    write_tensor,
)
from memplan.interpreter.model import DiscontiguousTensor, MemoryModel, Tensor
from memplan.interpreter.relayout import pack, unpack
from memplan.interpreter.sequential_sums import fold_in_order, folds_in_order
from memplan.interpreter.vector_body import (
    REDUCTION_UFUNCS,
    SIGNED_MAX,
    SIGNED_MIN,
    Fold,
)


def divide(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """`linalg.div`: true division for floats, truncating for integers."""
    if is_float_dtype(np.result_type(lhs, rhs)):
        return np.divide(lhs, rhs)
    if np.any(rhs == 0):
        raise ModelError("integer division by zero")
    return (lhs - np.fmod(lhs, rhs)) // rhs


ELEMENTWISE: dict[type[Operation], Callable[..., np.ndarray]] = {
    linalg.AddOp: np.add,
    linalg.SubOp: np.subtract,
    linalg.MulOp: np.multiply,
    linalg.MaxOp: SIGNED_MAX,
    linalg.MinOp: SIGNED_MIN,
    linalg.ExpOp: EXP,
    linalg.LogOp: LOG,
    linalg.SqrtOp: np.sqrt,
    linalg.SelectOp: np.where,
    linalg.DivOp: divide,
}


def softmax(
    values: np.ndarray, axis: int, exp: Callable[[np.ndarray], np.ndarray] = EXP
) -> np.ndarray:
    """MLIR's decomposition of `linalg.softmax`, step by step in its order:
    a maxnumf from NaN and a sum from 0 along `axis`, each in index order.
    `exp` is math.exp's kernel: f64 rounded, the C library's `expf` that
    MLIR's lowering calls but on about 1 input in 1,000; with `--libm-math`
    `expf` itself, and the result is MLIR's bit for bit (as
    tests/interpreter/test_matches_mlir.py checks)."""
    if not is_float_dtype(values.dtype):
        raise ModelError(
            f"linalg.softmax on {values.dtype} elements: MLIR decomposes it on "
            "floats only"
        )
    rows = np.moveaxis(values, axis, 0)
    maximum = np.full(rows.shape[1:], np.nan, values.dtype)
    for row in rows:
        maximum = maxnumf(row, maximum)
    exps = exp(rows - maximum)
    total = np.zeros(rows.shape[1:], values.dtype)
    for row in exps:
        total = row + total
    return np.moveaxis(exps / total, 0, axis)


def _one_fold(block: Block) -> Fold | None:
    """The fold of a one-input reduce body `yield combiner(in, init)` (the
    operands in either order) for a combiner numpy folds, else None."""
    combiner, yielded = block.first_op, block.last_op
    if (
        len(block.args) != 2
        or combiner is None
        or yielded is None
        or combiner.next_op is not yielded
        or set(combiner.operands) != set(block.args)
        or tuple(yielded.operands) != tuple(combiner.results)
    ):
        return None
    return REDUCTION_UFUNCS.get(type(combiner))


def _relayout_operands(
    op: linalg.PackOp | linalg.UnPackOp, args: PythonValues
) -> tuple[np.ndarray, Tensor]:
    """The source's values and the dest of a pack or unpack on memrefs."""
    _memref_outputs(op)
    source, output = read_tensor(args[0]), args[1]
    if source.dtype != output.dtype:
        raise ModelError(
            f"{op.name} from {source.dtype} to {output.dtype} elements: MLIR's "
            "lowering stores the source's elements unconverted, which does not "
            "verify"
        )
    return source, output


def _tiles(op: linalg.PackOp | linalg.UnPackOp, values: PythonValues) -> list[int]:
    """The tiles, the dynamic ones from their index `values`."""
    dynamic = iter(values)
    return [
        int(next(dynamic)) if tile == DYNAMIC_INDEX else tile
        for tile in op.static_tiles()
    ]


def _memref_outputs(op: Operation) -> None:
    if op.results:
        raise ModelError("linalg on tensors is not supported: use memref operands")


def _store(target: Tensor, values: np.ndarray) -> None:
    write_tensor(target, np.broadcast_to(values, target.shape))


class LinalgFunctions(InterpreterFunctions):
    """linalg named ops and generic, vectorized with numpy."""

    def __init__(self, model: MemoryModel, sequential_sums: bool = False):
        """`sequential_sums` folds float sums and products in MLIR's loop
        order (`sequential_sums.py`) instead of reassociating them."""
        self.model = model
        self.sequential_sums = sequential_sums
        self._indices: list[tuple[int, ...]] = []

    def _elementwise(self, op: Operation, args: PythonValues) -> PythonValues:
        _memref_outputs(op)
        *inputs, output = args
        ufunc = ELEMENTWISE[type(op)]
        values = [read_tensor(value) for value in inputs]
        if isinstance(output, np.ndarray) and isinstance(ufunc, np.ufunc):
            ufunc(*values, out=output, casting="unsafe")
        else:
            _store(output, ufunc(*values))
        return ()

    @impl(linalg.FillOp)
    def run_fill(
        self, interpreter: Interpreter, op: linalg.FillOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        value, output = args
        _store(output, np.asarray(value).astype(output.dtype))
        return ()

    @impl(linalg.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: linalg.CopyOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        source_type, target_type = op.inputs[0].type, op.outputs[0].type
        assert isinstance(source_type, MemRefType) and isinstance(
            target_type, MemRefType
        )
        if (
            source_type.element_type == target_type.element_type
            and source_type.get_num_dims() == target_type.get_num_dims()
        ):
            copy_tensor(self.model, source_type, target_type, args[0], args[1])
            return ()
        # A copy between element types is its body's cast (`extsi` of an i1
        # true is -1, `trunci` to i1 keeps the low bit), which numpy's
        # conversion is not; a copy of a rank-0 source fills the target.
        self.run_structured(interpreter, op, args)
        count_copy(self.model, source_type, target_type, args[0])
        return ()

    def run_transpose(
        self, interpreter: Interpreter, op: xdsl_linalg.TransposeOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        source, output = args
        _store(output, np.transpose(read_tensor(source), op.permutation.get_values()))
        return ()

    run_xdsl_transpose = impl(xdsl_linalg.TransposeOp)(run_transpose)
    run_memplan_transpose = impl(linalg.TransposeOp)(run_transpose)

    def run_broadcast(
        self, interpreter: Interpreter, op: xdsl_linalg.BroadcastOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        source, output = args
        _store(output, np.expand_dims(read_tensor(source), op.dimensions.get_values()))
        return ()

    run_xdsl_broadcast = impl(xdsl_linalg.BroadcastOp)(run_broadcast)
    run_memplan_broadcast = impl(linalg.BroadcastOp)(run_broadcast)

    @impl(linalg.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: linalg.ReduceOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        ufunc = _one_fold(op.region.block)
        if ufunc is None:
            return self.run_structured(interpreter, op, args)
        source, output = args
        values = read_tensor(source).astype(output.dtype, copy=False)
        if not values.size:
            return ()  # no terms (the output keeps its values) or no output
        axes = tuple(op.dimensions.get_values())
        if self.sequential_sums and folds_in_order(op.region.block.first_op):
            assert isinstance(ufunc, np.ufunc)
            start = np.expand_dims(read_tensor(output), axes)
            folded = fold_in_order(ufunc, start, values, axes)
            _store(output, np.squeeze(folded, axis=axes))
            return ()
        folded = ufunc.reduce(values, axis=axes)
        _store(output, ufunc(read_tensor(output), folded))
        return ()

    @impl(linalg.SoftmaxOp)
    def run_softmax(
        self, interpreter: Interpreter, op: linalg.SoftmaxOp, args: PythonValues
    ) -> PythonValues:
        _memref_outputs(op)
        source, output = args
        _store(output, softmax(read_tensor(source), op.dimension.value.data))
        return ()

    @impl(linalg.PackOp)
    def run_pack(
        self, interpreter: Interpreter, op: linalg.PackOp, args: PythonValues
    ) -> PythonValues:
        source, output = _relayout_operands(op, args)
        padding = args[2] if op.padding_value is not None else None
        tiles = _tiles(op, args[len(args) - len(op.inner_tiles) :])
        _store(
            output,
            pack(source, output.shape, tiles, op.positions(), op.perm(), padding),
        )
        return ()

    @impl(linalg.UnPackOp)
    def run_unpack(
        self, interpreter: Interpreter, op: linalg.UnPackOp, args: PythonValues
    ) -> PythonValues:
        source, output = _relayout_operands(op, args)
        tiles = _tiles(op, args[2:])
        _store(output, unpack(source, output.shape, tiles, op.positions(), op.perm()))
        return ()

    def run_generic(
        self, interpreter: Interpreter, op: xdsl_linalg.GenericOp, args: PythonValues
    ) -> PythonValues:
        return self.run_structured(interpreter, op, args)

    run_xdsl_generic = impl(xdsl_linalg.GenericOp)(run_generic)
    run_memplan_generic = impl(linalg.GenericOp)(run_generic)

    @impl(linalg.MapOp)
    def run_map(
        self, interpreter: Interpreter, op: linalg.MapOp, args: PythonValues
    ) -> PythonValues:
        return self.run_structured(interpreter, op, args)

    def run_structured(
        self, interpreter: Interpreter, op: StructuredOp, args: PythonValues
    ) -> PythonValues:
        """Any structured op: vectorized when possible, else element by element."""
        _memref_outputs(op)
        for load in body_memref_loads(op.body.block):
            (source,) = interpreter.get_values((load.memref,))
            self.model.check_use(source)
        operands = [
            read_tensor(value) if hasattr(value, "shape") else value for value in args
        ]
        outputs = operands[len(op.inputs) :]
        if not run_vectorized(interpreter, op, operands, self.sequential_sums):
            self._run_elementwise(interpreter, op, operands)
        for target, values in zip(args[len(op.inputs) :], outputs, strict=True):
            if isinstance(target, DiscontiguousTensor):
                target.scatter(values)
        return ()

    def _run_elementwise(
        self, interpreter: Interpreter, op: StructuredOp, operands: Sequence[Any]
    ) -> None:
        maps = [m.data for m in op.get_indexing_maps()]
        ranges = loop_ranges(op, [np.shape(o) for o in operands])
        num_inputs = len(op.inputs)
        for index in product(*(range(r) for r in ranges)):
            scalars = [
                value[m.eval(index, ())] if isinstance(value, np.ndarray) else value
                for value, m in zip(operands, maps, strict=True)
            ]
            self._indices.append(index)
            results = interpreter.run_ssacfg_region(
                op.body, tuple(scalars), "linalg body"
            )
            self._indices.pop()
            for value, m, result in zip(
                operands[num_inputs:], maps[num_inputs:], results, strict=True
            ):
                assert isinstance(value, np.ndarray)
                value[m.eval(index, ())] = result

    @impl(linalg.IndexOp)
    def run_index(
        self, interpreter: Interpreter, op: linalg.IndexOp, args: PythonValues
    ) -> PythonValues:
        return (self._indices[-1][op.dim.value.data],)

    @impl_terminator(linalg.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: linalg.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


def _named_elementwise(op_type: type[Operation]):
    def run(
        self: LinalgFunctions,
        interpreter: Interpreter,
        op: Operation,
        args: PythonValues,
    ) -> PythonValues:
        return self._elementwise(op, args)

    return impl(op_type)(run)


def _named_structured(op_type: type[LinalgStructuredOperation]):
    def run(
        self: LinalgFunctions,
        interpreter: Interpreter,
        op: LinalgStructuredOperation,
        args: PythonValues,
    ) -> PythonValues:
        return self.run_structured(interpreter, op, args)

    return impl(op_type)(run)


DEDICATED: frozenset[type[Operation]] = frozenset(
    {
        *ELEMENTWISE,
        linalg.FillOp,
        linalg.CopyOp,
        linalg.TransposeOp,
        xdsl_linalg.TransposeOp,
        linalg.BroadcastOp,
        xdsl_linalg.BroadcastOp,
        linalg.ReduceOp,
        xdsl_linalg.GenericOp,
        linalg.GenericOp,
    }
)
"""Structured ops with an implementation of their own above."""

STRUCTURED_FALLBACK: tuple[type[LinalgStructuredOperation], ...] = tuple(
    op_type
    for op_type in linalg.LINALG.operations
    if issubclass(op_type, LinalgStructuredOperation) and op_type not in DEDICATED
)
"""Named ops run through their body, like a generic: matmuls, convolutions,
poolings and any op memplan's linalg adds later."""

for _op_type in ELEMENTWISE:
    setattr(LinalgFunctions, f"run_{_op_type.__name__}", _named_elementwise(_op_type))
for _op_type in STRUCTURED_FALLBACK:
    setattr(LinalgFunctions, f"run_{_op_type.__name__}", _named_structured(_op_type))
LinalgFunctions = register_impls(LinalgFunctions)

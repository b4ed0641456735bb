"""A deterministic cycle model of an executed op (see docs/cost-model.md).

It is a model for comparing plans, not a measurement of any chip: each op
pays a dispatch overhead, the bytes it touches at its scopes' bandwidths, a
latency per scope it touches, a DMA setup and transfer for copies between
scopes, and multiply-accumulates for contractions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from math import prod
from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation

from memplan.dialects import memory
from memplan.interpreter.generic_vectorize import loop_ranges
from memplan.interpreter.model import DiscontiguousTensor
from memplan.targets import Target

COPY_OPS = (memory.CopyOp, memref.CopyOp, linalg.CopyOp)
ACCESS_OPS = (memref.LoadOp, memref.StoreOp)
COMPUTE_OPS = (LinalgStructuredOperation, linalg.BroadcastOp, linalg.ReduceOp)


@dataclass(frozen=True)
class OpProfile:
    """What the cost model needs to know about an op, computed once per op."""

    kind: str
    """"copy", "access", "compute" or "other"; "body" for ops inside a linalg body."""
    memref_operands: tuple[tuple[int, str], ...]
    """(operand index, scope) of each memref operand."""
    contraction: bool = False
    """A linalg op with a reduction loop: it pays for multiply-accumulates."""


def profile(op: Operation) -> OpProfile:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, COMPUTE_OPS):
            return OpProfile("body", ())
        parent = parent.parent_op()
    operands = tuple(
        (i, memory.scope_of(o.type))
        for i, o in enumerate(op.operands)
        if isinstance(o.type, MemRefType)
    )
    if isinstance(op, COPY_OPS):
        return OpProfile("copy", operands)
    if isinstance(op, ACCESS_OPS):
        return OpProfile("access", operands)
    if isinstance(op, COMPUTE_OPS):
        contraction = isinstance(op, LinalgStructuredOperation) and any(
            kind.data.value == "reduction" for kind in op.get_iterator_types()
        )
        return OpProfile("compute", operands, contraction)
    return OpProfile("other", ())


def _nbytes(value: object) -> int:
    if isinstance(value, DiscontiguousTensor):
        return value.nbytes
    return int(getattr(value, "nbytes", 0))


def _element_bytes(value: object) -> int:
    dtype = getattr(value, "dtype", None)
    return int(dtype.itemsize) if dtype is not None else 0


def _shape(value: object) -> tuple[int, ...]:
    return tuple(getattr(value, "shape", ()))


def multiply_accumulates(
    op: LinalgStructuredOperation, args: tuple[object, ...]
) -> int:
    """MACs of a contraction: the size of its iteration space."""
    return prod(loop_ranges(op, [_shape(a) for a in args]))


TARGET_COST_FIELDS = frozenset(
    {
        "op_overhead_cycles",
        "vector_bytes",
        "copy_setup_cycles",
        "copy_bytes_per_cycle",
        "macs_per_cycle",
    }
)
SCOPE_COST_FIELDS = frozenset({"bytes_per_cycle", "latency_cycles"})


def with_cost_overrides(target: Target, overrides: Mapping[str, Any]) -> Target:
    """`target` with cost parameters replaced (the `--cost-model` JSON), e.g.
    `{"copy_setup_cycles": 50, "scopes": {"global.vtcm": {"latency_cycles": 2}}}`."""
    scopes_overrides = overrides.get("scopes", {})
    unknown = set(overrides) - TARGET_COST_FIELDS - {"scopes"}
    for scope, fields in scopes_overrides.items():
        unknown |= {f"scopes.{scope}.{f}" for f in set(fields) - SCOPE_COST_FIELDS}
    if unknown:
        raise ValueError(
            f"unknown cost parameter(s): {', '.join(sorted(unknown))}; expected "
            f"{', '.join(sorted(TARGET_COST_FIELDS))} or scopes.<scope>."
            f"{{{', '.join(sorted(SCOPE_COST_FIELDS))}}}"
        )
    scopes = dict(target.scopes)
    for scope, fields in scopes_overrides.items():
        scopes[scope] = replace(target.scope(scope), **fields)
    top_level = {k: v for k, v in overrides.items() if k != "scopes"}
    return replace(target, scopes=scopes, **top_level)


class CostModel:
    """Cycles of each executed op under one target's parameters."""

    def __init__(self, target: Target):
        self.target = target

    def _rounded(self, nbytes: int) -> int:
        vector = self.target.vector_bytes
        return (nbytes + vector - 1) // vector * vector

    def cycles(self, op: Operation, info: OpProfile, args: tuple[object, ...]) -> float:
        target = self.target
        cycles = float(target.op_overhead_cycles)
        if info.kind == "other":
            return cycles
        touched: set[str] = set()
        for index, scope in info.memref_operands:
            value = args[index]
            nbytes = (
                _element_bytes(value)
                if info.kind == "access"
                else self._rounded(_nbytes(value))
            )
            cycles += nbytes / target.scope(scope).bytes_per_cycle
            touched.add(scope)
        cycles += sum(target.scope(scope).latency_cycles for scope in touched)
        if info.kind == "copy":
            (_, source_scope), (_, target_scope) = info.memref_operands
            if source_scope != target_scope:
                cycles += target.copy_setup_cycles
                cycles += _nbytes(args[0]) / target.copy_bytes_per_cycle
        if info.contraction:
            assert isinstance(op, LinalgStructuredOperation)
            cycles += multiply_accumulates(op, args) / target.macs_per_cycle
        return cycles

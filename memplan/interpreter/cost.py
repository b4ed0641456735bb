"""A deterministic cycle model of an executed op (see docs/cost-model.md).

It is a model for comparing plans, not a measurement of any chip: each op
pays a dispatch overhead, the bytes it touches at its scopes' bandwidths, a
latency per scope it touches, a DMA setup and transfer for copies between
scopes, and multiply-accumulates for contractions.  Allocating or freeing a
storage is a call into the runtime allocator; placing a tensor in a storage
is address arithmetic, and killing one is no run-time work at all.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from functools import partial
from math import prod

import numpy as np
from xdsl.dialects.builtin import MemRefType, NoneAttr, StringAttr
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation

from memplan.dialects import memory
from memplan.interpreter.generic_vectorize import loop_ranges
from memplan.interpreter.memory_impl import runtime_shape
from memplan.interpreter.model import DiscontiguousTensor
from memplan.ir_walk import walk
from memplan.targets import ScopeInfo, Target
from memplan.text import NotText, decode_text

COPY_OPS = frozenset({"memory.copy", "memref.copy", "linalg.copy"})
ACCESS_OPS = frozenset(
    {
        "memref.load",
        "memref.store",
        "memref.atomic_rmw",
        "affine.load",
        "affine.store",
    }
)
ALLOCATOR_OPS = frozenset({"memory.alloc_storage", "memref.alloc", "memref.dealloc"})
"""Ops are told apart by name: the parsing context may define its own class
for an op (memplan/dialects/memref.py and linalg.py do)."""
CONVERSION_OPS = frozenset({"bufferization.to_buffer", "bufferization.to_tensor"})
"""Ops that name the same bytes as a tensor or as a memref: no copy, no
run-time work."""


@dataclass(frozen=True)
class OpProfile:
    """What the cost model needs to know about an op, computed once per op."""

    kind: str
    """"copy", "access", "compute", "allocator" (a call into the runtime
    allocator), "realloc" (an allocation, a copy and a free), "clone" (an
    allocation and a copy), "table" (writing a pointer table), "free" (no
    run-time work: killing a tensor, a `CONVERSION_OPS` op), "other"; "body"
    for ops inside a linalg body."""
    memref_operands: tuple[tuple[int, str], ...]
    """(operand index, scope) of each memref operand."""
    contraction: bool = False
    """A linalg op with a reduction loop: it pays for multiply-accumulates."""
    table: tuple[int, str] | None = None
    """Bytes and scope of the pointer table a "table" op writes."""
    written: str | None = None
    """Scope of the buffer a "clone" op allocates and copies into."""


def _is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.")


class LinalgBodies:
    """Which blocks lie inside a linalg op's body, each block's answer kept:
    the ops of one run ask once per block, not once per op per enclosing
    level (quadratic in the depth of nested regions).  For IR that does not
    change while it is asked."""

    def __init__(self) -> None:
        self._inside: dict[Block, bool] = {}

    def __call__(self, op: Operation) -> bool:
        """`op` is nested in the body of a linalg op."""
        passed: list[Block] = []
        block = op.parent_block()
        inside = False
        while block is not None:
            if block in self._inside:
                inside = self._inside[block]
                break
            passed.append(block)
            parent = block.parent_op()
            if parent is None:
                break
            if _is_linalg(parent):
                inside = True
                break
            block = parent.parent_block()
        for seen in passed:
            self._inside[seen] = inside
        return inside


def profile(op: Operation, in_linalg_body: LinalgBodies | None = None) -> OpProfile:
    """What the cost model needs of `op`; `in_linalg_body` keeps its answers
    across the calls of one run."""
    if (in_linalg_body or LinalgBodies())(op):
        return OpProfile("body", ())
    operands = tuple(
        (i, memory.scope_of(o.type))
        for i, o in enumerate(op.operands)
        if isinstance(o.type, MemRefType)
    )
    if op.name in COPY_OPS:
        return OpProfile("copy", operands)
    if op.name in ACCESS_OPS:
        return OpProfile("access", operands)
    if _is_linalg(op) and operands:
        contraction = isinstance(op, LinalgStructuredOperation) and any(
            kind.data.value == "reduction" for kind in op.get_iterator_types()
        )
        return OpProfile("compute", operands, contraction)
    if op.name in ALLOCATOR_OPS:
        return OpProfile("allocator", ())
    if op.name == "memref.realloc":
        return OpProfile("realloc", operands)
    result_type = op.results[0].type if op.results else None
    if (
        op.name == "bufferization.clone"
        and operands
        and isinstance(result_type, MemRefType)
    ):
        # An unranked clone is "other": the run refuses it.
        return OpProfile("clone", operands, written=memory.scope_of(result_type))
    if op.name in CONVERSION_OPS:
        return OpProfile("free", ())
    if isinstance(op, memory.KillOp):
        killed = op.operands[0].type
        return OpProfile(
            "allocator" if isinstance(killed, memory.StorageType) else "free", ()
        )
    if isinstance(op, memory.AllocDiscontiguousTensorOp):
        table_bytes = len(op.block_sizes()) * op.pointer_width.value.data
        return OpProfile(
            "table", (), table=(table_bytes, memory.scope_of(op.table_storage.type))
        )
    return OpProfile("other", ())


def _nbytes(value: object) -> int:
    if isinstance(value, DiscontiguousTensor):
        return value.nbytes
    return int(getattr(value, "nbytes", 0))


def _table_bytes(tensor: DiscontiguousTensor) -> int:
    return tensor.block_count * tensor.pointer_width


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


POSITIVE = frozenset(
    {"vector_bytes", "copy_bytes_per_cycle", "macs_per_cycle", "bytes_per_cycle"}
)
"""Parameters that divide: they must be above zero, not only non-negative."""
TARGET_COST_FIELDS = frozenset(
    {
        "op_overhead_cycles",
        "allocator_call_cycles",
        "vector_bytes",
        "copy_setup_cycles",
        "copy_bytes_per_cycle",
        "macs_per_cycle",
    }
)
SCOPE_COST_FIELDS = frozenset({"bytes_per_cycle", "latency_cycles"})


class CostModelError(ValueError):
    """A cost-model override names no parameter or gives it an unusable value."""


def _checked(key: str, value: object) -> float:
    """`value` as a cost parameter, or an error naming `key`."""
    positive = key.rsplit(".", 1)[-1] in POSITIVE
    wanted = "a positive number" if positive else "a non-negative number"
    if key == "vector_bytes":
        wanted = "a positive integer"
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value < 0
        or (positive and value == 0)
        or (key == "vector_bytes" and not isinstance(value, int))
    ):
        raise CostModelError(f"{key} must be {wanted}, got {json.dumps(value)}")
    return value


def program_scopes(program: Operation) -> set[str]:
    """The scopes of the memrefs and storages `program` computes with."""
    values = [
        value
        for op in walk(program)
        for value in (
            *op.results,
            *(
                arg
                for region in op.regions
                for block in region.blocks
                for arg in block.args
            ),
        )
    ]
    return {
        memory.scope_of(value.type)
        for value in values
        if isinstance(value.type, memory.StorageType)
        or (
            isinstance(value.type, MemRefType)
            and isinstance(value.type.memory_space, NoneAttr | StringAttr)
        )
    }


def with_cost_overrides(
    target: Target, overrides: object, program: Collection[str]
) -> Target:
    """`target` with cost parameters replaced (the `--cost-model` JSON), e.g.
    `{"copy_setup_cycles": 50, "scopes": {"global.vtcm": {"latency_cycles": 2}}}`.

    `program` holds the scopes the program uses (`program_scopes`): those
    and the target's may be overridden; any other is a typo.  Raises
    `CostModelError` naming the first key that is unknown or whose value is
    not a usable number (a string, a negative, a zero divisor).
    """
    if not isinstance(overrides, Mapping):
        raise CostModelError(
            f"expected a JSON object of cost parameters, got {json.dumps(overrides)}"
        )
    scopes_overrides = overrides.get("scopes", {})
    if not isinstance(scopes_overrides, Mapping):
        raise CostModelError(
            "scopes must map scope names to objects of "
            f"{', '.join(sorted(SCOPE_COST_FIELDS))}"
        )
    unknown = {str(k) for k in overrides} - TARGET_COST_FIELDS - {"scopes"}
    for scope, fields_ in scopes_overrides.items():
        if not isinstance(fields_, Mapping):
            raise CostModelError(
                f"scopes.{scope} must be an object of "
                f"{', '.join(sorted(SCOPE_COST_FIELDS))}"
            )
        unknown |= {f"scopes.{scope}.{f}" for f in set(fields_) - SCOPE_COST_FIELDS}
    known_scopes = sorted({*target.scopes, *program})
    for scope in scopes_overrides:
        if scope not in known_scopes:
            raise CostModelError(
                f"scopes.{scope}: unknown scope: neither the target nor the program "
                f"has it; known scopes: {', '.join(known_scopes)}"
            )
    if unknown:
        raise CostModelError(
            f"unknown cost parameter(s): {', '.join(sorted(unknown))}; expected "
            f"{', '.join(sorted(TARGET_COST_FIELDS))} or scopes.<scope>."
            f"{{{', '.join(sorted(SCOPE_COST_FIELDS))}}}"
        )
    scopes = dict(target.scopes)
    for scope, fields_ in scopes_overrides.items():
        values = {f: _checked(f"scopes.{scope}.{f}", v) for f, v in fields_.items()}
        scopes[scope] = replace(target.scope(scope), **values)
    top_level = {k: _checked(k, v) for k, v in overrides.items() if k != "scopes"}
    return replace(target, scopes=scopes, **top_level)


def with_cost_file(target: Target, data: bytes, program: Collection[str]) -> Target:
    """`with_cost_overrides` of the bytes of a cost-model file; one that is
    not UTF-8 or not JSON is a `CostModelError` too, for the caller to prefix
    with the file and its flag."""
    try:
        overrides = json.loads(decode_text(data))
    except NotText as error:
        raise CostModelError(str(error)) from None
    except json.JSONDecodeError as error:
        raise CostModelError(f"not valid JSON: {error}") from None
    return with_cost_overrides(target, overrides, program)


class CostModel:
    """Cycles of each executed op under one target's parameters."""

    def __init__(self, target: Target):
        self.target = target
        self._accesses: dict[tuple[str, int], float] = {}

    def _rounded(self, nbytes: int) -> int:
        vector = self.target.vector_bytes
        return (nbytes + vector - 1) // vector * vector

    def _operand_bytes(self, value: object) -> int:
        """Bytes an op moves for one operand, each transfer rounded to vectors."""
        if isinstance(value, DiscontiguousTensor):
            count = value.block_count
            if not count:
                return 0
            full = self._rounded(value.block_bytes(0))
            return (count - 1) * full + self._rounded(value.block_bytes(count - 1))
        return self._rounded(_nbytes(value))

    def _scope(self, name: str) -> ScopeInfo:
        return self.target.scope(name)

    def _realloc(
        self, op: Operation, info: OpProfile, args: tuple[object, ...]
    ) -> float:
        """Two allocator calls (the new buffer, freeing the old) and the kept
        elements read and written in their scope, as MLIR's `expand-realloc`
        lowering (alloc, copy, dealloc) does it."""
        ((_, scope),) = info.memref_operands
        source = args[0]
        result_type = op.results[0].type
        assert isinstance(result_type, MemRefType)
        (size,) = runtime_shape(result_type, args[1:])
        kept = min(_shape(source)[0], size)
        moved = 2 * self._rounded(kept * _element_bytes(source))
        info_ = self._scope(scope)
        return (
            2 * self.target.allocator_call_cycles
            + moved / info_.bytes_per_cycle
            + info_.latency_cycles
        )

    def fixed_cycles(self, info: OpProfile) -> float | None:
        """The cycles of an op whose cost does not depend on its operands'
        values (every run of it costs the same), else None."""
        target = self.target
        if info.kind == "free":
            return 0.0
        cycles = float(target.op_overhead_cycles)
        if info.kind == "allocator":
            return cycles + target.allocator_call_cycles
        if info.table is not None:
            table_bytes, scope = info.table
            info_ = self._scope(scope)
            return cycles + table_bytes / info_.bytes_per_cycle + info_.latency_cycles
        if info.kind == "other":
            return cycles
        return None

    def cycles(self, op: Operation, info: OpProfile, args: tuple[object, ...]) -> float:
        fixed = self.fixed_cycles(info)
        if fixed is not None:
            return fixed
        return self.cycles_function(op, info)(args)

    def cycles_function(
        self, op: Operation, info: OpProfile
    ) -> Callable[[tuple[object, ...]], float]:
        """`cycles(op, info, args)` for an op whose cycles depend on its
        operands (`fixed_cycles` is None), with what depends on the op alone
        worked out once: scalar code runs millions of them."""
        if info.kind != "access" or len(info.memref_operands) != 1:
            return partial(self._operand_cycles, op, info)
        ((index, scope),) = info.memref_operands
        by_size: dict[int, float] = {}

        def access(args: tuple[object, ...]) -> float:
            value = args[index]
            if not isinstance(value, np.ndarray):
                return self._operand_cycles(op, info, args)
            # Depends on the scope and the element size only.
            cycles = by_size.get(value.itemsize)
            if cycles is None:
                key = (scope, value.itemsize)
                cycles = self._accesses.get(key)
                if cycles is None:
                    cycles = self._accesses[key] = self._operand_cycles(op, info, args)
                by_size[value.itemsize] = cycles
            return cycles

        return access

    def _operand_cycles(
        self, op: Operation, info: OpProfile, args: tuple[object, ...]
    ) -> float:
        """The cycles of an op whose cost depends on its operands."""
        target = self.target
        cycles = float(target.op_overhead_cycles)
        if info.kind == "realloc":
            return cycles + self._realloc(op, info, args)
        touched: set[str] = set()
        for index, scope in info.memref_operands:
            value = args[index]
            nbytes = (
                _element_bytes(value)
                if info.kind == "access"
                else self._operand_bytes(value)
            )
            cycles += nbytes / self._scope(scope).bytes_per_cycle
            touched.add(scope)
            if isinstance(value, DiscontiguousTensor):
                table = value.table.scope
                cycles += _table_bytes(value) / self._scope(table).bytes_per_cycle
                touched.add(table)
        if info.written is not None:
            # A clone: the allocator call, and its new buffer written as a
            # copy's target is (the source's bytes, contiguous).
            cycles += target.allocator_call_cycles
            written = self._rounded(_nbytes(args[0]))
            cycles += written / self._scope(info.written).bytes_per_cycle
            touched.add(info.written)
        cycles += sum(self._scope(scope).latency_cycles for scope in touched)
        if info.kind in ("copy", "clone"):
            source_scope = info.memref_operands[0][1]
            target_scope = info.written or info.memref_operands[1][1]
            if source_scope != target_scope:
                cycles += target.copy_setup_cycles
                # DMA moves whole lines of vector_bytes, block by block.
                cycles += self._operand_bytes(args[0]) / target.copy_bytes_per_cycle
        if info.contraction:
            assert isinstance(op, LinalgStructuredOperation)
            cycles += multiply_accumulates(op, args) / target.macs_per_cycle
        return cycles

"""`memory-plan` with discontiguous tensors: which tensors may take blocks,
what their table reads cost, and their rewrite into
`memory.alloc_discontiguous_tensor`.

A tensor keeps its shape and gets the `#memory.discontiguous<N>` layout
(blocks of N elements in row-major order), so its users stay as they are.
Only users that reach the data through the interpreter's gather/scatter or
by element can take blocks; a view, a call or anything else that needs one
address keeps the tensor contiguous.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    DiscontiguousLayoutAttr,
    KillOp,
    element_bytes,
)
from memplan.targets import Target

DISCONTIGUOUS_MODES = ("never", "auto", "always")
"""Values of the `discontiguous` option."""

BLOCK_USERS = frozenset(
    {
        "memory.copy",
        "memory.kill",
        "memref.copy",
        "memref.load",
        "memref.store",
        "affine.load",
        "affine.store",
    }
)
"""Ops other than linalg ones that run on a discontiguous operand."""


def _takes_blocks(user: Operation) -> bool:
    return user.name in BLOCK_USERS or user.name.startswith("linalg.")


def _layout(tensor: AllocTensorOp, block_size: int) -> DiscontiguousLayoutAttr:
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    return DiscontiguousLayoutAttr(block_size // element_bytes(type_.element_type))


def may_take_blocks(tensor: AllocTensorOp, block_size: int) -> bool:
    """Every user of the tensor runs on blocks (copies, loads and stores,
    linalg ops, kills) and a block holds whole elements."""
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    if block_size % element_bytes(type_.element_type):
        return False
    return all(_takes_blocks(use.operation) for use in tensor.result.uses)


def _block_count(tensor: AllocTensorOp, block_size: int) -> int:
    type_ = tensor.result.type
    assert isinstance(type_, MemRefType)
    return _layout(tensor, block_size).block_shape(type_.get_shape())[1]


def table_read_cycles(
    tensor: AllocTensorOp, block_size: int, target: Target, table_scope: str
) -> float:
    """What blocks add to the modeled cycles (docs/cost-model.md): every op
    using the tensor reads its pointer table at the table scope's bandwidth
    and latency.  Uses are counted once each, not per loop iteration."""
    table = target.scope(table_scope)
    per_use = (
        _block_count(tensor, block_size) * target.pointer_width / table.bytes_per_cycle
        + table.latency_cycles
    )
    uses = sum(not isinstance(use.operation, KillOp) for use in tensor.result.uses)
    return uses * per_use


def table_offsets(
    tensors: Iterable[AllocTensorOp], block_size: int, pointer_width: int
) -> tuple[dict[AllocTensorOp, int], int]:
    """Pointer tables side by side in a table storage of their own, and its size."""
    offsets: dict[AllocTensorOp, int] = {}
    end = 0
    for tensor in tensors:
        offsets[tensor] = end
        end += _block_count(tensor, block_size) * pointer_width
    return offsets, end


def rewrite_blocked(
    arena: AllocStorageOp,
    table_storage: AllocStorageOp,
    blocks: Mapping[AllocTensorOp, tuple[int, ...]],
    tables: Mapping[AllocTensorOp, int],
    block_size: int,
    pointer_width: int,
) -> None:
    """Replace each tensor by a discontiguous one of the same shape whose
    blocks are at the given arena offsets; its uses and kills follow."""
    for tensor, offsets in blocks.items():
        type_ = tensor.result.type
        assert isinstance(type_, MemRefType)
        layout = _layout(tensor, block_size)
        count = layout.block_shape(type_.get_shape())[1]
        assert count <= len(offsets)
        blocked = AllocDiscontiguousTensorOp(
            table_storage,
            tables[tensor],
            arena,
            offsets[:count],
            MemRefType(
                type_.element_type, type_.get_shape(), layout, type_.memory_space
            ),
            pointer_width,
        )
        blocked.result.name_hint = tensor.result.name_hint
        Rewriter.replace_op(tensor, blocked)

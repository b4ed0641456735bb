"""Earlier kills for the storages `memory-plan` cannot pack: those of a
dynamic size.

A storage whose size is known only at run time (`memory.alloc_storage [%n]`,
what `memory-manifest` makes of `memref.alloc(%n)`) has no static offset in
an arena, so `memory-plan` leaves it where it is.  Its bytes can still be
freed sooner: MLIR's `buffer-deallocation-pipeline` frees the buffers of a
straight-line function at its end, so a model exported with dynamic sizes
holds every intermediate until it returns.  With `insert-kills`, such a
storage is killed right after the last use of its tensor, as an arena is:
when it holds one tensor, allocated in the storage's block, that the program
kills (through any alias), that does not escape, is not loop-carried nor
allocated in a loop whose iterations may run at once, and that no
`memref.dealloc` or `memref.realloc` frees.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.dialects.memory import AllocStorageOp, AllocTensorOp, KillOp
from memplan.passes.liveness import FunctionLiveness


@dataclass(frozen=True)
class DynamicStorage:
    """A dynamic-size storage whose kills can move to its tensor's last use."""

    storage: AllocStorageOp
    tensor: AllocTensorOp
    last_user: Operation
    kills: tuple[Operation, ...]
    """Every kill of the storage and of the tensor or an alias of it."""


def dynamic_storages(liveness: FunctionLiveness) -> list[DynamicStorage]:
    """The function's dynamic-size storages that can be killed earlier."""
    found: list[DynamicStorage] = []
    for op in liveness.index:
        if not isinstance(op, AllocStorageOp) or op.static_size_bytes() is not None:
            continue
        users = [use.operation for use in op.result.uses]
        tensors = [user for user in users if not isinstance(user, KillOp)]
        storage_kills = tuple(user for user in users if isinstance(user, KillOp))
        if (
            len(tensors) != 1
            or not isinstance(tensor := tensors[0], AllocTensorOp)
            or tensor.parent_block() is not op.parent_block()
            or not storage_kills
        ):
            continue
        live = liveness.range_of(tensor)
        if live.needs_own_storage or live.last_user is None:
            continue
        found.append(
            DynamicStorage(op, tensor, live.last_user, storage_kills + live.ends)
        )
    return found


def kill_after_last_use(storages: list[DynamicStorage]) -> None:
    """Replace each storage's kills by a kill of its tensor and of itself
    right after the tensor's last use."""
    for found in storages:
        for kill in dict.fromkeys(found.kills):
            Rewriter.erase_op(kill)
        Rewriter.insert_op(
            [KillOp(found.tensor), KillOp(found.storage)],
            InsertPoint.after(found.last_user),
        )

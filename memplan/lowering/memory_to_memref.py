"""`convert-memory-to-memref`: the `memory` dialect in upstream `memref` terms.

A storage becomes a `memref.alloc` of bytes, `memref<Nxi8, scope>` (or
`memref<?xi8, scope>` for a dynamic size), keeping its alignment; scope
"global" becomes no memory space, MLIR's spelling of default memory.  A tensor
becomes a `memref.view` of those bytes at its byte shift.  A storage kill
becomes `memref.dealloc`; a tensor kill only ends a life and is dropped; a
`memory.copy` becomes `memref.copy`.

Discontiguous tensors have no `memref` equivalent (their blocks are reached
through a pointer table), nor have storages on a device other than 0
(`memref.alloc` has no device); storages that are not simply allocated and
used by memory ops (function arguments, call results, yielded values) would
need a signature conversion.  All of these make the pass fail, naming the op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from memplan.dialects import memref
from memplan.dialects.memory import (
    GLOBAL_SCOPE,
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    CopyOp,
    KillOp,
    StorageType,
)
from memplan.ir_walk import LinearWalker, walk
from memplan.passes.context_classes import use_context_classes
from memplan.passes.diagnostics import failure
from memplan.passes.options import MemplanPass

LOWERING = "convert-memory-to-memref"


def memory_space(scope: str) -> Attribute:
    """The memref memory space of a scope: none for "global", else the name."""
    return NoneAttr() if scope == GLOBAL_SCOPE else StringAttr(scope)


def check_lowerable(module: ModuleOp) -> None:
    """Fail on what has no faithful `memref` form, before anything is rewritten."""
    for op in walk(module):
        if isinstance(op, AllocDiscontiguousTensorOp):
            raise PassFailedException(
                failure(
                    LOWERING,
                    op,
                    f"{op.name} has no memref equivalent: its blocks are reached "
                    "through a pointer table, which no memref layout expresses; "
                    "expected only contiguous memory.alloc_tensor",
                )
            )
        if isinstance(op, AllocStorageOp) and op.device.value.data != 0:
            raise PassFailedException(
                failure(
                    LOWERING,
                    op,
                    f"{op.name} on device {op.device.value.data} has no memref "
                    "equivalent: memref.alloc has no device; expected device 0",
                )
            )
        if isinstance(op, AllocStorageOp | AllocTensorOp | KillOp):
            continue
        for value in (*op.operands, *op.results):
            if isinstance(value.type, StorageType):
                raise PassFailedException(
                    failure(
                        LOWERING,
                        op,
                        f"{op.name} uses or yields a {value.type} value: expected "
                        "storages to be used only by memory.alloc_tensor and "
                        "memory.kill, which the lowering can rewrite",
                    )
                )
        for region in op.regions:
            for block in region.blocks:
                for argument in block.args:
                    if isinstance(argument.type, StorageType):
                        raise PassFailedException(
                            failure(
                                LOWERING,
                                op,
                                f"{op.name} has a block argument of type "
                                f"{argument.type}: expected storages to come from "
                                "memory.alloc_storage only",
                            )
                        )


class LowerKill(RewritePattern):
    """Storage kill -> `memref.dealloc`; tensor kill -> nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: KillOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.value.type, StorageType):
            rewriter.replace(op, memref.DeallocOp.get(op.value), [])
        else:
            rewriter.erase(op)


class LowerCopy(RewritePattern):
    """`memory.copy` -> `memref.copy`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CopyOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, memref.CopyOp(op.source, op.target), [])


def buffer_memory_space(storage: AllocStorageOp) -> Attribute:
    """The memory space of a lowered storage: as its tensors spell their scope
    when they all spell it alike (`memref.view` keeps the memory space, so
    they need no cast), else the scope's own spelling."""
    spellings = {
        use.operation.result.type.memory_space
        for use in storage.result.uses
        if isinstance(use.operation, AllocTensorOp)
    }
    if len(spellings) == 1:
        return spellings.pop()
    return memory_space(storage.scope)


class LowerAllocStorage(RewritePattern):
    """`memory.alloc_storage` -> `memref.alloc` of i8 in the scope's memory space."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocStorageOp, rewriter: PatternRewriter) -> None:
        size = op.static_size_bytes()
        alloc = memref.AllocOp.get(
            i8,
            alignment=IntegerAttr(op.alignment.value.data, i64),
            shape=[DYNAMIC_INDEX if size is None else size],
            dynamic_sizes=op.dynamic_size,
            memory_space=buffer_memory_space(op),
        )
        rewriter.replace(op, alloc)


class LowerAllocTensor(RewritePattern):
    """`memory.alloc_tensor` -> `memref.view` of the lowered storage's bytes.

    `memref.view` keeps the source's memory space, so a tensor that spells
    scope "global" otherwise than its buffer (`memref<4xf32, "global">` and
    `memref<4xf32>` in one storage) gets a `memref.memory_space_cast`.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocTensorOp, rewriter: PatternRewriter) -> None:
        buffer = op.storage
        assert isinstance(buffer.type, MemRefType), "storages are lowered first"
        new_ops: list[Operation] = []
        shift: SSAValue
        offset = op.static_offset_bytes()
        if offset is None:
            (shift,) = op.dynamic_offset
        else:
            constant = arith.ConstantOp(IntegerAttr(offset, IndexType()))
            new_ops.append(constant)
            shift = constant.result
        result_type = op.result.type
        view_type = MemRefType(
            result_type.element_type,
            result_type.get_shape(),
            memory_space=buffer.type.memory_space,
        )
        view = memref.ViewOp(buffer, shift, op.dynamic_sizes, view_type)
        new_ops.append(view)
        if view_type != result_type:
            new_ops.append(memref.MemorySpaceCastOp(view, result_type))
        rewriter.replace(op, new_ops)


@dataclass(frozen=True)
class ConvertMemoryToMemrefPass(MemplanPass):
    """Lower storages, tensors, kills and copies to `memref` ops."""

    name = LOWERING

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_lowerable(op)
        # Kills are told apart by their operand's type, so they go before the
        # storages change type; tensors view the lowered storages, so they go last.
        stages: list[list[RewritePattern]] = [
            [LowerKill(), LowerCopy()],
            [LowerAllocStorage()],
            [LowerAllocTensor()],
        ]
        for patterns in stages:
            applier = GreedyRewritePatternApplier(patterns, dce_enabled=False)
            LinearWalker(applier).rewrite_module(op)
        use_context_classes(ctx, op)

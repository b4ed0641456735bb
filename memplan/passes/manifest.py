"""`memory-manifest`: make every heap allocation an explicit storage and tensor.

This is TVM Relay's ManifestAlloc for memrefs.  `memref.alloc` becomes one
`memory.alloc_storage` (its bytes, in the scope named by the memory space)
and one `memory.alloc_tensor` at offset 0 whose type is the alloc's type, so
every use stays valid.  `memref.dealloc` becomes two kills: the tensor's (its
life ends) and its storage's (its bytes are freed).  Later passes merge
storages and move tensors; they need both facts separately.

`bufferization.clone` (MLIR's deallocation pipeline clones each function
argument, or view of one, that a function returns) first becomes what MLIR
lowers it to, a `memref.alloc` and a `memref.copy`, so its buffer is
manifested and planned like any other and `memref.dealloc` may free it.

`memref.alloca` is left alone: stack memory is freed by its scope, not by a
kill, so there is nothing for a planner to decide.  So is every
`memref.alloc` the function does not own (`memplan.passes.ownership`: it is
freed through an alias, by a callee or by a caller it is returned to, as
MLIR's buffer-deallocation-pipeline does), with the deallocs that free it:
they stay as correct as they were, and later passes leave them alone.

A use of a buffer after a `memref.dealloc` or `memref.realloc` frees it is
undefined behaviour; the pass fails on it rather than let `memory-plan`
extend the tensor's life.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException, VerifyException

from memplan.dialects import memref
from memplan.dialects.bufferization import clone_allocation
from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    KillOp,
    scope_of,
    static_part_bytes,
)
from memplan.ir_walk import LinearWalker, walk
from memplan.passes.context_classes import use_context_classes
from memplan.passes.diagnostics import check_storage_bytes, describe, failure
from memplan.passes.liveness import FunctionLiveness
from memplan.passes.options import MemplanPass, resolve_target
from memplan.passes.ownership import Ownership, frees_operand, use_after_free
from memplan.targets import DEFAULT_TARGET, Target


def _requested_alignment(alloc: memref.AllocOp) -> int | None:
    """The alloc's `alignment` attribute: a request the tensor keeps through
    every pass that moves it."""
    if alloc.alignment is None:
        return None
    assert isinstance(alloc.alignment, IntegerAttr)
    return alloc.alignment.value.data


def _alloc_alignment(alloc: memref.AllocOp, target: Target, scope: str) -> int:
    requested = _requested_alignment(alloc)
    return target.alignment(scope) if requested is None else requested


MANIFEST = "memory-manifest"


def _byte_size_ops(
    alloc: memref.AllocOp, type_: MemRefType
) -> tuple[list[Operation], int | SSAValue]:
    """Ops computing the alloc's byte size, and that size (constant or value).

    The static part (element bytes times the static dimensions) is one
    constant; each dynamic size multiplies it, in order.
    """
    static_bytes = static_part_bytes(type_)
    check_storage_bytes(
        MANIFEST, alloc, f"the storage of memref.alloc of {type_}", static_bytes
    )
    if not alloc.dynamic_sizes:
        return [], static_bytes
    constant = arith.ConstantOp(IntegerAttr(static_bytes, IndexType()))
    ops: list[Operation] = [constant]
    size: SSAValue = constant.result
    for dynamic_size in alloc.dynamic_sizes:
        product = arith.MuliOp(size, dynamic_size)
        ops.append(product)
        size = product.result
    return ops, size


@dataclass
class ManifestAlloc(RewritePattern):
    """`memref.alloc` -> `memory.alloc_storage` + `memory.alloc_tensor` at offset
    0, for the allocs the function owns."""

    target: Target
    ownership: Ownership

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocOp, rewriter: PatternRewriter) -> None:
        if not self.ownership.owns(op):
            return
        type_ = op.memref.type
        if not isinstance(type_.layout, NoneAttr):
            raise PassFailedException(
                failure(
                    MANIFEST,
                    op,
                    f"memref.alloc of {type_} has the layout {type_.layout}: expected "
                    "the identity layout, the only one a tensor at a byte offset has",
                )
            )
        if op.symbol_operands:
            raise PassFailedException(
                failure(
                    MANIFEST,
                    op,
                    f"memref.alloc of {type_} has symbol operands: expected none, "
                    "since only the identity layout is supported",
                )
            )
        try:
            scope = scope_of(type_)
            size_ops, size = _byte_size_ops(op, type_)
        except VerifyException as error:
            raise PassFailedException(
                failure(MANIFEST, op, f"memref.alloc of {type_}: {error}")
            ) from None
        storage = AllocStorageOp(size, scope, _alloc_alignment(op, self.target, scope))
        # The tensor takes over the alloc's name; its storage and byte count get
        # names of their own (xDSL would give them the alloc's), so the IR and
        # diagnostics tell them apart.
        if name := op.memref.name_hint:
            storage.result.name_hint = f"{name}_storage"
            for size_op in size_ops:
                size_op.results[0].name_hint = f"{name}_bytes"
        tensor = AllocTensorOp(
            storage, 0, type_, op.dynamic_sizes, _requested_alignment(op)
        )
        rewriter.replace(op, [*size_ops, storage, tensor], [tensor.result])


class ManifestClone(RewritePattern):
    """`bufferization.clone` -> `memref.alloc` + `memref.copy`, as MLIR lowers it
    (convert-bufferization-to-memref): the alloc has the result's shape with
    the identity layout (`clone_allocation`), and a `memref.cast` gives it the
    clone's result type when that has another layout (a clone into a view
    type).  A dealloc of the clone frees the alloc itself, so the cast does
    not hide the buffer's end from ownership.  Matched by name: under stock
    `xdsl-opt` the clone is xDSL's class."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "bufferization.clone":
            return
        (source,), (result,) = op.operands, op.results
        try:
            alloc_type = clone_allocation(source.type, result.type)
        except VerifyException as error:
            raise PassFailedException(
                failure(MANIFEST, op, f"bufferization.clone {error}")
            ) from None
        type_ = result.type
        assert isinstance(type_, MemRefType)
        sizes: list[Operation] = []
        for axis, dim in enumerate(type_.get_shape()):
            if dim == DYNAMIC_INDEX:
                index = arith.ConstantOp(IntegerAttr(axis, IndexType()))
                sizes += [index, memref.DimOp(source, index)]
        alloc = memref.AllocOp(
            [size.results[0] for size in sizes[1::2]], [], alloc_type
        )
        copy = memref.CopyOp(source, alloc)
        if alloc_type == type_:
            rewriter.replace(op, [*sizes, alloc, copy], [alloc.memref])
            return
        rewriter.replace_uses_with_if(
            result,
            alloc.memref,
            lambda use: isinstance(use.operation, memref.DeallocOp),
        )
        cast = memref.CastOp(alloc, type_)
        rewriter.replace(op, [*sizes, alloc, copy, cast], [cast.dest])


def _tensors_in(storage: SSAValue) -> int:
    return sum(
        isinstance(use.operation, AllocTensorOp | AllocDiscontiguousTensorOp)
        for use in storage.uses
    )


class ManifestDealloc(RewritePattern):
    """`memref.dealloc` of a tensor -> `memory.kill` of the tensor, then of its
    storage; only of its storage when a `memory.kill` of the tensor before
    it in its block ended its life already (a tensor is killed once).  A dealloc of anything else (an
    alloc left alone, an alias, an argument) stays."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.DeallocOp, rewriter: PatternRewriter
    ) -> None:
        tensor = op.memref
        owner = tensor.owner
        if not isinstance(owner, AllocTensorOp):
            return
        if _tensors_in(owner.storage) > 1:
            raise PassFailedException(
                failure(
                    MANIFEST,
                    op,
                    f"memref.dealloc of {tensor.type} frees a tensor whose storage "
                    "holds other tensors: expected a memref.alloc result, alone in "
                    "its storage, so that killing the storage frees only it",
                )
            )
        ended = any(
            isinstance(use.operation, KillOp) and use.operation.is_before_in_block(op)
            for use in tensor.uses
        )
        kills = [] if ended else [KillOp(tensor)]
        rewriter.replace(op, [*kills, KillOp(owner.storage)], [])


@dataclass(frozen=True)
class MemoryManifestPass(MemplanPass):
    """Turn `memref.alloc`/`memref.dealloc` into storages, tensors and kills."""

    name = MANIFEST

    target: str = DEFAULT_TARGET
    """Target whose scope alignments apply to allocs without an `alignment`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = resolve_target(self.name, self.target)
        _check_no_use_after_free(op)
        # Clones first: a dealloc of a clone must find a manifested alloc.
        LinearWalker(ManifestClone()).rewrite_module(op)
        patterns = GreedyRewritePatternApplier(
            [ManifestAlloc(target, Ownership(op)), ManifestDealloc()],
            dce_enabled=False,
        )
        LinearWalker(patterns).rewrite_module(op)
        use_context_classes(ctx, op)


def _check_no_use_after_free(module: ModuleOp) -> None:
    """Fail on the first op that surely uses a buffer after a `memref.dealloc`
    or `memref.realloc` freed it: planning would quietly extend the buffer's
    life instead."""
    for function in walk(module):
        if not isinstance(function, func.FuncOp):
            continue
        frees = [o for o in walk(function) if frees_operand(o)]
        if not frees:
            continue
        liveness = FunctionLiveness(function)
        for free in frees:
            use = use_after_free(liveness, free)
            if use is None:
                continue
            value = use.operation.operands[use.index]
            used = freed = describe(free.operands[0])
            if value is not free.operands[0]:
                used = f"{describe(value)} (a view of {freed})"
            raise PassFailedException(
                failure(
                    MANIFEST,
                    use.operation,
                    f"{use.operation.name} uses {used} after {free.name} "
                    f"freed {freed} (undefined behaviour): expected every use of "
                    "a buffer and of its views before it is freed",
                )
            )

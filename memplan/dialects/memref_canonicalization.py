"""Canonicalization patterns of memplan's `memref.subview`.

xDSL's (`MemRefSubviewOfSubviewFolding`) matches only xDSL's class and
builds one, which memplan's verifier does not check and its interpreter does
not run, so the fold it did is written here for memplan's op, with the
folding of constant operands MLIR's canonicalizer does.  Both keep the op's
result type for its users.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, StridedLayoutAttr
from xdsl.dialects.utils import split_dynamic_index_list
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from memplan.dialects.memref import CastOp, SubviewOp


def _valid_type(
    source: MemRefType,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
) -> MemRefType | None:
    """The inferred type of a subview of `source` with these static values,
    None if it would not verify (an affine-map source, a slice out of bounds)."""
    if SubviewOp.bounds_error(source, offsets, sizes, strides) is not None:
        return None
    return SubviewOp.infer_type(source, offsets, sizes, strides)


def _fold(values: Sequence[SSAValue | int], non_negative: bool) -> list[SSAValue | int]:
    """`values` with each constant operand made static (as MLIR's
    `foldDynamicIndexList`, a negative one only if `non_negative` is False)."""
    folded: list[SSAValue | int] = []
    for value in values:
        if isinstance(value, SSAValue):
            constant = const_evaluate_operand(value)
            if constant is not None and (constant >= 0 or not non_negative):
                value = constant
        folded.append(value)
    return folded


def _drop(type_: MemRefType, dropped: set[int]) -> MemRefType:
    """`type_` (a strided layout) without the dimensions in `dropped`."""
    layout = type_.layout
    assert isinstance(layout, StridedLayoutAttr)
    kept = [dim for dim in range(type_.get_num_dims()) if dim not in dropped]
    strides = layout.get_strides()
    return MemRefType(
        type_.element_type,
        [type_.get_shape()[dim] for dim in kept],
        StridedLayoutAttr([strides[dim] for dim in kept], layout.get_offset()),
        type_.memory_space,
    )


def _dynamic(op: SubviewOp) -> bool:
    """Whether an offset, size or stride of `op` is an operand."""
    return len(op.operands) > 1


class FoldSubviewConstants(RewritePattern):
    """MLIR's `OpWithOffsetSizesAndStridesConstantArgumentFolder`: constant
    offsets, sizes and strides become static, the result type is inferred
    again (the same unit dimensions dropped) and a `memref.cast` gives the
    users the old type.  Not when the new subview would be out of bounds."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubviewOp, rewriter: PatternRewriter, /) -> None:
        offsets, sizes, strides = op.mixed_values()
        folded = (
            _fold(offsets, non_negative=True),
            _fold(sizes, non_negative=True),
            _fold(strides, non_negative=False),
        )
        if folded == (offsets, sizes, strides):
            return
        source = op.source.type
        assert isinstance(source, MemRefType)
        inferred = _valid_type(
            source,
            *(split_dynamic_index_list(values, DYNAMIC_INDEX)[0] for values in folded),
        )
        dropped = op.dropped_dims()
        if inferred is None or dropped is None:
            return
        new_type = _drop(inferred, dropped)
        subview = SubviewOp.get(op.source, *folded, new_type)
        if new_type == op.result.type:
            rewriter.replace(op, subview)
        else:
            rewriter.replace(op, [subview, CastOp(subview, op.result.type)])


class ComposeSubviews(RewritePattern):
    """xDSL's `MemRefSubviewOfSubviewFolding`: a static unit-stride subview of
    a static unit-stride subview that drops no dimension is one subview of the
    first source, the offsets added.  (MLIR's canonicalizer leaves the pair;
    its `fold-memref-alias-ops` composes them.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubviewOp, rewriter: PatternRewriter, /) -> None:
        inner = op.source.owner
        if not isinstance(inner, SubviewOp) or _dynamic(op) or _dynamic(inner):
            return
        source, middle = inner.source.type, inner.result.type
        assert isinstance(source, MemRefType) and isinstance(middle, MemRefType)
        strides = op.static_strides.get_values()
        if (
            source.get_num_dims() != middle.get_num_dims()
            or any(stride != 1 for stride in strides)
            or any(stride != 1 for stride in inner.static_strides.get_values())
        ):
            return
        offsets = [
            a + b
            for a, b in zip(
                inner.static_offsets.get_values(),
                op.static_offsets.get_values(),
                strict=True,
            )
        ]
        sizes = op.static_sizes.get_values()
        expected = op.inferred_type()
        if expected is None or _valid_type(source, offsets, sizes, strides) != expected:
            return
        rewriter.replace(
            op, SubviewOp.get(inner.source, offsets, sizes, strides, op.result.type)
        )

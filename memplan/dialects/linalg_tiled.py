"""MLIR's contractions on tiled operands, `linalg.mmt4d` and `batch_mmt4d`.

Both are matmuls whose right-hand side is transposed and whose matrices are
cut into tiles: a (M, K, M0, K0) lhs is M x K tiles of M0 x K0 elements.  The
body is matmul's, out + cast(lhs) * cast(rhs) with MLIR's `cast_signed` to the
output element type; the two K loops are reduced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition

from memplan.dialects.linalg_base import ContractionOperation

__all__ = ["BatchMmt4DOp", "Mmt4DOp", "iterators_of_output", "named_map"]


def iterators_of_output(maps: Sequence[AffineMap]) -> ArrayAttr[IteratorTypeAttr]:
    """Loops the output (the last map) is indexed by are parallel, the others
    reduced: MLIR's rule for its named contractions."""
    output = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
    return ArrayAttr(
        IteratorTypeAttr.parallel() if d in output else IteratorTypeAttr.reduction()
        for d in range(maps[-1].num_dims)
    )


class TiledContractionOperation(ContractionOperation):
    """A contraction whose reduced loops are not only the last one."""

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return iterators_of_output(self.DEFAULT_MAPS)


def named_map(loops: str, indices: str) -> AffineMap:
    """The map from the loops named in `loops` to the `indices` named."""
    names = loops.split()
    return AffineMap(
        len(names), 0, tuple(AffineDimExpr(names.index(i)) for i in indices.split())
    )


_MMT4D = "m n k m0 n0 k0"
_BATCH_MMT4D = "b m n k m0 n0 k0"


@irdl_op_definition
class Mmt4DOp(TiledContractionOperation):
    """C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]."""

    name = "linalg.mmt4d"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        named_map(_MMT4D, "m k m0 k0"),
        named_map(_MMT4D, "n k n0 k0"),
        named_map(_MMT4D, "m n m0 n0"),
    )


@irdl_op_definition
class BatchMmt4DOp(TiledContractionOperation):
    """C[b, m, n, m0, n0] += A[b, m, k, m0, k0] * B[b, n, k, n0, k0]."""

    name = "linalg.batch_mmt4d"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        named_map(_BATCH_MMT4D, "b m k m0 k0"),
        named_map(_BATCH_MMT4D, "b n k n0 k0"),
        named_map(_BATCH_MMT4D, "b m n m0 n0"),
    )

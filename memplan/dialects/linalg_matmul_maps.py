"""MLIR's rules for the `indexing_maps` a user gives `linalg.matmul`,
`linalg.batch_matmul` and `linalg.batch_reduce_matmul` (LinalgOps.cpp:
`verifyExtendedMatmulSemantic`, `verifyExtendedBatchVariantMatmulSemantic`,
`isValidLhsRhsBroadcastMap`), and the contraction interface's requirement
that every map be a projected permutation.

An input map may transpose the default map's dimensions or drop some of
them (a broadcast), but a broadcast must keep the reduction dimension `k`,
in the order the default map has it:
- matmul: an input of one result reads `(d2)`;
- batch variants: an input of one result reads `(k)`; the left-hand side of
  two results `(batch or m, k)`, the right-hand side `(batch, k)` or
  `(k, n)`; an input of three results starts with the batch dimension;
- batch variants' output map reads the default's dimensions in order.

Each function raises `VerifyException` with MLIR's message and says which
map and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "verify_batch_matmul_maps",
    "verify_matmul_maps",
    "verify_projected_permutations",
]


def _dims(map_: AffineMap) -> tuple[int | None, ...]:
    """The dimension each result of `map_` reads, `None` for another
    expression."""
    return tuple(
        result.position if isinstance(result, AffineDimExpr) else None
        for result in map_.results
    )


def _reads(expr: AffineExpr, position: int | None) -> bool:
    """MLIR's `isFunctionOfDim`: `expr` reads dimension `position`."""
    return any(
        isinstance(sub, AffineDimExpr) and sub.position == position
        for sub in expr.dfs()
    )


def _check_subset(
    maps: Sequence[AffineMap], defaults: Sequence[AffineMap], message: str
) -> None:
    for index in range(2):
        for result in maps[index].results:
            if result not in defaults[index].results:
                raise VerifyException(
                    f"{message}: {result} in indexing_map #{index} ({maps[index]}) "
                    f"is not a result of the default map {defaults[index]}"
                )


def verify_matmul_maps(
    maps: Sequence[AffineMap], defaults: Sequence[AffineMap]
) -> None:
    """`linalg.matmul`'s inputs: results of the default map's, and a map of
    fewer results (a broadcast) reading `d2`."""
    _check_subset(maps, defaults, "Unexpected dim expression in map result")
    reduction = defaults[0].num_dims - 1
    for index in range(2):
        map_ = maps[index]
        if len(map_.results) < len(defaults[index].results) and _dims(map_) != (
            reduction,
        ):
            raise VerifyException(
                f"Invalid broadcast requested, should be (d{reduction}): "
                f"indexing_map #{index} is {map_}"
            )


def verify_batch_matmul_maps(
    maps: Sequence[AffineMap], defaults: Sequence[AffineMap], output_rank: int
) -> None:
    """`linalg.batch_matmul`'s and `linalg.batch_reduce_matmul`'s maps, over
    loops (batch, m, n, k); `output_rank` is 3 for the first, 2 for the
    second."""
    _check_subset(
        maps,
        defaults,
        "Unexpected result dim expression (outside the set of default result dims)",
    )
    batch, m, n, k = range(4)
    for index in range(2):
        map_ = maps[index]
        dims = _dims(map_)
        if len(dims) > 3:
            raise VerifyException(
                f"no. of result dim expressions exceeds 3: indexing_map #{index} "
                f"is {map_}"
            )
        if len(dims) < 3:
            if index == 0:
                valid = dims == (k,) or (
                    len(dims) == 2 and dims[0] in (batch, m) and dims[1] == k
                )
            else:
                valid = dims in ((k,), (batch, k), (k, n))
            if not valid:
                raise VerifyException(
                    f"Invalid broadcast requested: indexing_map #{index} is {map_}"
                )
        elif dims[0] != batch:
            raise VerifyException(
                f"Invalid batch dimension expression: indexing_map #{index} "
                f"({map_}) must start with d{batch}"
            )
    output = maps[2]
    if len(output.results) != output_rank:
        raise VerifyException(
            f"expects {output_rank} dims, but got ({len(output.results)}): the "
            f"output's indexing_map is {output}"
        )
    if not all(
        _reads(result, position)
        for result, position in zip(output.results, _dims(defaults[2]), strict=True)
    ):
        raise VerifyException(
            f"Invalid output map result dimension: the output's indexing_map "
            f"{output} must be {defaults[2]}"
        )


def verify_projected_permutations(maps: Sequence[AffineMap]) -> None:
    """The contraction interface's check: each map reads distinct
    dimensions, one per result, and no symbol."""
    for index, map_ in enumerate(maps):
        dims = _dims(map_)
        if map_.num_symbols or None in dims or len(set(dims)) != len(dims):
            raise VerifyException(
                "expected indexing maps to be projected permutations: "
                f"indexing_map #{index} is {map_}"
            )

"""MLIR's checks of a memref type, which xDSL 0.74 does not make.

xDSL builds `memref<4xf32, strided<[8, 1]>>` (two strides for one
dimension), `memref<4xf32, affine_map<(d0, d1) -> (d0)>>`, `memref<4xf32,
1.0 : f64>` or `memref<4xtensor<2xf32>>` without a word, and memplan would
then index, place or run such a memref by rules that do not hold.  MLIR
rejects each when it builds the type (`MemRefType::verify`); `MemplanParser`
rejects them where they are written, with what was expected.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    Builtin,
    ComplexType,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    UnrankedMemRefType,
    VectorType,
)
from xdsl.ir import Attribute

_BUILTIN = frozenset(Builtin.attributes)


def _builtin(attribute: Attribute) -> bool:
    return type(attribute) in _BUILTIN


def _element_problem(element: Attribute) -> str | None:
    """MLIR's `BaseMemRefType::isValidElementType`: a number, vector, memref
    or a type of another dialect than builtin."""
    if isinstance(
        element,
        IntegerType
        | IndexType
        | AnyFloat
        | ComplexType
        | VectorType
        | MemRefType
        | UnrankedMemRefType,
    ) or not _builtin(element):
        return None
    return (
        f"invalid memref element type {element}: expected an integer, index, "
        "float, complex, vector or memref type"
    )


def _memory_space_problem(space: Attribute) -> str | None:
    """MLIR's `isSupportedMemorySpace`: none, an integer, a string, a
    dictionary, or an attribute of another dialect than builtin."""
    if isinstance(
        space, NoneAttr | IntegerAttr | StringAttr | DictionaryAttr
    ) or not _builtin(space):
        return None
    return (
        f"unsupported memory space {space}: expected an integer, a string, a "
        "dictionary or an attribute of another dialect than builtin"
    )


_INT64_MAX = 2**63 - 1


def _shape_problem(type_: MemRefType) -> str | None:
    """A static size MLIR cannot hold (it reads sizes into 64 bits)."""
    for dim, size in enumerate(type_.get_shape()):
        if size > _INT64_MAX:
            return (
                f"invalid dimension {size} (dimension {dim}): expected a size of "
                f"at most {_INT64_MAX}"
            )
    return None


def _layout_problem(type_: MemRefType) -> str | None:
    """MLIR's `verifyLayout`: one stride per dimension, or an affine map
    with one input per dimension; and a static stride or offset is a 64-bit
    integer other than the one MLIR reserves for `?` (-2^63)."""
    rank = type_.get_num_dims()
    layout = type_.layout
    if isinstance(layout, StridedLayoutAttr):
        if len(layout.strides) != rank:
            return (
                f"expected the number of strides to match the rank: {layout} has "
                f"{len(layout.strides)} stride(s) for {rank} dimension(s)"
            )
        for value in (*layout.get_strides(), layout.get_offset()):
            if value is not None and not -_INT64_MAX <= value <= _INT64_MAX:
                return (
                    f"{layout}: {value} is no stride or offset, expected a 64-bit "
                    f"signed integer other than {-_INT64_MAX - 1}, or '?'"
                )
    if isinstance(layout, AffineMapAttr) and layout.data.num_dims != rank:
        return (
            f"memref layout mismatch between rank and affine map: {layout} takes "
            f"{layout.data.num_dims} dimension(s), the memref has {rank}"
        )
    return None


def memref_type_problem(type_: MemRefType | UnrankedMemRefType) -> str | None:
    """What MLIR's verifier says is wrong with `type_`, or None."""
    problem = _element_problem(type_.element_type) or _memory_space_problem(
        type_.memory_space
    )
    if problem is None and isinstance(type_, MemRefType):
        problem = _shape_problem(type_) or _layout_problem(type_)
    return problem

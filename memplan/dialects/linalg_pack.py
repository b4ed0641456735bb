"""`linalg.pack` and `linalg.unpack`: MLIR's relayout ops, on tensors or
memrefs (MLIR 20261001 accepts both).

`pack` tiles `inner_dims_pos` of its source by `inner_tiles` (static or
`index` values) into the trailing dimensions of its dest, optionally
permutes the outer dimensions (`outer_dims_perm`) and pads a partial last
tile with `padding_value`; `unpack` undoes it (a partial last tile is cut).
memplan-run computes both on memrefs as MLIR's loops over the dest do
(memplan/interpreter/linalg_impl.py).

The verifier has MLIR's rules: a result of the dest's type on tensors and
none on memrefs, no tensor/memref mix, no zero tile, `inner_dims_pos` and
`outer_dims_perm` distinct positions in range, `outer_dims_perm` empty or a
full permutation, one tile per position, at most one per dimension, the
packed rank that of the unpacked type plus the tiles, each static tile the
size of its packed dimension and each dynamic tile a dynamic one, the
packed shape MLIR infers (outer sizes rounded up, `?` where a tile or a size
is) compatible with the written one, for `pack` a padding value of the
source's element type and one whenever a static size is not a multiple of
its tile.  With a dynamic tile MLIR divides the source size by the dest's
outer size instead (`PackOp::requirePaddingValue`); memplan does the same.
Source and dest element types may differ, as in MLIR (its lowering then
fails; memplan-run refuses it).  One more rule than MLIR: `inner_tiles`
holds one value per `?` of `static_inner_tiles` (MLIR crashes on fewer and
drops extra ones when it prints).

Custom syntax as MLIR's: `linalg.pack %src padding_value(%p : f32)
outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, %t] into
%dest {attrs} : T -> U` (no `padding_value` for unpack).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
    IndexType,
    MemRefType,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import element_type, shape_of, tensor_results

__all__ = ["PackOp", "UnPackOp", "packed_shape"]

_HIDDEN = frozenset({"operandSegmentSizes"})
"""Left out of the custom form's attribute dictionary, as MLIR does (its
parser puts this one on `unpack` too, as a discardable attribute)."""


def _show(shape: Sequence[int]) -> str:
    return "x".join("?" if n == DYNAMIC_INDEX else str(n) for n in shape)


def _invalid_positions(positions: Sequence[int], rank: int) -> bool:
    return len(set(positions)) != len(positions) or any(
        not 0 <= p < rank for p in positions
    )


def packed_shape(
    unpacked: Sequence[int],
    tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int],
) -> tuple[int, ...]:
    """The packed shape of `unpacked`: each tiled size divided by its tile,
    rounded up (`DYNAMIC_INDEX` when either is), the outer sizes permuted,
    then the tiles."""
    outer = list(unpacked)
    for position, tile in zip(inner_dims_pos, tiles, strict=True):
        if outer[position] == DYNAMIC_INDEX:
            continue
        outer[position] = (
            DYNAMIC_INDEX if tile == DYNAMIC_INDEX else -(-outer[position] // tile)
        )
    if outer_dims_perm:
        outer = [outer[p] for p in outer_dims_perm]
    return (*outer, *tiles)


class _RelayoutOp(IRDLOperation):
    """What pack and unpack share: their checks and custom syntax."""

    PACKS: ClassVar[bool]
    """Whether the source is the unpacked side (pack) or the packed one."""

    if TYPE_CHECKING:  # the fields each op defines (IRDL reads no annotations)
        source: SSAValue
        dest: SSAValue
        inner_tiles: Sequence[SSAValue]
        outer_dims_perm: DenseArrayBase[I64] | None
        inner_dims_pos: DenseArrayBase[I64]
        static_inner_tiles: DenseArrayBase[I64]

    @property
    def inputs(self) -> tuple[SSAValue]:
        return (self.source,)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.dest,)

    def padding(self) -> SSAValue | None:
        return None

    def perm(self) -> tuple[int, ...]:
        """`outer_dims_perm`, empty when not given."""
        perm = self.outer_dims_perm
        return () if perm is None else tuple(perm.get_values())

    def positions(self) -> tuple[int, ...]:
        return tuple(self.inner_dims_pos.get_values())

    def static_tiles(self) -> tuple[int, ...]:
        return tuple(self.static_inner_tiles.get_values())

    def unpacked_and_packed(self) -> tuple[Attribute, Attribute]:
        if self.PACKS:
            return self.source.type, self.dest.type
        return self.dest.type, self.source.type

    def verify_(self) -> None:
        tiles = self.static_tiles()
        verify_dynamic_index_list(
            tiles, self.inner_tiles, DYNAMIC_INDEX, f" in {self.name} inner_tiles"
        )
        if list(self.result_types) != tensor_results((self.dest,)):
            raise VerifyException(
                f"{self.name} must have one result of the dest's type on tensors "
                f"and none on memrefs, got ({', '.join(map(str, self.result_types))})"
            )
        if isinstance(self.source.type, TensorType) != isinstance(
            self.dest.type, TensorType
        ):
            raise VerifyException(
                f"{self.name} mixes tensor and buffer semantics: source "
                f"{self.source.type}, dest {self.dest.type}"
            )
        if 0 in tiles:
            raise VerifyException(f"{self.name} has a zero tile: {_list(tiles)}")
        unpacked_type, packed_type = self.unpacked_and_packed()
        unpacked, packed = shape_of(unpacked_type), shape_of(packed_type)
        self._verify_positions(len(unpacked), len(tiles))
        if len(packed) != len(unpacked) + len(tiles):
            raise VerifyException(
                f"{self.name} packed rank {len(packed)} is not the unpacked rank "
                f"plus the number of tiles ({len(unpacked)} + {len(tiles)})"
            )
        for index, (size, tile) in enumerate(
            zip(packed[len(unpacked) :], tiles, strict=True)
        ):
            if size != tile:
                raise VerifyException(
                    f"{self.name} tile {index} is {_tile(tile)} but the packed "
                    f"dimension it sizes is {_tile(size)}"
                )
        expected = packed_shape(unpacked, tiles, self.positions(), self.perm())
        if any(
            a != b and DYNAMIC_INDEX not in (a, b)
            for a, b in zip(expected, packed, strict=True)
        ):
            raise VerifyException(
                f"{self.name} packed shape {_show(packed)} is not the one the "
                f"unpacked shape {_show(unpacked)} packs to: {_show(expected)}"
            )
        self._verify_padding(unpacked, packed)

    def _verify_positions(self, rank: int, num_tiles: int) -> None:
        positions, perm = self.positions(), self.perm()
        if _invalid_positions(positions, rank):
            raise VerifyException(
                f"{self.name} inner_dims_pos {_list(positions)} must be distinct "
                f"dimensions of the unpacked rank {rank}"
            )
        if _invalid_positions(perm, rank):
            raise VerifyException(
                f"{self.name} outer_dims_perm {_list(perm)} must be distinct "
                f"dimensions of the unpacked rank {rank}"
            )
        if perm and len(perm) != rank:
            raise VerifyException(
                f"{self.name} outer_dims_perm {_list(perm)} must be empty or a "
                f"permutation of the {rank} unpacked dimensions"
            )
        if num_tiles > rank:
            raise VerifyException(
                f"{self.name} has {num_tiles} tiles, more than the unpacked rank {rank}"
            )
        if num_tiles != len(positions):
            raise VerifyException(
                f"{self.name} has {num_tiles} tiles for {len(positions)} "
                "inner_dims_pos, expected one per position"
            )

    def _verify_padding(self, unpacked: Sequence[int], packed: Sequence[int]) -> None:
        """Pack's rules on its padding value (none for unpack)."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        padding = self.padding()
        if padding is not None:
            printer.print_string(" padding_value(")
            printer.print_ssa_value(padding)
            printer.print_string(" : ")
            printer.print_attribute(padding.type)
            printer.print_string(")")
        if self.perm():
            printer.print_string(f" outer_dims_perm = {_list(self.perm())}")
        printer.print_string(f" inner_dims_pos = {_list(self.positions())}")
        printer.print_string(" inner_tiles = ")
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, self.inner_tiles, self.static_tiles()
        )
        printer.print_string(" into ")
        printer.print_ssa_value(self.dest)
        shown = {k: v for k, v in self.attributes.items() if k not in _HIDDEN}
        if shown:
            printer.print_string(" ")
            printer.print_attr_dict(shown)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        padding: list[SSAValue] = []
        if cls.PACKS and parser.parse_optional_keyword("padding_value"):
            parser.parse_punctuation("(")
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding.append(parser.resolve_operand(value, parser.parse_type()))
            parser.parse_punctuation(")")
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("outer_dims_perm"):
            properties["outer_dims_perm"] = _parse_integers(parser)
        parser.parse_keyword("inner_dims_pos", f" in {cls.name}")
        properties["inner_dims_pos"] = _parse_integers(parser)
        parser.parse_keyword("inner_tiles", f" in {cls.name}")
        parser.parse_punctuation("=")
        tiles, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        properties["static_inner_tiles"] = DenseArrayBase.from_list(i64, static)
        parser.parse_keyword("into", f" in {cls.name}")
        dest = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        dest_type = parser.parse_type()
        operands = [
            [parser.resolve_operand(source, source_type)],
            [parser.resolve_operand(dest, dest_type)],
            *([padding] if cls.PACKS else []),
            _resolve_indices(parser, tiles),
        ]
        if cls.PACKS:
            properties["operandSegmentSizes"] = DenseArrayBase.from_list(
                i32, [len(group) for group in operands]
            )
        return cls.create(
            operands=[value for group in operands for value in group],
            result_types=[t for t in (dest_type,) if isinstance(t, TensorType)],
            properties=properties,
            attributes=attributes,
        )


def _list(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _tile(size: int) -> str:
    return "?" if size == DYNAMIC_INDEX else str(size)


def _parse_integers(parser: Parser) -> DenseArrayBase:
    """`= [1, 0]`: a custom form's `DenseI64ArrayAttr`."""
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_integer
    )
    return DenseArrayBase.from_list(i64, values)


def _resolve_indices(
    parser: Parser, values: Sequence[UnresolvedOperand]
) -> list[SSAValue]:
    return [parser.resolve_operand(value, IndexType()) for value in values]


@irdl_op_definition
class PackOp(_RelayoutOp):
    """dest = source tiled, its outer dimensions permuted, padded."""

    name = "linalg.pack"
    PACKS: ClassVar[bool] = True

    source = operand_def(base(MemRefType) | base(TensorType))
    dest = operand_def(base(MemRefType) | base(TensorType))
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    result = var_result_def(TensorType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def padding(self) -> SSAValue | None:
        return self.padding_value

    def _verify_padding(self, unpacked: Sequence[int], packed: Sequence[int]) -> None:
        padding = self.padding_value
        wanted = element_type(self.source.type)
        if padding is not None and padding.type != wanted:
            raise VerifyException(
                f"linalg.pack padding_value must be of the source's element type "
                f"{wanted}, got {padding.type}"
            )
        if padding is None and self._partial_tile(unpacked, packed):
            raise VerifyException(
                "linalg.pack without padding_value must fill whole tiles: a "
                "static size is not a multiple of its tile (or, with a dynamic "
                "tile, of the dest's outer size, as MLIR checks)"
            )

    def _partial_tile(self, unpacked: Sequence[int], packed: Sequence[int]) -> bool:
        """MLIR's `PackOp::requirePaddingValue`."""
        outer = list(packed[: len(unpacked)])
        perm = self.perm()
        if perm:
            unpermuted = [0] * len(outer)
            for position, dimension in enumerate(perm):
                unpermuted[dimension] = outer[position]
            outer = unpermuted
        for position, tile in zip(self.positions(), self.static_tiles(), strict=True):
            size = unpacked[position]
            if size == DYNAMIC_INDEX:
                continue
            divisor = outer[position] if tile == DYNAMIC_INDEX else tile
            if divisor != DYNAMIC_INDEX and size % divisor:
                return True
        return False


@irdl_op_definition
class UnPackOp(_RelayoutOp):
    """dest = source's tiles put back in place, a partial last tile cut."""

    name = "linalg.unpack"
    PACKS: ClassVar[bool] = False

    source = operand_def(base(MemRefType) | base(TensorType))
    dest = operand_def(base(MemRefType) | base(TensorType))
    inner_tiles = var_operand_def(IndexType)
    result = var_result_def(TensorType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))

"""MLIR's Winograd convolution steps: `linalg.winograd_filter_transform`,
`winograd_input_transform` and `winograd_output_transform`.

MLIR defines them on tensors only (`transform.structured.winograd_conv2d`
makes them from a `conv_2d_nhwc_fhwc`, `decompose_winograd_op` turns them
into matmuls with fixed G, B and A matrices, before bufferization), so
memplan parses, verifies and prints them and memplan-run, which runs
memrefs, never meets them.

`fmr` picks F(m, r), m outputs per tile of an r-wide filter: F_2_3, F_4_3 or
F_2_5 (0, 1, 2 in the generic form); a tile is alpha = m + r - 1 wide.
Shapes (each transform is skipped along a dimension of size 1):

- filter: (F, H, W, C) -> (alphaH, alphaW, C, F), H and W either r or 1;
- input: (N, H, W, C) -> (alphaH, alphaW, tileH, tileW, N, C), with
  tile = (size - (r - 1)) / m where the dimension is transformed;
- output: (alphaH, alphaW, tileH, tileW, N, F) -> (N, m * tileH, m * tileW, F),
  alpha either m + r - 1 or 1.

The verifier has MLIR's rules: ranks, one element type, one result of the
output's type, a known `fmr`, and the shapes above, compared as MLIR does
(`?` matches anything, a dynamic filter size is neither r nor 1).  Custom
syntax as MLIR's: `linalg.winograd_filter_transform {attrs} fmr(F_4_3)
ins(%f : T) outs(%o : U) -> U`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, I32, IntegerAttr, TensorType, i32
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import element_type, parse_one_in_one_out

__all__ = [
    "WinogradFilterTransformOp",
    "WinogradInputTransformOp",
    "WinogradOutputTransformOp",
]

FMRS: tuple[tuple[str, int, int], ...] = (
    ("F_2_3", 2, 3),
    ("F_4_3", 4, 3),
    ("F_2_5", 2, 5),
)
"""MLIR's WinogradConv2DFmr cases in order of their value: (name, m, r)."""


def _compatible(expected: Sequence[int], shape: Sequence[int]) -> bool:
    return all(
        a == b or DYNAMIC_INDEX in (a, b) for a, b in zip(expected, shape, strict=True)
    )


def _show(shape: Sequence[int]) -> str:
    return "x".join("?" if n == DYNAMIC_INDEX else str(n) for n in shape)


class _WinogradOp(IRDLOperation, ABC):
    """What the three transforms share: operands, checks, custom syntax."""

    RANKS: ClassVar[tuple[int, int]]
    """The ranks of the input and of the output."""

    fmr = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)

    def m_and_r(self) -> tuple[int, int]:
        _, m, r = FMRS[self.fmr.value.data]
        return m, r

    def shapes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        source, output = self.operands
        assert isinstance(source.type, TensorType)
        assert isinstance(output.type, TensorType)
        return tuple(source.type.get_shape()), tuple(output.type.get_shape())

    def verify_(self) -> None:
        source, output = self.operands
        for index, (value, rank) in enumerate(
            zip(self.operands, self.RANKS, strict=True)
        ):
            assert isinstance(value.type, TensorType)
            if len(value.type.get_shape()) != rank:
                raise VerifyException(
                    f"{self.name} operand {index} must be a {rank}-d tensor, got "
                    f"{value.type}"
                )
        if element_type(source.type) != element_type(output.type):
            raise VerifyException(
                f"{self.name} input and output must have one element type, got "
                f"{source.type} and {output.type}"
            )
        if self.result.type != output.type:
            raise VerifyException(
                f"{self.name} result must have the output's type {output.type}, got "
                f"{self.result.type}"
            )
        if not 0 <= self.fmr.value.data < len(FMRS):
            raise VerifyException(
                f"{self.name} fmr {self.fmr.value.data} is none of MLIR's "
                f"{', '.join(f'{name} ({value})' for value, (name, _, _) in enumerate(FMRS))}"
            )
        expected = self.expected_output_shape()
        shape = self.shapes()[1]
        if not _compatible(expected, shape):
            raise VerifyException(
                f"{self.name} output shape {_show(shape)} is not the expected "
                f"{_show(expected)}"
            )

    @abstractmethod
    def expected_output_shape(self) -> tuple[int, ...]:
        """The output shape MLIR expects (checking the input on the way)."""

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(f" fmr({FMRS[self.fmr.value.data][0]}) ins(")
        source, output = self.operands
        printer.print_ssa_value(source)
        printer.print_string(" : ")
        printer.print_attribute(source.type)
        printer.print_string(") outs(")
        printer.print_ssa_value(output)
        printer.print_string(" : ")
        printer.print_attribute(output.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        parser.parse_keyword("fmr", f" in {cls.name}")
        parser.parse_punctuation("(")
        at = parser.pos
        name = parser.parse_identifier(" (F_2_3, F_4_3 or F_2_5)")
        names = [fmr[0] for fmr in FMRS]
        if name not in names:
            parser.raise_error(
                f"{cls.name} fmr must be one of {', '.join(names)}, got {name}",
                at,
                parser.pos,
            )
        parser.parse_punctuation(")")
        values = parse_one_in_one_out(parser, cls.name)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=values,
            result_types=[result_type],
            properties={"fmr": IntegerAttr(names.index(name), i32)},
            attributes=attributes,
        )


@irdl_op_definition
class WinogradFilterTransformOp(_WinogradOp):
    """(F, H, W, C) filter -> (alphaH, alphaW, C, F) G g G^T tiles."""

    name = "linalg.winograd_filter_transform"
    RANKS: ClassVar[tuple[int, int]] = (4, 4)

    filter = operand_def(base(TensorType))
    output = operand_def(base(TensorType))

    def expected_output_shape(self) -> tuple[int, ...]:
        (f, h, w, c), _ = self.shapes()
        m, r = self.m_and_r()
        for what, size in (("height", h), ("width", w)):
            if size not in (r, 1):
                raise VerifyException(
                    f"{self.name} filter {what} must be r ({r}) or 1, got "
                    f"{_show([size])}"
                )
        if h == w == 1:
            raise VerifyException(
                f"{self.name} filter height or width must be r ({r}), got 1x1"
            )
        alpha = m + r - 1
        return (alpha if h == r else 1, alpha if w == r else 1, c, f)


@irdl_op_definition
class WinogradInputTransformOp(_WinogradOp):
    """(N, H, W, C) input -> (alphaH, alphaW, tileH, tileW, N, C) B^T d B tiles."""

    name = "linalg.winograd_input_transform"
    RANKS: ClassVar[tuple[int, int]] = (4, 6)

    input = operand_def(base(TensorType))
    output = operand_def(base(TensorType))

    def expected_output_shape(self) -> tuple[int, ...]:
        (n, h, w, c), output = self.shapes()
        m, r = self.m_and_r()
        alpha = m + r - 1
        sizes: list[int] = []
        tiles: list[int] = []
        for size, transformed in ((h, output[0] != 1), (w, output[1] != 1)):
            if size == DYNAMIC_INDEX:
                sizes.append(alpha)
                tiles.append(DYNAMIC_INDEX)
            else:
                sizes.append(alpha if transformed else 1)
                tiles.append((size - (r - 1)) // m if transformed else size)
        return (*sizes, *tiles, n, c)


@irdl_op_definition
class WinogradOutputTransformOp(_WinogradOp):
    """(alphaH, alphaW, tileH, tileW, N, F) -> (N, H, W, F) A^T y A tiles."""

    name = "linalg.winograd_output_transform"
    RANKS: ClassVar[tuple[int, int]] = (6, 4)

    value = operand_def(base(TensorType))
    output = operand_def(base(TensorType))

    def expected_output_shape(self) -> tuple[int, ...]:
        (alpha_h, alpha_w, tile_h, tile_w, n, f), _ = self.shapes()
        m, r = self.m_and_r()
        sizes: list[int] = []
        for what, alpha, tiles in (
            ("height", alpha_h, tile_h),
            ("width", alpha_w, tile_w),
        ):
            if DYNAMIC_INDEX in (alpha, tiles):
                sizes.append(DYNAMIC_INDEX)
                continue
            transformed = alpha != 1
            if alpha != (m + r - 1 if transformed else 1):
                raise VerifyException(
                    f"{self.name} input {what} {alpha} must be the tile size "
                    f"{m + r - 1} (or 1)"
                )
            sizes.append((m if transformed else 1) * tiles)
        return (n, *sizes, f)

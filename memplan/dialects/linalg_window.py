"""linalg's sliding-window ops: the convolutions and the poolings, each
defined by the names of its loops (SlidingWindowOperation's DIMS).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import (
    HiddenBodyOperation,
    binary_scalar,
    body_arg_types,
    cast_scalar,
    mac_body,
)

__all__ = [
    "Conv1DNcwFcwOp",
    "Conv1DNwcWcfOp",
    "Conv1DOp",
    "Conv2DNchwFchwOp",
    "Conv2DNgchwFgchwOp",
    "Conv2DNgchwGfchwOp",
    "Conv2DNhwc_FhwcOp",
    "Conv2DNhwc_HwcfOp",
    "Conv2DNhwgcGfhwcOp",
    "Conv2DOp",
    "Conv3DNcdhwFcdhwOp",
    "Conv3DNdhwcDhwcfOp",
    "Conv3DOp",
    "ConvolutionOperation",
    "DepthwiseConv1DNcwCwOp",
    "DepthwiseConv1DNwcWcOp",
    "DepthwiseConv1DNwcWcmOp",
    "DepthwiseConv2DNchwChwOp",
    "DepthwiseConv2DNhwcHwcOp",
    "DepthwiseConv2DNhwcHwcmOp",
    "DepthwiseConv3DNcdhwCdhwOp",
    "DepthwiseConv3DNdhwcDhwcOp",
    "DepthwiseConv3DNdhwcDhwcmOp",
    "PoolingNchwMaxOp",
    "PoolingNchwSumOp",
    "PoolingNcwMaxOp",
    "PoolingNcwSumOp",
    "PoolingNdhwcMaxOp",
    "PoolingNdhwcMinOp",
    "PoolingNdhwcSumOp",
    "PoolingNhwcMaxOp",
    "PoolingNhwcMaxUnsignedOp",
    "PoolingNhwcMinOp",
    "PoolingNhwcMinUnsignedOp",
    "PoolingNhwcSumOp",
    "PoolingNwcMaxOp",
    "PoolingNwcMaxUnsignedOp",
    "PoolingNwcMinOp",
    "PoolingNwcMinUnsignedOp",
    "PoolingNwcSumOp",
    "PoolingOperation",
    "SlidingWindowOperation",
    "UnitStrideConvolutionOperation",
    "WindowOperation",
]


MEMOIZED_MAPS = "linalg.memoized_indexing_maps"
"""The attribute in which MLIR caches a named op's indexing maps."""


def _verify_memoized_maps(op: HiddenBodyOperation) -> None:
    """MLIR reads the maps of a convolution or pooling (whose maps depend on
    its strides and dilations) from `linalg.memoized_indexing_maps` when the
    op has it (torch-mlir's output does), and verifies and computes with
    those; memplan computes with the op's definition.  Maps that differ from
    it would make the two compute different things, or MLIR reject the
    module, so they are an error."""
    memoized = op.attributes.get(MEMOIZED_MAPS)
    if memoized is None:
        return
    defined = [str(map_.data) for map_ in op.get_indexing_maps()]
    if (
        not isinstance(memoized, ArrayAttr)
        or [str(getattr(map_, "data", map_)) for map_ in memoized] != defined
    ):
        raise VerifyException(
            f"{op.name}: {MEMOIZED_MAPS} {memoized} are not the op's indexing "
            f"maps [{', '.join(defined)}]: MLIR would read the op with them"
        )


class SlidingWindowOperation(HiddenBodyOperation, ABC):
    """Convolutions and poolings, defined by the names of their loops.

    DIMS gives the loops (in MLIR's order) and, per operand, its indices:
    `oh+kh` is a window index `oh * stride + kh * dilation`, the i-th such
    index of the input using the i-th stride and dilation (all 1 unless the op
    is a `WindowOperation`).  Loops that index the output are parallel, the
    others are reduced."""

    DIMS: ClassVar[tuple[str, ...]]
    """(loops, input indices, filter or window indices, output indices); a
    quantized convolution has its two zero points, scalars indexed by "",
    before the output."""

    @classmethod
    def window_rank(cls) -> int:
        return cls.DIMS[1].count("+")

    def stride_values(self) -> tuple[int, ...]:
        return (1,) * self.window_rank()

    def dilation_values(self) -> tuple[int, ...]:
        return (1,) * self.window_rank()

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.get_indexing_maps())

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return _window_maps(self.DIMS, self.stride_values(), self.dilation_values())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        output = self.DIMS[-1].split()
        return ArrayAttr(
            IteratorTypeAttr.parallel()
            if loop in output
            else IteratorTypeAttr.reduction()
            for loop in self.DIMS[0].split()
        )

    @classmethod
    def input_count(cls) -> int | None:
        return len(cls.DIMS) - 2

    def verify_(self) -> None:
        self.check_operand_counts(self.inputs, self.outputs)
        super().verify_()


class WindowOperation(SlidingWindowOperation, ABC):
    """A sliding-window op with `strides` and `dilations` (each 1 by default,
    as in MLIR)."""

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        strides: Sequence[int] | DenseIntElementsAttr | None = None,
        dilations: Sequence[int] | DenseIntElementsAttr | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            res,
            attributes,
            properties={
                "strides": _window_attr(strides),
                "dilations": _window_attr(dilations),
            },
        )

    def stride_values(self) -> tuple[int, ...]:
        return _window_values(self.strides, self.window_rank())

    def dilation_values(self) -> tuple[int, ...]:
        return _window_values(self.dilations, self.window_rank())

    def verify_(self) -> None:
        _verify_memoized_maps(self)
        rank = self.window_rank()
        for name, attr in (("strides", self.strides), ("dilations", self.dilations)):
            if attr is None:
                continue
            values = attr.get_values()
            if len(values) != rank or any(v < 1 for v in values):
                raise VerifyException(
                    f"{self.name} {name} must be {rank} positive integer(s), one per "
                    f"window dimension, got {list(values)}"
                )
        super().verify_()


@lru_cache(maxsize=1024)
def _window_maps(
    dims: tuple[str, ...],
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
) -> ArrayAttr[AffineMapAttr]:
    """The indexing maps of a sliding-window op (see SlidingWindowOperation)."""
    loops, *operands = dims
    loop_dims = {name: AffineDimExpr(i) for i, name in enumerate(loops.split())}
    window = iter(zip(strides, dilations, strict=True))
    maps: list[AffineMapAttr] = []
    for indices in operands:
        exprs: list[AffineExpr] = []
        for index in indices.split():
            if "+" in index:
                outer, inner = index.split("+")
                stride, dilation = next(window)
                exprs.append(loop_dims[outer] * stride + loop_dims[inner] * dilation)
            else:
                exprs.append(loop_dims[index])
        maps.append(AffineMapAttr(AffineMap(len(loop_dims), 0, tuple(exprs))))
    return ArrayAttr(maps)


def _window_attr(
    values: Sequence[int] | DenseIntElementsAttr | None,
) -> DenseIntElementsAttr | None:
    if values is None or isinstance(values, DenseIntOrFPElementsAttr):
        return values
    return DenseIntOrFPElementsAttr.from_list(VectorType(i64, [len(values)]), values)


def _window_values(attr: DenseIntElementsAttr | None, rank: int) -> tuple[int, ...]:
    if attr is None:
        return (1,) * rank
    return tuple(int(v) for v in attr.get_values())


class ConvolutionOperation(WindowOperation, ABC):
    """out += cast(input) * cast(filter) over the window."""

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)


class UnitStrideConvolutionOperation(SlidingWindowOperation, ABC):
    """`conv_1d`/`conv_2d`/`conv_3d`: no batch or channels, unit strides."""

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)


class PoolingOperation(WindowOperation, ABC):
    """out = KIND(out, cast(input)) over the window; the window operand only
    gives the window's shape."""

    KIND: ClassVar[str]
    """add, max, min, max_unsigned or min_unsigned (MLIR's BinaryFn)."""

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = body_arg_types((*inputs, *outputs))
        unsigned = cls.KIND.endswith("_unsigned")

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            value = cast_scalar(args[0], arg_types[-1], unsigned=unsigned)
            YieldOp(binary_scalar(cls.KIND, args[-1], value))

        return body


_NCHW_FCHW = ("n f oh ow c kh kw", "n c oh+kh ow+kw", "f c kh kw", "n f oh ow")
_NHWC_HWCF = ("n oh ow f kh kw c", "n oh+kh ow+kw c", "kh kw c f", "n oh ow f")
_POOL_NCHW = ("n c oh ow kh kw", "n c oh+kh ow+kw", "kh kw", "n c oh ow")
_POOL_NHWC = ("n oh ow c kh kw", "n oh+kh ow+kw c", "kh kw", "n oh ow c")
_POOL_NCW = ("n c ow kw", "n c ow+kw", "kw", "n c ow")
_POOL_NWC = ("n ow c kw", "n ow+kw c", "kw", "n ow c")
_POOL_NDHWC = (
    "n od oh ow c kd kh kw",
    "n od+kd oh+kh ow+kw c",
    "kd kh kw",
    "n od oh ow c",
)


@irdl_op_definition
class Conv1DOp(UnitStrideConvolutionOperation):
    name = "linalg.conv_1d"
    DIMS: ClassVar[tuple[str, str, str, str]] = ("ow kw", "ow+kw", "kw", "ow")


@irdl_op_definition
class Conv2DOp(UnitStrideConvolutionOperation):
    name = "linalg.conv_2d"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "oh ow kh kw",
        "oh+kh ow+kw",
        "kh kw",
        "oh ow",
    )


@irdl_op_definition
class Conv3DOp(UnitStrideConvolutionOperation):
    name = "linalg.conv_3d"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "od oh ow kd kh kw",
        "od+kd oh+kh ow+kw",
        "kd kh kw",
        "od oh ow",
    )


@irdl_op_definition
class Conv1DNcwFcwOp(ConvolutionOperation):
    name = "linalg.conv_1d_ncw_fcw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n f ow c kw",
        "n c ow+kw",
        "f c kw",
        "n f ow",
    )


@irdl_op_definition
class Conv1DNwcWcfOp(ConvolutionOperation):
    name = "linalg.conv_1d_nwc_wcf"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n ow f kw c",
        "n ow+kw c",
        "kw c f",
        "n ow f",
    )


@irdl_op_definition
class Conv2DNchwFchwOp(ConvolutionOperation):
    name = "linalg.conv_2d_nchw_fchw"
    DIMS: ClassVar[tuple[str, str, str, str]] = _NCHW_FCHW


@irdl_op_definition
class Conv2DNhwc_HwcfOp(ConvolutionOperation):
    name = "linalg.conv_2d_nhwc_hwcf"
    DIMS: ClassVar[tuple[str, str, str, str]] = _NHWC_HWCF


@irdl_op_definition
class Conv2DNhwc_FhwcOp(ConvolutionOperation):
    name = "linalg.conv_2d_nhwc_fhwc"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n oh ow f kh kw c",
        "n oh+kh ow+kw c",
        "f kh kw c",
        "n oh ow f",
    )


@irdl_op_definition
class Conv2DNgchwFgchwOp(ConvolutionOperation):
    name = "linalg.conv_2d_ngchw_fgchw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n g f oh ow c kh kw",
        "n g c oh+kh ow+kw",
        "f g c kh kw",
        "n g f oh ow",
    )


@irdl_op_definition
class Conv2DNgchwGfchwOp(ConvolutionOperation):
    name = "linalg.conv_2d_ngchw_gfchw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n g f oh ow c kh kw",
        "n g c oh+kh ow+kw",
        "g f c kh kw",
        "n g f oh ow",
    )


@irdl_op_definition
class Conv2DNhwgcGfhwcOp(ConvolutionOperation):
    name = "linalg.conv_2d_nhwgc_gfhwc"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n oh ow g f kh kw c",
        "n oh+kh ow+kw g c",
        "g f kh kw c",
        "n oh ow g f",
    )


@irdl_op_definition
class Conv3DNcdhwFcdhwOp(ConvolutionOperation):
    name = "linalg.conv_3d_ncdhw_fcdhw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n f od oh ow c kd kh kw",
        "n c od+kd oh+kh ow+kw",
        "f c kd kh kw",
        "n f od oh ow",
    )


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(ConvolutionOperation):
    name = "linalg.conv_3d_ndhwc_dhwcf"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n od oh ow f kd kh kw c",
        "n od+kd oh+kh ow+kw c",
        "kd kh kw c f",
        "n od oh ow f",
    )


@irdl_op_definition
class DepthwiseConv1DNcwCwOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_1d_ncw_cw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n ow c kw",
        "n c ow+kw",
        "c kw",
        "n c ow",
    )


@irdl_op_definition
class DepthwiseConv1DNwcWcOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_1d_nwc_wc"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n ow c kw",
        "n ow+kw c",
        "kw c",
        "n ow c",
    )


@irdl_op_definition
class DepthwiseConv1DNwcWcmOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_1d_nwc_wcm"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n ow c m kw",
        "n ow+kw c",
        "kw c m",
        "n ow c m",
    )


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_2d_nchw_chw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n oh ow c kh kw",
        "n c oh+kh ow+kw",
        "c kh kw",
        "n c oh ow",
    )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n oh ow c kh kw",
        "n oh+kh ow+kw c",
        "kh kw c",
        "n oh ow c",
    )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_2d_nhwc_hwcm"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n oh ow c m kh kw",
        "n oh+kh ow+kw c",
        "kh kw c m",
        "n oh ow c m",
    )


@irdl_op_definition
class DepthwiseConv3DNcdhwCdhwOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_3d_ncdhw_cdhw"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n od oh ow kd kh kw c",
        "n c od+kd oh+kh ow+kw",
        "c kd kh kw",
        "n c od oh ow",
    )


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_3d_ndhwc_dhwc"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n od oh ow kd kh kw c",
        "n od+kd oh+kh ow+kw c",
        "kd kh kw c",
        "n od oh ow c",
    )


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcmOp(ConvolutionOperation):
    name = "linalg.depthwise_conv_3d_ndhwc_dhwcm"
    DIMS: ClassVar[tuple[str, str, str, str]] = (
        "n od oh ow m kd kh kw c",
        "n od+kd oh+kh ow+kw c",
        "kd kh kw c m",
        "n od oh ow c m",
    )


@irdl_op_definition
class PoolingNchwMaxOp(PoolingOperation):
    """out = max(out, in): xDSL 0.74 rebuilds it as max(in, window)."""

    name = "linalg.pooling_nchw_max"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NCHW
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNchwSumOp(PoolingOperation):
    name = "linalg.pooling_nchw_sum"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NCHW
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class PoolingNhwcMaxOp(PoolingOperation):
    name = "linalg.pooling_nhwc_max"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NHWC
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNhwcMaxUnsignedOp(PoolingOperation):
    name = "linalg.pooling_nhwc_max_unsigned"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NHWC
    KIND: ClassVar[str] = "max_unsigned"


@irdl_op_definition
class PoolingNhwcMinOp(PoolingOperation):
    name = "linalg.pooling_nhwc_min"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NHWC
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class PoolingNhwcMinUnsignedOp(PoolingOperation):
    name = "linalg.pooling_nhwc_min_unsigned"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NHWC
    KIND: ClassVar[str] = "min_unsigned"


@irdl_op_definition
class PoolingNhwcSumOp(PoolingOperation):
    name = "linalg.pooling_nhwc_sum"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NHWC
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class PoolingNcwMaxOp(PoolingOperation):
    name = "linalg.pooling_ncw_max"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NCW
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNcwSumOp(PoolingOperation):
    name = "linalg.pooling_ncw_sum"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NCW
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class PoolingNwcMaxOp(PoolingOperation):
    name = "linalg.pooling_nwc_max"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NWC
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNwcMaxUnsignedOp(PoolingOperation):
    name = "linalg.pooling_nwc_max_unsigned"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NWC
    KIND: ClassVar[str] = "max_unsigned"


@irdl_op_definition
class PoolingNwcMinOp(PoolingOperation):
    name = "linalg.pooling_nwc_min"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NWC
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class PoolingNwcMinUnsignedOp(PoolingOperation):
    name = "linalg.pooling_nwc_min_unsigned"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NWC
    KIND: ClassVar[str] = "min_unsigned"


@irdl_op_definition
class PoolingNwcSumOp(PoolingOperation):
    name = "linalg.pooling_nwc_sum"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NWC
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class PoolingNdhwcMaxOp(PoolingOperation):
    name = "linalg.pooling_ndhwc_max"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NDHWC
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNdhwcMinOp(PoolingOperation):
    name = "linalg.pooling_ndhwc_min"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NDHWC
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class PoolingNdhwcSumOp(PoolingOperation):
    name = "linalg.pooling_ndhwc_sum"
    DIMS: ClassVar[tuple[str, str, str, str]] = _POOL_NDHWC
    KIND: ClassVar[str] = "add"

"""MLIR's quantized named ops: `quantized_matmul`, the batched matmul and the
convolutions with zero points (`*_q`).

Each takes, after its two tensors, two scalar zero points (one for each
tensor) and accumulates `(cast(x) - cast(x_zp)) * (cast(w) - cast(w_zp))`,
every cast MLIR's `cast_signed` to the output element type, in the order
`quantized_matmul` builds it.  A convolution's loops are those of the op
without `_q`; its zero points are scalars, indexed by "" in `DIMS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition

from memplan.dialects.linalg_base import (
    HiddenBodyOperation,
    binary_scalar,
    body_arg_types,
    cast_scalar,
)
from memplan.dialects.linalg_tiled import iterators_of_output
from memplan.dialects.linalg_window import (
    Conv2DNchwFchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwc_FhwcOp,
    Conv2DNhwc_HwcfOp,
    Conv2DNhwgcGfhwcOp,
    Conv3DNdhwcDhwcfOp,
    DepthwiseConv2DNhwcHwcmOp,
    DepthwiseConv2DNhwcHwcOp,
    WindowOperation,
)

__all__ = [
    "Conv2DNchwFchwQOp",
    "Conv2DNgchwGfchwQOp",
    "Conv2DNhwcFhwcQOp",
    "Conv2DNhwcHwcfQOp",
    "Conv2DNhwgcGfhwcQOp",
    "Conv3DNdhwcDhwcfQOp",
    "DepthwiseConv2DNhwcHwcQOp",
    "DepthwiseConv2DNhwcHwcmQOp",
    "QuantizedBatchMatmulOp",
    "QuantizedConvolutionOperation",
    "QuantizedMatmulOp",
]


@irdl_op_definition
class QuantizedMatmulOp(HiddenBodyOperation):
    """C[i, j] += (cast(A[i, k]) - cast(a_zp)) * (cast(B[k, j]) - cast(b_zp))."""

    name = "linalg.quantized_matmul"

    MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda i, _, k: (i, k)),
        AffineMap.from_callable(lambda _, j, k: (k, j)),
        AffineMap(3, 0, ()),
        AffineMap(3, 0, ()),
        AffineMap.from_callable(lambda i, j, _: (i, j)),
    )

    @classmethod
    def input_count(cls) -> int | None:
        return 4

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = body_arg_types((*inputs, *outputs))
        to = arg_types[-1]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            lhs = cast_scalar(args[0], to)
            lhs = binary_scalar("sub", lhs, cast_scalar(args[2], to))
            rhs = cast_scalar(args[1], to)
            rhs = binary_scalar("sub", rhs, cast_scalar(args[3], to))
            YieldOp(binary_scalar("add", args[4], binary_scalar("mul", lhs, rhs)))

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([parallel, parallel, reduction])


@irdl_op_definition
class QuantizedBatchMatmulOp(HiddenBodyOperation):
    """C[b, i, j] += (cast(A[b, i, k]) - cast(a_zp)) * (cast(B[b, k, j]) - cast(b_zp))."""

    name = "linalg.quantized_batch_matmul"

    MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, i, _, k: (b, i, k)),
        AffineMap.from_callable(lambda b, _, j, k: (b, k, j)),
        AffineMap(4, 0, ()),
        AffineMap(4, 0, ()),
        AffineMap.from_callable(lambda b, i, j, _: (b, i, j)),
    )

    @classmethod
    def input_count(cls) -> int | None:
        return 4

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return QuantizedMatmulOp.defined_body(inputs, outputs)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return iterators_of_output(self.MAPS)


def _with_zero_points(dims: tuple[str, ...]) -> tuple[str, ...]:
    """The DIMS of a convolution, with its two scalar zero points added."""
    loops, image, filter_, output = dims
    return (loops, image, filter_, "", "", output)


class QuantizedConvolutionOperation(WindowOperation):
    """out += (cast(input) - cast(input_zp)) * (cast(filter) - cast(filter_zp))."""

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return QuantizedMatmulOp.defined_body(inputs, outputs)


@irdl_op_definition
class Conv2DNchwFchwQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_2d_nchw_fchw_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv2DNchwFchwOp.DIMS)


@irdl_op_definition
class Conv2DNhwcHwcfQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_2d_nhwc_hwcf_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv2DNhwc_HwcfOp.DIMS)


@irdl_op_definition
class Conv2DNhwcFhwcQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_2d_nhwc_fhwc_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv2DNhwc_FhwcOp.DIMS)


@irdl_op_definition
class Conv2DNgchwGfchwQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_2d_ngchw_gfchw_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv2DNgchwGfchwOp.DIMS)


@irdl_op_definition
class Conv2DNhwgcGfhwcQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_2d_nhwgc_gfhwc_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv2DNhwgcGfhwcOp.DIMS)


@irdl_op_definition
class Conv3DNdhwcDhwcfQOp(QuantizedConvolutionOperation):
    name = "linalg.conv_3d_ndhwc_dhwcf_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(Conv3DNdhwcDhwcfOp.DIMS)


@irdl_op_definition
class DepthwiseConv2DNhwcHwcQOp(QuantizedConvolutionOperation):
    name = "linalg.depthwise_conv_2d_nhwc_hwc_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(DepthwiseConv2DNhwcHwcOp.DIMS)


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmQOp(QuantizedConvolutionOperation):
    name = "linalg.depthwise_conv_2d_nhwc_hwcm_q"
    DIMS: ClassVar[tuple[str, ...]] = _with_zero_points(DepthwiseConv2DNhwcHwcmOp.DIMS)

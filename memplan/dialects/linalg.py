"""The linalg dialect memplan parses with: xDSL 0.74's, corrected and completed.

A named op's body is hidden in the custom form, so xDSL rebuilds it every time
it parses that form.  Where xDSL 0.74 builds a body differently from MLIR's
definition (`pooling_nchw_max` as max(in, window) instead of max(out, in); the
accumulator as the second operand of matmul and conv adds; no casts between
element types) a module changes meaning after a round trip.  Its named ops
build their bodies as MLIR's named-op definitions do (operand order, casts,
signedness) and verify that a body read in generic form is that body, so a
module written by a tool that got it wrong is rejected instead of silently
computed differently.

Ops that xDSL defines correctly are its own classes, re-exported: import every
linalg op from this module, never from `xdsl.dialects.linalg`, because the
interpreter dispatches on the exact class.  docs/frontend-ops.md lists what
is corrected and what is added.

This module defines fill, copy, the matmul family and map, and registers
every op in LINALG; the other ops are in modules by family, which build on
linalg_base (the helpers and base classes they share): linalg_elementwise,
linalg_window (convolutions and poolings), linalg_tiled, linalg_quantized,
linalg_reduce, linalg_softmax, linalg_pack, linalg_index, linalg_rng,
linalg_winograd, linalg_contract and linalg_bodies (`linalg.generic`,
`linalg.transpose` and `linalg.broadcast` with MLIR's checks of their
bodies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import (
    YieldOp,
)
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_attrs import ElementwiseKindAttr, TypeFnAttr
from memplan.dialects.linalg_base import (
    COMMUTATIVE_OPS,
    ContractionOperation,
    HiddenBodyOperation,
    MapsContractionOperation,
    PointwiseOperation,
    binary_scalar,
    body_arg_types,
    cast_scalar,
    describe_body,
    element_type,
    is_unsigned_cast,
    mac_body,
    parse_operands_with_types,
    parse_optional_indexing_maps,
    parse_short_form_payload,
    shape_of,
    tensor_results,
    verify_yield,
)
from memplan.dialects.linalg_bodies import BroadcastOp, GenericOp, TransposeOp
from memplan.dialects.linalg_contract import (
    BatchReduceMatmulOp,
    ContractOp,
    ElementwiseOp,
)
from memplan.dialects.linalg_elementwise import (
    AbsOp,
    AddOp,
    BinaryElementwiseOperation,
    CeilOp,
    DivOp,
    DivUnsignedOp,
    ErfOp,
    ExpOp,
    FloorOp,
    LogOp,
    MaxOp,
    MinOp,
    MulOp,
    NegFOp,
    PowFOp,
    ReciprocalOp,
    RoundOp,
    RsqrtOp,
    SelectOp,
    SqrtOp,
    SquareOp,
    SubOp,
    TanhOp,
    UnaryElementwiseOperation,
)
from memplan.dialects.linalg_index import IndexOp
from memplan.dialects.linalg_matmul_maps import verify_batch_matmul_maps
from memplan.dialects.linalg_pack import PackOp, UnPackOp
from memplan.dialects.linalg_quantized import (
    Conv2DNchwFchwQOp,
    Conv2DNgchwGfchwQOp,
    Conv2DNhwcFhwcQOp,
    Conv2DNhwcHwcfQOp,
    Conv2DNhwgcGfhwcQOp,
    Conv3DNdhwcDhwcfQOp,
    DepthwiseConv2DNhwcHwcmQOp,
    DepthwiseConv2DNhwcHwcQOp,
    QuantizedBatchMatmulOp,
    QuantizedMatmulOp,
)
from memplan.dialects.linalg_reduce import ReduceOp
from memplan.dialects.linalg_rng import FillRng2DOp
from memplan.dialects.linalg_softmax import SoftmaxOp
from memplan.dialects.linalg_tiled import BatchMmt4DOp, Mmt4DOp
from memplan.dialects.linalg_window import (
    Conv1DNcwFcwOp,
    Conv1DNwcWcfOp,
    Conv1DOp,
    Conv2DNchwFchwOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwc_FhwcOp,
    Conv2DNhwc_HwcfOp,
    Conv2DNhwgcGfhwcOp,
    Conv2DOp,
    Conv3DNcdhwFcdhwOp,
    Conv3DNdhwcDhwcfOp,
    Conv3DOp,
    ConvolutionOperation,
    DepthwiseConv1DNcwCwOp,
    DepthwiseConv1DNwcWcmOp,
    DepthwiseConv1DNwcWcOp,
    DepthwiseConv2DNchwChwOp,
    DepthwiseConv2DNhwcHwcmOp,
    DepthwiseConv2DNhwcHwcOp,
    DepthwiseConv3DNcdhwCdhwOp,
    DepthwiseConv3DNdhwcDhwcmOp,
    DepthwiseConv3DNdhwcDhwcOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNcwMaxOp,
    PoolingNcwSumOp,
    PoolingNdhwcMaxOp,
    PoolingNdhwcMinOp,
    PoolingNdhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMaxUnsignedOp,
    PoolingNhwcMinOp,
    PoolingNhwcMinUnsignedOp,
    PoolingNhwcSumOp,
    PoolingNwcMaxOp,
    PoolingNwcMaxUnsignedOp,
    PoolingNwcMinOp,
    PoolingNwcMinUnsignedOp,
    PoolingNwcSumOp,
    PoolingOperation,
    SlidingWindowOperation,
    UnitStrideConvolutionOperation,
    WindowOperation,
)
from memplan.dialects.linalg_winograd import (
    WinogradFilterTransformOp,
    WinogradInputTransformOp,
    WinogradOutputTransformOp,
)
from memplan.dialects.syntax import print_ins_outs

__all__ = [
    "COMMUTATIVE_OPS",
    "LINALG",
    "AbsOp",
    "AddOp",
    "BatchMatmulOp",
    "BatchMatvecOp",
    "BatchMmt4DOp",
    "BatchReduceMatmulOp",
    "BatchVecmatOp",
    "BinaryElementwiseOperation",
    "BroadcastOp",
    "CeilOp",
    "ContractOp",
    "ContractionOperation",
    "Conv1DNcwFcwOp",
    "Conv1DNwcWcfOp",
    "Conv1DOp",
    "Conv2DNchwFchwOp",
    "Conv2DNchwFchwQOp",
    "Conv2DNgchwFgchwOp",
    "Conv2DNgchwGfchwOp",
    "Conv2DNgchwGfchwQOp",
    "Conv2DNhwcFhwcQOp",
    "Conv2DNhwcHwcfQOp",
    "Conv2DNhwc_FhwcOp",
    "Conv2DNhwc_HwcfOp",
    "Conv2DNhwgcGfhwcOp",
    "Conv2DNhwgcGfhwcQOp",
    "Conv2DOp",
    "Conv3DNcdhwFcdhwOp",
    "Conv3DNdhwcDhwcfOp",
    "Conv3DNdhwcDhwcfQOp",
    "Conv3DOp",
    "ConvolutionOperation",
    "CopyOp",
    "DepthwiseConv1DNcwCwOp",
    "DepthwiseConv1DNwcWcOp",
    "DepthwiseConv1DNwcWcmOp",
    "DepthwiseConv2DNchwChwOp",
    "DepthwiseConv2DNhwcHwcOp",
    "DepthwiseConv2DNhwcHwcQOp",
    "DepthwiseConv2DNhwcHwcmOp",
    "DepthwiseConv2DNhwcHwcmQOp",
    "DepthwiseConv3DNcdhwCdhwOp",
    "DepthwiseConv3DNdhwcDhwcOp",
    "DepthwiseConv3DNdhwcDhwcmOp",
    "DivOp",
    "DivUnsignedOp",
    "DotOp",
    "ElementwiseOp",
    "ErfOp",
    "ExpOp",
    "FillOp",
    "FillRng2DOp",
    "FloorOp",
    "GenericOp",
    "HiddenBodyOperation",
    "IndexOp",
    "LogOp",
    "MapOp",
    "MapsContractionOperation",
    "MatmulOp",
    "MatvecOp",
    "MaxOp",
    "MinOp",
    "Mmt4DOp",
    "MulOp",
    "NegFOp",
    "PackOp",
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
    "PowFOp",
    "QuantizedBatchMatmulOp",
    "QuantizedMatmulOp",
    "ReciprocalOp",
    "ReduceOp",
    "RoundOp",
    "RsqrtOp",
    "SelectOp",
    "SlidingWindowOperation",
    "SoftmaxOp",
    "SqrtOp",
    "SquareOp",
    "SubOp",
    "TanhOp",
    "TransposeOp",
    "TypeFnAttr",
    "UnPackOp",
    "UnaryElementwiseOperation",
    "UnitStrideConvolutionOperation",
    "VecmatOp",
    "WindowOperation",
    "WinogradFilterTransformOp",
    "WinogradInputTransformOp",
    "WinogradOutputTransformOp",
    "YieldOp",
    "binary_scalar",
    "body_arg_types",
    "cast_scalar",
    "describe_body",
    "is_unsigned_cast",
    "mac_body",
    "parse_optional_indexing_maps",
    "verify_yield",
]


# --- fill and copy ---------------------------------------------------------------


@irdl_op_definition
class CopyOp(HiddenBodyOperation, PointwiseOperation):
    """out = cast(in): xDSL's copy does not cast to the output element type."""

    name = "linalg.copy"

    @classmethod
    def input_count(cls) -> int | None:
        return 1

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = body_arg_types((*inputs, *outputs))

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(cast_scalar(args[0], arg_types[-1]))

        return body


@irdl_op_definition
class FillOp(HiddenBodyOperation):
    """out = value; the value is a scalar of the output's element type."""

    name = "linalg.fill"

    def verify_(self) -> None:
        self.check_operand_counts(self.inputs, self.outputs)
        value_type = self.inputs[0].type
        if isinstance(value_type, ShapedType):
            raise VerifyException(
                f"linalg.fill value must be a scalar, got {value_type}"
            )
        output_element = element_type(self.outputs[0].type)
        if value_type != output_element:
            raise VerifyException(
                f"expected fill value type ({value_type}) to match output element "
                f"type ({output_element})"
            )
        super().verify_()

    @classmethod
    def input_count(cls) -> int | None:
        return 1

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(args[0])

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        rank = len(shape_of(self.outputs[0].type))
        return (AffineMap(rank, 0, ()), AffineMap.identity(rank))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * self.get_num_loops())


# --- contractions ---------------------------------------------------------------


@irdl_op_definition
class MatmulOp(MapsContractionOperation):
    """C[i, j] += A[i, k] * B[k, j]."""

    name = "linalg.matmul"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda i, _, k: (i, k)),
        AffineMap.from_callable(lambda _, j, k: (k, j)),
        AffineMap.from_callable(lambda i, j, _: (i, j)),
    )


@irdl_op_definition
class BatchMatmulOp(MapsContractionOperation):
    """C[b, i, j] += A[b, i, k] * B[b, k, j]."""

    name = "linalg.batch_matmul"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, i, _, k: (b, i, k)),
        AffineMap.from_callable(lambda b, _, j, k: (b, k, j)),
        AffineMap.from_callable(lambda b, i, j, _: (b, i, j)),
    )

    def verify_user_maps(self, maps: Sequence[AffineMap]) -> None:
        verify_batch_matmul_maps(maps, self.DEFAULT_MAPS, output_rank=3)


@irdl_op_definition
class MatvecOp(ContractionOperation):
    """y[i] += A[i, k] * x[k]."""

    name = "linalg.matvec"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda i, k: (i, k)),
        AffineMap.from_callable(lambda _, k: (k,)),
        AffineMap.from_callable(lambda i, _: (i,)),
    )


@irdl_op_definition
class VecmatOp(ContractionOperation):
    """y[j] += x[k] * A[k, j]."""

    name = "linalg.vecmat"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda _, k: (k,)),
        AffineMap.from_callable(lambda j, k: (k, j)),
        AffineMap.from_callable(lambda j, _: (j,)),
    )


@irdl_op_definition
class BatchMatvecOp(ContractionOperation):
    """y[b, i] += A[b, i, k] * x[b, k]."""

    name = "linalg.batch_matvec"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, i, k: (b, i, k)),
        AffineMap.from_callable(lambda b, _, k: (b, k)),
        AffineMap.from_callable(lambda b, i, _: (b, i)),
    )


@irdl_op_definition
class BatchVecmatOp(ContractionOperation):
    """y[b, j] += x[b, k] * A[b, k, j]."""

    name = "linalg.batch_vecmat"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, _, k: (b, k)),
        AffineMap.from_callable(lambda b, j, k: (b, k, j)),
        AffineMap.from_callable(lambda b, j, _: (b, j)),
    )


@irdl_op_definition
class DotOp(ContractionOperation):
    """out[] += x[k] * y[k]."""

    name = "linalg.dot"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda k: (k,)),
        AffineMap.from_callable(lambda k: (k,)),
        AffineMap(1, 0, ()),
    )


# --- linalg.map -----------------------------------------------------------------


@irdl_op_definition
class MapOp(IRDLOperation):
    """init[i] = mapper(inputs[i]..., init[i]) for every index i.

    The mapper takes one argument per input plus one for the init, as current
    MLIR defines it.  Besides the long form, the custom syntax MLIR prints for
    a single-op mapper (`linalg.map { math.absf } ins(...) outs(...)`) parses;
    printing always uses the long form, which MLIR reads too.  As in MLIR, the
    result type (on tensors) is the init's and is not written."""

    name = "linalg.map"

    inputs = var_operand_def(base(MemRefType) | base(TensorType))
    init = operand_def(base(MemRefType) | base(TensorType))
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init: SSAValue,
        mapper: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[inputs, init],
            result_types=[tensor_results((init,))],
            regions=[mapper],
            attributes=attributes,
        )

    @property
    def outputs(self) -> tuple[SSAValue]:
        """The init, as the one output of a structured op."""
        return (self.init,)

    @property
    def body(self) -> Region:
        return self.mapper

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        identity = AffineMapAttr(AffineMap.identity(len(shape_of(self.init.type))))
        return ArrayAttr([identity] * (len(self.inputs) + 1))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(shape_of(self.init.type)))

    def verify_(self) -> None:
        init_type = self.init.type
        assert isinstance(init_type, ShapedType)
        for index, value in enumerate(self.inputs):
            value_type = value.type
            assert isinstance(value_type, ShapedType)
            if value_type.get_shape() != init_type.get_shape():
                raise VerifyException(
                    f"linalg.map input {index} has shape {list(value_type.get_shape())}"
                    f", expected the init's shape {list(init_type.get_shape())}"
                )
        args = self.mapper.block.args
        expected = body_arg_types((*self.inputs, self.init))
        if [arg.type for arg in args] != expected:
            raise VerifyException(
                "linalg.map mapper must take one argument per input and one for the "
                f"init, of their element types ({', '.join(map(str, expected))}), "
                f"got ({', '.join(str(arg.type) for arg in args)})"
            )
        verify_yield(self, self.mapper.block, (self.init,))

    def print(self, printer: Printer) -> None:
        print_ins_outs(printer, self.inputs, [self.init])
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" (")
        printer.print_list(self.mapper.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.mapper, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short_form = parse_short_form_payload(parser)
        inputs: Sequence[SSAValue] = ()
        if parser.parse_optional_characters("ins"):
            inputs = parse_operands_with_types(parser)
        parser.parse_characters("outs", " in linalg.map")
        outs_at = parser.pos
        outs = parse_operands_with_types(parser)
        if len(outs) != 1:
            parser.raise_error("linalg.map takes one init operand", outs_at, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        if short_form is None:
            args = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_argument
            )
            mapper = parser.parse_region(args)
        else:
            mapper = short_form(body_arg_types((*inputs, outs[0])), len(inputs))
        op = cls(inputs, outs[0], mapper)
        op.attributes.update(attributes)
        return op


LINALG = Dialect(
    "linalg",
    [
        GenericOp,
        YieldOp,
        IndexOp,
        MapOp,
        AddOp,
        SubOp,
        MulOp,
        DivOp,
        DivUnsignedOp,
        PowFOp,
        AbsOp,
        CeilOp,
        FloorOp,
        RoundOp,
        RsqrtOp,
        TanhOp,
        ErfOp,
        NegFOp,
        SquareOp,
        ReciprocalOp,
        MaxOp,
        MinOp,
        ExpOp,
        LogOp,
        SqrtOp,
        SelectOp,
        FillOp,
        CopyOp,
        TransposeOp,
        BroadcastOp,
        ReduceOp,
        MatmulOp,
        BatchMatmulOp,
        MatvecOp,
        VecmatOp,
        BatchMatvecOp,
        BatchVecmatOp,
        DotOp,
        QuantizedMatmulOp,
        Conv1DOp,
        Conv2DOp,
        Conv3DOp,
        Conv1DNcwFcwOp,
        Conv1DNwcWcfOp,
        Conv2DNchwFchwOp,
        Conv2DNhwc_HwcfOp,
        Conv2DNhwc_FhwcOp,
        Conv2DNgchwFgchwOp,
        Conv2DNgchwGfchwOp,
        Conv2DNhwgcGfhwcOp,
        Conv3DNcdhwFcdhwOp,
        Conv3DNdhwcDhwcfOp,
        DepthwiseConv1DNcwCwOp,
        DepthwiseConv1DNwcWcOp,
        DepthwiseConv1DNwcWcmOp,
        DepthwiseConv2DNchwChwOp,
        DepthwiseConv2DNhwcHwcOp,
        DepthwiseConv2DNhwcHwcmOp,
        DepthwiseConv3DNcdhwCdhwOp,
        DepthwiseConv3DNdhwcDhwcOp,
        DepthwiseConv3DNdhwcDhwcmOp,
        PoolingNchwMaxOp,
        PoolingNchwSumOp,
        PoolingNhwcMaxOp,
        PoolingNhwcMaxUnsignedOp,
        PoolingNhwcMinOp,
        PoolingNhwcMinUnsignedOp,
        PoolingNhwcSumOp,
        PoolingNcwMaxOp,
        PoolingNcwSumOp,
        PoolingNwcMaxOp,
        PoolingNwcMaxUnsignedOp,
        PoolingNwcMinOp,
        PoolingNwcMinUnsignedOp,
        PoolingNwcSumOp,
        PoolingNdhwcMaxOp,
        PoolingNdhwcMinOp,
        PoolingNdhwcSumOp,
        Mmt4DOp,
        BatchMmt4DOp,
        QuantizedBatchMatmulOp,
        Conv2DNchwFchwQOp,
        Conv2DNhwcHwcfQOp,
        Conv2DNhwcFhwcQOp,
        Conv2DNgchwGfchwQOp,
        Conv2DNhwgcGfhwcQOp,
        Conv3DNdhwcDhwcfQOp,
        DepthwiseConv2DNhwcHwcQOp,
        DepthwiseConv2DNhwcHwcmQOp,
        SoftmaxOp,
        PackOp,
        UnPackOp,
        FillRng2DOp,
        WinogradFilterTransformOp,
        WinogradInputTransformOp,
        WinogradOutputTransformOp,
        ContractOp,
        BatchReduceMatmulOp,
        ElementwiseOp,
    ],
    [IteratorTypeAttr, TypeFnAttr, ElementwiseKindAttr],
)
"""linalg for memplan: xDSL's correct ops, the corrected ones and the added ones."""

"""The linalg dialect memplan parses with: xDSL 0.74's, corrected and completed.

A named op's body is hidden in the custom form, so xDSL rebuilds it every time
it parses that form.  Where xDSL 0.74 builds a body differently from MLIR's
definition (`pooling_nchw_max` as max(in, window) instead of max(out, in); the
accumulator as the second operand of matmul and conv adds; no casts between
element types) a module changes meaning after a round trip.  The ops below
build their bodies as MLIR's named-op definitions do (operand order, casts,
signedness) and verify that a body read in generic form is that body, so a
module written by a tool that got it wrong is rejected instead of silently
computed differently.

Ops that xDSL defines correctly are its own classes, re-exported: import every
linalg op from this module, never from `xdsl.dialects.linalg`, because the
interpreter dispatches on the exact class.  docs/frontend-ops.md lists what
is corrected and what is added.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import (
    BroadcastOp,
    GenericOp,
    IndexOp,
    TransposeOp,
    YieldOp,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from memplan.dialects.arith import TruncIOp
from memplan.dialects.linalg_attrs import ElementwiseKindAttr, TypeFn, TypeFnAttr
from memplan.dialects.syntax import print_values_with_types

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
    "UnaryElementwiseOperation",
    "UnitStrideConvolutionOperation",
    "VecmatOp",
    "WindowOperation",
    "YieldOp",
    "binary_scalar",
    "body_arg_types",
    "cast_scalar",
    "describe_body",
    "is_unsigned_cast",
    "mac_body",
    "parse_optional_indexing_maps",
    "verify_yield_types",
]


# --- scalar helpers shared by the hidden bodies -------------------------------


def _element_type(type_: Attribute) -> Attribute:
    if isa(type_, MemRefType | TensorType | VectorType):
        return type_.get_element_type()
    return type_


def body_arg_types(operands: Sequence[SSAValue]) -> list[Attribute]:
    """One body argument per operand: its element type, or its own for a scalar."""
    return [_element_type(operand.type) for operand in operands]


def _is_int(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType)


def cast_scalar(value: SSAValue, to: Attribute, *, unsigned: bool = False) -> SSAValue:
    """MLIR's `cast_signed` (or `cast_unsigned`) of a body value to `to`.

    Where MLIR has no cast either (e.g. f16 to bf16) the value is returned as
    is and the verifier then reports the mismatched yield type."""
    source = value.type
    if source == to:
        return value
    if isinstance(source, IntegerType) and isinstance(to, IntegerType):
        if to.bitwidth > source.bitwidth:
            extend = arith.ExtUIOp if unsigned else arith.ExtSIOp
            return extend(value, to).result
        return TruncIOp(value, to).result
    if isinstance(source, AnyFloat) and isinstance(to, AnyFloat):
        if to.bitwidth > source.bitwidth:
            return arith.ExtFOp(value, to).result
        if to.bitwidth < source.bitwidth:
            return arith.TruncFOp(value, to).result
        return value
    if isinstance(source, IntegerType) and isinstance(to, AnyFloat):
        convert = arith.UIToFPOp if unsigned else arith.SIToFPOp
        return convert(value, to).result
    if isinstance(source, AnyFloat) and isinstance(to, IntegerType):
        convert = arith.FPToUIOp if unsigned else arith.FPToSIOp
        return convert(value, to).result
    if isinstance(source, IndexType) and isinstance(to, IntegerType):
        return arith.IndexCastOp(value, to).result
    return value


_BinaryBuilder = Callable[[SSAValue, SSAValue], Operation]

_FLOAT_AND_INT_OPS: dict[str, tuple[_BinaryBuilder | None, _BinaryBuilder]] = {
    "add": (arith.AddfOp, arith.AddiOp),
    "sub": (arith.SubfOp, arith.SubiOp),
    "mul": (arith.MulfOp, arith.MuliOp),
    "div": (arith.DivfOp, arith.DivSIOp),
    "div_unsigned": (None, arith.DivUIOp),
    "max": (arith.MaximumfOp, arith.MaxSIOp),
    "min": (arith.MinimumfOp, arith.MinSIOp),
    "max_unsigned": (None, arith.MaxUIOp),
    "min_unsigned": (None, arith.MinUIOp),
}
"""MLIR's BinaryFn on floats and on integers (None: not defined on floats)."""


_BOOL_OPS: dict[str, _BinaryBuilder | None] = {
    "add": arith.OrIOp,
    "mul": arith.AndIOp,
    "sub": None,
    "div": None,
    "div_unsigned": None,
}
"""MLIR's BinaryFn on two i1 values where it differs from the integer op:
a sum is an or, a product an and, and there is no difference or quotient
(MLIR: "unsupported operation: sub with bools")."""


def binary_scalar(kind: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """MLIR's BinaryFn `kind` (add, mul, max_signed as "max", ...) on two body values."""
    float_op, int_op = _FLOAT_AND_INT_OPS[kind]
    if isinstance(lhs.type, AnyFloat) and float_op is not None:
        return float_op(lhs, rhs).results[0]
    if lhs.type == rhs.type == IntegerType(1) and kind in _BOOL_OPS:
        bool_op = _BOOL_OPS[kind]
        if bool_op is None:
            raise VerifyException(
                f"linalg {kind} is not defined on i1 (MLIR: unsupported "
                f"operation: {kind} with bools)"
            )
        return bool_op(lhs, rhs).results[0]
    if _is_int(lhs.type):
        return int_op(lhs, rhs).results[0]
    raise VerifyException(f"linalg {kind} is not defined on element type {lhs.type}")


# --- hidden bodies: building them and checking a parsed one -------------------


COMMUTATIVE_OPS = frozenset(
    f"arith.{name}"
    for name in (
        [
            "addf",
            "addi",
            "mulf",
            "muli",
            "maximumf",
            "minimumf",
            "maxsi",
            "minsi",
            "maxui",
            "minui",
        ]
    )
)
"""Ops whose operand order does not change their result (as bodies compare)."""


def describe_body(block: Block, num_inputs: int, *, canonical: bool = False) -> str:
    """`v0 = arith.maximumf(out0, in0) : f32; linalg.yield(v0)`: a body's ops
    with operands named by role, to compare bodies and to show them in errors.
    `canonical` sorts the operands of commutative ops, so that bodies equal
    up to such swaps (as xDSL 0.74 writes matmul and conv adds) compare equal."""
    names: dict[SSAValue, str] = {
        arg: f"in{i}" if i < num_inputs else f"out{i - num_inputs}"
        for i, arg in enumerate(block.args)
    }
    parts: list[str] = []
    for op in block.ops:
        operand_names = [names.get(operand, "<outer>") for operand in op.operands]
        if canonical and op.name in COMMUTATIVE_OPS:
            operand_names.sort()
        operands = ", ".join(operand_names)
        text = f"{op.name}({operands})"
        if op.results:
            results: list[str] = []
            for result in op.results:
                names[result] = f"v{len(names) - len(block.args)}"
                results.append(names[result])
            types = ", ".join(str(result.type) for result in op.results)
            text = f"{', '.join(results)} = {text} : {types}"
        parts.append(text)
    return "; ".join(parts)


def verify_yield_types(op: Operation, body: Region, outputs: Sequence[SSAValue]):
    """The body yields one value per output, of the output's element type."""
    terminator = body.block.last_op
    if not isinstance(terminator, YieldOp):
        raise VerifyException(f"{op.name} body must end with linalg.yield")
    if len(terminator.arguments) != len(outputs):
        raise VerifyException(
            f"{op.name} body yields {len(terminator.arguments)} value(s), expected "
            f"one per output ({len(outputs)})"
        )
    for index, (value, output) in enumerate(
        zip(terminator.arguments, outputs, strict=True)
    ):
        expected = _element_type(output.type)
        if value.type != expected:
            raise VerifyException(
                f"{op.name}: type of yield operand {index} ({value.type}) does not "
                f"match the element type of output {index} ({expected})"
            )


def _tensor_results(outputs: Sequence[SSAValue]) -> list[Attribute]:
    return [output.type for output in outputs if isinstance(output.type, TensorType)]


class HiddenBodyOperation(NamedOperation, ABC):
    """A named op whose body is MLIR's definition, built by `build_body`.

    Its verifier checks that the body it holds (e.g. one read in generic form)
    is exactly that definition."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    BODY_PROPERTIES: ClassVar[tuple[str, ...]] = ()
    """The properties the body depends on (`cast`, `kind`), read by `build_body`."""

    @classmethod
    def build_body(
        cls,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        """MLIR's body for these operands and properties: `get_hidden_region`'s
        unless the op has BODY_PROPERTIES."""
        return cls.get_hidden_region(inputs, outputs)

    def rebuild_body(self) -> None:
        """Replace the body by `build_body`'s for the op's current properties
        (xDSL's parser builds it before it has read them)."""
        body = self.build_body(self.inputs, self.outputs, self.properties)
        self.body.detach_block(0).erase()
        body.move_blocks(self.body)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        properties: dict[str, Attribute | None] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=_tensor_results(outputs) if res is None else res,
            properties=properties,
            attributes=attributes,
            hidden_region=self.build_body(inputs, outputs, properties or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = super().parse(parser)
        if any(name in op.properties for name in cls.BODY_PROPERTIES):
            op.rebuild_body()
        return op

    def verify_(self) -> None:
        super().verify_()
        if "cast" in self.attributes:
            raise VerifyException(
                f"{self.name} takes no cast attribute (MLIR ignores it on this "
                "op): remove it"
            )
        verify_yield_types(self, self.body, self.outputs)
        num_inputs = len(self.inputs)
        arg_types = tuple(arg.type for arg in self.body.block.args)
        variant = tuple(self.properties.get(name) for name in self.BODY_PROPERTIES)
        if _defined_body(type(self), variant, arg_types, num_inputs) != describe_body(
            self.body.block, num_inputs, canonical=True
        ):
            expected = self.build_body(self.inputs, self.outputs, self.properties).block
            raise VerifyException(
                f"{self.name} body is not MLIR's definition of the op: expected "
                f"`{describe_body(expected, num_inputs)}`, got "
                f"`{describe_body(self.body.block, num_inputs)}`"
            )


@lru_cache(maxsize=1024)
def _defined_body(
    op_type: type[HiddenBodyOperation],
    variant: tuple[Attribute | None, ...],
    arg_types: tuple[Attribute, ...],
    num_inputs: int,
) -> str:
    """The canonical description of the body `op_type` defines for these
    BODY_PROPERTIES values and body argument types (built once per op, values
    and types: verifying stays cheap)."""
    values = Block(arg_types=arg_types).args
    properties = dict(zip(op_type.BODY_PROPERTIES, variant, strict=True))
    body = op_type.build_body(values[:num_inputs], values[num_inputs:], properties)
    return describe_body(body.block, num_inputs, canonical=True)


def is_unsigned_cast(properties: Mapping[str, Attribute | None]) -> bool:
    """Whether an op's `cast` property is `#linalg.type_fn<cast_unsigned>`
    (MLIR's default, when it is absent, is cast_signed)."""
    cast = properties.get("cast")
    return isinstance(cast, TypeFnAttr) and cast.data == TypeFn.CAST_UNSIGNED


def mac_body(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    *,
    unsigned: bool = False,
) -> Region:
    """out + cast(in0) * cast(in1), casts (signed unless `unsigned`) to the
    output element type."""
    arg_types = body_arg_types((*inputs, *outputs))

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        lhs = cast_scalar(args[0], arg_types[-1], unsigned=unsigned)
        rhs = cast_scalar(args[1], arg_types[-1], unsigned=unsigned)
        product = binary_scalar("mul", lhs, rhs)
        YieldOp(binary_scalar("add", args[-1], product))

    return body


# --- elementwise ops, fill and copy ---------------------------------------------


class BinaryElementwiseOperation(HiddenBodyOperation, ElementwiseOperation, ABC):
    """out = KIND(in0, in1), MLIR's BinaryFn on the input elements (no casts:
    inputs and output share one element type)."""

    KIND: ClassVar[str]

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(binary_scalar(cls.KIND, args[0], args[1]))

        return body


@irdl_op_definition
class AddOp(BinaryElementwiseOperation):
    name = "linalg.add"
    KIND: ClassVar[str] = "add"


@irdl_op_definition
class SubOp(BinaryElementwiseOperation):
    name = "linalg.sub"
    KIND: ClassVar[str] = "sub"


@irdl_op_definition
class MulOp(BinaryElementwiseOperation):
    name = "linalg.mul"
    KIND: ClassVar[str] = "mul"


@irdl_op_definition
class MaxOp(BinaryElementwiseOperation):
    """Signed on integers."""

    name = "linalg.max"
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class MinOp(BinaryElementwiseOperation):
    """Signed on integers."""

    name = "linalg.min"
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class DivOp(BinaryElementwiseOperation):
    """arith.divf, or arith.divsi on integers."""

    name = "linalg.div"
    KIND: ClassVar[str] = "div"


@irdl_op_definition
class DivUnsignedOp(BinaryElementwiseOperation):
    """arith.divui: integers only."""

    name = "linalg.div_unsigned"
    KIND: ClassVar[str] = "div_unsigned"


@irdl_op_definition
class SelectOp(HiddenBodyOperation, ElementwiseOperation):
    """out = in0 ? in1 : in2."""

    name = "linalg.select"

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(arith.SelectOp(args[0], args[1], args[2]).result)

        return body


@irdl_op_definition
class PowFOp(HiddenBodyOperation, ElementwiseOperation):
    """out = in0 ** in1 (math.powf)."""

    name = "linalg.powf"

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(math.PowFOp(args[0], args[1]).result)

        return body


class UnaryElementwiseOperation(HiddenBodyOperation, ElementwiseOperation, ABC):
    """out = payload(in): one op on the input element."""

    @classmethod
    @abstractmethod
    def payload(cls, value: SSAValue) -> SSAValue: ...

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(cls.payload(args[0]))

        return body


@irdl_op_definition
class ExpOp(UnaryElementwiseOperation):
    name = "linalg.exp"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.ExpOp(value).result


@irdl_op_definition
class LogOp(UnaryElementwiseOperation):
    name = "linalg.log"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.LogOp(value).result


@irdl_op_definition
class SqrtOp(UnaryElementwiseOperation):
    name = "linalg.sqrt"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.SqrtOp(value).result


@irdl_op_definition
class AbsOp(UnaryElementwiseOperation):
    name = "linalg.abs"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.AbsFOp(value).result


@irdl_op_definition
class CeilOp(UnaryElementwiseOperation):
    name = "linalg.ceil"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.CeilOp(value).result


@irdl_op_definition
class FloorOp(UnaryElementwiseOperation):
    name = "linalg.floor"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.FloorOp(value).result


@irdl_op_definition
class RoundOp(UnaryElementwiseOperation):
    name = "linalg.round"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.RoundOp(value).result


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOperation):
    name = "linalg.rsqrt"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.RsqrtOp(value).result


@irdl_op_definition
class TanhOp(UnaryElementwiseOperation):
    name = "linalg.tanh"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.TanhOp(value).result


@irdl_op_definition
class ErfOp(UnaryElementwiseOperation):
    name = "linalg.erf"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return math.ErfOp(value).result


@irdl_op_definition
class NegFOp(UnaryElementwiseOperation):
    name = "linalg.negf"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return arith.NegfOp(value).result


@irdl_op_definition
class SquareOp(UnaryElementwiseOperation):
    """out = in * in."""

    name = "linalg.square"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        return binary_scalar("mul", value, value)


@irdl_op_definition
class ReciprocalOp(UnaryElementwiseOperation):
    """out = 1.0 / in."""

    name = "linalg.reciprocal"

    @classmethod
    def payload(cls, value: SSAValue) -> SSAValue:
        if not isinstance(value.type, AnyFloat):
            raise VerifyException(
                f"linalg.reciprocal is only defined on floats, not on {value.type}"
            )
        one = arith.ConstantOp(FloatAttr(1.0, value.type)).result
        return arith.DivfOp(one, value).result


@irdl_op_definition
class CopyOp(HiddenBodyOperation, ElementwiseOperation):
    """out = cast(in): xDSL's copy does not cast to the output element type."""

    name = "linalg.copy"

    @classmethod
    def get_hidden_region(
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
        if len(self.inputs) != 1 or len(self.outputs) != 1:
            raise VerifyException("linalg.fill takes one value and one output")
        value_type = self.inputs[0].type
        if isinstance(value_type, ShapedType):
            raise VerifyException(
                f"linalg.fill value must be a scalar, got {value_type}"
            )
        output_element = _element_type(self.outputs[0].type)
        if value_type != output_element:
            raise VerifyException(
                f"expected fill value type ({value_type}) to match output element "
                f"type ({output_element})"
            )
        super().verify_()

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(args[0])

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        rank = _rank(self.outputs[0].type)
        return (AffineMap(rank, 0, ()), AffineMap.identity(rank))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * self.get_num_loops())


def _rank(type_: Attribute) -> int:
    return len(type_.get_shape()) if isinstance(type_, ShapedType) else 0


# --- contractions ---------------------------------------------------------------


class ContractionOperation(HiddenBodyOperation, ABC):
    """matmul-like ops: out += cast(lhs) * cast(rhs) over DEFAULT_MAPS's loops,
    the last loop reduced."""

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]]

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.DEFAULT_MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        loops = self.DEFAULT_MAPS[0].num_dims
        return ArrayAttr(
            [IteratorTypeAttr.parallel()] * (loops - 1) + [IteratorTypeAttr.reduction()]
        )


class MapsContractionOperation(ContractionOperation, ABC):
    """A contraction whose `indexing_maps` may replace the default maps, as
    current MLIR prints them (e.g. for a transposed operand); custom syntax
    `linalg.matmul indexing_maps = [...] {cast = #linalg.type_fn<...>}
    ins(...) outs(...)`, the maps written only when they are not the default
    ones.  `cast_unsigned` makes the casts extui, uitofp and fptoui."""

    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    BODY_PROPERTIES: ClassVar[tuple[str, ...]] = ("cast",)

    @classmethod
    def build_body(
        cls,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        return mac_body(inputs, outputs, unsigned=is_unsigned_cast(properties))

    @classmethod
    def default_maps_attr(cls) -> ArrayAttr[AffineMapAttr]:
        return ArrayAttr(AffineMapAttr(m) for m in cls.DEFAULT_MAPS)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is not None:
            return self.indexing_maps
        return self.default_maps_attr()

    def has_default_maps(self) -> bool:
        return tuple(m.data for m in self.get_indexing_maps()) == self.DEFAULT_MAPS

    def verify_(self) -> None:
        loops = self.DEFAULT_MAPS[0].num_dims
        for index, map_ in enumerate(self.get_indexing_maps()):
            if map_.data.num_dims != loops:
                raise VerifyException(
                    f"{self.name} indexing_map #{index} must have {loops} dims, "
                    f"got {map_.data}"
                )
        super().verify_()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        maps = parse_optional_indexing_maps(parser)
        op = super().parse(parser)
        if "indexing_maps" not in op.properties:
            op.properties["indexing_maps"] = maps or cls.default_maps_attr()
        return op

    def print(self, printer: Printer) -> None:
        if self.indexing_maps is not None and not self.has_default_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        super().print(printer)


def parse_optional_indexing_maps(parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
    """`indexing_maps = [affine_map<...>, ...]`, if it comes next."""
    if not parser.parse_optional_keyword("indexing_maps"):
        return None
    parser.parse_punctuation("=")
    maps_at = parser.pos
    maps = parser.parse_attribute()
    if not isa(maps, ArrayAttr[AffineMapAttr]):
        parser.raise_error(
            "indexing_maps must be a list of affine maps", maps_at, parser.pos
        )
    return maps


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
    def get_hidden_region(
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


# --- convolutions and poolings ------------------------------------------------


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

    def verify_(self) -> None:
        inputs = len(self.DIMS) - 2
        if len(self.inputs) != inputs or len(self.outputs) != 1:
            raise VerifyException(
                f"{self.name} takes {inputs} inputs and one output, got "
                f"{len(self.inputs)} and {len(self.outputs)}"
            )
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
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)


class UnitStrideConvolutionOperation(SlidingWindowOperation, ABC):
    """`conv_1d`/`conv_2d`/`conv_3d`: no batch or channels, unit strides."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)


class PoolingOperation(WindowOperation, ABC):
    """out = KIND(out, cast(input)) over the window; the window operand only
    gives the window's shape."""

    KIND: ClassVar[str]
    """add, max, min, max_unsigned or min_unsigned (MLIR's BinaryFn)."""

    @classmethod
    def get_hidden_region(
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
            result_types=[_tensor_results((init,))],
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
        identity = AffineMapAttr(AffineMap.identity(_rank(self.init.type)))
        return ArrayAttr([identity] * (len(self.inputs) + 1))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * _rank(self.init.type))

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
        verify_yield_types(self, self.mapper, (self.init,))

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ins(")
            print_values_with_types(printer, self.inputs)
            printer.print_string(")")
        printer.print_string(" outs(")
        printer.print_ssa_value(self.init)
        printer.print_string(" : ")
        printer.print_attribute(self.init.type)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" (")
        printer.print_list(self.mapper.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.mapper, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short_form = _parse_short_form_payload(parser)
        inputs: Sequence[SSAValue] = ()
        if parser.parse_optional_characters("ins"):
            inputs = _parse_operands_with_types(parser)
        parser.parse_characters("outs", " in linalg.map")
        outs_at = parser.pos
        outs = _parse_operands_with_types(parser)
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


def _parse_operands_with_types(parser: Parser) -> Sequence[SSAValue]:
    at = parser.pos
    parser.parse_punctuation("(")
    unresolved: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(unresolved, types, at)


def _parse_short_form_payload(parser: Parser) -> Callable[..., Region] | None:
    """`{ op-name attr-dict? }`: a builder of the body that applies that op
    to the input arguments (`init_first`: to the init, then the inputs, as
    MLIR builds `linalg.reduce`) and yields its result."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name_at = parser.pos
    name = parser.parse_identifier(" (the mapper's op name)")
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"unknown op {name} in linalg.map", name_at, parser.pos)
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")

    def build(
        arg_types: Sequence[Attribute], num_inputs: int, *, init_first: bool = False
    ) -> Region:
        @Builder.implicit_region(arg_types)
        def mapper(args: tuple[BlockArgument, ...]) -> None:
            definition = getattr(op_type, "get_irdl_definition", None)
            known = definition().properties if definition is not None else {}
            payload = op_type.create(
                operands=(args[-1], *args[:-1]) if init_first else args[:num_inputs],
                result_types=[arg_types[-1]],
                properties={k: v for k, v in attributes.items() if k in known},
                attributes={k: v for k, v in attributes.items() if k not in known},
            )
            YieldOp(payload.results[0])

        return mapper

    return build


# Ops defined in their own modules, which build on the helpers above.
from memplan.dialects.linalg_contract import (  # noqa: E402 (builds on the ops above)
    BatchReduceMatmulOp,
    ContractOp,
    ElementwiseOp,
)
from memplan.dialects.linalg_quantized import (  # noqa: E402
    Conv2DNchwFchwQOp,
    Conv2DNgchwGfchwQOp,
    Conv2DNhwcFhwcQOp,
    Conv2DNhwcHwcfQOp,
    Conv2DNhwgcGfhwcQOp,
    Conv3DNdhwcDhwcfQOp,
    DepthwiseConv2DNhwcHwcmQOp,
    DepthwiseConv2DNhwcHwcQOp,
    QuantizedBatchMatmulOp,
)
from memplan.dialects.linalg_reduce import ReduceOp  # noqa: E402
from memplan.dialects.linalg_softmax import SoftmaxOp  # noqa: E402
from memplan.dialects.linalg_tiled import BatchMmt4DOp, Mmt4DOp  # noqa: E402

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
        ContractOp,
        BatchReduceMatmulOp,
        ElementwiseOp,
    ],
    [IteratorTypeAttr, TypeFnAttr, ElementwiseKindAttr],
)
"""linalg for memplan: xDSL's correct ops, the corrected ones and the added ones."""

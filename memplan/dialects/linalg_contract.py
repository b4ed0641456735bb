"""linalg's `contract`, `batch_reduce_matmul` and `elementwise`, as upstream
MLIR defines them (bodies, maps, syntax, verifier rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IntegerType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_attrs import (
    ElementwiseKind,
    ElementwiseKindAttr,
    TypeFnAttr,
)
from memplan.dialects.linalg_base import (
    HiddenBodyOperation,
    MapsContractionOperation,
    binary_scalar,
    body_arg_types,
    describe_body,
    is_unsigned_cast,
    mac_body,
    parse_operands_with_types,
    parse_optional_indexing_maps,
    shape_of,
)
from memplan.dialects.linalg_elementwise import (
    AbsOp,
    CeilOp,
    ErfOp,
    ExpOp,
    FloorOp,
    LogOp,
    NegFOp,
    ReciprocalOp,
    RoundOp,
    RsqrtOp,
    SqrtOp,
    SquareOp,
    TanhOp,
)
from memplan.dialects.linalg_matmul_maps import verify_batch_matmul_maps
from memplan.dialects.syntax import (
    parse_optional_arrow_types,
    print_ins_outs,
    print_optional_arrow_types,
)

__all__ = ["BatchReduceMatmulOp", "ContractOp", "ElementwiseOp"]


def _print_maps(printer: Printer, maps: ArrayAttr[AffineMapAttr]) -> None:
    printer.print_string(" indexing_maps = ")
    printer.print_attribute(maps)


# --- batch_reduce_matmul ---------------------------------------------------------


@irdl_op_definition
class BatchReduceMatmulOp(MapsContractionOperation):
    """C[i, j] += A[b, i, k] * B[b, k, j], summed over the batch b too.

    MLIR 20261001 builds signed casts whatever `cast` says; the verifier
    rejects a `cast_unsigned` that would change the result (e.g. i8 into
    i32) instead of reading it one way or the other."""

    name = "linalg.batch_reduce_matmul"

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = (
        AffineMap.from_callable(lambda b, i, _, k: (b, i, k)),
        AffineMap.from_callable(lambda b, _, j, k: (b, k, j)),
        AffineMap.from_callable(lambda _, i, j, __: (i, j)),
    )

    def verify_user_maps(self, maps: Sequence[AffineMap]) -> None:
        verify_batch_matmul_maps(maps, self.DEFAULT_MAPS, output_rank=2)

    @classmethod
    def build_body(
        cls,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        return mac_body(inputs, outputs)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([reduction, parallel, parallel, reduction])

    def verify_(self) -> None:
        if is_unsigned_cast(self.properties):
            signed = mac_body(self.inputs, self.outputs)
            unsigned = mac_body(self.inputs, self.outputs, unsigned=True)
            if describe_body(signed.block, 2) != describe_body(unsigned.block, 2):
                raise VerifyException(
                    "linalg.batch_reduce_matmul: MLIR casts signed whatever `cast` "
                    "says, so cast_unsigned on these element types is ambiguous; "
                    "use linalg.contract with cast_unsigned for unsigned casts"
                )
        super().verify_()


# --- contract --------------------------------------------------------------------


@irdl_op_definition
class ContractOp(HiddenBodyOperation):
    """out += cast(lhs) * cast(rhs) over the loops of `indexing_maps` (always
    written): loops the output map uses are parallel, the others contracted.

    As in MLIR, each map is a projected permutation, every loop is used, a
    loop not in the output is used by both inputs, and at least one loop is
    contracted."""

    name = "linalg.contract"

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    BODY_PROPERTIES: ClassVar[tuple[str, ...]] = ("cast",)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: ArrayAttr[AffineMapAttr],
        cast: TypeFnAttr | None = None,
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            res,
            attributes,
            properties={"indexing_maps": indexing_maps, "cast": cast},
        )

    @classmethod
    def input_count(cls) -> int | None:
        return 2

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_body(inputs, outputs)

    @classmethod
    def build_body(
        cls,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        unsigned = is_unsigned_cast(properties)
        return mac_body(inputs, outputs, unsigned=unsigned)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        output = self.indexing_maps.data[-1].data.used_dims()
        return ArrayAttr(
            IteratorTypeAttr.parallel()
            if loop in output
            else IteratorTypeAttr.reduction()
            for loop in range(self.indexing_maps.data[0].data.num_dims)
        )

    def verify_(self) -> None:
        self.check_operand_counts(self.inputs, self.outputs)
        maps = [m.data for m in self.indexing_maps]
        if len(maps) != 3:
            raise VerifyException(
                f"linalg.contract needs 3 indexing_maps (lhs, rhs, output), got "
                f"{len(maps)}"
            )
        for index, map_ in enumerate(maps):
            if map_.num_dims != maps[0].num_dims:
                raise VerifyException(
                    f"linalg.contract indexing_map #{index} must have "
                    f"{maps[0].num_dims} dims, like #0, got {map_}"
                )
            if not map_.is_projected_permutation():
                raise VerifyException(
                    f"linalg.contract indexing_map #{index} ({map_}) is not a "
                    "projected permutation"
                )
        lhs, rhs, output = (m.used_dims() for m in maps)
        contracted = 0
        for loop in range(maps[0].num_dims):
            if loop not in lhs | rhs | output:
                raise VerifyException(
                    f"linalg.contract loop d{loop} is not used by any indexing_map"
                )
            if loop not in output:
                if loop not in lhs & rhs:
                    raise VerifyException(
                        f"linalg.contract loop d{loop} is neither in the output "
                        "(parallel) nor in both inputs (contracted)"
                    )
                contracted += 1
        if not contracted:
            raise VerifyException(
                "linalg.contract indexing_maps contract no loop (each is in the output)"
            )
        super().verify_()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        maps_at = parser.pos
        maps = parse_optional_indexing_maps(parser)
        if maps is None:
            parser.raise_error(
                "linalg.contract expects `indexing_maps = [...]`", maps_at, parser.pos
            )
        op = super().parse(parser)
        op.properties["indexing_maps"] = maps
        return op

    def print(self, printer: Printer) -> None:
        _print_maps(printer, self.indexing_maps)
        super().print(printer)


# --- elementwise -----------------------------------------------------------------


def _float_only(
    build: Callable[[SSAValue], SSAValue],
) -> Callable[[SSAValue], SSAValue]:
    def payload(value: SSAValue) -> SSAValue:
        if not isinstance(value.type, AnyFloat):
            raise VerifyException(f"not defined on element type {value.type}")
        return build(value)

    return payload


_UNARY: dict[ElementwiseKind, Callable[[SSAValue], SSAValue]] = {
    kind: _float_only(build)
    for kind, build in {
        ElementwiseKind.EXP: ExpOp.payload,
        ElementwiseKind.LOG: LogOp.payload,
        ElementwiseKind.ABS: AbsOp.payload,
        ElementwiseKind.CEIL: CeilOp.payload,
        ElementwiseKind.FLOOR: FloorOp.payload,
        ElementwiseKind.NEGF: NegFOp.payload,
        ElementwiseKind.RECIPROCAL: ReciprocalOp.payload,
        ElementwiseKind.ROUND: RoundOp.payload,
        ElementwiseKind.SQRT: SqrtOp.payload,
        ElementwiseKind.RSQRT: RsqrtOp.payload,
        ElementwiseKind.SQUARE: SquareOp.payload,
        ElementwiseKind.TANH: TanhOp.payload,
        ElementwiseKind.ERF: ErfOp.payload,
        ElementwiseKind.SIN: lambda v: math.SinOp(v).result,
        ElementwiseKind.COS: lambda v: math.CosOp(v).result,
        ElementwiseKind.TAN: lambda v: math.TanOp(v).result,
        ElementwiseKind.ACOS: lambda v: math.AcosOp(v).result,
        ElementwiseKind.ACOSH: lambda v: math.AcoshOp(v).result,
        ElementwiseKind.ASIN: lambda v: math.AsinOp(v).result,
        ElementwiseKind.ASINH: lambda v: math.AsinhOp(v).result,
        ElementwiseKind.ATAN: lambda v: math.AtanOp(v).result,
        ElementwiseKind.ATANH: lambda v: math.AtanhOp(v).result,
        ElementwiseKind.LOG10: lambda v: math.Log10Op(v).result,
        ElementwiseKind.LOG1P: lambda v: math.Log1pOp(v).result,
        ElementwiseKind.LOG2: lambda v: math.Log2Op(v).result,
    }.items()
}
"""MLIR's UnaryFn payloads (all of them on floats only: MLIR has no integer
version either)."""

_BINARY: dict[ElementwiseKind, str] = {
    ElementwiseKind.ADD: "add",
    ElementwiseKind.SUB: "sub",
    ElementwiseKind.MUL: "mul",
    ElementwiseKind.DIV: "div",
    ElementwiseKind.DIV_UNSIGNED: "div_unsigned",
    ElementwiseKind.MAX_SIGNED: "max",
    ElementwiseKind.MIN_SIGNED: "min",
    ElementwiseKind.MAX_UNSIGNED: "max_unsigned",
    ElementwiseKind.MIN_UNSIGNED: "min_unsigned",
}
"""The kinds that are MLIR's BinaryFn, by `binary_scalar`'s names (powf aside)."""


def _arity(kind: ElementwiseKind) -> int:
    if kind in _UNARY:
        return 1
    return 3 if kind == ElementwiseKind.SELECT else 2


def _payload(kind: ElementwiseKind, args: Sequence[SSAValue]) -> SSAValue:
    if kind in _UNARY:
        return _UNARY[kind](args[0])
    if kind in _BINARY:
        return binary_scalar(_BINARY[kind], args[0], args[1])
    if kind == ElementwiseKind.POWF:
        return _float_only(lambda v: math.PowFOp(v, args[1]).result)(args[0])
    if args[0].type != IntegerType(1):
        raise VerifyException(f"the condition must be i1, not {args[0].type}")
    return arith.SelectOp(args[0], args[1], args[2]).result


@irdl_op_definition
class ElementwiseOp(HiddenBodyOperation):
    """out = KIND(ins...) with no casts: 25 unary kinds (floats only), 10
    binary and `select`; one loop per output dimension, all parallel.

    Custom syntax `linalg.elementwise kind=#linalg.elementwise_kind<add>
    indexing_maps = [...] {attrs} ins(...) outs(...)` (the attributes may also
    follow `outs`, as MLIR accepts), the maps written only
    when they are not the identities MLIR defaults to (parsing fills them in,
    as MLIR does; the generic form must have them, as in MLIR)."""

    name = "linalg.elementwise"

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])

    BODY_PROPERTIES: ClassVar[tuple[str, ...]] = ("kind",)

    def __init__(
        self,
        kind: ElementwiseKind,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: ArrayAttr[AffineMapAttr] | None = None,
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            res,
            attributes,
            properties={
                "kind": ElementwiseKindAttr(kind),
                "indexing_maps": ArrayAttr(
                    AffineMapAttr(m) for m in _identity_maps(inputs, outputs)
                )
                if indexing_maps is None
                else indexing_maps,
            },
        )

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        raise VerifyException("linalg.elementwise's body depends on its kind")

    @classmethod
    def build_body(
        cls,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        kind_attr = properties.get("kind")
        if not isinstance(kind_attr, ElementwiseKindAttr):
            raise VerifyException("linalg.elementwise needs a kind")
        kind = kind_attr.data
        if len(inputs) != _arity(kind) or len(outputs) != 1:
            raise VerifyException(
                f"linalg.elementwise kind {kind} takes {_arity(kind)} input(s) and "
                f"one output, got {len(inputs)} and {len(outputs)}"
            )

        @Builder.implicit_region(body_arg_types((*inputs, *outputs)))
        def body(args: tuple[BlockArgument, ...]) -> None:
            try:
                YieldOp(_payload(kind, args[:-1]))
            except VerifyException as error:
                raise VerifyException(
                    f"linalg.elementwise kind {kind}: {error}"
                ) from error

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return _identity_maps(self.inputs, self.outputs)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            [IteratorTypeAttr.parallel()] * len(shape_of(self.outputs[0].type))
        )

    def verify_(self) -> None:
        self.build_body(self.inputs, self.outputs, self.properties)
        super().verify_()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_characters("kind", " in linalg.elementwise")
        parser.parse_punctuation("=")
        kind_at = parser.pos
        kind = parser.parse_attribute()
        if not isinstance(kind, ElementwiseKindAttr):
            parser.raise_error(
                "expected #linalg.elementwise_kind<...>", kind_at, parser.pos
            )
        maps = parse_optional_indexing_maps(parser)
        attributes = parser.parse_optional_attr_dict()
        operands_at = parser.pos
        inputs: Sequence[SSAValue] = ()
        if parser.parse_optional_characters("ins"):
            inputs = parse_operands_with_types(parser)
        parser.parse_characters("outs", " in linalg.elementwise")
        outputs = parse_operands_with_types(parser)
        if len(inputs) != _arity(kind.data) or len(outputs) != 1:
            parser.raise_error(
                f"linalg.elementwise kind {kind.data} takes {_arity(kind.data)} "
                f"input(s) and one output",
                operands_at,
                parser.pos,
            )
        attributes |= parser.parse_optional_attr_dict()
        res = parse_optional_arrow_types(parser)
        try:
            return cls(kind.data, inputs, outputs, maps, res, attributes)
        except VerifyException as error:
            parser.raise_error(str(error), operands_at, parser.pos)

    def print(self, printer: Printer) -> None:
        printer.print_string(" kind=")
        printer.print_attribute(self.kind)
        maps = self.get_indexing_maps()
        if tuple(m.data for m in maps) != tuple(self.get_default_indexing_maps()):
            _print_maps(printer, maps)
        printer.print_op_attributes(self.attributes)
        print_ins_outs(printer, self.inputs, self.outputs)
        print_optional_arrow_types(printer, [r.type for r in self.res])


def _identity_maps(
    inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> tuple[AffineMap, ...]:
    """MLIR's default maps: the identity over the output's dimensions, for
    every operand."""
    rank = len(shape_of(outputs[0].type)) if outputs else 0
    return (AffineMap.identity(rank),) * (len(inputs) + len(outputs))

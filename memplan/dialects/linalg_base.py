"""What memplan's linalg ops share: the helpers that build and check their
bodies, the base classes of the named ops whose body MLIR defines
(HiddenBodyOperation, the contractions) and the custom syntax several ops
parse (operands with types, a one-op short-form body, `indexing_maps`).

The op modules (linalg_elementwise, linalg_window, linalg_tiled, ...) build
on this one; memplan.dialects.linalg imports them all and defines LINALG.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    VectorType,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import opt_prop_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from memplan.dialects.arith import TruncIOp
from memplan.dialects.linalg_attrs import TypeFn, TypeFnAttr
from memplan.dialects.linalg_matmul_maps import (
    verify_matmul_maps,
    verify_projected_permutations,
)

__all__ = [
    "COMMUTATIVE_OPS",
    "ContractionOperation",
    "HiddenBodyOperation",
    "MapsContractionOperation",
    "PointwiseOperation",
    "binary_scalar",
    "body_arg_types",
    "cast_scalar",
    "describe_body",
    "element_type",
    "is_unsigned_cast",
    "mac_body",
    "parse_one_in_one_out",
    "parse_operands_with_types",
    "parse_optional_indexing_maps",
    "parse_short_form_payload",
    "shape_of",
    "tensor_results",
    "verify_yield",
]


# --- scalar helpers shared by the hidden bodies -------------------------------


def shape_of(type_: Attribute) -> tuple[int, ...]:
    """The shape of a shaped type (memref, tensor, vector); () for a scalar."""
    return tuple(type_.get_shape()) if isinstance(type_, ShapedType) else ()


def element_type(type_: Attribute) -> Attribute:
    """The element type of a memref, tensor or vector; a scalar's own type."""
    if isa(type_, MemRefType | TensorType | VectorType):
        return type_.get_element_type()
    return type_


def body_arg_types(operands: Sequence[SSAValue]) -> list[Attribute]:
    """One body argument per operand: its element type, or its own for a scalar."""
    return [element_type(operand.type) for operand in operands]


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


_BOOL_OPS: dict[str, _BinaryBuilder | str] = {
    "add": arith.OrIOp,
    "mul": arith.AndIOp,
    "sub": "sub with bools",
    "div": "div with bools",
    "div_unsigned": "div_unsigned with bools",
    "max_unsigned": "unsigned max not on uint",
    "min_unsigned": "unsigned min not on uint",
}
"""MLIR's BinaryFn on two i1 values where it differs from the integer op:
a sum is an or, a product an and; no difference, quotient or unsigned
extremum (MLIR's message for each: "unsupported operation: sub with
bools"; its `linalg.elementwise` crashes on them instead)."""


def binary_scalar(kind: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """MLIR's BinaryFn `kind` (add, mul, max_signed as "max", ...) on two body values."""
    float_op, int_op = _FLOAT_AND_INT_OPS[kind]
    if isinstance(lhs.type, AnyFloat) and float_op is not None:
        return float_op(lhs, rhs).results[0]
    if lhs.type == rhs.type == IntegerType(1) and kind in _BOOL_OPS:
        bool_op = _BOOL_OPS[kind]
        if isinstance(bool_op, str):
            raise VerifyException(
                f"linalg {kind} is not defined on i1 (MLIR: unsupported "
                f"operation: {bool_op})"
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


_DESCRIBED_PROPERTIES = ("value", "dim", "predicate")
"""The properties of a body op that decide its value beside its operands: a
constant's value, `linalg.index`'s loop, a comparison's predicate."""


def describe_body(block: Block, num_inputs: int, *, canonical: bool = False) -> str:
    """`v0 = arith.maximumf(out0, in0) : f32; linalg.yield(v0)`: a body's ops
    with operands named by role (and the properties of _DESCRIBED_PROPERTIES,
    `arith.constant<value = 1.0 : f32>()`), to compare bodies and to show them
    in errors.  `canonical` sorts the operands of commutative ops, so that
    bodies equal up to such swaps (as xDSL 0.74 writes matmul and conv adds)
    compare equal."""
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
        shown = [
            f"{name} = {op.properties[name]}"
            for name in _DESCRIBED_PROPERTIES
            if name in op.properties
        ]
        text = f"{op.name}{'<' + ', '.join(shown) + '>' if shown else ''}({operands})"
        if op.results:
            results: list[str] = []
            for result in op.results:
                names[result] = f"v{len(names) - len(block.args)}"
                results.append(names[result])
            types = ", ".join(str(result.type) for result in op.results)
            text = f"{', '.join(results)} = {text} : {types}"
        parts.append(text)
    return "; ".join(parts)


def verify_yield(op: Operation, body: Block, outputs: Sequence[SSAValue]) -> None:
    """The body ends in a `linalg.yield` of one value per output, of the
    output's element type; the messages are MLIR's (`linalg::YieldOp::verify`,
    which names `linalg.generic` and counts from 1 whatever the op)."""
    terminator = body.last_op
    if not isinstance(terminator, YieldOp):
        raise VerifyException(f"{op.name} body must end with linalg.yield")
    if len(terminator.arguments) != len(outputs):
        raise VerifyException(
            "expected number of yield values "
            f"({len(terminator.arguments)}) to match the number of inits / outs "
            f"operands of the enclosing LinalgOp ({len(outputs)})"
        )
    for number, (value, output) in enumerate(
        zip(terminator.arguments, outputs, strict=True), start=1
    ):
        element = element_type(output.type)
        if value.type != element:
            raise VerifyException(
                f"type of yield operand {number} ('{value.type}') doesn't match "
                f"the element type of the enclosing linalg.generic op ('{element}')"
            )


def tensor_results(outputs: Sequence[SSAValue]) -> list[Attribute]:
    return [output.type for output in outputs if isinstance(output.type, TensorType)]


class HiddenBodyOperation(NamedOperation, ABC):
    """A named op whose body is MLIR's definition, built by `build_body`.

    Its verifier checks that the body it holds (e.g. one read in generic form)
    is exactly that definition."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    BODY_PROPERTIES: ClassVar[tuple[str, ...]] = ()
    """The properties the body depends on (`cast`, `kind`), read by `build_body`."""

    @classmethod
    def input_count(cls) -> int | None:
        """How many `ins` MLIR's op takes (all take one `outs`), checked
        before the body is built; None where the op checks its operands
        itself."""
        return None

    @classmethod
    def check_operand_counts(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> None:
        expected = cls.input_count()
        if expected is not None and (len(inputs) != expected or len(outputs) != 1):
            plural = "" if expected == 1 else "s"
            raise VerifyException(
                f"{cls.name} takes {expected} input{plural} and one output, got "
                f"{len(inputs)} and {len(outputs)}"
            )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        """`defined_body` once the operand counts are the op's: parsing the
        custom form builds the body before any verifier runs."""
        cls.check_operand_counts(inputs, outputs)
        return cls.defined_body(inputs, outputs)

    @classmethod
    @abstractmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        """MLIR's body for these operands (their counts checked)."""

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
            result_types=tensor_results(outputs) if res is None else res,
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
        verify_yield(self, self.body.block, self.outputs)
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


# --- contractions ---------------------------------------------------------------


class ContractionOperation(HiddenBodyOperation, ABC):
    """matmul-like ops: out += cast(lhs) * cast(rhs) over DEFAULT_MAPS's loops,
    the last loop reduced."""

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]]

    @classmethod
    def input_count(cls) -> int | None:
        return 2

    @classmethod
    def defined_body(
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


class PointwiseOperation(ElementwiseOperation, ABC):
    """A named op MLIR defines over any rank (`O[None] = f(I[None], ...)`:
    the unary and binary elementwise ops, `select`, `powf`, `copy`).  Its
    loops are the output's dimensions; an operand of rank 0 is a scalar read
    at every point (`linalg.add ins(%a, %s : memref<4xf32>, memref<f32>)`
    adds `%s` to each element), each other operand is read through the
    identity, as MLIR's generated `getIndexingMaps` has it.  xDSL takes the
    rank of the first operand for all, so refused such ops."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        rank = len(shape_of(self.outputs[0].type))
        scalar = AffineMap(rank, 0, ())
        identity = AffineMap.identity(rank)
        return tuple(
            scalar if not shape_of(operand.type) else identity
            for operand in self.operands
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
        maps = [map_.data for map_ in self.get_indexing_maps()]
        if len(maps) == len(self.DEFAULT_MAPS) and not self.has_default_maps():
            self.verify_user_maps(maps)
        super().verify_()
        verify_projected_permutations(maps)

    def verify_user_maps(self, maps: Sequence[AffineMap]) -> None:
        """MLIR's checks of maps other than the default ones: an input's
        may transpose or drop (broadcast) the default map's dimensions only,
        as `memplan.dialects.linalg_matmul_maps` says (matmul's rule here;
        the batch variants override it)."""
        verify_matmul_maps(maps, self.DEFAULT_MAPS)

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


# --- custom syntax ------------------------------------------------------------


def parse_operands_with_types(parser: Parser) -> Sequence[SSAValue]:
    """`(%a, %b : T, U)`: operands with their types, resolved."""
    at = parser.pos
    parser.parse_punctuation("(")
    unresolved: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(unresolved, types, at)


def parse_one_in_one_out(parser: Parser, name: str) -> tuple[SSAValue, SSAValue]:
    """`ins(%a : T) outs(%b : U)` of an op that takes one of each, `name`."""
    values: list[SSAValue] = []
    for keyword in ("ins", "outs"):
        parser.parse_keyword(keyword, f" in {name}")
        at = parser.pos
        found = parse_operands_with_types(parser)
        if len(found) != 1:
            parser.raise_error(f"{name} takes one {keyword} operand", at, parser.pos)
        values.append(found[0])
    return values[0], values[1]


def parse_short_form_payload(parser: Parser) -> Callable[..., Region] | None:
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

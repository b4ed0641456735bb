"""affine for memplan: xDSL 0.74's dialect with MLIR's check of the step of
`affine.for`, and `affine.if` with MLIR's custom syntax and checks.

MLIR's verifier requires a positive step ("expected step to be a positive
integer"); xDSL's verifies any.  Its custom syntax refuses a negative step but
reads `step 0`, and its generic form takes any, so a loop whose step MLIR
leaves undefined verified and reached the passes; only `memplan-run` refused
it.

`ForOp` is a subclass of xDSL's, not a new definition: xDSL's `affine.yield`
accepts any subclass as its parent and passes keep
`isinstance(op, xdsl.dialects.affine.ForOp)`, but the interpreter, which
dispatches on the exact class, registers both.  xDSL's custom-form parser
builds its own class whatever class it is called on, so `ForOp.parse`
rebuilds what it returns.

xDSL's `affine.if` has no custom syntax (only the generic form parses) and
no verifier: a condition given the wrong number of operands, results
without an `else` region, or an `affine.yield` of other types than the
op's results all verified.  MLIR rejects each; `IfOp` does too.

The operands of `affine.if`, of `affine.for`'s bounds and of the accesses'
maps must be valid affine dimensions and symbols, as MLIR requires
(`memplan.dialects.affine_operands`; xDSL checks none).

`affine.load`, `affine.store` and their vector forms read and print their
indices as MLIR does (`memplan/dialects/affine_access.py` says what xDSL
got wrong); they also keep discardable attributes (`attr-dict`), which
xDSL's custom form dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self, TypeVar

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, IndexType, MemRefType
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.affine_access import parse_access_map, print_access_map
from memplan.dialects.affine_operands import (
    affine_scope,
    valid_dim,
    valid_symbol,
    verify_dims_and_symbols,
)
from memplan.dialects.memory import INDEX_MAX
from memplan.dialects.syntax import (
    parse_optional_arrow_types,
    print_optional_arrow_types,
    rebuilt_as,
)
from memplan.semi_affine import constant_problem

__all__ = [
    "AFFINE",
    "ApplyOp",
    "ForOp",
    "IfOp",
    "LoadOp",
    "StoreOp",
    "VectorLoadOp",
    "VectorStoreOp",
]

_AccessT = TypeVar(
    "_AccessT",
    affine.LoadOp,
    affine.StoreOp,
    affine.VectorLoadOp,
    affine.VectorStoreOp,
)


class ApplyOp(affine.ApplyOp):
    """`%r = affine.apply #map(%dims)[%symbols] {attrs}`, with MLIR's checks
    that the operands in parentheses are the map's dimensions ("dimension or
    symbol index mismatch") and that no symbol is a value only a dimension
    may be ("dimensional operand cannot be used as a symbol"); xDSL's makes
    neither, and its custom form dropped the attribute dictionary."""

    def verify_(self) -> None:
        super().verify_()
        scope = affine_scope(self)
        for operand in self.mapOperands[self.map.data.num_dims :]:
            if valid_dim(operand, scope) and not valid_symbol(operand, scope):
                raise VerifyException("dimensional operand cannot be used as a symbol")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        at = parser.pos
        map_ = parser.parse_attribute()
        if not isinstance(map_, AffineMapAttr):
            parser.raise_error(f"expected an affine map, got {map_}", at, parser.pos)
        dims = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
        )
        symbols = parser.parse_optional_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        attributes = parser.parse_optional_attr_dict()
        inputs = [*dims, *(symbols or ())]
        if map_.data.num_dims != len(dims) or map_.data.num_dims + (
            map_.data.num_symbols
        ) != len(inputs):
            parser.raise_error(
                f"dimension or symbol index mismatch: {map_} takes "
                f"{map_.data.num_dims} dimension(s) and {map_.data.num_symbols} "
                f"symbol(s), got {len(dims)} and {len(inputs) - len(dims)}",
                at,
                parser.pos,
            )
        op = cls(inputs, map_)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        super().print(printer)
        printer.print_op_attributes(self.attributes)


class ForOp(affine.ForOp):
    """`affine.for %i = lb to ub step s { ... }`, with `s` at least 1, bound
    maps of at least one result, and an `affine.yield` of the result types
    (xDSL checks neither)."""

    def verify_(self) -> None:
        super().verify_()
        step = self.step.value.data
        if not 0 < step <= INDEX_MAX:
            raise VerifyException(
                f"expected step to be a positive integer (1 to {INDEX_MAX}), got {step}"
            )
        for which, bound in (
            ("lower", self.lowerBoundMap),
            ("upper", self.upperBoundMap),
        ):
            if not bound.data.results:
                raise VerifyException(
                    f"expected {which} bound map to have at least one result"
                )
        for bound, operands in (
            (self.lowerBoundMap, self.lowerBoundOperands),
            (self.upperBoundMap, self.upperBoundOperands),
        ):
            verify_dims_and_symbols(operands, bound.data.num_dims, self)
        yielded = self.body.block.last_op
        if isinstance(yielded, affine.YieldOp):
            if len(yielded.arguments) != len(self.res):
                raise VerifyException(
                    "parent of yield must have same number of results as the yield "
                    f"operands: affine.yield has {len(yielded.arguments)}, the op "
                    f"{len(self.res)}"
                )
            if yielded.arguments.types != self.res.types:
                raise VerifyException(
                    "types mismatch between yield op and its parent: affine.yield "
                    f"yields ({', '.join(map(str, yielded.arguments.types))}), the "
                    f"op's results are ({', '.join(map(str, self.res.types))})"
                )
        for bound in (self.lowerBoundMap, self.upperBoundMap):
            for result in bound.data.results:
                for expr in result.dfs():
                    if isinstance(expr, AffineConstantExpr):
                        problem = constant_problem(expr.value)
                        if problem is not None:
                            raise VerifyException(f"bound {bound}: {problem}")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parsed = super().parse(parser)
        op = rebuilt_as(parsed, cls)
        parsed.erase()
        return op


class IfOp(affine.IfOp):
    """`%r = affine.if #set(%dims)[%symbols] -> type { ... } else { ... }`:
    runs the `then` block when every constraint of the integer set holds
    for the operands, else the `else` block (if any)."""

    def verify_(self) -> None:
        if not self.then_region.blocks:
            raise VerifyException("expected a then region of one block, got none")
        self.get_irdl_definition().verify(self)
        condition = self.condition.data
        expected = condition.num_dims + condition.num_symbols
        if len(self.args) != expected:
            raise VerifyException(
                "operand count and condition integer set dimension and symbol "
                f"count must match: the set takes {condition.num_dims} "
                f"dimension(s) and {condition.num_symbols} symbol(s), the op "
                f"has {len(self.args)} operand(s)"
            )
        verify_dims_and_symbols(self.args, condition.num_dims, self)
        if self.res and not self.else_region.blocks:
            raise VerifyException(
                f"an op with results ({len(self.res)}) needs an else region: "
                "expected an else block that yields them"
            )
        for region in self.regions:
            block = region.first_block
            if block is None:
                continue
            if block.args:
                raise VerifyException(
                    f"region cannot have any arguments, got {len(block.args)}"
                )
            last = block.last_op
            if isinstance(last, affine.YieldOp) and last.arguments.types != (
                self.res.types
            ):
                raise VerifyException(
                    "affine.yield yields "
                    f"({', '.join(map(str, last.arguments.types))}): expected "
                    f"the op's result types ({', '.join(map(str, self.res.types))})"
                )

    def print(self, printer: Printer) -> None:
        condition = self.condition.data
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        printer.print_string("(")
        printer.print_list(self.args[: condition.num_dims], printer.print_operand)
        printer.print_string(")")
        if condition.num_symbols:
            printer.print_string("[")
            printer.print_list(self.args[condition.num_dims :], printer.print_operand)
            printer.print_string("]")
        print_optional_arrow_types(printer, self.res.types)
        printer.print_string(" ")
        terminators = bool(self.res)
        printer.print_region(
            self.then_region,
            print_entry_block_args=False,
            print_block_terminators=terminators,
        )
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(
                self.else_region,
                print_entry_block_args=False,
                print_block_terminators=terminators,
            )
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        at = parser.pos
        condition = parser.parse_attribute()
        if not isinstance(condition, AffineSetAttr):
            parser.raise_error(
                f"expected an integer set (affine_set<...>), got {condition}",
                at,
                parser.pos,
            )
        dims = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
        )
        symbols = parser.parse_optional_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        result_types = parse_optional_arrow_types(parser)
        then_region = _with_terminator(parser.parse_region())
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = _with_terminator(parser.parse_region())
        return cls.create(
            operands=[*dims, *(symbols or ())],
            result_types=result_types,
            properties={"condition": condition},
            attributes=dict(parser.parse_optional_attr_dict()),
            regions=[then_region, else_region],
        )


def _with_terminator(region: Region) -> Region:
    """MLIR's `ensureTerminator`: the `affine.yield` the custom form leaves
    out of a block that yields nothing."""
    if not region.blocks:
        region.add_block(Block())
    block = region.block
    if not isinstance(block.last_op, affine.YieldOp):
        block.add_op(affine.YieldOp.get())
    return region


@dataclass(frozen=True)
class _Access:
    """What the custom form of a memory access op reads after its value:
    `%memref[indices] attr-dict : memref-type (, vector-type)?`."""

    memref: SSAValue
    memref_type: MemRefType
    indices: Sequence[SSAValue]
    access: AffineMap
    attributes: dict[str, Attribute]
    vector_type: Attribute | None

    @staticmethod
    def parse(parser: Parser, vector: bool) -> _Access:
        memref = parser.parse_unresolved_operand()
        access, indices = parse_access_map(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error(f"expected a memref type, got {memref_type}", at)
        vector_type = None
        if vector:
            parser.parse_punctuation(",")
            vector_type = parser.parse_type()
        return _Access(
            parser.resolve_operand(memref, memref_type),
            memref_type,
            indices,
            access,
            attributes,
            vector_type,
        )

    @property
    def element_type(self) -> Attribute:
        """What one access reads or writes: the vector, or one element."""
        return self.vector_type or self.memref_type.element_type

    def create(self, cls: type[_AccessT], *operands: SSAValue) -> _AccessT:
        """`cls` with `operands` (the stored value of a store) before the
        memref and indices; a load (no stored value) results in the
        accessed type."""
        return cls.create(
            operands=[*operands, self.memref, *self.indices],
            result_types=[] if operands else [self.element_type],
            properties={"map": AffineMapAttr(self.access)},
            attributes=self.attributes,
        )


def _print_access(
    printer: Printer,
    op: affine.LoadOp | affine.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp,
) -> None:
    """`%memref[indices] attr-dict : memref-type`."""
    printer.print_ssa_value(op.memref)
    print_access_map(printer, op.map.data, op.indices)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.memref.type)


def _parse_store(parser: Parser, cls: type[_AccessT], vector: bool) -> _AccessT:
    """`%value, %memref[indices] attr-dict : types` as a `cls`."""
    value = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    access = _Access.parse(parser, vector)
    return access.create(cls, parser.resolve_operand(value, access.element_type))


def _verify_map(
    op: affine.LoadOp | affine.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp,
) -> None:
    """MLIR's check of an access map, which xDSL does not make: one result
    per memref dimension, one input per index operand, dimensions and
    symbols that are valid ones (`memplan.dialects.affine_operands`)."""
    map_ = op.map.data
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    rank = memref_type.get_num_dims()
    if len(map_.results) != rank:
        raise VerifyException(
            f"affine map num results must equal memref rank: {op.map} has "
            f"{len(map_.results)}, {memref_type} has rank {rank}"
        )
    if map_.num_dims + map_.num_symbols != len(op.indices):
        raise VerifyException(
            f"expects as many subscripts as affine map inputs: {op.map} takes "
            f"{map_.num_dims + map_.num_symbols}, the op has {len(op.indices)}"
        )
    verify_dims_and_symbols(op.indices, map_.num_dims, op)


class LoadOp(affine.LoadOp):
    """`%v = affine.load %m[%i + 1, symbol(%n)] : memref<...>`."""

    def verify_(self) -> None:
        super().verify_()
        _verify_map(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _Access.parse(parser, vector=False).create(cls)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self)


class StoreOp(affine.StoreOp):
    """`affine.store %v, %m[%i, symbol(%n)] : memref<...>`."""

    def verify_(self) -> None:
        super().verify_()
        _verify_map(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_store(parser, cls, vector=False)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self)


class VectorLoadOp(affine.VectorLoadOp):
    """`%v = affine.vector_load %m[%i] : memref<...>, vector<...>`."""

    def verify_(self) -> None:
        super().verify_()
        _verify_map(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _Access.parse(parser, vector=True).create(cls)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self)
        printer.print_string(", ")
        printer.print_attribute(self.result.type)


class VectorStoreOp(affine.VectorStoreOp):
    """`affine.vector_store %v, %m[%i] : memref<...>, vector<...>`."""

    def verify_(self) -> None:
        super().verify_()
        _verify_map(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_store(parser, cls, vector=True)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)


_OURS: dict[type, type] = {
    affine.ApplyOp: ApplyOp,
    affine.ForOp: ForOp,
    affine.IfOp: IfOp,
    affine.LoadOp: LoadOp,
    affine.StoreOp: StoreOp,
    affine.VectorLoadOp: VectorLoadOp,
    affine.VectorStoreOp: VectorStoreOp,
}

AFFINE = Dialect(
    "affine",
    [_OURS.get(op, op) for op in affine.Affine.operations],
    list(affine.Affine.attributes),
)
"""affine for memplan: xDSL's ops with the classes above in place of theirs."""

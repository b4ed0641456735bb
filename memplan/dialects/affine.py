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

xDSL's `affine.parallel` has no custom syntax either, and its properties are
not MLIR's: it reads `reductions` as strings where MLIR writes the integers
of `arith.atomic_rmw` kinds (`reductions = [0, 5]`), so no loop with
reductions MLIR prints verified, and it checks none of MLIR's rules.
`ParallelOp` is a new definition with MLIR's properties, syntax and
checks (`AffineParallelOp::verify`).

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
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.affine_access import (
    parse_access_map,
    parse_bounds,
    print_access_map,
    print_bounds,
)
from memplan.dialects.affine_operands import (
    affine_scope,
    valid_dim,
    valid_symbol,
    verify_dims_and_symbols,
)
from memplan.dialects.arith import ATOMIC_RMW_KINDS
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
    "ParallelOp",
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
        _verify_yield(self)
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


def _verify_yield(op: Operation) -> None:
    """MLIR's check of the `affine.yield` ending `op`'s body: one operand per
    result of `op`, of its type."""
    yielded = op.regions[0].block.last_op
    if not isinstance(yielded, affine.YieldOp):
        return
    if len(yielded.arguments) != len(op.results):
        raise VerifyException(
            "parent of yield must have same number of results as the yield "
            f"operands: affine.yield has {len(yielded.arguments)}, the op "
            f"{len(op.results)}"
        )
    if yielded.arguments.types != op.result_types:
        raise VerifyException(
            "types mismatch between yield op and its parent: affine.yield "
            f"yields ({', '.join(map(str, yielded.arguments.types))}), the "
            f"op's results are ({', '.join(map(str, op.result_types))})"
        )


_FLOAT_KINDS = frozenset({"addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf"})
_INTEGER_KINDS = frozenset({"addi", "muli", "andi", "ori", "xori"})


def _reduces(kind: str, type_: Attribute) -> bool:
    """MLIR's `isResultTypeMatchAtomicRMWKind`: float kinds take a float,
    integer kinds an integer (not `index`), `maxs`/`mins` a signed integer
    (`si32`), `maxu`/`minu` an unsigned one (`ui32`), `assign` anything."""
    if kind == "assign":
        return True
    if kind in _FLOAT_KINDS:
        return isinstance(type_, AnyFloat)
    if not isinstance(type_, IntegerType):
        return False
    if kind in _INTEGER_KINDS:
        return True
    wanted = Signedness.SIGNED if kind in ("maxs", "mins") else Signedness.UNSIGNED
    return type_.signedness.data == wanted


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """Runs its body for every point of a box of induction variables, in any
    order, and folds what each iteration yields into the results with the
    op's reductions:

    `%r = affine.parallel (%i, %j) = (0, max(0, %n - 4)) to (%n, min(%m, 8))
    step (1, 2) reduce ("addf") -> (f32) { ... affine.yield %v : f32 }`

    Each lower bound is the largest result of its group of the lower bounds
    map, each upper bound the smallest of its group of the upper bounds map
    (`lowerBoundsGroups`, `upperBoundsGroups`: how many results each
    induction variable takes); the operands are the lower bounds map's, then
    the upper bounds map's."""

    name = "affine.parallel"

    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr)
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr])

    res = var_result_def()

    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    @property
    def lower_operands(self) -> Sequence[SSAValue]:
        count = self.lowerBoundsMap.data.num_dims + (
            self.lowerBoundsMap.data.num_symbols
        )
        return self.map_operands[:count]

    @property
    def upper_operands(self) -> Sequence[SSAValue]:
        return self.map_operands[len(self.lower_operands) :]

    @property
    def reduction_kinds(self) -> tuple[str, ...]:
        """The reductions by name (`"addf"`); verified ones only."""
        return tuple(
            ATOMIC_RMW_KINDS[kind.value.data]
            for kind in self.reductions
            if isinstance(kind, IntegerAttr)
        )

    def verify_(self) -> None:
        if any(
            not isinstance(kind, IntegerAttr)
            or kind.type != i64
            or not 0 <= kind.value.data < len(ATOMIC_RMW_KINDS)
            for kind in self.reductions
        ):
            raise VerifyException(
                "attribute 'reductions' failed to satisfy constraint: Reduction ops"
            )
        block = self.body.block
        if not isinstance(block.last_op, affine.YieldOp):
            found = "no op" if block.last_op is None else block.last_op.name
            raise VerifyException(
                f"expects regions to end with 'affine.yield', found '{found}'"
            )
        lower_groups = self.lowerBoundsGroups.get_values()
        upper_groups = self.upperBoundsGroups.get_values()
        rank = len(block.args)
        if not rank == len(lower_groups) == len(upper_groups) == len(self.steps):
            raise VerifyException(
                f"the number of region arguments ({rank}) and the number of map "
                f"groups for lower ({len(lower_groups)}) and upper bound "
                f"({len(upper_groups)}), and the number of steps "
                f"({len(self.steps)}) must all match"
            )
        for which, bounds, groups in (
            ("lower", self.lowerBoundsMap, lower_groups),
            ("upper", self.upperBoundsMap, upper_groups),
        ):
            if any(group <= 0 for group in groups):
                raise VerifyException(
                    f"expected {which} bound map to have at least one result"
                )
            if sum(groups) != len(bounds.data.results):
                raise VerifyException(
                    f"expected {which} bounds map to have {sum(groups)} results"
                )
        for arg in block.args:
            if not isinstance(arg.type, IndexType):
                raise VerifyException(
                    f"expected the induction variables to be index, got {arg.type}"
                )
        inputs = sum(
            bounds.data.num_dims + bounds.data.num_symbols
            for bounds in (self.lowerBoundsMap, self.upperBoundsMap)
        )
        if len(self.map_operands) != inputs:
            raise VerifyException(
                f"expected {inputs} operands, the inputs of the lower then the "
                f"upper bounds map, got {len(self.map_operands)}"
            )
        if len(self.res) != len(self.reductions):
            raise VerifyException("a reduction must be specified for each output")
        for kind, type_ in zip(self.reduction_kinds, self.res.types, strict=True):
            if not _reduces(kind, type_):
                raise VerifyException("result type cannot match reduction attribute")
        verify_dims_and_symbols(
            self.lower_operands, self.lowerBoundsMap.data.num_dims, self
        )
        verify_dims_and_symbols(
            self.upper_operands, self.upperBoundsMap.data.num_dims, self
        )
        _verify_yield(self)

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(") = ")
        print_bounds(
            printer,
            self.lowerBoundsMap.data,
            self.lowerBoundsGroups.get_values(),
            self.lower_operands,
            "max",
        )
        printer.print_string(" to ")
        print_bounds(
            printer,
            self.upperBoundsMap.data,
            self.upperBoundsGroups.get_values(),
            self.upper_operands,
            "min",
        )
        steps = [step.value.data for step in self.steps]
        if any(step != 1 for step in steps):
            printer.print_string(" step (")
            printer.print_list(steps, lambda step: printer.print_string(str(step)))
            printer.print_string(")")
        if self.res:
            printer.print_string(" reduce (")
            printer.print_list(
                self.reduction_kinds, lambda kind: printer.print_string(f'"{kind}"')
            )
            printer.print_string(") -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        variables = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower, lower_groups, lower_operands = parse_bounds(parser, "max")
        parser.parse_keyword("to")
        upper, upper_groups, upper_operands = parse_bounds(parser, "min")
        steps = [1] * len(variables)
        if parser.parse_optional_keyword("step") is not None:
            steps = _parse_steps(parser)
        kinds: list[int] = []
        if parser.parse_optional_keyword("reduce") is not None:
            kinds = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: _parse_reduction(parser)
            )
        result_types = parse_optional_arrow_types(parser)
        body = _with_terminator(
            parser.parse_region([v.resolve(IndexType()) for v in variables])
        )
        return cls.create(
            operands=[*lower_operands, *upper_operands],
            result_types=result_types,
            properties={
                "reductions": ArrayAttr([IntegerAttr(kind, i64) for kind in kinds]),
                "lowerBoundsMap": AffineMapAttr(lower),
                "lowerBoundsGroups": _groups(lower_groups),
                "upperBoundsMap": AffineMapAttr(upper),
                "upperBoundsGroups": _groups(upper_groups),
                "steps": ArrayAttr([IntegerAttr(step, i64) for step in steps]),
            },
            attributes=dict(parser.parse_optional_attr_dict()),
            regions=[body],
        )


def _groups(sizes: Sequence[int]) -> DenseIntElementsAttr:
    """`dense<[1, 2]> : tensor<2xi32>`: how many results each bound takes."""
    return DenseIntElementsAttr.from_list(TensorType(i32, [len(sizes)]), sizes)


def _parse_steps(parser: Parser) -> list[int]:
    """`(2, 4)`: constant steps, which MLIR reads as affine expressions."""
    at = parser.pos
    steps, _, operands = parse_bounds(parser, None)
    if operands or not all(
        isinstance(step, AffineConstantExpr) for step in steps.results
    ):
        parser.raise_error("steps must be constant integers", at, parser.pos)
    return [
        step.value for step in steps.results if isinstance(step, AffineConstantExpr)
    ]


def _parse_reduction(parser: Parser) -> int:
    at = parser.pos
    kind = parser.parse_str_literal()
    if kind not in ATOMIC_RMW_KINDS:
        parser.raise_error(f'invalid reduction value: "{kind}"', at, parser.pos)
    return ATOMIC_RMW_KINDS.index(kind)


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
    affine.ParallelOp: ParallelOp,
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

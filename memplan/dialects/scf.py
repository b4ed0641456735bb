"""scf for memplan: xDSL 0.74's dialect with `scf.execute_region`,
`scf.parallel` and `scf.reduce` printed and parsed as MLIR does, and
`scf.for`, `scf.while` and `scf.if` verified as MLIR does.

xDSL prints an `scf.execute_region` without results with none of its block
terminators, so a region of several blocks lost its `cf.br`, `cf.cond_br`
and `scf.yield` ops (and a single block its `scf.yield`), and parsing drops
the op's attributes.  MLIR always prints the terminators.

xDSL's `scf.parallel` has no custom syntax at all (only the generic form
parses), and its `scf.reduce` prints several reduction regions without the
commas MLIR puts between them, and does not parse them with commas.

xDSL has no `scf.forall` and `scf.forall.in_parallel`: `ForallOp` and
`InParallelOp` are new definitions with MLIR's properties, syntax and checks.
A `mapping` must be an array of device mapping attributes (`#gpu.thread<x>`,
...), which xDSL 0.74 does not define: only an empty one verifies.

The other ops are subclasses of xDSL's, not new definitions: xDSL's `scf.yield`
accepts only an xDSL `scf.execute_region` as its parent, `scf.reduce` only an
xDSL `scf.parallel` and `scf.reduce.return` only an xDSL `scf.reduce`, and a
new `scf.yield` would not run in xDSL's scf interpreter.  So passes may keep
`isinstance(op, xdsl.dialects.scf.ExecuteRegionOp)`, but the interpreter,
which dispatches on the exact class, must register these.  MLIR's
`no_inline` property is not supported: xDSL's definition has no room for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    ConstantLike,
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.syntax import (
    parse_optional_arrow_types,
    print_results_and_body,
    print_values_with_types,
)

__all__ = [
    "SCF",
    "ExecuteRegionOp",
    "ForOp",
    "ForallOp",
    "IfOp",
    "InParallelOp",
    "ParallelOp",
    "ReduceOp",
    "WhileOp",
]


class ExecuteRegionOp(scf.ExecuteRegionOp):
    """Runs its region once: `%r = scf.execute_region -> i32 { ... }`.

    The region may hold several blocks; each block that leaves the op ends in
    an `scf.yield` of the op's result types."""

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        entry = self.region.first_block
        if entry is None:
            raise VerifyException("region needs to have at least one block")
        if entry.args:
            raise VerifyException(
                f"region cannot have any arguments, got {len(entry.args)}"
            )
        expected = self.outs.types
        for block in self.region.blocks:
            last = block.last_op
            if isinstance(last, scf.YieldOp) and last.arguments.types != expected:
                raise VerifyException(
                    f"scf.yield yields ({', '.join(map(str, last.arguments.types))}): "
                    f"expected the op's result types ({', '.join(map(str, expected))})"
                )

    def print(self, printer: Printer) -> None:
        print_results_and_body(printer, self.outs.types, self.region, self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        result_types = parse_optional_arrow_types(parser)
        at = parser.pos
        if parser.parse_optional_keyword("no_inline") is not None:
            parser.raise_error(
                "scf.execute_region no_inline is not supported (xDSL 0.74's "
                "scf.execute_region has no no_inline property)",
                at,
                parser.pos,
            )
        region = parser.parse_region()
        return cls.create(
            result_types=result_types,
            regions=[region],
            attributes=parser.parse_optional_attr_dict(),
        )


class ParallelOp(scf.ParallelOp):
    """Runs its body for every point of a box of induction variables, in any
    order, and folds what each iteration's `scf.reduce` passes into the
    results, from the init values:

    `%r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1)
    init (%zero) -> f32 { ... scf.reduce(%v : f32) { ... } }`

    The `scf.reduce` terminator is always printed; a body without one gets
    an empty one when parsed, as in MLIR.  A step that is a constant must be
    positive, as MLIR's verifier requires (xDSL's takes any)."""

    def verify_(self) -> None:
        if not self.lowerBound:
            raise VerifyException(
                "needs at least one tuple element for lowerBound, upperBound and step"
            )
        super().verify_()
        for step in self.step:
            constant = ConstantLike.get_constant_value(step)
            if isinstance(constant, IntegerAttr) and constant.value.data <= 0:
                raise VerifyException(
                    f"constant step operand must be positive, got {constant.value.data}"
                )

    def print(self, printer: Printer) -> None:
        for keyword, values in (
            (" (", self.body.block.args),
            (") = (", self.lowerBound),
            (") to (", self.upperBound),
            (") step (", self.step),
        ):
            printer.print_string(keyword)
            printer.print_list(values, printer.print_ssa_value)
        printer.print_string(")")
        if self.initVals:
            printer.print_string(" init (")
            printer.print_list(self.initVals, printer.print_ssa_value)
            printer.print_string(")")
        print_results_and_body(printer, self.res.types, self.body, self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        variables = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower = _parse_bounds(parser, "lower bounds", len(variables))
        parser.parse_keyword("to")
        upper = _parse_bounds(parser, "upper bounds", len(variables))
        parser.parse_keyword("step")
        steps = _parse_bounds(parser, "steps", len(variables))
        at = parser.pos
        init: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            init = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        result_types = parse_optional_arrow_types(parser)
        if len(init) != len(result_types):
            parser.raise_error(
                f"scf.parallel has {len(init)} init value(s) and "
                f"{len(result_types)} result type(s): expected one result type "
                "per init value",
                at,
                parser.pos,
            )
        body = parser.parse_region([v.resolve(IndexType()) for v in variables])
        attributes = parser.parse_optional_attr_dict()
        block = body.block
        if not isinstance(block.last_op, scf.ReduceOp):
            block.add_op(ReduceOp())
        op = cls(
            lower, upper, steps, body, parser.resolve_operands(init, result_types, at)
        )
        op.attributes |= attributes
        return op


def _parse_bounds(parser: Parser, what: str, count: int) -> list[SSAValue]:
    """`(%a, %b)`: one index value per induction variable."""
    at = parser.pos
    values = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
    if len(values) != count:
        parser.raise_error(
            f"expected {count} {what}, one per induction variable, got {len(values)}",
            at,
            parser.pos,
        )
    return [parser.resolve_operand(value, IndexType()) for value in values]


class ReduceOp(scf.ReduceOp):
    """Ends an `scf.parallel` body, passing each operand to the reduction
    region at its position: `scf.reduce(%a, %b : f32, i32) { ... }, { ... }`,
    or `scf.reduce` without reductions."""

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string("(")
            print_values_with_types(printer, self.args)
            printer.print_string(")")
        if self.reductions:
            printer.print_string(" ")
            printer.print_list(self.reductions, printer.print_region)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        args: Sequence[SSAValue] = ()
        at = parser.pos
        if parser.parse_optional_punctuation("(") is not None:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
            args = parser.resolve_operands(operands, types, at)
        regions: list[Region] = []
        region = parser.parse_optional_region()
        if region is not None:
            regions.append(region)
            while parser.parse_optional_punctuation(",") is not None:
                regions.append(parser.parse_region())
        return cls.create(
            operands=args,
            regions=regions,
            attributes=parser.parse_optional_attr_dict(),
        )


def _constant(value: SSAValue) -> int | None:
    constant = ConstantLike.get_constant_value(value)
    return constant.value.data if isinstance(constant, IntegerAttr) else None


@irdl_op_definition
class ForallOp(IRDLOperation):
    """Runs its body for every point of a box of induction variables, in any
    order (`scf.forall (%i, %j) in (%n, 8) { ... }`, from 0 by 1, or
    `scf.forall (%i) = (%lb) to (%ub) step (4) { ... }`).  Each bound and
    step is a constant or an operand.  On tensors, `shared_outs(%o = %t) ->
    (tensor<...>)` hands each iteration the tensors it inserts its part into
    from its `scf.forall.in_parallel` terminator; after bufferization the op
    has neither and the terminator is empty."""

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def()

    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)

    res = var_result_def()

    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def rank(self) -> int:
        return len(self.staticLowerBound)

    def mixed(self, which: str) -> list[SSAValue | int]:
        """The lower bounds, upper bounds or steps (`which`), each a constant
        or an operand."""
        static: DenseArrayBase[IntegerType] = getattr(self, f"static{which}")
        dynamic = iter(getattr(self, f"dynamic{which}"))
        return [
            next(dynamic) if value == DYNAMIC_INDEX else value
            for value in static.get_values()
        ]

    def is_normalized(self) -> bool:
        """MLIR's `isNormalized`: every lower bound is 0 and every step 1
        (constants, or operands of constant value)."""
        return all(
            (value if isinstance(value, int) else _constant(value)) == expected
            for which, expected in (("LowerBound", 0), ("Step", 1))
            for value in self.mixed(which)
        )

    def verify_(self) -> None:
        offset = sum(
            map(len, (self.dynamicLowerBound, self.dynamicUpperBound, self.dynamicStep))
        )
        for number, output in enumerate(self.outputs):
            if not isinstance(output.type, TensorType):
                raise VerifyException(
                    f"operand #{offset + number} must be variadic of ranked tensor "
                    f"of any non-token type values, but got '{output.type}'"
                )
        if self.mapping is not None and self.mapping.data:
            raise VerifyException(
                "attribute 'mapping' failed to satisfy constraint: Device Mapping "
                "array attribute"
            )
        block = self.body.block
        if not isinstance(block.last_op, InParallelOp):
            found = "no op" if block.last_op is None else block.last_op.name
            raise VerifyException(
                f"expects regions to end with 'scf.forall.in_parallel', found '{found}'"
            )
        rank = self.rank
        if len(self.res) != len(self.outputs):
            raise VerifyException(
                f"produces {len(self.res)} results, but has only "
                f"{len(self.outputs)} outputs"
            )
        for number, (output, result) in enumerate(
            zip(self.outputs, self.res, strict=True)
        ):
            if output.type != result.type:
                raise VerifyException(
                    f"expected type of operand #{offset + number} ('{output.type}') "
                    f"to match type of corresponding result ('{result.type}')"
                )
        if len(block.args) != rank + len(self.outputs):
            raise VerifyException(f"region expects {rank} arguments")
        for number, arg in enumerate(block.args[:rank]):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(
                    f"expects {number}-th block argument to be an index"
                )
        for number, (output, arg) in enumerate(
            zip(self.outputs, block.args[rank:], strict=True)
        ):
            if output.type != arg.type:
                raise VerifyException(
                    f"type mismatch between {number}-th output and corresponding "
                    "block argument"
                )
        for which, name in (
            ("LowerBound", "lower bound"),
            ("UpperBound", "upper bound"),
            ("Step", "step"),
        ):
            static: DenseArrayBase[IntegerType] = getattr(self, f"static{which}")
            values = static.get_values()
            if len(values) != rank:
                raise VerifyException(
                    f"expected {rank} {name} values, got {len(values)}"
                )
            dynamic = values.count(DYNAMIC_INDEX)
            if len(getattr(self, f"dynamic{which}")) != dynamic:
                raise VerifyException(f"expected {dynamic} dynamic {name} values")

    def print(self, printer: Printer) -> None:
        rank = self.rank
        block = self.body.block
        printer.print_string(" (")
        printer.print_list(block.args[:rank], printer.print_ssa_value)
        if self.is_normalized():
            printer.print_string(") in ")
            self._print_list(printer, "UpperBound")
        else:
            printer.print_string(") = ")
            self._print_list(printer, "LowerBound")
            printer.print_string(" to ")
            self._print_list(printer, "UpperBound")
            printer.print_string(" step ")
            self._print_list(printer, "Step")
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(block.args[rank:], self.outputs, strict=True),
                lambda pair: (
                    printer.print_ssa_value(pair[0]),
                    printer.print_string(" = "),
                    printer.print_ssa_value(pair[1]),
                ),
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
        attributes = dict(self.attributes)
        if self.mapping is not None:
            attributes["mapping"] = self.mapping
        printer.print_op_attributes(dict(sorted(attributes.items())))

    def _print_list(self, printer: Printer, which: str) -> None:
        static: DenseArrayBase[IntegerType] = getattr(self, f"static{which}")
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            getattr(self, f"dynamic{which}"),
            static.get_values(),
            delimiter=Parser.Delimiter.PAREN,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        variables = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        rank = len(variables)
        if parser.parse_optional_keyword("in") is not None:
            lower = ([], [0] * rank)
            upper = _parse_mixed(parser)
            step = ([], [1] * rank)
        else:
            parser.parse_punctuation("=")
            lower = _parse_mixed(parser)
            parser.parse_keyword("to")
            upper = _parse_mixed(parser)
            parser.parse_keyword("step")
            step = _parse_mixed(parser)
        outs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        result_types: Sequence[Attribute] = ()
        at = parser.pos
        if parser.parse_optional_keyword("shared_outs") is not None:
            outs = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: _parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
        if len(outs) != len(result_types):
            parser.raise_error(
                f"scf.forall has {len(outs)} shared_outs and {len(result_types)} "
                "result type(s): expected one result type per shared_out",
                at,
                parser.pos,
            )
        arguments = [variable.resolve(IndexType()) for variable in variables]
        arguments.extend(
            out.resolve(type_)
            for (out, _), type_ in zip(outs, result_types, strict=True)
        )
        body = parser.parse_region(arguments)
        block = body.block
        if not isinstance(block.last_op, InParallelOp):
            block.add_op(InParallelOp(Region(Block())))
        attributes = dict(parser.parse_optional_attr_dict())
        properties: dict[str, Attribute] = {
            "staticLowerBound": DenseArrayBase.from_list(i64, lower[1]),
            "staticUpperBound": DenseArrayBase.from_list(i64, upper[1]),
            "staticStep": DenseArrayBase.from_list(i64, step[1]),
        }
        if "mapping" in attributes:
            properties["mapping"] = attributes.pop("mapping")
        outputs = [
            parser.resolve_operand(operand, type_)
            for (_, operand), type_ in zip(outs, result_types, strict=True)
        ]
        return cls(
            operands=[lower[0], upper[0], step[0], outputs],
            result_types=[result_types],
            properties=properties,
            attributes=attributes,
            regions=[body],
        )


def _parse_mixed(parser: Parser) -> tuple[list[SSAValue], list[int]]:
    """`(%n, 8)`: the operands and the static values, `DYNAMIC_INDEX` where
    an operand stands."""
    operands, static = parse_dynamic_index_list_without_types(
        parser, DYNAMIC_INDEX, delimiter=parser.Delimiter.PAREN
    )
    return [parser.resolve_operand(o, IndexType()) for o in operands], list(static)


def _parse_assignment(
    parser: Parser,
) -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
    """`%o = %t` of `shared_outs`."""
    argument = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    return argument, parser.parse_unresolved_operand()


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """Ends an `scf.forall` body: `scf.forall.in_parallel { ... }`, whose
    block holds the ops that insert each iteration's part into the shared
    outputs (`tensor.parallel_insert_slice`); empty on memrefs."""

    name = "scf.forall.in_parallel"

    region = region_def()

    traits = traits_def(IsTerminator(), NoTerminator(), RecursiveMemoryEffect())

    def __init__(self, region: Region):
        super().__init__(regions=[region])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), ForallOp):
            raise VerifyException("expects parent op 'scf.forall'")
        if len(self.region.blocks) != 1:
            raise VerifyException(
                "region #0 ('region') failed to verify constraint: region with 1 blocks"
            )
        for op in self.region.block.ops:
            if op.name != "tensor.parallel_insert_slice":
                raise VerifyException("expected only ParallelCombiningOpInterface ops")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_empty_block=False
        )
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(region)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


def _types(types: Sequence[Attribute]) -> str:
    return f"({', '.join(map(str, types))})"


class ForOp(scf.ForOp):
    """Runs its body once per induction value, handing on the loop-carried
    values.  Verified as MLIR verifies the edge from its operands to its
    results (a loop of no trip): one result per loop-carried value, of its
    type; xDSL checks the block arguments and the yield against the
    operands, not the results, so a loop whose results had other types than
    its values verified."""

    def verify_(self) -> None:
        super().verify_()
        carried = tuple(self.iter_args.types)
        results = tuple(self.res.types)
        if len(carried) != len(results):
            raise VerifyException(
                "mismatch in number of loop-carried values and defined values: "
                f"{len(carried)} loop-carried, {len(results)} results"
            )
        for number, (source, target) in enumerate(zip(carried, results, strict=True)):
            if source != target:
                raise VerifyException(
                    "along control flow edge from parent to Operation scf.for: "
                    f"successor operand type #{number} '{source}' should match "
                    f"successor input type #{number} '{target}'"
                )


class IfOp(scf.IfOp):
    """Runs its `then` region if the condition holds, else its `else` region;
    the `scf.yield` ending the region run gives the results.  Verified as
    MLIR verifies the edges from each `scf.yield` to the results (xDSL checks
    neither, so an `scf.if` could yield more values than it has results, or
    values of other types, and run), and an op with results needs an else
    region."""

    def verify_(self) -> None:
        super().verify_()
        results = tuple(self.output.types)
        if results and not self.false_region.blocks:
            raise VerifyException("must have an else block if defining values")
        for region in (self.true_region, self.false_region):
            if not region.blocks:
                continue
            yielded = region.block.last_op
            if not isinstance(yielded, scf.YieldOp):
                continue
            handed = tuple(yielded.arguments.types)
            if len(handed) != len(results):
                raise VerifyException(
                    "along control flow edge from Operation scf.yield to Operation "
                    f"scf.if: region branch point has {len(handed)} operands, but "
                    f"region successor needs {len(results)} inputs"
                )
            for number, (source, target) in enumerate(
                zip(handed, results, strict=True)
            ):
                if source != target:
                    raise VerifyException(
                        "along control flow edge from Operation scf.yield to "
                        f"Operation scf.if: successor operand type #{number} "
                        f"'{source}' should match successor input type #{number} "
                        f"'{target}'"
                    )


class WhileOp(scf.WhileOp):
    """Runs `before` and, while the `scf.condition` ending it holds, `after`
    on the values it hands on; the values of the last `scf.condition` are
    the results.  Verified as MLIR verifies the edges between its regions
    (xDSL checks the block arguments against the operands and the results
    only, by position, and not what `scf.condition` and `scf.yield` hand on,
    so a loop could pass a `memref<0xf32>` where `memref<4xf32>` was
    declared and run on it)."""

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        before = self.before_region.block
        after = self.after_region.block
        condition = before.last_op
        if not isinstance(condition, scf.ConditionOp):
            raise VerifyException(
                "expects the 'before' region to terminate with 'scf.condition'"
            )
        yielded = after.last_op
        if not isinstance(yielded, scf.YieldOp):
            raise VerifyException(
                "expects the 'after' region to terminate with 'scf.yield'"
            )
        edges = (
            (
                "the operands are",
                self.arguments.types,
                "the 'before' region's arguments",
                before.arg_types,
            ),
            (
                "scf.condition hands on",
                condition.args.types,
                "the 'after' region's arguments",
                after.arg_types,
            ),
            (
                "scf.condition hands on",
                condition.args.types,
                "the op's results",
                self.res.types,
            ),
            (
                "scf.yield hands on",
                yielded.arguments.types,
                "the 'before' region's arguments",
                before.arg_types,
            ),
        )
        for source, handed, target, expected in edges:
            if tuple(handed) != tuple(expected):
                raise VerifyException(
                    f"{source} {_types(handed)}, but {target} are "
                    f"{_types(expected)}: expected the same types"
                )


_REPLACED: dict[type[Operation], type[Operation]] = {
    scf.ExecuteRegionOp: ExecuteRegionOp,
    scf.ForOp: ForOp,
    scf.IfOp: IfOp,
    scf.ParallelOp: ParallelOp,
    scf.ReduceOp: ReduceOp,
    scf.WhileOp: WhileOp,
}

SCF = Dialect(
    "scf",
    [*(_REPLACED.get(op, op) for op in scf.Scf.operations), ForallOp, InParallelOp],
    list(scf.Scf.attributes),
)
"""scf for memplan: xDSL's ops with `scf.execute_region`, `scf.parallel` and
`scf.reduce` printed and parsed as MLIR does, `scf.for`, `scf.while` and
`scf.if` verified as MLIR does, and `scf.forall` with its terminator."""

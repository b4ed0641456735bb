"""scf for memplan: xDSL 0.74's dialect with `scf.execute_region` printed and
parsed as MLIR does.

xDSL prints an `scf.execute_region` without results with none of its block
terminators, so a region of several blocks lost its `cf.br`, `cf.cond_br`
and `scf.yield` ops (and a single block its `scf.yield`), and parsing drops
the op's attributes.  MLIR always prints the terminators.

`ExecuteRegionOp` is a subclass of xDSL's op, not a new definition: xDSL's
`scf.yield` accepts only an xDSL `scf.execute_region` as its parent, and a new
`scf.yield` would not run in xDSL's scf interpreter.  So passes may keep
`isinstance(op, xdsl.dialects.scf.ExecuteRegionOp)`, but the interpreter,
which dispatches on the exact class, must register this one.  MLIR's
`no_inline` property is not supported: xDSL's definition has no room for it.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.syntax import parse_optional_arrow_types

__all__ = ["SCF", "ExecuteRegionOp"]


class ExecuteRegionOp(scf.ExecuteRegionOp):
    """Runs its region once: `%r = scf.execute_region -> i32 { ... }`.

    The region may hold several blocks; each block that leaves the op ends in
    an `scf.yield` of the op's result types."""

    def verify_(self) -> None:
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
        types = self.outs.types
        if len(types) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(types[0])
        elif types:
            printer.print_string(" -> (")
            printer.print_list(types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

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


SCF = Dialect(
    "scf",
    [ExecuteRegionOp if op is scf.ExecuteRegionOp else op for op in scf.Scf.operations],
    list(scf.Scf.attributes),
)
"""scf for memplan: xDSL's ops with `scf.execute_region` printed as MLIR does."""

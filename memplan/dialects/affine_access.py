"""MLIR's custom syntax of the index list of `affine.load`, `affine.store` and
their vector forms: `%m[%i * 2 + symbol(%n), %j]`.

A bare SSA name is a dimension of the access map and `symbol(%n)` a symbol;
the map's operands are its dimensions, then its symbols, each in order of
first appearance.  xDSL 0.74 reads every name as a symbol and does not read
`symbol(...)` (which MLIR's canonicalize prints), and prints a symbol as the
operand at the symbol's position instead of after the dimensions: a map
`(d0)[s0] -> (d0 * 2 + s0)` on `(%i, %n)` printed `%i * 2 + %i`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from xdsl.dialects.builtin import IndexType
from xdsl.ir import SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from memplan.semi_affine import (
    MULTIPLICATIVE,
    binary,
    constant_problem,
    semi_affine_problem,
)

__all__ = ["parse_access_map", "parse_bounds", "print_access_map", "print_bounds"]

_PRECEDENCE = {
    AffineBinaryOpKind.Add: 10,
    AffineBinaryOpKind.Mul: 20,
    AffineBinaryOpKind.Mod: 20,
    AffineBinaryOpKind.FloorDiv: 20,
    AffineBinaryOpKind.CeilDiv: 20,
}

_DIVISIONS = tuple(spelling for spelling in MULTIPLICATIVE if spelling != "*")


class _Names:
    """The dimensions and symbols met so far, by SSA name.  As in MLIR, a
    name is what it was first met as: `[symbol(%n), %n]` reads two symbols,
    `[%n, symbol(%n)]` two dimensions."""

    def __init__(self) -> None:
        self.dims: dict[str, UnresolvedOperand] = {}
        self.symbols: dict[str, UnresolvedOperand] = {}

    def dimension(self, operand: UnresolvedOperand) -> AffineExpr:
        if operand.span.text in self.symbols:
            return self.symbol(operand)
        return AffineExpr.dimension(self._position(self.dims, operand))

    def symbol(self, operand: UnresolvedOperand) -> AffineExpr:
        if operand.span.text in self.dims:
            return self.dimension(operand)
        return AffineExpr.symbol(self._position(self.symbols, operand))

    @staticmethod
    def _position(names: dict[str, UnresolvedOperand], operand: UnresolvedOperand):
        key = operand.span.text
        if key not in names:
            names[key] = operand
        return list(names).index(key)


def parse_access_map(parser: Parser) -> tuple[AffineMap, Sequence[SSAValue]]:
    """`[expr, ...]`: the access map and its operands (dimensions, then
    symbols)."""
    names = _Names()
    results = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_sum(parser, names)
    )
    operands = [
        parser.resolve_operand(operand, IndexType())
        for operand in (*names.dims.values(), *names.symbols.values())
    ]
    return AffineMap(len(names.dims), len(names.symbols), tuple(results)), operands


def parse_bounds(
    parser: Parser, keyword: str | None
) -> tuple[AffineMap, tuple[int, ...], Sequence[SSAValue]]:
    """`(expr, keyword(expr, ...), ...)`, the bounds of `affine.parallel`
    (`keyword` is `max` for the lower bounds, `min` for the upper ones): one
    map of every expression, the number of expressions of each bound, and
    the map's operands, deduplicated over the whole list (dimensions, then
    symbols, in order of first appearance), as MLIR's
    `parseAffineMapWithMinMax` reads them.  Without `keyword`, a plain list
    of expressions (the steps)."""
    names = _Names()
    results: list[AffineExpr] = []

    def parse_bound() -> int:
        if keyword is None or parser.parse_optional_keyword(keyword) is None:
            results.append(_parse_sum(parser, names))
            return 1
        group = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: _parse_sum(parser, names)
        )
        results.extend(group)
        return len(group)

    groups = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_bound)
    operands = [
        parser.resolve_operand(operand, IndexType())
        for operand in (*names.dims.values(), *names.symbols.values())
    ]
    bounds = AffineMap(len(names.dims), len(names.symbols), tuple(results))
    return bounds, tuple(groups), operands


def print_bounds(
    printer: Printer,
    bounds: AffineMap,
    groups: Sequence[int],
    operands: Sequence[SSAValue],
    keyword: str,
) -> None:
    """`(expr, keyword(expr, ...), ...)`: each group of one expression as
    that expression, each larger group as `keyword(...)`, as MLIR's
    `printMinMaxBound` does."""
    start = 0
    with printer.in_parens():
        for number, size in enumerate(groups):
            if number:
                printer.print_string(", ")
            group = bounds.results[start : start + size]
            start += size
            if size != 1:
                printer.print_string(f"{keyword}(")
            printer.print_list(
                group,
                lambda expr: _print_expr(printer, expr, bounds.num_dims, operands, 0),
            )
            if size != 1:
                printer.print_string(")")


def _parse_sum(parser: Parser, names: _Names) -> AffineExpr:
    expr = _parse_product(parser, names)
    while True:
        if parser.parse_optional_punctuation("+") is not None:
            expr = expr + _parse_product(parser, names)
        elif parser.parse_optional_punctuation("-") is not None:
            expr = expr - _parse_product(parser, names)
        else:
            return expr


def _parse_product(parser: Parser, names: _Names) -> AffineExpr:
    expr = _parse_primary(parser, names)
    while True:
        at = parser.pos
        if parser.parse_optional_punctuation("*") is not None:
            kind = AffineBinaryOpKind.Mul
        elif (keyword := parser.parse_optional_keyword_in(_DIVISIONS)) is not None:
            kind = MULTIPLICATIVE[keyword]
        else:
            return expr
        rhs = _parse_primary(parser, names)
        problem = semi_affine_problem(kind, expr, rhs)
        if problem is not None:
            parser.raise_error(problem, at, parser.pos)
        expr = binary(kind, expr, rhs)


def _parse_primary(parser: Parser, names: _Names) -> AffineExpr:
    if (operand := parser.parse_optional_unresolved_operand()) is not None:
        return names.dimension(operand)
    if parser.parse_optional_keyword("symbol") is not None:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        return names.symbol(operand)
    if parser.parse_optional_punctuation("(") is not None:
        expr = _parse_sum(parser, names)
        parser.parse_punctuation(")")
        return expr
    if parser.parse_optional_punctuation("-") is not None:
        return -_parse_primary(parser, names)
    at = parser.pos
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
    if value is None:
        parser.raise_error(
            "expected an affine expression: an SSA value, symbol(%value), an "
            "integer or a parenthesized expression"
        )
    problem = constant_problem(value)
    if problem is not None:
        parser.raise_error(problem, at, parser.pos)
    return AffineExpr.constant(value)


def print_access_map(
    printer: Printer, access: AffineMap, operands: Sequence[SSAValue]
) -> None:
    """`[expr, ...]` with each dimension printed as its operand and each
    symbol as `symbol(operand)`."""
    with printer.in_square_brackets():
        printer.print_list(
            access.results,
            lambda expr: _print_expr(printer, expr, access.num_dims, operands, 0),
        )


def _print_expr(
    printer: Printer,
    expr: AffineExpr,
    num_dims: int,
    operands: Sequence[SSAValue],
    min_precedence: int,
) -> None:
    if isinstance(expr, AffineConstantExpr):
        printer.print_string(str(expr.value))
    elif isinstance(expr, AffineDimExpr):
        printer.print_ssa_value(operands[expr.position])
    elif isinstance(expr, AffineSymExpr):
        printer.print_string("symbol(")
        printer.print_ssa_value(operands[num_dims + expr.position])
        printer.print_string(")")
    else:
        assert isinstance(expr, AffineBinaryOpExpr)
        precedence = _PRECEDENCE[expr.kind]
        with printer.in_parens() if precedence < min_precedence else nullcontext():
            _print_expr(printer, expr.lhs, num_dims, operands, precedence)
            printer.print_string(f" {expr.kind.get_token()} ")
            right = (
                precedence if expr.kind == AffineBinaryOpKind.Add else precedence + 1
            )
            _print_expr(printer, expr.rhs, num_dims, operands, right)

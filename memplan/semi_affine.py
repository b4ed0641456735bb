"""Semi-affine expressions as MLIR reads them, which xDSL 0.74 cannot build.

MLIR allows a product whose factors are not both constants when one of them
holds no dimension (`d0 * s0`, `s0 * s1`), and a `floordiv`, `ceildiv` or
`mod` whose right operand holds no dimension (`d0 mod s0`).  MLIR's own
`expand-strided-metadata` writes such maps for every subview of a dynamic
shape (`()[s0, s1] -> (s0 * s1)`).  xDSL's `AffineExpr` operators raise
`NotImplementedError` on them, though its `AffineBinaryOpExpr` holds, prints
and evaluates them; `binary` builds them, and `SemiAffineParser` reads them
in `affine_map<...>` and `affine_set<...>`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind

MULTIPLICATIVE: dict[str, AffineBinaryOpKind] = {
    "*": AffineBinaryOpKind.Mul,
    "floordiv": AffineBinaryOpKind.FloorDiv,
    "ceildiv": AffineBinaryOpKind.CeilDiv,
    "mod": AffineBinaryOpKind.Mod,
}
"""The spelling of each multiplicative operator of an affine expression."""

_XDSL_OPERATOR: dict[
    AffineBinaryOpKind, Callable[[AffineExpr, AffineExpr], AffineExpr]
] = {
    AffineBinaryOpKind.Mul: operator.mul,
    AffineBinaryOpKind.FloorDiv: operator.floordiv,
    AffineBinaryOpKind.CeilDiv: AffineExpr.ceil_div,
    AffineBinaryOpKind.Mod: operator.mod,
}


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """Whether `expr` holds no dimension (MLIR's `isSymbolicOrConstant`)."""
    return not any(isinstance(node, AffineDimExpr) for node in expr.dfs())


def semi_affine_problem(
    kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr
) -> str | None:
    """Why MLIR rejects `lhs <kind> rhs`, in MLIR's words, or None."""
    if kind == AffineBinaryOpKind.Mul:
        if is_symbolic_or_constant(lhs) or is_symbolic_or_constant(rhs):
            return None
        return (
            "non-affine expression: at least one of the multiply operands has "
            "to be either a constant or symbolic"
        )
    if is_symbolic_or_constant(rhs):
        return None
    return (
        f"non-affine expression: right operand of {kind.get_token()} has to be "
        "either a constant or symbolic"
    )


def binary(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs <kind> rhs` for a multiplicative `kind`, simplified as xDSL does
    where xDSL can, else as MLIR keeps it: the factor without a dimension on
    the right of a product.  A division by a constant that is not positive is
    kept as written (xDSL's folding would divide by zero); running it is an
    error (`memplan.interpreter.affine_impl`).  `semi_affine_problem` must
    have accepted the operands."""
    divides = kind != AffineBinaryOpKind.Mul
    if not (divides and isinstance(rhs, AffineConstantExpr) and rhs.value <= 0):
        try:
            return _XDSL_OPERATOR[kind](lhs, rhs)
        except NotImplementedError:
            pass
    if (
        not divides
        and is_symbolic_or_constant(lhs)
        and not is_symbolic_or_constant(rhs)
    ):
        lhs, rhs = rhs, lhs
    return AffineBinaryOpExpr(kind, lhs, rhs)


_INDEX_MAX = 2**63 - 1


def constant_problem(value: int) -> str | None:
    """MLIR's check of an integer literal in an affine expression: its affine
    constants are 64-bit (xDSL keeps any, and the expression then computes
    what MLIR's never could)."""
    if value > _INDEX_MAX:
        return f"constant too large for index: {value} is above {_INDEX_MAX}"
    if value < -_INDEX_MAX - 1:
        return f"constant too large for index: {value} is below {-_INDEX_MAX - 1}"
    return None


class SemiAffineParser(AffineParser):
    """xDSL's affine map and set parser, reading semi-affine expressions and
    rejecting what MLIR rejects with MLIR's message."""

    def _parse_primary(
        self, parse_optional_bare_id: Callable[[], AffineExpr | None]
    ) -> AffineExpr:
        """A primary as xDSL reads it, with `constant_problem`'s check."""
        token = self._current_token
        expr = super()._parse_primary(parse_optional_bare_id)
        if isinstance(expr, AffineConstantExpr) and token.kind is (
            MLIRTokenKind.INTEGER_LIT
        ):
            problem = constant_problem(expr.value)
            if problem is not None:
                raise ParseError(token.span, problem)
        return expr

    def _create_binop_expr(
        self, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken
    ) -> AffineExpr:
        kind = MULTIPLICATIVE.get(binop.text)
        if kind is None:
            return super()._create_binop_expr(lhs, rhs, binop)
        problem = semi_affine_problem(kind, lhs, rhs)
        if problem is not None:
            raise ParseError(binop.span, problem)
        return binary(kind, lhs, rhs)

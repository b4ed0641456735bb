"""memplan.dialects.affine_operands: MLIR's rules for affine dimensions and
symbols, followed once per value however many paths reach it."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import VerifyException

from memplan.context import parse_module
from memplan.dialects import affine_operands

DEPTH = 20


def _doubling_chain(start: str) -> str:
    """A load in a loop whose symbol is the last of `DEPTH` additions, each
    adding the previous value to itself, from `start`."""
    lines = [
        "func.func @f(%m: memref<8xf32>, %n: index) {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  scf.for %i = %c0 to %n step %c1 {",
        f"    %v0 = arith.addi {start}, %c1 : index",
    ]
    lines += [
        f"    %v{k} = arith.addi %v{k - 1}, %v{k - 1} : index" for k in range(1, DEPTH)
    ]
    lines += [
        f"    %x = affine.load %m[symbol(%v{DEPTH - 1})] : memref<8xf32>",
        "  }",
        "  func.return",
        "}",
    ]
    return "\n".join(lines)


def test_symbol_check_visits_each_value_once(monkeypatch: pytest.MonkeyPatch):
    visited: list[object] = []
    pure = affine_operands._pure  # pyright: ignore[reportPrivateUsage]

    def counting(op: object) -> bool:
        visited.append(op)
        return pure(op)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(affine_operands, "_pure", counting)
    parse_module(_doubling_chain("%n")).verify()
    assert len(visited) <= DEPTH + 2


def test_symbol_check_refuses_an_induction_variable_down_the_chain():
    with pytest.raises(VerifyException, match="operand cannot be used as a symbol"):
        parse_module(_doubling_chain("%i")).verify()

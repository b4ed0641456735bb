"""How often memory-place's cost model counts an op as running
(`place_model.frequency`): the trip counts of the loops around it."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import StringAttr
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.passes.place_model import Frequency, frequency


def tagged_frequency(body: str) -> Frequency:
    source = f"func.func @f(%c: i1) {{\n{body}\n  func.return\n}}\n"
    module = Parser(memplan_context(allow_unregistered=True), source).parse_module()
    module.verify()
    op = next(
        op for op in module.walk() if op.attributes.get("tag") == StringAttr("op")
    )
    return frequency(op)


@pytest.mark.parametrize(
    ("loop", "end"),
    [
        (
            "%lb = arith.constant 0 : index\n%ub = arith.constant 8 : index\n"
            "%st = arith.constant 1 : index\nscf.for %i = %lb to %ub step %st {",
            "}",
        ),
        ("affine.for %i = 0 to 8 {", "}"),
    ],
    ids=["scf.for", "affine.for"],
)
def test_loops_with_constant_bounds_multiply_their_trip_counts(loop: str, end: str):
    body = f"""{loop}
  affine.for %j = 0 to 4 {{
    "test.op"() {{tag = "op"}} : () -> ()
  }}
{end}"""
    assert tagged_frequency(body) == Frequency(32.0, True)


def test_an_affine_for_that_runs_zero_times_is_not_certain():
    body = """affine.for %i = 0 to 0 {
  "test.op"() {tag = "op"} : () -> ()
}"""
    assert tagged_frequency(body) == Frequency(0.0, False)


def test_a_branch_is_not_certain():
    body = """scf.if %c {
  affine.for %i = 0 to 3 {
    "test.op"() {tag = "op"} : () -> ()
  }
}"""
    assert tagged_frequency(body) == Frequency(3.0, False)

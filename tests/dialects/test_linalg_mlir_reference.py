"""memplan's named linalg ops build what upstream MLIR builds.

data/mlir_named_ops.json holds, per op and element-type pair, the custom form
and the generic form MLIR printed for it (data/make_mlir_reference.py).  An
op parsed from the custom form must hold MLIR's body (same ops, same operand
order, same casts), indexing maps and iterator types (those of the generic
MLIR generalizes it to), also after a custom-form and a
generic-form round trip; MLIR's own generic form must verify.  A
`linalg.reduce` in the short form must build MLIR's body (the accumulator
first) and print in the short form again.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.printer import Printer

from memplan.context import parse_module
from memplan.dialects.linalg import LINALG, MapOp, ReduceOp, describe_body

REFERENCE = json.loads(
    (Path(__file__).parent / "data" / "mlir_named_ops.json").read_text()
)


def _op(module: ModuleOp) -> NamedOperation | MapOp:
    found = [op for op in module.walk() if isinstance(op, NamedOperation | MapOp)]
    assert len(found) == 1
    return found[0]


def _reduce(module: ModuleOp) -> ReduceOp:
    found = [op for op in module.walk() if isinstance(op, ReduceOp)]
    assert len(found) == 1
    return found[0]


def _print(module: ModuleOp, generic: bool) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


def _maps(op: NamedOperation | MapOp) -> list[str]:
    return [str(m.data) for m in op.get_indexing_maps()]


def _iterators(op: NamedOperation | MapOp | ReduceOp) -> str:
    """The loops' kinds as MLIR writes them on the generalized op."""
    return ", ".join(f'"{kind.data.value}"' for kind in op.get_iterator_types())


def _mlir_maps(op: NamedOperation | MapOp) -> list[str]:
    """The maps MLIR wrote on the op (memoized for most named ops)."""
    written = op.attributes.get("linalg.memoized_indexing_maps") or op.properties.get(
        "indexing_maps"
    )
    if written is None:
        return _maps(op)
    assert isinstance(written, ArrayAttr)
    return [str(m.data) for m in written]  # pyright: ignore[reportAttributeAccessIssue]


NAMED_CASES = sorted(case for case in REFERENCE if not case.startswith("reduce/"))
REDUCE_CASES = sorted(case for case in REFERENCE if case.startswith("reduce/"))


@pytest.mark.parametrize("case", NAMED_CASES)
def test_named_op_builds_mlirs_body_and_maps(case: str):
    mlir = parse_module(REFERENCE[case]["generic"])
    mlir.verify()
    theirs = _op(mlir)
    ours_module = parse_module(REFERENCE[case]["custom"])
    ours_module.verify()
    for module in (
        ours_module,
        parse_module(_print(ours_module, generic=False)),
        parse_module(_print(ours_module, generic=True)),
    ):
        ours = _op(module)
        assert ours.name == theirs.name
        inputs = len(ours.inputs)
        assert describe_body(ours.body.block, inputs) == describe_body(
            theirs.body.block, inputs
        )
        assert _maps(ours) == _mlir_maps(theirs)
        assert _iterators(ours) == REFERENCE[case]["iterator_types"]


def test_reference_covers_every_named_op():
    """Every op with a hidden body (and map) appears in the MLIR reference."""
    named = {
        op.name.removeprefix("linalg.")
        for op in LINALG.operations
        if issubclass(op, NamedOperation) or op is MapOp
    }
    covered = {case.split("/")[0] for case in REFERENCE}
    assert named - covered == set()


@pytest.mark.parametrize("case", REDUCE_CASES)
def test_reduce_short_form_builds_mlirs_body_and_prints_short(case: str):
    theirs = _reduce(parse_module(REFERENCE[case]["generic"]))
    ours_module = parse_module(REFERENCE[case]["custom"])
    ours_module.verify()
    custom = _print(ours_module, generic=False)
    assert "linalg.reduce { arith." in custom
    for module in (
        ours_module,
        parse_module(custom),
        parse_module(_print(ours_module, generic=True)),
    ):
        ours = _reduce(module)
        assert describe_body(ours.region.block, 1) == describe_body(
            theirs.region.block, 1
        )
        assert _iterators(ours) == REFERENCE[case]["iterator_types"]

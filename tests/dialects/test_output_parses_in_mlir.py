"""Upstream MLIR parses and verifies what memplan prints (a development check).

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings, such
as torch-mlir's (`from torch_mlir import ir`); they are not a dependency of
memplan.  For every torch fixture and the dialect lit inputs, what memplan
prints in custom and in generic form goes through MLIR's parser and verifier
(blobs included), and what MLIR prints back parses in memplan again.  Planned
output holds memplan's own memory dialect, which
MLIR does not know; its lowering is checked by the lowering tests.
"""

from __future__ import annotations

import os
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import VerifyException

from memplan.context import memplan_context

MLIR_PYTHON = os.environ.get("MEMPLAN_MLIR_PYTHON")
TESTS = Path(__file__).resolve().parents[1]
INPUTS = sorted(
    [
        *(TESTS / "fixtures" / "torch").glob("*.mlir"),
        TESTS / "filecheck" / "dialects" / "linalg" / "ops.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "ops.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "mlir-syntax.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "subview.mlir",
        TESTS / "filecheck" / "dialects" / "scf" / "execute-region.mlir",
        TESTS / "filecheck" / "dialects" / "scf" / "parallel.mlir",
    ]
)

pytestmark = pytest.mark.skipif(
    MLIR_PYTHON is None,
    reason="set MEMPLAN_MLIR_PYTHON to a Python with MLIR's bindings (torch-mlir)",
)

MLIR_CHECK = """
import sys
from torch_mlir import ir
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    module.operation.verify()
    print(module)
"""


def _run_mlir(script: str, text: str) -> subprocess.CompletedProcess[str]:
    """`script` run by MLIR_PYTHON on `text`."""
    assert MLIR_PYTHON is not None
    return subprocess.run(
        [MLIR_PYTHON, "-c", script],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )


def _memplan_output(path: Path, generic: bool) -> str:
    ctx = memplan_context()
    module = Parser(ctx, path.read_text(), str(path)).parse_module()
    module.verify()
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=generic)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)
    return stream.getvalue()


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.stem)
def test_mlir_parses_and_verifies_memplan_output(path: Path, generic: bool):
    text = _memplan_output(path, generic)
    done = _run_mlir(MLIR_CHECK, text)
    assert done.returncode == 0, done.stderr[-2000:]
    module = Parser(memplan_context(), done.stdout, "mlir-output").parse_module()
    module.verify()


def test_the_check_can_fail():
    """A module MLIR rejects (a verifier error) makes the check fail."""
    done = _run_mlir(
        MLIR_CHECK,
        '"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()',
    )
    assert done.returncode != 0
    assert "static shaped" in done.stderr


NEGATIVE_SUBVIEWS = {
    "size": "memref.subview %m[0, 0] [-1, 2] [1, 1] : memref<4x4xf32> to "
    "memref<?x2xf32, strided<[4, 1]>>",
    "offset": "memref.subview %m[-1, 0] [1, 2] [1, 1] : memref<4x4xf32> to "
    "memref<1x2xf32, strided<[4, 1], offset: -4>>",
}


@pytest.mark.parametrize("subview", NEGATIVE_SUBVIEWS.values(), ids=NEGATIVE_SUBVIEWS)
def test_mlir_rejects_a_negative_subview_value_with_memplan_s_message(subview: str):
    """memplan's verifier message for a negative static offset or size is
    the one MLIR gives."""
    text = (
        f"func.func @f(%m: memref<4x4xf32>) {{\n  %v = {subview}\n  func.return\n}}\n"
    )
    module = Parser(memplan_context(), text, "negative").parse_module()
    with pytest.raises(VerifyException) as memplan_error:
        module.verify()
    message = str(memplan_error.value).splitlines()[0]
    done = _run_mlir(MLIR_CHECK, text)
    assert done.returncode != 0
    assert message in done.stderr


MLIR_CANONICALIZE = """
import sys
from torch_mlir import ir
from torch_mlir.passmanager import PassManager
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    print(module)
"""


def _function_without_names(module: ModuleOp, name: str) -> str:
    """The function `name` of `module` printed with numbered values only."""
    (function,) = (
        op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name
    )
    for op in function.walk():
        for value in op.results:
            value.name_hint = None
        for block in (block for region in op.regions for block in region.blocks):
            for value in block.args:
                value.name_hint = None
    stream = StringIO()
    Printer(stream=stream).print_op(function)
    return stream.getvalue()


def test_canonicalize_folds_subview_constants_as_mlir_does():
    """memref/subview.mlir's @fold_constants after memplan's canonicalize is
    what MLIR's canonicalize makes of it."""
    path = TESTS / "filecheck" / "dialects" / "memref" / "subview.mlir"
    done = _run_mlir(MLIR_CANONICALIZE, path.read_text())
    assert done.returncode == 0, done.stderr[-2000:]
    ctx = memplan_context()
    by_mlir = Parser(ctx, done.stdout, "mlir-output").parse_module()
    by_memplan = Parser(ctx, path.read_text(), str(path)).parse_module()
    CanonicalizePass().apply(ctx, by_memplan)
    assert _function_without_names(by_memplan, "fold_constants") == (
        _function_without_names(by_mlir, "fold_constants")
    )

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
from xdsl.parser import Parser
from xdsl.printer import Printer

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
    assert MLIR_PYTHON is not None
    text = _memplan_output(path, generic)
    done = subprocess.run(
        [MLIR_PYTHON, "-c", MLIR_CHECK],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    module = Parser(memplan_context(), done.stdout, "mlir-output").parse_module()
    module.verify()


def test_the_check_can_fail():
    """A module MLIR rejects (a verifier error) makes the check fail."""
    assert MLIR_PYTHON is not None
    done = subprocess.run(
        [MLIR_PYTHON, "-c", MLIR_CHECK],
        input='"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()',
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "static shaped" in done.stderr

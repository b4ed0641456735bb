"""Upstream MLIR gives the verdict each case of the generic-properties lit
tests says it gives (a development check, run when MEMPLAN_MLIR_PYTHON names
a Python with MLIR's bindings).

Each case of `tests/filecheck/frontend/generic-properties*.mlir` starts with
`// MLIR: accepts` or `// MLIR: rejects`; its ops, without the comments, go
through MLIR's parser and verifier.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from mlir_execution import MLIR_PYTHON, needs_mlir

pytestmark = needs_mlir

FRONTEND = Path(__file__).resolve().parents[1] / "filecheck" / "frontend"

MLIR_VERIFY = """
import sys
from torch_mlir import ir
with ir.Context():
    ir.Module.parse(sys.stdin.read()).operation.verify()
"""

_VERDICT = re.compile(r"^// MLIR: (accepts|rejects)", re.MULTILINE)


def _cases() -> list[tuple[str, bool, str]]:
    """Each case: where it is, whether MLIR accepts it, and its ops."""
    cases: list[tuple[str, bool, str]] = []
    for path in sorted(FRONTEND.glob("generic-properties*.mlir")):
        for number, chunk in enumerate(path.read_text().split("// -----")):
            verdict = _VERDICT.search(chunk)
            assert verdict is not None, f"{path.name} case {number} has no verdict"
            ops = "\n".join(
                line for line in chunk.splitlines() if not line.startswith("//")
            )
            cases.append((f"{path.name}#{number}", verdict.group(1) == "accepts", ops))
    return cases


@pytest.mark.parametrize(
    ("accepts", "ops"),
    [case[1:] for case in _cases()],
    ids=[case[0] for case in _cases()],
)
def test_mlir_gives_the_verdict_the_case_states(accepts: bool, ops: str) -> None:
    assert MLIR_PYTHON is not None
    result = subprocess.run(
        [MLIR_PYTHON, "-c", MLIR_VERIFY],
        input=ops,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode == 0) == accepts, result.stderr[-2000:]

"""examples/torch/export_model.py reports a broken model file in one line.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with torch and torch-mlir
(the optional `torch` extra), as the upstream MLIR checks do.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

TORCH_PYTHON = os.environ.get("MEMPLAN_MLIR_PYTHON")
EXPORT = Path(__file__).resolve().parents[2] / "examples" / "torch" / "export_model.py"

pytestmark = pytest.mark.skipif(
    TORCH_PYTHON is None,
    reason="set MEMPLAN_MLIR_PYTHON to a Python with torch and torch-mlir",
)

MODEL_HEAD = "import torch\nfrom torch import nn\nINPUT_SHAPE = (1, 4)\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "class M(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return torch.no_such_op(x)\n"
            "def make_model():\n"
            "    return M()\n",
            "model.py: forward() raised AttributeError: module 'torch' has no "
            "attribute 'no_such_op' (line 6)",
        ),
        (
            "def make_model():\n    raise ValueError('no weights')\n",
            "model.py: make_model() raised ValueError: no weights (line 5)",
        ),
    ],
    ids=["forward", "make_model"],
)
def test_model_code_that_raises_is_one_error_line(
    tmp_path: Path, body: str, expected: str
):
    model = tmp_path / "model.py"
    model.write_text(MODEL_HEAD + body)
    assert TORCH_PYTHON is not None
    done = subprocess.run(
        [TORCH_PYTHON, str(EXPORT), str(model), "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("export_model: error: ")
    assert expected in done.stderr
    assert not (tmp_path / "out").exists()

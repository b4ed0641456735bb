"""What the exporter tests share: the exporter script and the Python with
torch and torch-mlir that runs it (MEMPLAN_MLIR_PYTHON, the optional `torch`
extra, as the upstream MLIR checks use); without it they are skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TORCH_PYTHON = os.environ.get("MEMPLAN_MLIR_PYTHON")
EXPORT = Path(__file__).resolve().parents[2] / "examples" / "torch" / "export_model.py"

needs_torch = pytest.mark.skipif(
    TORCH_PYTHON is None,
    reason="set MEMPLAN_MLIR_PYTHON to a Python with torch and torch-mlir",
)

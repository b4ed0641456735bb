"""examples/torch/export_model.py reports a broken model file, or a missing
dependency, in one line.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with torch and torch-mlir
(the optional `torch` extra), as the upstream MLIR checks do.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from torch_exporter import EXPORT, TORCH_PYTHON, needs_torch

pytestmark = needs_torch

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
    done = _export(tmp_path, MODEL_HEAD + body)
    _assert_one_error_line(tmp_path, done, expected)


LINEAR = "def make_model():\n    return nn.Linear(4, 2)\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            LINEAR + "make_inputs_for_sizes = [torch.ones(2, 4)]\n",
            "model.py: make_inputs_for_sizes is not a function (expected: "
            "def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]])",
        ),
        (
            LINEAR + "def make_inputs_for_sizes():\n    return torch.ones(2, 4)\n",
            "model.py: make_inputs_for_sizes() returned Tensor, expected a list "
            "of input tuples",
        ),
        (
            LINEAR
            + "def make_inputs_for_sizes():\n"
            + "    return [(torch.ones(2, 4),), (torch.ones(2, 4), torch.ones(1))]\n",
            "model.py: make_inputs_for_sizes() set 2 is not 1 tensor(s), as many "
            "as the example inputs",
        ),
        (
            LINEAR
            + "DYNAMIC_SHAPES = ({0: torch.export.Dim('b', min=2, max=8)},)\n"
            + "def make_inputs_for_sizes():\n    return [(torch.ones(3, 4),)]\n",
            "model.py: UserError: Constraints violated (b)!",
        ),
    ],
    ids=[
        "not-a-function",
        "not-a-list",
        "wrong-count",
        "dim-range-without-the-example",
    ],
)
def test_bad_dynamic_declarations_are_one_error_line(
    tmp_path: Path, body: str, expected: str
):
    done = _export(tmp_path, MODEL_HEAD + body)
    _assert_one_error_line(tmp_path, done, expected)


# The exporter where torch and torch-mlir are installed but not memplan's
# dependencies: importing ml_dtypes fails.
WITHOUT_ML_DTYPES = (
    "import runpy, sys; sys.modules['ml_dtypes'] = None; "
    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)
BF16_MODEL = (
    "import torch\nfrom torch import nn\n"
    "def make_model():\n"
    "    return nn.Linear(4, 2).to(torch.bfloat16)\n"
    "def make_inputs():\n"
    "    return torch.ones(1, 4, dtype=torch.bfloat16)\n"
)


def test_bf16_model_without_ml_dtypes_is_one_error_line(tmp_path: Path):
    done = _export(tmp_path, BF16_MODEL, "-c", WITHOUT_ML_DTYPES)
    _assert_one_error_line(
        tmp_path, done, "saving bf16 tensors needs ml_dtypes (import of ml_dtypes"
    )


def test_f32_model_exports_without_ml_dtypes(tmp_path: Path):
    done = _export(
        tmp_path,
        MODEL_HEAD + "def make_model():\n    return nn.Linear(4, 2)\n",
        "-c",
        WITHOUT_ML_DTYPES,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "model.npz").is_file()


# The exporter with its reading of the exported program's dynamic sizes
# changed, to stand for a torch-mlir import whose @main does not match the
# program (its own check; torch-mlir 20261001 never made one).
WITH_SIZES_CHANGED = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('export_model', sys.argv[1])\n"
    "exporter = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(exporter)\n"
    "read = exporter._dynamic_sizes\n"
    "exporter._dynamic_sizes = lambda *args: {change}\n"
    "sys.exit(exporter.main(sys.argv[2:]))\n"
)
# A batch of 2: torch.export specializes a dynamic size of 1.
DYNAMIC_LINEAR = (
    "import torch\nfrom torch import nn\nINPUT_SHAPE = (2, 4)\n"
    + LINEAR
    + "DYNAMIC_SHAPES = ({0: torch.export.Dim('batch')},)\n"
)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            "read(*args) + [[]]",
            "the export of {model}: @main takes 1 argument(s), but the exported "
            "program has 2 user input(s)",
        ),
        (
            "[[{**read(*args)[0][0], 'dim': 1}]]",
            "the export of {model}: dimension 1 of user input 0 is dynamic (s",
        ),
    ],
    ids=["input-count", "static-in-main"],
)
def test_an_import_whose_main_is_not_the_programs_inputs_is_one_error_line(
    tmp_path: Path, change: str, expected: str
):
    script = WITH_SIZES_CHANGED.format(change=change)
    done = _export(tmp_path, DYNAMIC_LINEAR, "-c", script)
    _assert_one_error_line(tmp_path, done, expected.format(model=tmp_path / "model.py"))


def _export(tmp_path: Path, source: str, *python_args: str):
    """Runs the exporter on a model file holding `source`, output to out/."""
    model = tmp_path / "model.py"
    model.write_text(source)
    out = tmp_path / "out"
    assert TORCH_PYTHON is not None
    return subprocess.run(
        [TORCH_PYTHON, *python_args, str(EXPORT), str(model), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )


def _assert_one_error_line(
    tmp_path: Path, done: subprocess.CompletedProcess, expected: str
):
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("export_model: error: ")
    assert expected in done.stderr
    assert not (tmp_path / "out").exists()

"""examples/torch/export_model.py saves the inputs and results of the module it
writes, also for a forward that changes its inputs, parameters or buffers in
place: torch-mlir returns their new values as the module's first results.

The `.npz` must hold PyTorch's first call on the inputs as drawn (worked out
here with numpy) and equal what memplan-run computes on the exported module.
Runs only when MEMPLAN_MLIR_PYTHON names a Python with torch and torch-mlir
(the optional `torch` extra), as the upstream MLIR checks do.
"""

from __future__ import annotations

import io
import re
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
from torch_exporter import EXPORT, TORCH_PYTHON, needs_torch

from memplan.tools import memplan_run

pytestmark = needs_torch

MODEL_HEAD = "import torch\nfrom torch import nn\n"
# Exact in f32, so numpy's values are PyTorch's.
X = np.arange(8, dtype=np.float32).reshape(2, 4) / 4 - 1
Y = np.linspace(-1, 1, 4, dtype=np.float32)
MAKE_INPUTS = (
    "def make_inputs():\n"
    "    return torch.arange(8.0).reshape(2, 4) / 4 - 1, torch.linspace(-1, 1, 4)\n"
)


def _export_and_run(
    tmp_path: Path, body: str
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The exporter's `.npz` for the model file `body`, and memplan-run's
    results on the exported module with the `.npz` inputs."""
    model = tmp_path / "model.py"
    model.write_text(MODEL_HEAD + body)
    assert TORCH_PYTHON is not None
    out = tmp_path / "out"
    done = subprocess.run(
        [TORCH_PYTHON, str(EXPORT), str(model), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    errors = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(errors):
        status = memplan_run.main(
            [
                str(out / "model.mlir"),
                "--args",
                str(out / "model.npz"),
                "--output",
                str(tmp_path / "run.npz"),
                "--no-stats",
            ]
        )
    assert status == 0, errors.getvalue()
    with np.load(out / "model.npz") as saved, np.load(tmp_path / "run.npz") as ran:
        return dict(saved), dict(ran)


def _assert_saved(
    saved: dict[str, np.ndarray],
    ran: dict[str, np.ndarray],
    inputs: list[np.ndarray],
    results: list[np.ndarray],
):
    """The `.npz` holds `inputs` and `results`, and memplan-run's results are
    the `.npz`'s."""
    expected = {f"arg{i}": x for i, x in enumerate(inputs)}
    expected |= {f"result{i}": r for i, r in enumerate(results)}
    assert sorted(saved) == sorted(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(saved[key], value, rtol=1e-6, err_msg=key)
    assert sorted(ran) == [k for k in sorted(saved) if k.startswith("result")]
    for key, value in ran.items():
        np.testing.assert_allclose(value, saved[key], rtol=1e-6, err_msg=key)


def test_inputs_changed_in_place_are_saved_as_drawn_and_returned_first(
    tmp_path: Path,
):
    saved, ran = _export_and_run(
        tmp_path,
        "class M(nn.Module):\n"
        "    def forward(self, x, y):\n"
        "        x.add_(1.0)\n"
        "        y[0] = 7.0\n"
        "        return x * 2, y.sum()\n"
        "def make_model():\n"
        "    return M()\n" + MAKE_INPUTS,
    )
    new_y = np.concatenate([[7.0], Y[1:]]).astype(np.float32)
    _assert_saved(saved, ran, [X, Y], [X + 1, new_y, (X + 1) * 2, new_y.sum()])


COUNTING_MODEL = (
    "class M(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.register_buffer('count', torch.ones(4))\n"
    "    def forward(self, x):\n"
    "        self.count.add_(x.sum(0))\n"
    "        return x * self.count\n"
    "def make_model():\n"
    "    return M()\n"
    "def make_inputs():\n"
    "    return torch.arange(8.0).reshape(2, 4) / 4 - 1\n"
)
"""A model whose forward changes a buffer in place, on a 2x4 input."""


def test_buffer_changed_in_place_is_exported_as_before_the_call(tmp_path: Path):
    saved, ran = _export_and_run(
        tmp_path,
        COUNTING_MODEL,
    )
    count = 1 + X.sum(0)
    _assert_saved(saved, ran, [X], [count, X * count])


def test_parameter_buffer_and_inputs_changed_come_back_in_signature_order(
    tmp_path: Path,
):
    # Changed in another order than torch.export returns them: parameters,
    # buffers, then inputs, each in the order the program takes them.
    saved, ran = _export_and_run(
        tmp_path,
        "class M(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.scale = nn.Parameter(torch.full((4,), 2.0))\n"
        "        self.register_buffer('count', torch.ones(4))\n"
        "    def forward(self, x, y):\n"
        "        y.mul_(3.0)\n"
        "        self.count.add_(x.sum(0))\n"
        "        x[0] = y\n"
        "        self.scale.mul_(self.count)\n"
        "        return x * self.scale, self.count\n"
        "def make_model():\n"
        "    return M()\n" + MAKE_INPUTS,
    )
    count = 1 + X.sum(0)
    scale = 2 * count
    new_x = np.stack([3 * Y, X[1]])
    _assert_saved(
        saved, ran, [X, Y], [scale, count, new_x, 3 * Y, new_x * scale, count]
    )


def test_dynamic_model_saves_each_input_set_and_each_runs_at_its_size(
    tmp_path: Path,
):
    # A dynamic batch; forward changes a buffer in place, so every set must
    # start from the state before the first call, as the export does.
    saved, _ = _export_and_run(
        tmp_path,
        COUNTING_MODEL
        + "DYNAMIC_SHAPES = ({0: torch.export.Dim('batch', min=1, max=8)},)\n"
        "def make_inputs_for_sizes():\n"
        "    return [torch.arange(4.0).reshape(1, 4), (torch.ones(5, 4),)]\n",
    )
    sets = {"": X, "set1": np.arange(4, dtype=np.float32).reshape(1, 4)}
    sets["set2"] = np.ones((5, 4), np.float32)
    expected: dict[str, np.ndarray] = {}
    for name, x in sets.items():
        prefix = f"{name}/" if name else ""
        count = 1 + x.sum(0)
        expected |= {
            f"{prefix}arg0": x,
            f"{prefix}result0": count,
            f"{prefix}result1": x * count,
        }
    assert list(saved) == list(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(saved[key], value, rtol=1e-6, err_msg=key)
    for name in ("set1", "set2"):
        output = tmp_path / f"{name}.npz"
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            status = memplan_run.main(
                [
                    str(tmp_path / "out" / "model.mlir"),
                    "--args",
                    str(tmp_path / "out" / "model.npz"),
                    "--args-set",
                    name,
                    "--output",
                    str(output),
                    "--no-stats",
                ]
            )
        assert status == 0
        with np.load(output) as ran:
            for key in ("result0", "result1"):
                np.testing.assert_allclose(
                    ran[key], saved[f"{name}/{key}"], rtol=1e-6, err_msg=key
                )


def _run_status(mlir: Path, npz: Path) -> tuple[int, str]:
    """memplan-run's exit status and error output on `mlir` with `npz`."""
    errors = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(errors):
        status = memplan_run.main([str(mlir), "--args", str(npz), "--no-stats"])
    return status, errors.getvalue()


def _exported_main(tmp_path: Path) -> tuple[Path, str]:
    """The exported module and the line of its `@main`."""
    module = tmp_path / "out" / "model.mlir"
    main = next(
        line for line in module.read_text().splitlines() if 'sym_name = "main"' in line
    )
    return module, main


def test_export_records_each_dims_range_and_a_run_outside_it_is_refused(
    tmp_path: Path,
):
    # One Dim in both inputs, and one with torch's default range, 0 and up.
    saved, _ = _export_and_run(
        tmp_path,
        "class M(nn.Module):\n"
        "    def forward(self, x, y):\n"
        "        return x * y.sum(1, keepdim=True)\n"
        "def make_model():\n"
        "    return M()\n"
        "def make_inputs():\n"
        "    return torch.ones(2, 4), torch.ones(2, 3)\n"
        "batch = torch.export.Dim('batch', min=1, max=8)\n"
        "DYNAMIC_SHAPES = ({0: batch}, {0: batch, 1: torch.export.Dim('width')})\n",
    )
    np.testing.assert_array_equal(saved["result0"], np.full((2, 4), 3, np.float32))
    module, main = _exported_main(tmp_path)
    found = re.search(
        r"arg_attrs = \[\{memplan\.sizes = \[\{dim = 0 : i64, max = 8 : i64, "
        r'min = 1 : i64, name = "batch", symbol = "(s\d+)"\}\]\}, '
        r"\{memplan\.sizes = \[\{dim = 0 : i64, max = 8 : i64, min = 1 : i64, "
        r'name = "batch", symbol = "(s\d+)"\}, \{dim = 1 : i64, min = 0 : i64, '
        r'name = "width", symbol = "(s\d+)"\}\]\}\]',
        main,
    )
    assert found is not None, main
    batch, batch_again, width = found.groups()
    assert batch == batch_again != width
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, arg0=np.ones((9, 4), np.float32), arg1=np.ones((9, 3), np.float32))
    assert _run_status(module, inputs) == (
        1,
        "memplan-run: error: @main argument 0: dimension 0 is 9, outside 1..8 that "
        f"the export allows for {batch} (Dim batch)\n",
    )
    np.savez(inputs, arg0=np.ones((2, 4), np.float32), arg1=np.ones((3, 3), np.float32))
    assert _run_status(module, inputs) == (
        1,
        "memplan-run: error: @main argument 1: dimension 0 is 3, but argument 0's "
        f"dimension 0 is 2, and the export makes both {batch} (Dim batch)\n",
    )
    # The width has no upper bound (torch's default Dim range is 0..int_oo).
    np.savez(
        inputs, arg0=np.ones((8, 4), np.float32), arg1=np.ones((8, 100), np.float32)
    )
    assert _run_status(module, inputs) == (0, "")


def test_export_records_a_derived_dim_and_a_run_off_its_formula_is_refused(
    tmp_path: Path,
):
    # y's batch is derived from x's: 2 * batch + 1.
    saved, _ = _export_and_run(
        tmp_path,
        "class M(nn.Module):\n"
        "    def forward(self, x, y):\n"
        "        return x.repeat(2, 1) + y[1:]\n"
        "def make_model():\n"
        "    return M()\n"
        "def make_inputs():\n"
        "    return torch.ones(3, 4), torch.ones(7, 4)\n"
        "batch = torch.export.Dim('batch', min=1, max=8)\n"
        "DYNAMIC_SHAPES = ({0: batch}, {0: 2 * batch + 1})\n",
    )
    np.testing.assert_array_equal(saved["result0"], np.full((6, 4), 2, np.float32))
    module, main = _exported_main(tmp_path)
    found = re.search(
        r"arg_attrs = \[\{memplan\.sizes = \[\{dim = 0 : i64, max = 8 : i64, "
        r'min = 1 : i64, name = "batch", symbol = "(s\d+)"\}\]\}, '
        r"\{memplan\.sizes = \[\{dim = 0 : i64, max = 8 : i64, min = 1 : i64, "
        r'name = "batch", offset = 1 : i64, scale = 2 : i64, symbol = "(s\d+)"\}\]\}\]',
        main,
    )
    assert found is not None, main
    batch, root = found.groups()
    assert batch == root
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, arg0=np.ones((4, 4), np.float32), arg1=np.ones((9, 4), np.float32))
    assert _run_status(module, inputs) == (0, "")
    np.savez(inputs, arg0=np.ones((4, 4), np.float32), arg1=np.ones((8, 4), np.float32))
    assert _run_status(module, inputs) == (
        1,
        "memplan-run: error: @main argument 1: dimension 0 is 8, but the export "
        f"makes it 2*{batch} + 1, which is 8 for no integer {batch} (Dim batch)\n",
    )
    np.savez(inputs, arg0=np.ones((4, 4), np.float32), arg1=np.ones((7, 4), np.float32))
    assert _run_status(module, inputs) == (
        1,
        f"memplan-run: error: @main argument 1: dimension 0 is 7 = 2*{batch} + 1 at "
        f"{batch} = 3, but argument 0's dimension 0 is 4 = {batch}, and the export "
        f"gives {batch} (Dim batch) one value\n",
    )

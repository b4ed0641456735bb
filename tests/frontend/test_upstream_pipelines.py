"""Fixtures rewritten by upstream MLIR passes still run, plan and compute
their results in memplan.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings, such
as torch-mlir's (a development check, like test_compiled_by_mlir.py).  A
user may run upstream passes between bufferization and memplan: loops
instead of linalg ops, named ops specialized from generics, subviews
expanded into semi-affine index maps, buffers promoted to the stack.  For
each fixture and pipeline, MLIR rewrites the exported module and prints it
in generic form; memplan must then
- run it without reading a byte nothing wrote (`--check-uninitialized`) and
  compute the export's results (loops sum in another order than memplan's
  vectorized ops, so within a few float steps);
- plan it (`memory-manifest,memory-plan`, clean under `memory-verify`) and
  compute the same bits as before planning.
With `--sequential-sums` the exported module computes the bits of its loop
form (`convert-linalg-to-loops`).
`specialize` on `dtypes` fails without memplan's i1 bodies: MLIR's
`linalg.mul` of i1 is an `andi`, which memplan refused.  MLIR's
`affine-loop-fusion` is left out: it changes what these modules compute
(memplan-run and MLIR's compiled code agree on the changed results, and
`--check-uninitialized` reports the buffers it no longer writes).
"""

from __future__ import annotations

import io
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from mlir_execution import MLIR_PYTHON, needs_mlir
from test_torch_dynamic import CASES as DYNAMIC_CASES
from test_torch_dynamic import expected as dynamic_expected
from test_torch_fixtures import FIXTURES, NAMES, OUTPUTS, memplan_opt, read_arrays

from memplan.tools import memplan_run

pytestmark = needs_mlir

REWRITE = """
import sys
from torch_mlir import ir, passmanager
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    passmanager.PassManager.parse(f"builtin.module({sys.argv[1]})").run(module.operation)
    sys.stdout.write(module.operation.get_asm(print_generic_op_form=True))
"""

PIPELINES = {
    "expand-strided-metadata": "expand-strided-metadata",
    "expand-strided-metadata-canonicalize": "expand-strided-metadata,canonicalize",
    "fold-memref-alias-ops": "fold-memref-alias-ops",
    "affine-loops-scalrep": (
        "func.func(convert-linalg-to-affine-loops),func.func(affine-scalrep)"
    ),
    "affine-loops-lowered": "func.func(convert-linalg-to-affine-loops),lower-affine",
    "parallel-loops": "func.func(convert-linalg-to-parallel-loops)",
    "loops-expanded": (
        "func.func(convert-linalg-to-loops),expand-strided-metadata,canonicalize"
    ),
    "generalize": "linalg-generalize-named-ops",
    "specialize": "linalg-specialize-generic-ops",
    "canonicalize-cse": "canonicalize,cse",
    "fold-unit-dims": "func.func(linalg-fold-unit-extent-dims)",
    "normalize-memrefs": "normalize-memrefs",
    "promote-to-stack": (
        "func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=4096})"
    ),
}
"""Upstream pipelines a user may run on bufferized torch-mlir output."""

MODELS = (
    "cnn",
    "dtypes",
    "layout_3d",
    "pooling",
    "dynamic_batch",
    "dynamic_conv",
    "dynamic_sequence",
)
"""Convolutions and matmuls, integer and i1 arithmetic, 3-d layouts and
pads, poolings; dynamic sizes (`?` sizes, `memref.alloc(%n)`, subviews of
dynamic size, which `expand-strided-metadata` turns into semi-affine maps
such as `s0 * s1`)."""

DYNAMIC_PIPELINES = ("expand-strided-metadata-canonicalize", "loops-expanded")
"""The pipelines that rewrite a dynamic model's subviews into
`memref.reinterpret_cast`s with sizes and strides computed at run time; the
dynamic fixtures run through them at every stored size too."""


def _rewritten(name: str, pipeline: str, tmp_path: Path) -> Path:
    assert MLIR_PYTHON is not None
    done = subprocess.run(
        [MLIR_PYTHON, "-c", REWRITE, PIPELINES[pipeline]],
        input=(FIXTURES / f"{name}.mlir").read_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    path = tmp_path / f"{name}.{pipeline}.mlir"
    path.write_text(done.stdout)
    return path


@cache
def _exported(name: str, out: Path) -> dict[str, np.ndarray]:
    return _run(name, FIXTURES / f"{name}.mlir", out)


def _run(
    name: str, source: Path, out: Path, input_set: str = "", *flags: str
) -> dict[str, np.ndarray]:
    """memplan-run of `source` on fixture `name`'s inputs (those of
    `input_set`, an input set at another size, when given), with `flags`."""
    errors = io.StringIO()
    arguments = [
        str(source),
        "--args",
        str(FIXTURES / f"{name}.npz"),
        *(["--args-set", input_set] if input_set else []),
        *flags,
    ]
    with redirect_stdout(io.StringIO()), redirect_stderr(errors):
        status = memplan_run.main(
            [*arguments, "--output", str(out), "--no-stats", "--check-uninitialized"]
        )
    assert status == 0, errors.getvalue()
    return read_arrays(out)


@pytest.mark.parametrize("pipeline", sorted(PIPELINES))
@pytest.mark.parametrize("name", MODELS)
def test_rewritten_module_runs_plans_and_keeps_its_results(
    name: str, pipeline: str, tmp_path: Path
):
    exported = _exported(name, OUTPUTS / f"{name}.exported.npz")
    rewritten = _rewritten(name, pipeline, tmp_path)
    unplanned = _run(name, rewritten, tmp_path / "unplanned.npz")
    planned_path = memplan_opt(
        rewritten, "memory-manifest,memory-plan", tmp_path / f"{name}.planned.mlir"
    )
    memplan_opt(planned_path, "memory-verify", tmp_path / f"{name}.verified.mlir")
    planned = _run(name, planned_path, tmp_path / "planned.npz")
    assert sorted(unplanned) == sorted(exported) == sorted(planned)
    for key, value in exported.items():
        np.testing.assert_allclose(
            unplanned[key].astype(np.float64),
            value.astype(np.float64),
            rtol=1e-5,
            atol=1e-6,
            err_msg=key,
        )
        assert planned[key].tobytes() == unplanned[key].tobytes(), key


@pytest.mark.parametrize("pipeline", DYNAMIC_PIPELINES)
@pytest.mark.parametrize(
    ("name", "input_set"),
    [(name, s) for name, s in DYNAMIC_CASES if s],
)
def test_rewritten_dynamic_module_computes_pytorchs_results_at_every_size(
    name: str, input_set: str, pipeline: str, tmp_path: Path
):
    rewritten = _rewritten(name, pipeline, tmp_path)
    unplanned = _run(name, rewritten, tmp_path / "unplanned.npz", input_set)
    planned_path = memplan_opt(
        rewritten,
        "memory-manifest,memory-plan,memory-verify",
        tmp_path / f"{name}.planned.mlir",
    )
    planned = _run(name, planned_path, tmp_path / "planned.npz", input_set)
    want = dynamic_expected(name, input_set)
    assert sorted(unplanned) == sorted(want) == sorted(planned)
    for key, value in want.items():
        np.testing.assert_allclose(
            unplanned[key], value, rtol=1e-4, atol=1e-5, err_msg=key
        )
        assert planned[key].tobytes() == unplanned[key].tobytes(), key


@pytest.mark.parametrize("name", NAMES)
def test_sequential_sums_compute_the_bits_of_the_loop_form(name: str, tmp_path: Path):
    """With `--sequential-sums` every float sum folds in the order of the
    loops MLIR's `convert-linalg-to-loops` writes: each fixture's linalg form
    computes its loop form's bits (both run by memplan; without the flag
    matmuls, convolutions and reductions differ in the last bits)."""
    loops = _run(
        name, _rewritten(name, "loops-expanded", tmp_path), tmp_path / "loops.npz"
    )
    linalg = _run(
        name,
        FIXTURES / f"{name}.mlir",
        tmp_path / "linalg.npz",
        "",
        "--sequential-sums",
    )
    assert sorted(linalg) == sorted(loops)
    for key, value in loops.items():
        assert linalg[key].tobytes() == value.tobytes(), key

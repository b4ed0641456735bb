"""Planned fixtures, lowered and compiled by upstream MLIR, compute bit for bit
what the exported modules compute when MLIR compiles them.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings and
ExecutionEngine, such as torch-mlir's (a development check, like
tests/interpreter/test_matches_mlir.py).  Each fixture goes through
`memory-manifest` and one of four plans (`PLANS`), then
`convert-memory-to-memref`, in this process and,
printed in generic form, through MLIR's lowering to LLVM; so does the
exported module.  The plan changes only where tensors live, so the two
compiled programs must agree to the bit: a plan that overlaps live tensors,
or a lowering whose views MLIR reads differently from memplan-run, would
not.  The exported module's results are also checked against PyTorch's, so
the check cannot pass on a program that computes nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mlir_execution import compiled, generic_text, needs_mlir
from test_torch_fixtures import EXPORT_ATOL, FIXTURES, NAMES, TOLERANCE, expected
from xdsl.passes import ModulePass

from memplan.context import memplan_context, parse_module
from memplan.interpreter import run_function
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.parser import MemplanParser
from memplan.passes.coalesce import MemoryCoalescePass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.place import MemoryPlacePass
from memplan.passes.plan import MemoryPlanPass

pytestmark = needs_mlir


PLANS: dict[str, tuple[ModulePass, ...]] = {
    "plan": (MemoryManifestPass(), MemoryPlanPass()),
    "function-arena-greedy": (
        MemoryManifestPass(),
        MemoryPlanPass(algorithm="greedy", arenas="function", tensor_alignment=128),
    ),
    "coalesce": (MemoryManifestPass(), MemoryCoalescePass()),
    "place-v66": (
        MemoryManifestPass(),
        MemoryPlacePass(target="hexagon-v66"),
        MemoryPlanPass(target="hexagon-v66"),
    ),
}
"""Plans of different shapes: arenas per run of live ranges, one arena per
function packed greedily with wide alignment, one storage per block, and
tensors moved into a 256 KiB VTCM (copies in and out) then planned."""


def _planned_and_lowered(name: str, plan: str) -> str:
    """The fixture planned and lowered, in generic form with its blobs."""
    ctx = memplan_context()
    module = MemplanParser(ctx, (FIXTURES / f"{name}.mlir").read_text()).parse_module()
    for module_pass in (*PLANS[plan], ConvertMemoryToMemrefPass()):
        module_pass.apply(ctx, module)
    return generic_text(module, ctx)


@pytest.mark.parametrize("plan", sorted(PLANS))
@pytest.mark.parametrize("name", NAMES)
def test_planned_module_compiled_by_mlir_matches_the_exported_one_bitwise(
    name: str, plan: str, tmp_path: Path
):
    inputs = FIXTURES / f"{name}.npz"
    exported = compiled(
        (FIXTURES / f"{name}.mlir").read_text(), inputs, tmp_path / "exported.npz"
    )
    planned = compiled(
        _planned_and_lowered(name, plan), inputs, tmp_path / "planned.npz"
    )
    assert sorted(planned) == sorted(exported)
    for key, value in exported.items():
        assert planned[key].tobytes() == value.tobytes(), key
    rtol, atol = TOLERANCE.get(name, (1e-4, EXPORT_ATOL.get(name, 1e-5)))
    for key, value in expected(name).items():
        if key.startswith("result"):
            np.testing.assert_allclose(
                exported[key].astype(np.float64),
                value.astype(np.float64),
                rtol=rtol,
                atol=atol,
                err_msg=key,
            )


TRANSCENDENTAL = ("activations", "math_ops", "tiny_gpt", "transformer")
"""Fixtures with `exp`, `tanh`, `erf` and the like: memplan computes those
by default in f64 and rounds, up to 2 ulp off the C library's f32 functions
that the compiled code calls (docs/interpreter.md)."""


def _assert_memplan_run_computes_mlirs_bits(
    name: str, tmp_path: Path, libm_math: bool
) -> None:
    exported = compiled(
        (FIXTURES / f"{name}.mlir").read_text(),
        FIXTURES / f"{name}.npz",
        tmp_path / "exported.npz",
    )
    arrays = expected(name)
    arguments = [arrays[f"arg{i}"].copy() for i in range(_argument_count(arrays))]
    module = parse_module((FIXTURES / f"{name}.mlir").read_text())
    results = run_function(
        module, "main", arguments, sequential_sums=True, libm_math=libm_math
    ).results
    assert len(results) == sum(key.startswith("result") for key in exported)
    for position, result in enumerate(results):
        want = exported[f"result{position}"]
        assert np.asarray(result, want.dtype).tobytes() == want.tobytes(), position


@pytest.mark.parametrize("name", [n for n in NAMES if n not in TRANSCENDENTAL])
def test_memplan_run_with_sequential_sums_computes_mlirs_compiled_bits(
    name: str, tmp_path: Path
):
    """With float sums in loop order, memplan-run's results are those of
    the exported module compiled by MLIR, bit for bit (by default, BLAS and
    pairwise sums change the last bits of most elements)."""
    _assert_memplan_run_computes_mlirs_bits(name, tmp_path, libm_math=False)


@pytest.mark.parametrize("name", NAMES)
def test_memplan_run_with_sequential_sums_and_libm_math_computes_mlirs_compiled_bits(
    name: str, tmp_path: Path
):
    """With float sums in loop order and math functions from the C library,
    every fixture, `TRANSCENDENTAL` ones too, gives MLIR's compiled bits."""
    _assert_memplan_run_computes_mlirs_bits(name, tmp_path, libm_math=True)


def _argument_count(arrays: dict[str, np.ndarray]) -> int:
    return sum(key.startswith("arg") for key in arrays)

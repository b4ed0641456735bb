"""Random programs, planned and lowered by memplan, then compiled by upstream
MLIR, compute bit for bit what the same programs compute unplanned.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings and
ExecutionEngine (`tests/mlir_execution.py`).  The programs are
`program_gen`'s (branches, loops carrying tensors, hand-placed VTCM
tensors); each is lowered by `convert-memory-to-memref` as written and
after `memory-manifest,memory-plan`, and both are compiled by MLIR's own
lowering to LLVM.  So liveness, on which every plan rests, is judged by an
executor that is not memplan's: a tensor killed while an alias still reads
it gives other bits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from mlir_execution import compiled, generic_text, needs_mlir
from program_gen import programs
from xdsl.dialects.builtin import ModuleOp

from memplan.context import memplan_context
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.parser import MemplanParser
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass

pytestmark = needs_mlir


def _lowered(text: str, *plan: MemoryManifestPass | MemoryPlanPass) -> str:
    ctx = memplan_context()
    module = MemplanParser(ctx, text).parse_module()
    assert isinstance(module, ModuleOp)
    for module_pass in (*plan, ConvertMemoryToMemrefPass()):
        module_pass.apply(ctx, module)
    return generic_text(module, ctx)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=programs(rich=True, flows=True))
def test_planned_program_compiled_by_mlir_matches_the_unplanned_one_bitwise(
    text: str, tmp_path_factory
) -> None:
    tmp: Path = tmp_path_factory.mktemp("program")
    inputs = tmp / "inputs.npz"
    np.savez(inputs)
    unplanned = compiled(_lowered(text), inputs, tmp / "unplanned.npz")
    planned = compiled(
        _lowered(text, MemoryManifestPass(), MemoryPlanPass()),
        inputs,
        tmp / "planned.npz",
    )
    assert sorted(planned) == sorted(unplanned)
    for key, value in unplanned.items():
        assert planned[key].tobytes() == value.tobytes(), key

"""Memory passes preserve meaning: random programs compute the same results.

Each random program (tests/passes/program_gen.py) runs in the interpreter as
written, then after each pipeline below, applied through the Python API.
Results must be identical and no run may raise an interpretation error.
After `memory-plan`, `memory-verify` must accept the module, and on programs
whose every allocation executes (no `scf.if`) the greedy and best plans must
not raise the peak bytes of any scope above the unplanned (manifested)
module's.  The token plan (TVM's whole-storage reuse) is exempt: a storage
reused by a larger tensor grows, so it can exceed the peak (1.5% of 400
programs did); that is what offset packing improves on.

`MEMPLAN_SLOW=1` runs ten times more examples.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from program_gen import programs
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from memplan.interpreter import RunResult, run_function
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.passes.coalesce import MemoryCoalescePass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.universe import DIALECTS

SLOW = bool(os.environ.get("MEMPLAN_SLOW"))


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples * 10 if SLOW else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _context() -> Context:
    ctx = Context()
    for name, factory in {**get_all_dialects(), **DIALECTS}.items():
        ctx.register_dialect(name, factory)
    return ctx


CONTEXT = _context()
ALGORITHMS = ("token", "greedy", "best")
PACKING_ALGORITHMS = ("greedy", "best")

PIPELINES: dict[str, tuple[ModulePass, ...]] = {
    "memory-manifest,memory-coalesce": (MemoryManifestPass(), MemoryCoalescePass()),
    "memory-manifest,memory-coalesce,convert-memory-to-memref": (
        MemoryManifestPass(),
        MemoryCoalescePass(),
        ConvertMemoryToMemrefPass(),
    ),
    **{
        f"memory-manifest,memory-plan{{algorithm={algorithm}}}": (
            MemoryManifestPass(),
            MemoryPlanPass(algorithm=algorithm),
        )
        for algorithm in ALGORITHMS
    },
    "memory-manifest,memory-plan{algorithm=best},convert-memory-to-memref": (
        MemoryManifestPass(),
        MemoryPlanPass(algorithm="best"),
        ConvertMemoryToMemrefPass(),
    ),
}


def _transformed(module: ModuleOp, passes: Sequence[ModulePass]) -> ModuleOp:
    copy = module.clone()
    for module_pass in passes:
        module_pass.apply(CONTEXT, copy)
    copy.verify()
    return copy


def _assert_same_results(expected: RunResult, actual: RunResult, pipeline: str) -> None:
    assert len(actual.results) == len(expected.results), pipeline
    for want, got in zip(expected.results, actual.results, strict=True):
        assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray), pipeline
        assert (got.dtype, got.shape) == (want.dtype, want.shape), pipeline
        assert np.array_equal(got, want), f"{pipeline} changed a result"


@_settings(examples=120)
@given(text=programs())
def test_every_pipeline_keeps_results(text: str) -> None:
    module = Parser(CONTEXT, text).parse_module()
    original = run_function(module.clone())
    for pipeline, passes in PIPELINES.items():
        transformed = _transformed(module, passes)
        if isinstance(passes[-1], MemoryPlanPass):
            MemoryVerifyPass().apply(CONTEXT, transformed)
        if isinstance(passes[-1], ConvertMemoryToMemrefPass):
            left = [
                op.name for op in transformed.walk() if op.name.startswith("memory.")
            ]
            assert left == [], f"{pipeline} left {left}"
        _assert_same_results(original, run_function(transformed), pipeline)


def _scopes_whose_peak_grew(text: str, algorithm: str) -> list[str]:
    """Scopes whose peak bytes are higher after `memory-plan` than before it."""
    manifested = _transformed(
        Parser(CONTEXT, text).parse_module(), (MemoryManifestPass(),)
    )
    unplanned = run_function(manifested.clone()).stats.peak_bytes
    planned = _transformed(manifested, (MemoryPlanPass(algorithm=algorithm),))
    return [
        scope
        for scope, peak in run_function(planned).stats.peak_bytes.items()
        if peak > unplanned.get(scope, 0)
    ]


@_settings(examples=60)
@given(text=programs(branches=False))
def test_packing_plans_never_grow_peak_bytes(text: str) -> None:
    for algorithm in PACKING_ALGORITHMS:
        assert _scopes_whose_peak_grew(text, algorithm) == [], algorithm


UNTAKEN_BRANCH = """
func.func @main() -> memref<8xf32> {
  %result = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%result : memref<8xf32>)
  %false = arith.constant false
  scf.if %false {
    %scratch = memref.alloc() : memref<8xf32, "global.vtcm">
    linalg.fill ins(%zero : f32) outs(%scratch : memref<8xf32, "global.vtcm">)
    memref.dealloc %scratch : memref<8xf32, "global.vtcm">
  }
  func.return %result : memref<8xf32>
}
"""


@pytest.mark.xfail(
    strict=True,
    reason="memory-plan allocates its arena at function entry, so bytes of "
    "tensors in a branch that never runs still count toward the peak",
)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_plan_peak_with_an_untaken_branch(algorithm: str) -> None:
    assert _scopes_whose_peak_grew(UNTAKEN_BRANCH, algorithm) == []

"""`memory-plan` with blocks keeps meaning: random programs (program_gen,
without `scf.if`, so arenas never stack) planned with `discontiguous=auto`
at the tightest VTCM capacity it reaches, and with `discontiguous=always`,
compute the same results, stay within the VTCM address window the run is
given, and pass `memory-verify` at that capacity.

Tensors of random programs are 32 or 64 bytes, so blocks are 16 bytes
(`block-size=16`): a tensor takes two to four of them.  Their contiguous
plans already reach the live bytes, so `auto` seldom needs blocks here (0 of
41 programs measured; `tests/filecheck/passes/memory-plan-discontiguous.mlir`
runs examples/fragmentation.mlir, where it must); `always` cuts tensors in
most programs that have VTCM tensors.
"""

from __future__ import annotations

import os

import numpy as np
from hypothesis import HealthCheck, assume, event, given, settings
from program_gen import programs
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocDiscontiguousTensorOp, AllocStorageOp
from memplan.interpreter import RunResult, run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.targets import VTCM_SCOPE, get_target

CONTEXT = memplan_context()
BLOCK = 16
EXAMPLES = 300 if os.environ.get("MEMPLAN_SLOW") else 30


def _planned(module: ModuleOp, plan: MemoryPlanPass) -> ModuleOp:
    copy = module.clone()
    plan.apply(CONTEXT, copy)
    copy.verify()
    return copy


def _vtcm_height(module: ModuleOp) -> int:
    """Bytes of the largest VTCM storage: with one arena at a time, what the
    VTCM window must hold."""
    sizes = [
        op.static_size_bytes() or 0
        for op in module.walk()
        if isinstance(op, AllocStorageOp) and op.scope == VTCM_SCOPE
    ]
    return max(sizes, default=0)


def _tightest(module: ModuleOp, start: int) -> tuple[int, ModuleOp]:
    """The lowest capacity, in steps of a block down from `start`, that
    `discontiguous=auto` plans into, with its plan."""
    capacity = start
    planned = _planned(module, MemoryPlanPass(capacity=capacity))
    while capacity >= BLOCK:
        try:
            lower = _planned(
                module,
                MemoryPlanPass(
                    discontiguous="auto", block_size=BLOCK, capacity=capacity - BLOCK
                ),
            )
        except PassFailedException:
            break
        capacity, planned = capacity - BLOCK, lower
    return capacity, planned


def _assert_runs_within(
    planned: ModuleOp, capacity: int, original: RunResult, what: str
) -> None:
    MemoryVerifyPass(capacity=capacity).apply(CONTEXT, planned)
    run = run_function(planned, target=get_target().with_vtcm_size(capacity))
    assert run.stats.peak_extent.get(VTCM_SCOPE, 0) <= capacity, what
    for want, got in zip(original.results, run.results, strict=True):
        assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray)
        assert np.array_equal(got, want), f"{what} changed a result"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=programs(branches=False, rich=True))
def test_blocks_keep_results_within_a_tight_vtcm(text: str) -> None:
    manifested = Parser(CONTEXT, text).parse_module()
    MemoryManifestPass().apply(CONTEXT, manifested)
    original = run_function(manifested.clone())
    height = _vtcm_height(_planned(manifested, MemoryPlanPass()))
    assume(height > 0)
    capacity, planned = _tightest(manifested, height)
    _assert_runs_within(planned, capacity, original, f"auto at {capacity} bytes")
    always = _planned(
        manifested, MemoryPlanPass(discontiguous="always", block_size=BLOCK)
    )
    blocked = any(isinstance(op, AllocDiscontiguousTensorOp) for op in always.walk())
    event(f"always cuts a tensor into blocks: {blocked}")
    _assert_runs_within(always, _vtcm_height(always), original, "always")

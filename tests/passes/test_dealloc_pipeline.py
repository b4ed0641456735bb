"""MLIR's buffer-deallocation-pipeline output plans, verifies, lowers and
computes what it computed before.

The fixtures (tests/fixtures/dealloc_pipeline, see its README) free buffers
through aliases, return them and carry them through loops; `memory-manifest`
leaves those as `memref.alloc`s and every later pass accepts the mix.  Each
pipeline runs as `memplan-opt` does, and its output is printed and parsed
again before it runs.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest

from memplan.context import parse_module
from memplan.dialects import memref
from memplan.dialects.memory import AllocTensorOp
from memplan.interpreter import run_function
from memplan.tools.memplan_opt import MemplanOptMain

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dealloc_pipeline"

VECTOR_16 = np.linspace(-1.0, 1.0, 16, dtype=np.float32)
VECTOR_64 = np.linspace(-0.5, 0.5, 64, dtype=np.float32)
ARGUMENTS: dict[str, list[tuple[object, ...]]] = {
    "twofn": [(VECTOR_16,)],
    "if_tensors": [(VECTOR_64, True), (VECTOR_64, False)],
    "loop_tensors": [(VECTOR_64,)],
    "while_tensors": [(VECTOR_16, 0), (VECTOR_16, 3)],
    "callee_returns_buffer": [()],
    "while_dealloc_blockarg": [()],
}
"""Arguments of each fixture's @main, one tuple per run."""

OWNED = {
    "twofn": (1, 1),
    "if_tensors": (6, 2),
    "loop_tensors": (1, 1),
    "while_tensors": (1, 3),
    "callee_returns_buffer": (3, 1),
    "while_dealloc_blockarg": (2, 1),
}
"""How many memref.allocs memory-manifest turns into tensors, and how many it
leaves alone: those a caller frees (@make's and @stage's results), those an
scf.if may yield (if_tensors), those carried to the next iteration
(loop_tensors, while_tensors, the buffer while_dealloc_blockarg frees in
`do`) and while_tensors' copy, freed after the loop directly and in it
through the iter_arg.  The tensors are the temporaries freed where they were
allocated, if_tensors' lists for @dealloc_helper, and the results of @main
that no caller frees."""

PIPELINES = [
    "memory-manifest,memory-plan,memory-verify",
    "memory-manifest,memory-plan,convert-memory-to-memref",
    "memory-manifest,memory-place{target=hexagon-v66},memory-plan{target=hexagon-v66},"
    "memory-verify{target=hexagon-v66}",
]


def _opt(name: str, passes: str, tmp_path: Path) -> tuple[str, str]:
    """`memplan-opt -p PASSES` on the fixture: its output and its stderr."""
    output = tmp_path / f"{name}.out.mlir"
    stderr = io.StringIO()
    with redirect_stderr(stderr):
        MemplanOptMain(
            args=[str(FIXTURES / f"{name}.mlir"), "-p", passes, "-o", str(output)]
        ).run()
    return output.read_text(), stderr.getvalue()


def _results(text: str, args: tuple[object, ...]) -> tuple[object, ...]:
    arguments = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return run_function(parse_module(text), args=arguments).results


@pytest.mark.parametrize("name", sorted(OWNED))
def test_manifest_leaves_alone_exactly_the_allocs_it_cannot_own(
    name: str, tmp_path: Path
) -> None:
    text, stderr = _opt(name, "memory-manifest", tmp_path)
    module = parse_module(text)
    tensors = [op for op in module.walk() if isinstance(op, AllocTensorOp)]
    allocs = [op for op in module.walk() if isinstance(op, memref.AllocOp)]
    assert (len(tensors), len(allocs)) == OWNED[name]
    assert stderr == ""


@pytest.mark.parametrize("passes", PIPELINES, ids=["verify", "lower", "place"])
@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_passes_accept_tensors_mixed_with_left_alone_allocs_and_keep_results(
    name: str, passes: str, tmp_path: Path
) -> None:
    text, stderr = _opt(name, passes, tmp_path)
    assert stderr == "", "no remark about the allocs memory-manifest left alone"
    original = (FIXTURES / f"{name}.mlir").read_text()
    for args in ARGUMENTS[name]:
        want = _results(original, args)
        got = _results(text, args)
        for planned, unplanned in zip(got, want, strict=True):
            assert isinstance(planned, np.ndarray)
            assert isinstance(unplanned, np.ndarray)
            assert np.array_equal(planned, unplanned), args

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

import os
import re
import subprocess
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from test_torch_fixtures import EXPORT_ATOL, FIXTURES, NAMES, TOLERANCE, expected
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from memplan.context import memplan_context
from memplan.interpreter.element_types import BF16
from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.parser import MemplanParser
from memplan.passes.coalesce import MemoryCoalescePass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.place import MemoryPlacePass
from memplan.passes.plan import MemoryPlanPass

MLIR_PYTHON = os.environ.get("MEMPLAN_MLIR_PYTHON")

pytestmark = pytest.mark.skipif(
    MLIR_PYTHON is None,
    reason="set MEMPLAN_MLIR_PYTHON to a Python with MLIR's bindings (torch-mlir)",
)

COMPILE_AND_RUN = """
import ctypes, sys
import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import get_ranked_memref_descriptor

PIPELINE = (
    "builtin.module(buffer-results-to-out-params{modify-public-functions},"
    "convert-bufferization-to-memref,expand-realloc,memref-expand,"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
    "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
    "convert-scf-to-cf,finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
)
# bf16 travels as its 16 bits.
DTYPES = {"f32": np.float32, "f64": np.float64, "i64": np.int64, "i32": np.int32,
          "i16": np.int16, "i8": np.int8, "i1": np.bool_, "bf16": np.uint16}


class Unranked(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def view(unranked, size):
    # A ranked descriptor: allocated and aligned pointers, offset, sizes, strides.
    rank = unranked.rank
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(unranked.descriptor)
    shape, strides = tuple(words[3:3 + rank]), tuple(words[3 + rank:])
    if 0 in shape:
        return np.zeros(shape, f"V{size}")
    span = (sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * size
    start = words[1] + words[2] * size
    raw = np.ctypeslib.as_array((ctypes.c_uint8 * span).from_address(start))
    steps = tuple(s * size for s in strides)
    return np.lib.stride_tricks.as_strided(raw.view(f"V{size}"), shape, steps)


# MLIR's runtime library (not in torch-mlir's wheel) copies strided memrefs.
@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(Unranked), ctypes.POINTER(Unranked))
def memref_copy(size, source, target):
    view(target.contents, size)[...] = view(source.contents, size)


inputs, outputs = sys.argv[1:]
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    main = next(op for op in module.body.operations
                if op.operation.name == "func.func"
                and ir.StringAttr(op.attributes["sym_name"]).value == "main")
    main.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
    signature = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    types = [ir.MemRefType(t) for t in signature.results]
    results = [np.zeros(t.shape, DTYPES[str(t.element_type)]) for t in types]
    passmanager.PassManager.parse(PIPELINE).run(module.operation)
    engine = ExecutionEngine(module, opt_level=2)
    engine.raw_register_runtime("memrefCopy", ctypes.cast(memref_copy, ctypes.c_void_p))
    with np.load(inputs) as saved:
        arguments = [saved[f"arg{i}"] for i in range(len(signature.inputs))]
    arguments = [np.ascontiguousarray(a.view(np.uint16) if a.dtype.kind == "V" else a)
                 for a in arguments]
    engine.invoke("main", *[
        ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(a)))
        for a in arguments + results
    ])
    np.savez(outputs, **{
        f"result{i}": r.view("V2") if str(t.element_type) == "bf16" else r
        for i, (r, t) in enumerate(zip(results, types))
    })
"""


def _compiled(text: str, name: str, out: Path) -> dict[str, np.ndarray]:
    """The results of `main` in `text`, compiled by MLIR, on the fixture's
    inputs."""
    assert MLIR_PYTHON is not None
    done = subprocess.run(
        [MLIR_PYTHON, "-c", COMPILE_AND_RUN, str(FIXTURES / f"{name}.npz"), str(out)],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as saved:
        return {k: v.view(BF16) if v.dtype.kind == "V" else v for k, v in saved.items()}


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

VTCM_SPACE = re.compile(r', "global\.vtcm">')
"""A memref's VTCM memory space: MLIR's lowering to LLVM on a CPU needs
integer address spaces, and a CPU has one, so the check drops it."""


def _planned_and_lowered(name: str, plan: str) -> str:
    """The fixture planned and lowered, in generic form with its blobs."""
    ctx = memplan_context()
    module = MemplanParser(ctx, (FIXTURES / f"{name}.mlir").read_text()).parse_module()
    for module_pass in (*PLANS[plan], ConvertMemoryToMemrefPass()):
        module_pass.apply(ctx, module)
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=True)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)
    return VTCM_SPACE.sub(">", stream.getvalue())


@pytest.mark.parametrize("plan", sorted(PLANS))
@pytest.mark.parametrize("name", NAMES)
def test_planned_module_compiled_by_mlir_matches_the_exported_one_bitwise(
    name: str, plan: str, tmp_path: Path
):
    exported = _compiled(
        (FIXTURES / f"{name}.mlir").read_text(), name, tmp_path / "exported.npz"
    )
    planned = _compiled(
        _planned_and_lowered(name, plan), name, tmp_path / "planned.npz"
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

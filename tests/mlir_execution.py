"""Compiling a module with upstream MLIR and running it (development checks).

Tests that use it run only when MEMPLAN_MLIR_PYTHON names a Python with
MLIR's bindings and ExecutionEngine, such as torch-mlir's (`needs_mlir`).
`compiled` lowers a module of upstream ops with MLIR's own passes to LLVM,
runs its `main` on the arrays `arg0`, `arg1`, ... of an `.npz` file and gives
its results: what upstream MLIR, not memplan-run, makes of the module.
`run_in_mlir` lowers a function of memref arguments (parsed by memplan,
printed in generic form) and gives the arguments after the call, and its
scalar result.
"""

from __future__ import annotations

import os
import re
import subprocess
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from memplan.context import parse_module
from memplan.interpreter.element_types import BF16

MLIR_PYTHON = os.environ.get("MEMPLAN_MLIR_PYTHON")

needs_mlir = pytest.mark.skipif(
    MLIR_PYTHON is None,
    reason="set MEMPLAN_MLIR_PYTHON to a Python with MLIR's bindings (torch-mlir)",
)

PIPELINE = (
    "builtin.module(buffer-results-to-out-params{modify-public-functions},"
    "convert-bufferization-to-memref,expand-realloc,memref-expand,"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
    "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
    "convert-scf-to-cf,finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
)
"""MLIR's standard lowering of a module to LLVM: math ops become LLVM
intrinsics and C library calls (`expf`, `erff`, ...), or functions of its
own (`fpowi`, `ipowi`); compiled at `-O2`."""

COMPILE_AND_RUN = (
    f"PIPELINE = {PIPELINE!r}\n"
    + """
import ctypes, sys
import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import get_ranked_memref_descriptor

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
    with np.load(inputs) as saved:
        arguments = [saved[f"arg{i}"] for i in range(len(signature.inputs))]
        # A result of dynamic size becomes an out-parameter the caller
        # allocates: at the size of the expected result stored beside the inputs.
        shapes = [t.shape if t.has_static_shape else saved[f"result{i}"].shape
                  for i, t in enumerate(types)]
    results = [np.zeros(shape, DTYPES[str(t.element_type)])
               for shape, t in zip(shapes, types)]
    passmanager.PassManager.parse(PIPELINE).run(module.operation)
    engine = ExecutionEngine(module, opt_level=2)
    engine.raw_register_runtime("memrefCopy", ctypes.cast(memref_copy, ctypes.c_void_p))
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
)


MEMORY_SPACE = re.compile(r', "global(\.vtcm)?">')
"""A memref's memplan memory space ("global", "global.vtcm"): MLIR's
lowering to LLVM on a CPU needs integer address spaces, and a CPU has one,
so `generic_text` drops it."""


def generic_text(module: ModuleOp, ctx: Context) -> str:
    """`module` in generic form with its blobs, memory spaces dropped."""
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=True)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)
    return MEMORY_SPACE.sub(">", stream.getvalue())


def compiled(text: str, inputs: Path, out: Path) -> dict[str, np.ndarray]:
    """The results of `main` in `text`, compiled by MLIR, on the arrays of
    `inputs`."""
    assert MLIR_PYTHON is not None
    done = subprocess.run(
        [MLIR_PYTHON, "-c", COMPILE_AND_RUN, str(inputs), str(out)],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as saved:
        return {k: v.view(BF16) if v.dtype.kind == "V" else v for k, v in saved.items()}


MLIR_RUN = """
import ctypes, ctypes.util, sys
import numpy as np
from torch_mlir import ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import get_ranked_memref_descriptor

PIPELINE = (
    "builtin.module(func.func(scf-forall-to-parallel),"
    "convert-bufferization-to-memref,expand-realloc,memref-expand,"
    "convert-linalg-to-loops,"
    "expand-strided-metadata,"
    "lower-affine,convert-scf-to-cf,finalize-memref-to-llvm,"
    "convert-arith-to-llvm,convert-math-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm,reconcile-unrealized-casts)"
)
RESULTS = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i32": ctypes.c_int32,
           "i64": ctypes.c_int64, "index": ctypes.c_int64}
# pack and unpack are no LinalgOp: convert-linalg-to-loops leaves them,
# their TilingInterface loops (convert_to_loops) lower them.
RELAYOUT_TO_LOOPS = '''
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.pack", "linalg.unpack"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.convert_to_loops %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
'''
arrays_in, arrays_out, result_type = sys.argv[1:4]
if len(sys.argv) > 4:  # another pipeline, and the optimization level
    PIPELINE, opt_level = sys.argv[4], int(sys.argv[5])
else:
    opt_level = 0
with ir.Context():
    text = sys.stdin.read()
    module = ir.Module.parse(text)
    if '"linalg.pack"' in text or '"linalg.unpack"' in text:
        with ir.InsertionPoint(module.body):
            ir.Module.parse(RELAYOUT_TO_LOOPS).operation.clone()
        passmanager.PassManager.parse("builtin.module(transform-interpreter)").run(
            module.operation)
        for op in list(module.body.operations):
            if "transform.with_named_sequence" in op.attributes:
                op.erase()
    passmanager.PassManager.parse(PIPELINE).run(module.operation)
    # math.fpowi of a run-time exponent calls the compiler runtime's __powisf2
    ctypes.CDLL(ctypes.util.find_library("gcc_s"), mode=ctypes.RTLD_GLOBAL)
    engine = ExecutionEngine(module, opt_level=opt_level)
    stored = np.load(arrays_in)
    arrays = [stored[f"arr_{i}"] for i in range(len(stored.files))]
    # bf16 arrives as 2-byte void, which ctypes has no type for: pass its bits
    arrays = [a.view(np.uint16) if a.dtype.kind == "V" and a.dtype.itemsize == 2
              else a for a in arrays]
    args = [ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(a)))
            for a in arrays]
    outputs = {f"arg{i}": a for i, a in enumerate(arrays)}
    if result_type == "none":
        engine.invoke("main", *args)
    else:
        result = RESULTS[result_type](0)
        engine.invoke("main", *args, ctypes.pointer(result))
        outputs["result"] = np.asarray(result.value)
    np.savez(arrays_out, **outputs)
"""


def run_in_mlir(
    text: str,
    arrays: list[np.ndarray],
    result_type: str,
    tmp_path: Path,
    standard: bool = False,
) -> dict[str, np.ndarray]:
    """`main` of `text` (memref arguments; a scalar result of `result_type`,
    or "none") compiled by MLIR and run on `arrays`: the arguments after the
    call as `arg0`, `arg1`, ... and the result as `result`.  Lowered by
    `MLIR_RUN`'s pipeline at -O0, or with `standard` by MLIR's standard one
    (math ops to C library calls, `PIPELINE`) at -O2."""
    assert MLIR_PYTHON is not None
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, *arrays)
    stream = StringIO()
    module = parse_module(text)
    module.verify()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    done = subprocess.run(
        [
            MLIR_PYTHON,
            "-c",
            MLIR_RUN,
            str(inputs),
            str(outputs),
            result_type,
            *([PIPELINE, "2"] if standard else []),
        ],
        input=stream.getvalue(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    with np.load(outputs) as stored:
        return {name: stored[name] for name in stored.files}

"""Export a PyTorch model to the bufferized, generic-form MLIR that memplan reads.

    python examples/torch/export_model.py examples/torch/models/cnn.py -o out/

writes `out/cnn.mlir` and `out/cnn.npz`.  The route is the upstream one, with
no hand edits: `torch_mlir.fx.export_and_import(..., output_type=
"linalg-on-tensors")`, then MLIR's own bufferization through torch-mlir's
bundled MLIR (`one-shot-bufferize{bufferize-function-boundaries
function-boundary-type-conversion=identity-layout-map},
buffer-deallocation-pipeline,canonicalize,cse`), printed in generic op form
(xDSL has no custom syntax for some upstream memref ops).  Weights stay
`dense_resource` blobs, exactly as torch-mlir emits them.

The model file is plain Python that defines

    def make_model() -> torch.nn.Module      # required
    INPUT_SHAPE = (1, 3, 32, 32)             # one float32 input from torch.randn

or, instead of INPUT_SHAPE (for several inputs, or integer ones),

    def make_inputs() -> tuple[torch.Tensor, ...]

Both are called after seeding torch, numpy and `random` with `--seed`, so the
weights and inputs are the same on every run.  The model is exported in eval
mode (BatchNorm uses its running statistics, dropout is off).  As with
`python model.py`, the model file's directory is importable while it loads.

The `.npz` holds the inputs as `arg0`, `arg1`, ... and PyTorch's outputs as
`result0`, `result1`, ...: the names `memplan-run --output` writes, so the two
archives compare key by key.

Needs the optional extra: `pip install '.[torch]'`.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

import ml_dtypes
import numpy as np

BUFFERIZE_PIPELINE = (
    "builtin.module("
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,canonicalize,cse)"
)


class ExportError(Exception):
    """A problem with the model file or the export, reported as one line."""


def _import_torch() -> tuple[Any, Any, Any]:
    """torch, torch_mlir.fx and torch-mlir's PassManager, or a clear error."""
    try:
        import torch
        from torch_mlir import fx
        from torch_mlir.passmanager import PassManager
    except ImportError as error:
        raise ExportError(
            f"needs torch and torch-mlir ({error}); install them with "
            "pip install '.[torch]' (torch==2.14.1, torch-mlir==20261001)"
        ) from None
    return torch, fx, PassManager


def _describe(error: BaseException, path: Path) -> str:
    """`Type: message (line N)`, N the innermost line of the model file, if any."""
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {error}{_where(error, path)}"


def _where(error: BaseException, path: Path) -> str:
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path
    ]
    return f" (line {frames[-1].lineno})" if frames else ""


def _load_model_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise ExportError(f"model file {path} does not exist")
    spec = importlib.util.spec_from_file_location(f"_memplan_model_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ExportError(f"cannot load {path} as a Python file")
    module = importlib.util.module_from_spec(spec)
    # As `python model.py` would: the file's own directory is importable.
    sys.path.insert(0, str(path.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise ExportError(
            f"cannot load model file {path}: {_describe(error, path.resolve())}"
        ) from None
    finally:
        sys.path.pop(0)
    return module


def _call(path: Path, name: str, function: Any) -> Any:
    try:
        return function()
    except Exception as error:
        raise ExportError(
            f"{path}: {name}() raised {_describe(error, path.resolve())}"
        ) from None


def _model_and_inputs(torch: Any, module: ModuleType, path: Path) -> tuple[Any, tuple]:
    make_model = getattr(module, "make_model", None)
    if not callable(make_model):
        raise ExportError(
            f"{path} defines no make_model() factory "
            "(expected: def make_model() -> torch.nn.Module)"
        )
    model = _call(path, "make_model", make_model)
    if not isinstance(model, torch.nn.Module):
        raise ExportError(
            f"{path}: make_model() returned {type(model).__name__}, "
            "expected a torch.nn.Module"
        )
    make_inputs = getattr(module, "make_inputs", None)
    shape = getattr(module, "INPUT_SHAPE", None)
    if callable(make_inputs):
        inputs = _call(path, "make_inputs", make_inputs)
        inputs = inputs if isinstance(inputs, tuple | list) else (inputs,)
    elif shape is not None:
        try:
            inputs = (torch.randn(*shape),)
        except (TypeError, RuntimeError) as error:
            raise ExportError(
                f"{path}: INPUT_SHAPE = {shape!r} is not a shape ({error})"
            ) from None
    else:
        raise ExportError(
            f"{path} defines neither INPUT_SHAPE (e.g. INPUT_SHAPE = (1, 3, 32, 32)) "
            "nor make_inputs()"
        )
    if not inputs or not all(isinstance(x, torch.Tensor) for x in inputs):
        raise ExportError(f"{path}: the example inputs must be one or more tensors")
    return model.eval(), tuple(inputs)


def _flat_tensors(torch: Any, value: Any) -> list[Any]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, tuple | list):
        return [t for v in value for t in _flat_tensors(torch, v)]
    raise ExportError(
        f"the model returned a {type(value).__name__}; expected tensors "
        "(or a tuple or list of them)"
    )


def load_model(path: Path, seed: int) -> tuple[Any, tuple]:
    """The model file's model (in eval mode) and example inputs, seeded."""
    torch, _, _ = _import_torch()
    module = _load_model_file(path)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return _model_and_inputs(torch, module, path)


def _foreign_ops(generic_text: str) -> list[str]:
    """torch-mlir's TMTensor ops (cumsum, sort, scatter, ...) left in the export."""
    return sorted(
        set(re.findall(r'"(tm_tensor\.\w+)"\(', generic_text)) - {"tm_tensor.yield"}
    )


def export(path: Path, seed: int) -> tuple[str, dict[str, np.ndarray]]:
    """The generic-form bufferized module and the arrays for the `.npz`."""
    torch, fx, pass_manager = _import_torch()
    model, inputs = load_model(path, seed)
    with torch.no_grad():
        outputs = _flat_tensors(torch, _call(path, "forward", lambda: model(*inputs)))
        try:
            mlir = fx.export_and_import(model, *inputs, output_type="linalg-on-tensors")
        except Exception as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise ExportError(
                f"torch-mlir could not export {path}: {type(error).__name__}: {first}"
            ) from None
    foreign = _foreign_ops(mlir.operation.get_asm(print_generic_op_form=True))
    with mlir.context:
        try:
            pass_manager.parse(BUFFERIZE_PIPELINE).run(mlir.operation)
        except Exception as error:
            hint = (
                f" (the export holds {', '.join(foreign)}: torch-mlir's own ops, "
                "which upstream MLIR cannot bufferize)"
                if foreign
                else ""
            )
            raise ExportError(f"bufferizing {path} failed: {error}{hint}") from None
    text = mlir.operation.get_asm(print_generic_op_form=True)
    arrays = {f"arg{i}": _array(torch, x) for i, x in enumerate(inputs)}
    arrays |= {f"result{i}": _array(torch, y) for i, y in enumerate(outputs)}
    return text, arrays


def _array(torch: Any, tensor: Any) -> np.ndarray:
    """The tensor as numpy; bf16 (which numpy lacks) as ml_dtypes.bfloat16,
    which `np.savez` stores as 2-byte void and memplan-run reads back as bf16."""
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return tensor.numpy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Export a PyTorch model to bufferized generic-form MLIR "
        "plus an .npz of its inputs (arg0, ...) and PyTorch's outputs "
        "(result0, ...).",
        epilog="The model file defines make_model() -> nn.Module and either "
        "INPUT_SHAPE = (...) or make_inputs() -> tuple of tensors.",
    )
    parser.add_argument("model", type=Path, help="Python file defining make_model()")
    parser.add_argument(
        "-o",
        "--output-dir",
        type=Path,
        default=Path(),
        help="directory for NAME.mlir and NAME.npz (default: current directory)",
    )
    parser.add_argument(
        "--name", help="output file name without suffix (default: the model file's)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for weights and inputs (default 0)"
    )
    args = parser.parse_args(argv)
    name = args.name or args.model.stem
    try:
        text, arrays = export(args.model, args.seed)
        mlir_path = args.output_dir / f"{name}.mlir"
        npz_path = args.output_dir / f"{name}.npz"
        try:
            args.output_dir.mkdir(parents=True, exist_ok=True)
            mlir_path.write_text(text)
            with open(npz_path, "wb") as file:
                np.savez(file, allow_pickle=False, **arrays)
        except OSError as error:
            raise ExportError(
                f"cannot write to {args.output_dir}: {error.strerror}"
            ) from None
    except ExportError as error:
        print(f"export_model: error: {error}", file=sys.stderr)
        return 1
    shapes = ", ".join(f"{k} {v.dtype}{list(v.shape)}" for k, v in arrays.items())
    print(f"wrote {mlir_path} ({len(text)} bytes) and {npz_path} ({shapes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

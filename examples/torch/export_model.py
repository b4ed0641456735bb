"""Export a PyTorch model to the bufferized, generic-form MLIR that memplan reads.

    python examples/torch/export_model.py examples/torch/models/cnn.py -o out/

writes `out/cnn.mlir` and `out/cnn.npz`.  The route is the upstream one, with
no hand edits: what `torch_mlir.fx.export_and_import(model, *inputs,
output_type="linalg-on-tensors")` does (`torch.export.export`, torch-mlir's
decompositions, its frozen import), then MLIR's own bufferization through
torch-mlir's bundled MLIR (`one-shot-bufferize{bufferize-function-boundaries
function-boundary-type-conversion=identity-layout-map},
buffer-deallocation-pipeline,canonicalize,cse`), printed in generic op form
(xDSL has no custom syntax for some upstream memref ops).  Weights stay
`dense_resource` blobs, exactly as torch-mlir emits them.

The model file is plain Python that defines

    def make_model() -> torch.nn.Module      # required
    INPUT_SHAPE = (1, 3, 32, 32)             # one float32 input from torch.randn

or, instead of INPUT_SHAPE (for several inputs, or integer ones),

    def make_inputs() -> tuple[torch.Tensor, ...]

For dimensions that vary at run time (a batch, a sequence length), the file
may also define

    DYNAMIC_SHAPES = ({0: torch.export.Dim("batch", min=1, max=16)},)
    def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]]

`DYNAMIC_SHAPES` is passed to `torch.export.export` as its `dynamic_shapes`
(one entry per input), so the module has `?` sizes where it names a `Dim`.
`make_inputs_for_sizes()` gives more input sets, each as many tensors as the
example inputs, at other sizes: PyTorch runs each, and the `.npz` holds
set N (counted from 1) as `setN/arg0`, ... and `setN/result0`, ...
(`memplan-run --args NAME.npz --args-set setN` runs it).  Either may be
defined alone.  The sizes each `Dim` allows (`min`..`max`, as
`torch.export` records them in `range_constraints`) go into the module as
`@main`'s argument attribute `memplan.sizes` (SIZES_ATTRIBUTE), which
`memplan-run` checks the sizes it runs against.

They are called after seeding torch, numpy and `random` with `--seed`, so the
weights and inputs are the same on every run.  The model is exported in eval
mode (BatchNorm uses its running statistics, dropout is off).  As with
`python model.py`, the model file's directory is importable while it loads.

The `.npz` holds the inputs as `arg0`, `arg1`, ... and PyTorch's values of
the module's results as `result0`, `result1`, ...: the names `memplan-run
--output` writes, so the two archives compare key by key.  If forward changes
parameters, buffers or inputs in place, torch-mlir returns their new values
first (in the exported program's order: parameters, buffers, inputs), then
forward's outputs; the `.npz` does the same.  The inputs are saved, and the
module's state exported, as they were before PyTorch's call.

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

import numpy as np

BUFFERIZE_PIPELINE = (
    "builtin.module("
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,canonicalize,cse)"
)
# @main's argument attribute that holds the sizes torch.export allows for
# each dynamic dimension of the argument (docs/frontend.md, "Dynamic sizes").
SIZES_ATTRIBUTE = "memplan.sizes"


class ExportError(Exception):
    """A problem with the model file or the export, reported as one line."""


def _import_torch() -> tuple[Any, Any, Any, Any]:
    """torch, torch_mlir.fx, torch-mlir's PassManager and its decomposition
    table, or a clear error."""
    try:
        import torch
        from torch_mlir import fx
        from torch_mlir.extras.fx_decomp_util import get_decomposition_table
        from torch_mlir.passmanager import PassManager
    except ImportError as error:
        raise ExportError(
            f"needs torch and torch-mlir ({error}); install them with "
            "pip install '.[torch]' (torch==2.14.1, torch-mlir==20261001)"
        ) from None
    return torch, fx, PassManager, get_decomposition_table()


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


def _input_sets(torch: Any, module: ModuleType, path: Path, count: int) -> list:
    """The input sets of make_inputs_for_sizes(), if the file defines it."""
    make_sets = getattr(module, "make_inputs_for_sizes", None)
    if make_sets is None:
        return []
    if not callable(make_sets):
        raise ExportError(
            f"{path}: make_inputs_for_sizes is not a function "
            "(expected: def make_inputs_for_sizes() -> list[tuple[torch.Tensor, ...]])"
        )
    sets = _call(path, "make_inputs_for_sizes", make_sets)
    if not isinstance(sets, tuple | list):
        raise ExportError(
            f"{path}: make_inputs_for_sizes() returned {type(sets).__name__}, "
            "expected a list of input tuples"
        )
    sets = [s if isinstance(s, tuple | list) else (s,) for s in sets]
    for number, inputs in enumerate(sets, 1):
        if len(inputs) != count or not all(isinstance(x, torch.Tensor) for x in inputs):
            raise ExportError(
                f"{path}: make_inputs_for_sizes() set {number} is not {count} "
                "tensor(s), as many as the example inputs"
            )
    return [tuple(s) for s in sets]


def _load(path: Path, seed: int) -> tuple[Any, tuple, Any, list]:
    """The model (in eval mode), its example inputs, the `dynamic_shapes` spec
    (None without DYNAMIC_SHAPES) and the input sets at other sizes, seeded."""
    torch = _import_torch()[0]
    module = _load_model_file(path)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    model, inputs = _model_and_inputs(torch, module, path)
    sets = _input_sets(torch, module, path, len(inputs))
    return model, inputs, getattr(module, "DYNAMIC_SHAPES", None), sets


def load_model(path: Path, seed: int) -> tuple[Any, tuple]:
    """The model file's model (in eval mode) and example inputs, seeded."""
    return _load(path, seed)[:2]


def _foreign_ops(generic_text: str) -> list[str]:
    """torch-mlir's TMTensor ops (cumsum, sort, scatter, ...) left in the export."""
    return sorted(
        set(re.findall(r'"(tm_tensor\.\w+)"\(', generic_text)) - {"tm_tensor.yield"}
    )


def export(path: Path, seed: int) -> tuple[str, dict[str, np.ndarray]]:
    """The generic-form bufferized module and the arrays for the `.npz`."""
    torch, fx, pass_manager, decompositions = _import_torch()
    model, inputs, dynamic_shapes, sets = _load(path, seed)
    given = (inputs, *sets)
    # The inputs as drawn: forward may change them in place.
    drawn = [[_array(torch, x).copy() for x in tensors] for tensors in given]
    with torch.no_grad():
        eager = [_eager(torch, path, model, tensors) for tensors in given]
        # torch-mlir's export_and_import(model, *inputs), in two steps to read
        # the signature of the program it imports.
        program = _exporting(
            path,
            lambda: torch.export.export(
                model, inputs, dynamic_shapes=dynamic_shapes, strict=False
            ).run_decompositions(decompositions),
        )
    arrays: dict[str, np.ndarray] = {}
    for number, (values, (state, changed, outputs)) in enumerate(
        zip(drawn, eager, strict=True)
    ):
        # The example inputs' arrays have no prefix; set N's have `setN/`.
        prefix = f"set{number}/" if number else ""
        results = _results(torch, program, state, changed, outputs)
        arrays |= {f"{prefix}arg{i}": value for i, value in enumerate(values)}
        arrays |= {
            f"{prefix}result{i}": _array(torch, y) for i, y in enumerate(results)
        }
    with torch.no_grad():
        mlir = _exporting(
            path,
            lambda: fx.export_and_import(
                program, output_type="linalg-on-tensors", decomposition_table={}
            ),
        )
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
        _record_sizes(mlir, _dynamic_sizes(program, dynamic_shapes), path)
    text = mlir.operation.get_asm(print_generic_op_form=True)
    return text, arrays


def _dynamic_sizes(program: Any, dynamic_shapes: Any) -> list[list[dict[str, Any]]]:
    """For each user input, in order, each dimension whose size is a symbol of
    the exported program, or a derived `Dim` (`2 * batch + 1`: the symbol
    times a positive integer plus an integer): its dimension, symbol, `scale`
    and `offset` (1 and 0 for the symbol itself), the `Dim` name of the
    symbol (when `dynamic_shapes` names one for it) and the bounds
    `range_constraints` gives the symbol (`max` None when unbounded).  A
    dimension that is any other expression of symbols is left out; so is a
    size torch.export specialized to a constant."""
    import sympy  # a dependency of torch

    nodes = {
        node.name: node for node in program.graph.nodes if node.op == "placeholder"
    }
    user_inputs = list(program.graph_signature.user_inputs)
    names = _dim_names(dynamic_shapes, user_inputs)
    sizes = []
    for position, name in enumerate(user_inputs):
        value = nodes[name].meta.get("val")
        dimensions = []
        for dimension, size in enumerate(getattr(value, "shape", ())):
            expression = getattr(getattr(size, "node", None), "expr", None)
            linear = _linear_in_one_symbol(sympy, expression)
            if linear is None or linear[0] not in program.range_constraints:
                continue
            symbol, scale, offset = linear
            bounds = program.range_constraints[symbol]
            dimensions.append(
                {
                    "dim": dimension,
                    "symbol": str(symbol),
                    "name": names.get((position, dimension)),
                    "min": int(bounds.lower),
                    # torch's int_oo (no upper bound) is a sympy Number, not an Integer.
                    "max": int(bounds.upper)
                    if isinstance(bounds.upper, sympy.Integer)
                    else None,
                    "scale": scale,
                    "offset": offset,
                }
            )
        sizes.append(dimensions)
    return sizes


def _linear_in_one_symbol(sympy: Any, expression: Any) -> tuple[Any, int, int] | None:
    """`(symbol, scale, offset)` if `expression` is `scale * symbol + offset`
    with integers `scale` > 0 and `offset`; None for anything else."""
    if expression is None or len(expression.free_symbols) != 1:
        return None
    (symbol,) = expression.free_symbols
    polynomial = expression.as_poly(symbol)
    if polynomial is None or polynomial.degree() != 1:
        return None
    scale, offset = polynomial.all_coeffs()
    if not (isinstance(scale, sympy.Integer) and isinstance(offset, sympy.Integer)):
        return None
    if scale <= 0:
        return None
    return symbol, int(scale), int(offset)


def _dim_names(
    dynamic_shapes: Any, user_inputs: list[str]
) -> dict[tuple[int, int], str]:
    """The `Dim` name `dynamic_shapes` gives each (input, dimension): one entry
    per input (a tuple or list, or a dict by input name), each a dict by
    dimension or a list of `Dim`s and Nones."""
    if isinstance(dynamic_shapes, dict):
        specs = [dynamic_shapes.get(name) for name in user_inputs]
    elif isinstance(dynamic_shapes, tuple | list):
        specs = list(dynamic_shapes)
    else:
        return {}
    names = {}
    for position, spec in enumerate(specs):
        entries = (
            spec.items()
            if isinstance(spec, dict)
            else enumerate(spec)
            if isinstance(spec, tuple | list)
            else ()
        )
        for dimension, dim in entries:
            # A derived Dim (`2 * batch`) is named after its root, whose
            # symbol and range the entry records.
            name = getattr(getattr(dim, "root", dim), "__name__", None)
            if isinstance(dimension, int) and isinstance(name, str):
                names[(position, dimension)] = name
    return names


def _record_sizes(mlir: Any, sizes: list[list[dict[str, Any]]], path: Path) -> None:
    """Sets `memplan.sizes` on each argument of @main with dynamic dimensions:
    an array of one dictionary per dimension, `{dim = 0 : i64, max = 16 : i64,
    min = 1 : i64, name = "batch", symbol = "s77"}` (no `max` when unbounded,
    no `name` when `dynamic_shapes` gives none; `scale` and `offset` only for
    a derived `Dim`, whose `symbol`, range and `name` are its root's).

    torch-mlir's import makes the program's user inputs @main's arguments, in
    order; checked here by their number and their ranked sizes."""
    from torch_mlir import ir

    main = next(
        (
            op
            for op in mlir.body.operations
            if op.operation.name == "func.func"
            and ir.StringAttr(op.attributes["sym_name"]).value == "main"
        ),
        None,
    )
    if main is None:
        raise ExportError(f"the export of {path} has no @main")
    inputs = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).inputs
    if len(inputs) != len(sizes):
        raise ExportError(
            f"the export of {path}: @main takes {len(inputs)} argument(s), but the "
            f"exported program has {len(sizes)} user input(s)"
        )
    i64 = ir.IntegerType.get_signless(64)
    old = (
        list(ir.ArrayAttr(main.attributes["arg_attrs"]))
        if "arg_attrs" in main.attributes
        else [ir.DictAttr.get({}) for _ in inputs]
    )
    new = []
    for position, (type_, dimensions, attributes) in enumerate(
        zip(inputs, sizes, old, strict=True)
    ):
        shape = type_.shape if isinstance(type_, ir.ShapedType) else []
        for entry in dimensions:
            if entry["dim"] >= len(shape) or not ir.ShapedType.is_dynamic_size(
                shape[entry["dim"]]
            ):
                raise ExportError(
                    f"the export of {path}: dimension {entry['dim']} of user input "
                    f"{position} is dynamic ({entry['symbol']}), but not in @main's "
                    f"argument {position} ({type_})"
                )
        fields = {named.name: named.attr for named in ir.DictAttr(attributes)}
        if dimensions:
            fields[SIZES_ATTRIBUTE] = ir.ArrayAttr.get(
                [_size_attribute(ir, i64, entry) for entry in dimensions]
            )
        new.append(ir.DictAttr.get(fields))
    if any(len(ir.DictAttr(attributes)) for attributes in new):
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(new)


def _size_attribute(ir: Any, i64: Any, entry: dict[str, Any]) -> Any:
    fields = {
        "dim": ir.IntegerAttr.get(i64, entry["dim"]),
        "symbol": ir.StringAttr.get(entry["symbol"]),
        "min": ir.IntegerAttr.get(i64, entry["min"]),
    }
    if entry["max"] is not None:
        fields["max"] = ir.IntegerAttr.get(i64, entry["max"])
    if entry["name"] is not None:
        fields["name"] = ir.StringAttr.get(entry["name"])
    if entry["scale"] != 1:
        fields["scale"] = ir.IntegerAttr.get(i64, entry["scale"])
    if entry["offset"] != 0:
        fields["offset"] = ir.IntegerAttr.get(i64, entry["offset"])
    return ir.DictAttr.get(fields)


def _eager(torch: Any, path: Path, model: Any, inputs: tuple) -> tuple:
    """PyTorch's call on copies of `inputs`: the parameters and buffers by name
    after it, the inputs after it, and forward's outputs.

    forward may change its inputs and the module's parameters and buffers in
    place: the module's state is put back after the call, so the export bakes
    in the state before it, and every input set sees that state."""
    eager_inputs = tuple(x.clone() for x in inputs)
    before = [(name, t, t.clone()) for name, t in _named_state(model)]
    returned = _call(path, "forward", lambda: model(*eager_inputs))
    outputs = [y.clone() for y in _flat_tensors(torch, returned)]
    after = {name: t.clone() for name, t in _named_state(model)}
    _restore(model, before)
    return after, eager_inputs, outputs


def _exporting(path: Path, step: Any) -> Any:
    try:
        return step()
    except Exception as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise ExportError(
            f"torch-mlir could not export {path}: {type(error).__name__}: {first}"
        ) from None


def _named_state(model: Any) -> list[tuple[str, Any]]:
    """Every parameter and buffer by name, shared ones under each name."""
    return [
        *model.named_parameters(remove_duplicate=False),
        *model.named_buffers(remove_duplicate=False),
    ]


def _restore(model: Any, state: list[tuple[str, Any, Any]]) -> None:
    """Puts back each (name, tensor, value): the tensor under its name (forward
    may have bound another) and its value (forward may have changed it)."""
    for name, tensor, value in state:
        owner, _, attribute = name.rpartition(".")
        setattr(model.get_submodule(owner), attribute, tensor)
        tensor.copy_(value)


def _results(
    torch: Any, program: Any, state: dict[str, Any], inputs: tuple, outputs: list
) -> list:
    """PyTorch's values of the module's results, in the module's order.

    torch-mlir's frozen import returns every output of the exported program:
    first the new value of each parameter, buffer and input that forward
    changes in place, then forward's outputs (`graph_signature.output_specs`).
    `state` and `inputs` are the parameters and buffers by name and the inputs
    after PyTorch's call."""
    kinds = torch.export.graph_signature.OutputKind
    signature = program.graph_signature
    user_inputs = [
        spec.arg.name
        for spec in signature.input_specs
        if spec.kind == torch.export.graph_signature.InputKind.USER_INPUT
    ]
    returned = iter(outputs)
    results = []
    for spec in signature.output_specs:
        if spec.kind == kinds.USER_OUTPUT:
            results.append(next(returned))
        elif spec.kind in (kinds.PARAMETER_MUTATION, kinds.BUFFER_MUTATION):
            results.append(state[spec.target])
        elif spec.kind == kinds.USER_INPUT_MUTATION:
            results.append(inputs[user_inputs.index(spec.target)])
        else:
            raise ExportError(
                f"the exported program has an output of kind {spec.kind.name}, "
                "which the exporter cannot match with a PyTorch value"
            )
    return results


def _array(torch: Any, tensor: Any) -> np.ndarray:
    """The tensor as numpy; bf16 (which numpy lacks) as ml_dtypes.bfloat16,
    which `np.savez` stores as 2-byte void and memplan-run reads back as bf16."""
    if tensor.dtype == torch.bfloat16:
        return tensor.detach().view(torch.int16).numpy().view(_bfloat16())
    return tensor.detach().numpy()


def _bfloat16() -> Any:
    try:
        import ml_dtypes
    except ImportError as error:
        raise ExportError(
            f"saving bf16 tensors needs ml_dtypes ({error}), one of memplan's "
            "dependencies; install them with pip install '.[torch]'"
        ) from None
    return ml_dtypes.bfloat16


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Export a PyTorch model to bufferized generic-form MLIR "
        "plus an .npz of its inputs (arg0, ...) and PyTorch's outputs "
        "(result0, ...).",
        epilog="The model file defines make_model() -> nn.Module and either "
        "INPUT_SHAPE = (...) or make_inputs() -> tuple of tensors; for dynamic "
        "sizes also DYNAMIC_SHAPES (torch.export's dynamic_shapes) and "
        "make_inputs_for_sizes() -> list of input tuples, saved as setN/arg0, "
        "..., setN/result0, ...",
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

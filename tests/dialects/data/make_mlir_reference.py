"""Write mlir_named_ops.json: what upstream MLIR makes of each named linalg op.

For every named op memplan's linalg defines and a few element-type pairs
(same type, and widening or int-to-float casts), the custom-form source and
the generic form MLIR prints for it, with the body and indexing maps MLIR
builds, and the iterator types of the `linalg.generic` MLIR generalizes it to.  `test_linalg_mlir_reference.py` checks memplan's ops against it.

Needs MLIR's Python bindings (torch-mlir bundles them), not memplan:

    /path/to/torch-env/bin/python tests/dialects/data/make_mlir_reference.py

Cases MLIR rejects (e.g. a float op on integers) are left out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from torch_mlir import (  # pyright: ignore[reportMissingImports]
    ir,
    passmanager,
)

OUTPUT = Path(__file__).with_name("mlir_named_ops.json")

ITERATOR_TYPES = re.compile(r"iterator_types = \[([^\]]*)\]")
"""The loops' kinds of the op generalized (`linalg-generalize-named-ops`)."""

TYPE_PAIRS = (
    ("f32", "f32"),
    ("i32", "i32"),
    ("f16", "f32"),
    ("i8", "i32"),
    ("i1", "i1"),
    ("i1", "i32"),
)
"""Element types of the inputs and of the output; on i1 MLIR adds with `ori`
and multiplies with `andi`."""

WINDOW_1D = "{dilations = dense<2> : vector<1xi64>, strides = dense<2> : vector<1xi64>}"
WINDOW_2D = "{dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>}"
WINDOW_3D = "{dilations = dense<1> : vector<3xi64>, strides = dense<2> : vector<3xi64>}"


QUANTIZED_CONVOLUTIONS = (
    "conv_2d_nchw_fchw_q",
    "conv_2d_nhwc_hwcf_q",
    "conv_2d_nhwc_fhwc_q",
    "conv_2d_ngchw_gfchw_q",
    "conv_2d_nhwgc_gfhwc_q",
    "conv_3d_ndhwc_dhwcf_q",
    "depthwise_conv_2d_nhwc_hwc_q",
    "depthwise_conv_2d_nhwc_hwcm_q",
)
"""Every `*_q` convolution upstream MLIR defines; with zero points of the
input element type (MLIR's definition names i32 but casts any type)."""


def memref(shape: list[int], element: str) -> str:
    return (
        f"memref<{'x'.join(map(str, [*shape, element]))}>"
        if shape
        else f"memref<{element}>"
    )


def source(name: str, inputs: list[str], outputs: list[str], attrs: str = "") -> str:
    args = [f"%i{k}: {t}" for k, t in enumerate(inputs)]
    args += [f"%o{k}: {t}" for k, t in enumerate(outputs)]
    ins = ", ".join(f"%i{k}" for k in range(len(inputs)))
    outs = ", ".join(f"%o{k}" for k in range(len(outputs)))
    head = f"linalg.{name}{' ' + attrs if attrs else ''}"
    ins_part = f" ins({ins} : {', '.join(inputs)})" if inputs else ""
    return (
        f"func.func @f({', '.join(args)}) {{\n"
        f"  {head}{ins_part} outs({outs} : {', '.join(outputs)})\n"
        "  func.return\n}\n"
    )


def cases() -> dict[str, str]:
    found: dict[str, str] = {}
    for a, b in TYPE_PAIRS:
        v4a, v4b = memref([4], a), memref([4], b)
        for name in ("add", "sub", "mul", "div", "max", "min", "div_unsigned", "powf"):
            found[f"{name}/{a}/{b}"] = source(name, [v4a, v4a], [v4b])
        for name in [
            "exp",
            "log",
            "sqrt",
            "abs",
            "ceil",
            "floor",
            "negf",
            "reciprocal",
            "round",
            "rsqrt",
            "square",
            "tanh",
            "erf",
            "copy",
        ]:
            found[f"{name}/{a}/{b}"] = source(name, [v4a], [v4b])
        found[f"select/{a}/{b}"] = source(
            "select", [memref([4], "i1"), v4a, v4a], [v4b]
        )
        found[f"fill/{a}/{b}"] = source("fill", [a], [v4b])
        found[f"fill_rng_2d/f64/{b}"] = source(
            "fill_rng_2d", ["f64", "f64", "i32"], [memref([3, 4], b)]
        )
        contractions = {
            "matmul": ([2, 3], [3, 4], [2, 4]),
            "batch_matmul": ([5, 2, 3], [5, 3, 4], [5, 2, 4]),
            "matvec": ([2, 3], [3], [2]),
            "vecmat": ([3], [3, 4], [4]),
            "batch_matvec": ([2, 4, 3], [2, 3], [2, 4]),
            "batch_vecmat": ([2, 3], [2, 3, 4], [2, 4]),
            "dot": ([3], [3], []),
        }
        for name, (lhs, rhs, out) in contractions.items():
            found[f"{name}/{a}/{b}"] = source(
                name, [memref(lhs, a), memref(rhs, a)], [memref(out, b)]
            )
        found[f"quantized_matmul/{a}/{b}"] = source(
            "quantized_matmul",
            [memref([2, 3], a), memref([3, 4], a), a, a],
            [memref([2, 4], b)],
        )
        windows = {
            "conv_1d": ([9], [2], [8], ""),
            "conv_2d": ([5, 5], [2, 2], [4, 4], ""),
            "conv_3d": ([4, 4, 4], [2, 2, 2], [3, 3, 3], ""),
            "conv_1d_ncw_fcw": ([1, 2, 9], [3, 2, 2], [1, 3, 3], WINDOW_1D),
            "conv_1d_nwc_wcf": ([1, 9, 2], [2, 2, 3], [1, 3, 3], WINDOW_1D),
            "conv_2d_nchw_fchw": ([1, 2, 6, 6], [3, 2, 2, 2], [1, 3, 3, 4], WINDOW_2D),
            "conv_2d_nhwc_hwcf": ([1, 6, 6, 2], [2, 2, 2, 3], [1, 3, 4, 3], WINDOW_2D),
            "conv_2d_nhwc_fhwc": ([1, 6, 6, 2], [3, 2, 2, 2], [1, 3, 4, 3], WINDOW_2D),
            "conv_2d_ngchw_fgchw": (
                [1, 2, 2, 6, 6],
                [3, 2, 2, 2, 2],
                [1, 2, 3, 3, 4],
                WINDOW_2D,
            ),
            "conv_2d_ngchw_gfchw": (
                [1, 2, 2, 6, 6],
                [2, 3, 2, 2, 2],
                [1, 2, 3, 3, 4],
                WINDOW_2D,
            ),
            "conv_2d_nhwgc_gfhwc": (
                [1, 6, 6, 2, 2],
                [2, 3, 2, 2, 2],
                [1, 3, 4, 2, 3],
                WINDOW_2D,
            ),
            "conv_3d_ncdhw_fcdhw": (
                [1, 2, 5, 5, 5],
                [3, 2, 2, 2, 2],
                [1, 3, 2, 2, 2],
                WINDOW_3D,
            ),
            "conv_3d_ndhwc_dhwcf": (
                [1, 5, 5, 5, 2],
                [2, 2, 2, 2, 3],
                [1, 2, 2, 2, 3],
                WINDOW_3D,
            ),
            "depthwise_conv_1d_ncw_cw": ([1, 2, 9], [2, 2], [1, 2, 3], WINDOW_1D),
            "depthwise_conv_1d_nwc_wc": ([1, 9, 2], [2, 2], [1, 3, 2], WINDOW_1D),
            "depthwise_conv_1d_nwc_wcm": (
                [1, 9, 2],
                [2, 2, 3],
                [1, 3, 2, 3],
                WINDOW_1D,
            ),
            "depthwise_conv_2d_nchw_chw": (
                [1, 2, 6, 6],
                [2, 2, 2],
                [1, 2, 3, 4],
                WINDOW_2D,
            ),
            "depthwise_conv_2d_nhwc_hwc": (
                [1, 6, 6, 2],
                [2, 2, 2],
                [1, 3, 4, 2],
                WINDOW_2D,
            ),
            "depthwise_conv_2d_nhwc_hwcm": (
                [1, 6, 6, 2],
                [2, 2, 2, 3],
                [1, 3, 4, 2, 3],
                WINDOW_2D,
            ),
            "depthwise_conv_3d_ncdhw_cdhw": (
                [1, 2, 5, 5, 5],
                [2, 2, 2, 2],
                [1, 2, 2, 2, 2],
                WINDOW_3D,
            ),
            "depthwise_conv_3d_ndhwc_dhwc": (
                [1, 5, 5, 5, 2],
                [2, 2, 2, 2],
                [1, 2, 2, 2, 2],
                WINDOW_3D,
            ),
            "depthwise_conv_3d_ndhwc_dhwcm": (
                [1, 5, 5, 5, 2],
                [2, 2, 2, 2, 3],
                [1, 2, 2, 2, 2, 3],
                WINDOW_3D,
            ),
        }
        for layout, (image, window, out, attrs) in {
            "nchw": ([1, 2, 6, 6], [2, 2], [1, 2, 3, 4], WINDOW_2D),
            "nhwc": ([1, 6, 6, 2], [2, 2], [1, 3, 4, 2], WINDOW_2D),
            "ncw": ([1, 2, 9], [2], [1, 2, 3], WINDOW_1D),
            "nwc": ([1, 9, 2], [2], [1, 3, 2], WINDOW_1D),
            "ndhwc": ([1, 5, 5, 5, 2], [2, 2, 2], [1, 2, 2, 2, 2], WINDOW_3D),
        }.items():
            for kind in ("max", "min", "sum", "max_unsigned", "min_unsigned"):
                windows[f"pooling_{layout}_{kind}"] = (image, window, out, attrs)
        for name, (image, window, out, attrs) in windows.items():
            found[f"{name}/{a}/{b}"] = source(
                name, [memref(image, a), memref(window, a)], [memref(out, b)], attrs
            )
        for name in QUANTIZED_CONVOLUTIONS:
            image, window, out, attrs = windows[name.removesuffix("_q")]
            found[f"{name}/{a}/{b}"] = source(
                name,
                [memref(image, a), memref(window, a), a, a],
                [memref(out, b)],
                attrs,
            )
        found[f"quantized_batch_matmul/{a}/{b}"] = source(
            "quantized_batch_matmul",
            [memref([5, 2, 3], a), memref([5, 3, 4], a), a, a],
            [memref([5, 2, 4], b)],
        )
        found[f"mmt4d/{a}/{b}"] = source(
            "mmt4d",
            [memref([2, 3, 4, 5], a), memref([6, 3, 7, 5], a)],
            [memref([2, 6, 4, 7], b)],
        )
        found[f"batch_mmt4d/{a}/{b}"] = source(
            "batch_mmt4d",
            [memref([9, 2, 3, 4, 5], a), memref([9, 6, 3, 7, 5], a)],
            [memref([9, 2, 6, 4, 7], b)],
        )
        for payload in ("arith.addf", "arith.subf", "arith.maxsi", "arith.muli"):
            found[f"reduce/{a}/{b}/{payload}"] = (
                f"func.func @f(%i0: {memref([2, 3], a)}, %o0: {memref([2], b)}) {{\n"
                f"  linalg.reduce {{ {payload} }} ins(%i0 : {memref([2, 3], a)}) "
                f"outs(%o0 : {memref([2], b)}) dimensions = [1]\n  func.return\n}}\n"
            )
        found.update(_contract_cases(a, b))
        found.update(_elementwise_cases(a, b))
    found["matmul_transposed_b/f32/f32"] = (
        "func.func @f(%a: memref<2x3xf32>, %b: memref<4x3xf32>, %c: memref<2x4xf32>) {\n"
        "  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
        "affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] "
        "ins(%a, %b : memref<2x3xf32>, memref<4x3xf32>) outs(%c : memref<2x4xf32>)\n"
        "  func.return\n}\n"
    )
    found["batch_reduce_matmul_transposed_b/f32/f32"] = source(
        "batch_reduce_matmul",
        [memref([5, 2, 3], "f32"), memref([5, 4, 3], "f32")],
        [memref([2, 4], "f32")],
        BATCH_REDUCE_TRANSPOSED_B,
    )
    found["elementwise_broadcast/f32/f32"] = source(
        "elementwise",
        [memref([5, 4], "f32"), memref([5], "f32")],
        [memref([4, 5], "f32")],
        "kind=#linalg.elementwise_kind<sub> indexing_maps = ["
        "affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j)>, "
        "affine_map<(i, j) -> (i, j)>]",
    )
    found["map/f32/f32"] = (
        "func.func @f(%a: memref<2x4xf32>, %b: memref<2x4xf32>, %c: memref<2x4xf32>) {\n"
        "  linalg.map { arith.subf } ins(%a, %b : memref<2x4xf32>, memref<2x4xf32>) "
        "outs(%c : memref<2x4xf32>)\n  func.return\n}\n"
    )
    return found


UNSIGNED = "{cast = #linalg.type_fn<cast_unsigned>}"
SIGNED = "{cast = #linalg.type_fn<cast_signed>}"
MATMUL_MAPS = (
    "indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
    "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]"
)
BATCH_REDUCE_TRANSPOSED_B = (
    "indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, "
    "affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (m, n)>]"
)
UNARY_KINDS = [
    "exp",
    "log",
    "abs",
    "ceil",
    "floor",
    "negf",
    "reciprocal",
    "round",
    "sqrt",
    "rsqrt",
    "square",
    "tanh",
    "erf",
    "sin",
    "cos",
    "tan",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "log10",
    "log1p",
    "log2",
]
BINARY_KINDS = [
    "add",
    "sub",
    "mul",
    "div",
    "div_unsigned",
    "max_signed",
    "min_signed",
    "max_unsigned",
    "min_unsigned",
    "powf",
]


def _contract_cases(a: str, b: str) -> dict[str, str]:
    """contract, batch_reduce_matmul and the `cast` attribute, signed and
    unsigned.  batch_reduce_matmul's unsigned case only on floats: on integers
    MLIR ignores the attribute, which memplan rejects."""
    lhs, rhs, out = memref([2, 3], a), memref([3, 4], a), memref([2, 4], b)
    blhs, brhs = memref([5, 2, 3], a), memref([5, 3, 4], a)
    bout = memref([5, 2, 4], b)
    found = {
        f"contract/{a}/{b}": source("contract", [lhs, rhs], [out], MATMUL_MAPS),
        f"contract_signed/{a}/{b}": source(
            "contract", [lhs, rhs], [out], f"{MATMUL_MAPS} {SIGNED}"
        ),
        f"contract_unsigned/{a}/{b}": source(
            "contract", [lhs, rhs], [out], f"{MATMUL_MAPS} {UNSIGNED}"
        ),
        f"matmul_signed/{a}/{b}": source("matmul", [lhs, rhs], [out], SIGNED),
        f"matmul_unsigned/{a}/{b}": source("matmul", [lhs, rhs], [out], UNSIGNED),
        f"batch_matmul_unsigned/{a}/{b}": source(
            "batch_matmul", [blhs, brhs], [bout], UNSIGNED
        ),
        f"batch_reduce_matmul/{a}/{b}": source(
            "batch_reduce_matmul", [blhs, brhs], [out]
        ),
    }
    if not a.startswith("i"):
        found[f"batch_reduce_matmul_unsigned/{a}/{b}"] = source(
            "batch_reduce_matmul", [blhs, brhs], [out], UNSIGNED
        )
    return found


BOOL_CRASHES = ("sub", "div", "div_unsigned", "max_unsigned", "min_unsigned")
"""Kinds of linalg.elementwise on i1 that MLIR crashes on (segmentation
fault) rather than rejecting (the named op `linalg.sub` on i1 is an error)."""


def _elementwise_cases(a: str, b: str) -> dict[str, str]:
    """linalg.elementwise of every kind, as `elementwise/KIND/a/b`.  MLIR
    crashes (rather than failing) on a float kind over integers or an
    unsigned one over floats: those are left out."""
    v4a, v4b = memref([4], a), memref([4], b)
    is_int = a.startswith("i")
    found: dict[str, str] = {}
    for kind in UNARY_KINDS if not is_int else ():
        found[f"elementwise/{kind}/{a}/{b}"] = source(
            "elementwise", [v4a], [v4b], f"kind=#linalg.elementwise_kind<{kind}>"
        )
    for kind in BINARY_KINDS:
        if a == "i1" and kind in BOOL_CRASHES:
            continue
        if is_int or "unsigned" not in kind:
            found[f"elementwise/{kind}/{a}/{b}"] = source(
                "elementwise",
                [v4a, v4a],
                [v4b],
                f"kind=#linalg.elementwise_kind<{kind}>",
            )
    found[f"elementwise/select/{a}/{b}"] = source(
        "elementwise",
        [memref([4], "i1"), v4a, v4a],
        [v4b],
        "kind=#linalg.elementwise_kind<select>",
    )
    return found


def main() -> None:
    reference: dict[str, dict[str, str]] = {}
    for case, text in cases().items():
        with ir.Context():
            try:
                module = ir.Module.parse(text)
                module.operation.verify()
            except ir.MLIRError:
                continue
            generic = module.operation.get_asm(print_generic_op_form=True)
            reference[case] = {"custom": text, "generic": generic}
            passmanager.PassManager.parse(
                "builtin.module(func.func(linalg-generalize-named-ops))"
            ).run(module.operation)
            found = ITERATOR_TYPES.search(str(module))
            if found is not None:
                reference[case]["iterator_types"] = found.group(1)
    OUTPUT.write_text(json.dumps(reference, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(reference)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()

"""Every named linalg op computes what MLIR defines, also after round trips.

For each op memplan-run supports: the op is run as parsed, after a
custom-form round trip (where the hidden body is rebuilt from the op's name,
the step that made xDSL 0.74's pooling_nchw_max compute max(in, window)) and
after a generic-form round trip, and each result is compared with a numpy
reference written from MLIR's definition of the op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import StringIO
from itertools import product

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from memplan.context import parse_module
from memplan.interpreter import run_function

MLIR_TYPES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int8): "i8",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.bool_): "i1",
}

Value = np.ndarray | float | int


@dataclass(frozen=True)
class Operand:
    """One argument: a memref of `shape`, or a scalar when shape is None."""

    dtype: type
    shape: tuple[int, ...] | None
    low: float = -3
    high: float = 3

    def mlir_type(self) -> str:
        element = MLIR_TYPES[np.dtype(self.dtype)]
        if self.shape is None:
            return element
        return f"memref<{'x'.join(str(d) for d in (*self.shape, element))}>"

    def sample(self, rng: np.random.Generator) -> Value:
        shape = () if self.shape is None else self.shape
        if np.dtype(self.dtype) == np.bool_:
            values = rng.integers(0, 2, shape).astype(np.bool_)
        elif np.issubdtype(self.dtype, np.integer):
            values = rng.integers(int(self.low), int(self.high) + 1, shape)
            values = values.astype(self.dtype)
        else:
            values = rng.uniform(self.low, self.high, shape).astype(self.dtype)
        return values if self.shape is not None else values.item()


def _fill_rng_2d(
    shape: tuple[int, ...], low: float, high: float, seed: int
) -> np.ndarray:
    """MLIR's fill_rng_2d: two i32 LCG steps (wrapping) from the seed and the
    row, then the column, scaled in f64 into [low, high)."""
    m = np.arange(shape[0], dtype=np.int64)[:, None]
    n = np.arange(shape[1], dtype=np.int64)[None, :]
    first = (((m + seed) * 1103515245 + 12345) + 2**31) % 2**32 - 2**31
    second = (((n + first) * 1103515245 + 12345) + 2**31) % 2**32 - 2**31
    return (2147483647.0 + second) * ((high - low) * 2.3283064e-10) + low


@dataclass(frozen=True)
class Case:
    """`op` uses %i0, %i1, ... for the inputs and %o0 for the output; `{ins}`
    and `{outs}` stand for its ins(...) and outs(...) clauses."""

    id: str
    op: str
    inputs: tuple[Operand, ...]
    output: Operand
    reference: Callable[..., np.ndarray]
    """(inputs..., initial output) -> expected output."""

    def program(self) -> str:
        args = [f"%i{k}: {o.mlir_type()}" for k, o in enumerate(self.inputs)]
        args.append(f"%o0: {self.output.mlir_type()}")
        ins = ", ".join(f"%i{k}" for k in range(len(self.inputs)))
        types = ", ".join(o.mlir_type() for o in self.inputs)
        op = self.op.replace("{ins}", f"ins({ins} : {types})").replace(
            "{outs}", f"outs(%o0 : {self.output.mlir_type()})"
        )
        return f"func.func @main({', '.join(args)}) {{\n  {op}\n  func.return\n}}\n"


def f32(*shape: int, low: float = -3, high: float = 3) -> Operand:
    return Operand(np.float32, shape, low, high)


def i32(*shape: int, low: int = -9, high: int = 9) -> Operand:
    return Operand(np.int32, shape, low, high)


def i8(*shape: int) -> Operand:
    return Operand(np.int8, shape, -9, 9)


# --- numpy references -----------------------------------------------------------


def windows(
    x: np.ndarray,
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
) -> np.ndarray:
    """x[..., *spatial] -> [..., *out, *kernel]: every window element, the
    last len(kernel) axes of x being the spatial ones."""
    rank = len(kernel)
    spatial = x.shape[x.ndim - rank :]
    out = [
        (size - d * (k - 1) - 1) // s + 1
        for size, k, s, d in zip(spatial, kernel, strides, dilations, strict=True)
    ]
    result = np.empty((*x.shape[: x.ndim - rank], *out, *kernel), x.dtype)
    for offsets in product(*(range(k) for k in kernel)):
        index = tuple(
            slice(o * d, o * d + (n - 1) * s + 1, s)
            for o, d, n, s in zip(offsets, dilations, out, strides, strict=True)
        )
        result[(..., *(slice(None),) * rank, *offsets)] = x[(..., *index)]
    return result


def conv_channels_first(x, w, strides, dilations) -> np.ndarray:
    """out[n, f, *o] = sum_{c, *k} x[n, c, *(o*s + k*d)] * w[f, c, *k]."""
    rank = w.ndim - 2
    win = windows(x, w.shape[2:], strides, dilations)  # n c *o *k
    k_axes = list(range(2 + rank, 2 + 2 * rank))
    out = np.tensordot(win, w, axes=([1, *k_axes], [1, *range(2, 2 + rank)]))
    return np.moveaxis(out, -1, 1)  # n *o f -> n f *o


def channels_last(conv: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """A channels-first reference applied to channels-last data and output."""

    def run(x, *rest):
        return np.moveaxis(conv(np.moveaxis(x, -1, 1), *rest), 1, -1)

    return run


def accumulate(compute: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """out + compute(inputs), in the output's element type."""

    def reference(*args):
        *inputs, out = args
        cast = [a.astype(out.dtype) if isinstance(a, np.ndarray) else a for a in inputs]
        return (out + compute(*cast)).astype(out.dtype)

    return reference


def conv_case(name, layout, x, w, out, strides, dilations) -> Case:
    rank = len(strides)
    attrs = (
        f"{{dilations = dense<{list(dilations)}> : vector<{rank}xi64>, "
        f"strides = dense<{list(strides)}> : vector<{rank}xi64>}} "
    )
    return Case(
        name,
        f"linalg.{name} {attrs}{{ins}} {{outs}}",
        (x, w),
        out,
        accumulate(lambda a, b: layout(a, b, strides, dilations)),
    )


def _grouped_first(x, w, strides, dilations, *, filters_first: bool):
    """ngchw with fgchw (filters_first) or gfchw filters."""
    groups = []
    for g in range(x.shape[1]):
        wg = w[:, g] if filters_first else w[g]
        groups.append(conv_channels_first(x[:, g], wg, strides, dilations))
    return np.stack(groups, axis=1)


def _nhwgc_gfhwc(x, w, strides, dilations):
    groups = []
    for g in range(x.shape[3]):
        xg = np.moveaxis(x[:, :, :, g], -1, 1)
        wg = np.moveaxis(w[g], -1, 1)  # f kh kw c -> f c kh kw
        groups.append(
            np.moveaxis(conv_channels_first(xg, wg, strides, dilations), 1, -1)
        )
    return np.stack(groups, axis=3)


def depthwise_first(x, w, strides, dilations):
    """out[n, c, *o] = sum_k x[n, c, *(o*s + k*d)] * w[c, *k]."""
    rank = w.ndim - 1
    win = windows(x, w.shape[1:], strides, dilations)
    w_b = w.reshape(w.shape[0], *(1,) * rank, *w.shape[1:])
    return (win * w_b).sum(axis=tuple(range(2 + rank, 2 + 2 * rank)))


def depthwise_last(x, w, strides, dilations):
    """Channels-last input, (*k, c) filter."""
    return channels_last(depthwise_first)(x, np.moveaxis(w, -1, 0), strides, dilations)


def depthwise_multiplier(x, w, strides, dilations):
    """(*k, c, m) filter: out[n, *o, c, m]."""
    per_m = [
        depthwise_last(x, w[..., m], strides, dilations) for m in range(w.shape[-1])
    ]
    return np.stack(per_m, axis=-1)


def pool_case(name: str, layout: str, kind: str, x: Operand, window, out: Operand):
    rank = len(window)
    strides, dilations = (2,) * rank, (1,) * rank
    attrs = (
        f"{{dilations = dense<1> : vector<{rank}xi64>, "
        f"strides = dense<2> : vector<{rank}xi64>}} "
    )
    fold = {"max": np.maximum, "min": np.minimum, "sum": np.add}[kind.split("_")[0]]
    unsigned = kind.endswith("_unsigned")

    def reference(data, _window, initial):
        values = data.astype(initial.dtype)
        if layout == "last":
            values = np.moveaxis(values, -1, 1)
        win = windows(values, window, strides, dilations)
        if unsigned:
            win, initial = win.view(np.uint32), initial.view(np.uint32)
        axes = tuple(range(win.ndim - rank, win.ndim))
        folded = fold.reduce(win, axis=axes)
        if layout == "last":
            folded = np.moveaxis(folded, 1, -1)
        result = fold(initial, folded)
        return result.view(np.int32) if unsigned else result

    return Case(
        f"{name}_{x.mlir_type()}_{out.mlir_type()}",
        f"linalg.{name} {attrs}{{ins}} {{outs}}",
        (x, Operand(x.dtype, tuple(window))),
        out,
        reference,
    )


def elementwise(name: str, function, *inputs: Operand, out: Operand | None = None):
    output = out or Operand(inputs[0].dtype, inputs[0].shape)
    return Case(
        f"{name}_{inputs[0].mlir_type()}",
        f"linalg.{name} {{ins}} {{outs}}",
        inputs,
        output,
        lambda *args: np.asarray(function(*args[:-1])).astype(output.dtype),
    )


def truncating_divide(a, b):
    return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(a.dtype)


def round_half_away(a):
    return np.sign(a) * np.floor(np.abs(a) + 0.5)


ERF = np.vectorize(math.erf)

MATMUL_TB_MAPS = (
    "indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
    "affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]"
)
BATCH_MATMUL_TB_MAPS = (
    "indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]"
)

CASES: list[Case] = [
    elementwise("add", np.add, f32(3, 4), f32(3, 4)),
    elementwise("add", np.add, i32(3, 4), i32(3, 4)),
    elementwise("sub", np.subtract, f32(3, 4), f32(3, 4)),
    elementwise("mul", np.multiply, i32(3, 4), i32(3, 4)),
    elementwise("div", np.divide, f32(5), f32(5, low=0.5)),
    elementwise("div", truncating_divide, i32(7), i32(7, low=1)),
    elementwise(
        "div_unsigned",
        lambda a, b: (a.view(np.uint32) // b.view(np.uint32)).view(np.int32),
        i32(7),
        i32(7, low=1),
    ),
    elementwise("max", np.maximum, f32(6), f32(6)),
    elementwise("max", np.maximum, i32(6), i32(6)),
    elementwise("min", np.minimum, f32(6), f32(6)),
    elementwise("powf", np.power, f32(6, low=0.5), f32(6)),
    elementwise("exp", np.exp, f32(6)),
    elementwise("log", np.log, f32(6, low=0.1)),
    elementwise("sqrt", np.sqrt, f32(6, low=0)),
    elementwise("rsqrt", lambda a: 1 / np.sqrt(a), f32(6, low=0.1)),
    elementwise("abs", np.abs, f32(6)),
    elementwise("ceil", np.ceil, f32(6)),
    elementwise("floor", np.floor, f32(6)),
    elementwise("round", round_half_away, Operand(np.float32, (8,), -4, 4)),
    elementwise("negf", np.negative, f32(6)),
    elementwise("reciprocal", np.reciprocal, f32(6, low=0.5)),
    elementwise("square", np.square, f32(6)),
    elementwise("tanh", np.tanh, f32(6)),
    elementwise("erf", ERF, f32(6)),
    elementwise(
        "select", np.where, Operand(np.bool_, (6,)), f32(6), f32(6), out=f32(6)
    ),
    elementwise("copy", lambda a: a, i32(2, 3), out=f32(2, 3)),
    elementwise("copy", lambda a: a, Operand(np.float16, (2, 3)), out=f32(2, 3)),
    Case(
        "fill",
        "linalg.fill {ins} {outs}",
        (Operand(np.float32, None),),
        f32(2, 3),
        lambda v, out: np.full_like(out, v),
    ),
    Case(
        "fill_rng_2d",
        "linalg.fill_rng_2d {ins} {outs}",
        (
            Operand(np.float64, None, -3, -1),
            Operand(np.float64, None, 1, 3),
            Operand(np.int32, None, -1000, 1000),
        ),
        f32(4, 5),
        lambda low, high, seed, out: _fill_rng_2d(out.shape, low, high, seed),
    ),
    Case(
        "transpose",
        "linalg.transpose {ins} {outs} permutation = [2, 0, 1]",
        (f32(2, 3, 4),),
        f32(4, 2, 3),
        lambda a, _: np.transpose(a, (2, 0, 1)),
    ),
    Case(
        "broadcast",
        "linalg.broadcast {ins} {outs} dimensions = [0, 2]",
        (f32(3),),
        f32(2, 3, 4),
        lambda a, out: np.broadcast_to(a[None, :, None], out.shape),
    ),
    Case(
        "map",
        "linalg.map {ins} {outs} (%x: f32, %y: f32, %z: f32) {\n"
        "    %r = arith.subf %y, %x : f32\n    linalg.yield %r : f32\n  }",
        (f32(2, 3), f32(2, 3)),
        f32(2, 3),
        lambda a, b, _: b - a,
    ),
    Case(
        "map_short_form",
        "linalg.map { math.absf } {ins} {outs}",
        (f32(2, 3),),
        f32(2, 3),
        lambda a, _: np.abs(a),
    ),
    Case(
        "matmul",
        "linalg.matmul {ins} {outs}",
        (f32(2, 3), f32(3, 4)),
        f32(2, 4),
        accumulate(np.matmul),
    ),
    Case(
        "matmul_i8_i32",
        "linalg.matmul {ins} {outs}",
        (i8(2, 3), i8(3, 4)),
        i32(2, 4),
        accumulate(np.matmul),
    ),
    Case(
        "matmul_transposed_b",
        f"linalg.matmul {MATMUL_TB_MAPS} {{ins}} {{outs}}",
        (f32(2, 3), f32(4, 3)),
        f32(2, 4),
        accumulate(lambda a, b: a @ b.T),
    ),
    Case(
        "batch_matmul",
        "linalg.batch_matmul {ins} {outs}",
        (f32(5, 2, 3), f32(5, 3, 4)),
        f32(5, 2, 4),
        accumulate(np.matmul),
    ),
    Case(
        "batch_matmul_transposed_b",
        f"linalg.batch_matmul {BATCH_MATMUL_TB_MAPS} {{ins}} {{outs}}",
        (f32(5, 2, 3), f32(5, 4, 3)),
        f32(5, 2, 4),
        accumulate(lambda a, b: a @ b.transpose(0, 2, 1)),
    ),
    Case(
        "matvec",
        "linalg.matvec {ins} {outs}",
        (f32(2, 3), f32(3)),
        f32(2),
        accumulate(np.matmul),
    ),
    Case(
        "vecmat",
        "linalg.vecmat {ins} {outs}",
        (f32(3), f32(3, 4)),
        f32(4),
        accumulate(np.matmul),
    ),
    Case(
        "batch_matvec",
        "linalg.batch_matvec {ins} {outs}",
        (f32(2, 4, 3), f32(2, 3)),
        f32(2, 4),
        accumulate(lambda a, b: np.einsum("bik,bk->bi", a, b)),
    ),
    Case(
        "batch_vecmat",
        "linalg.batch_vecmat {ins} {outs}",
        (f32(2, 3), f32(2, 3, 4)),
        f32(2, 4),
        accumulate(lambda a, b: np.einsum("bk,bkj->bj", a, b)),
    ),
    Case(
        "dot",
        "linalg.dot {ins} {outs}",
        (f32(5), f32(5)),
        f32(),
        accumulate(np.dot),
    ),
    Case(
        "quantized_matmul",
        "linalg.quantized_matmul {ins} {outs}",
        (i8(2, 3), i8(3, 4), Operand(np.int32, None), Operand(np.int32, None)),
        i32(2, 4),
        accumulate(lambda a, b, az, bz: (a - az) @ (b - bz)),
    ),
    Case(
        "quantized_batch_matmul",
        "linalg.quantized_batch_matmul {ins} {outs}",
        (i8(2, 2, 3), i8(2, 3, 4), Operand(np.int8, None), Operand(np.int8, None)),
        i32(2, 2, 4),
        accumulate(lambda a, b, az, bz: (a - az) @ (b - bz)),
    ),
    Case(
        "mmt4d",
        "linalg.mmt4d {ins} {outs}",
        (i8(2, 3, 4, 5), i8(6, 3, 7, 5)),
        i32(2, 6, 4, 7),
        accumulate(lambda a, b: np.einsum("mkxz,nkyz->mnxy", a, b)),
    ),
    Case(
        "batch_mmt4d",
        "linalg.batch_mmt4d {ins} {outs}",
        (f32(2, 2, 3, 4, 5), f32(2, 6, 3, 7, 5)),
        f32(2, 2, 6, 4, 7),
        accumulate(lambda a, b: np.einsum("bmkxz,bnkyz->bmnxy", a, b)),
    ),
    Case(
        "conv_1d",
        "linalg.conv_1d {ins} {outs}",
        (f32(9), f32(3)),
        f32(7),
        accumulate(
            lambda x, w: conv_channels_first(x[None, None], w[None, None], [1], [1])[
                0, 0
            ]
        ),
    ),
    Case(
        "conv_2d",
        "linalg.conv_2d {ins} {outs}",
        (f32(5, 6), f32(2, 3)),
        f32(4, 4),
        accumulate(
            lambda x, w: conv_channels_first(
                x[None, None], w[None, None], [1, 1], [1, 1]
            )[0, 0]
        ),
    ),
    Case(
        "conv_3d",
        "linalg.conv_3d {ins} {outs}",
        (f32(4, 4, 4), f32(2, 2, 2)),
        f32(3, 3, 3),
        accumulate(
            lambda x, w: conv_channels_first(
                x[None, None], w[None, None], [1] * 3, [1] * 3
            )[0, 0]
        ),
    ),
    conv_case(
        "conv_1d_ncw_fcw",
        conv_channels_first,
        f32(1, 2, 9),
        f32(3, 2, 2),
        f32(1, 3, 4),
        (2,),
        (2,),
    ),
    conv_case(
        "conv_1d_nwc_wcf",
        lambda x, w, s, d: channels_last(conv_channels_first)(
            x, np.transpose(w, (2, 1, 0)), s, d
        ),
        f32(1, 9, 2),
        f32(2, 2, 3),
        f32(1, 4, 3),
        (2,),
        (2,),
    ),
    conv_case(
        "conv_2d_nchw_fchw",
        conv_channels_first,
        f32(2, 2, 7, 6),
        f32(3, 2, 2, 3),
        f32(2, 3, 3, 2),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_2d_nhwc_hwcf",
        lambda x, w, s, d: channels_last(conv_channels_first)(
            x, np.transpose(w, (3, 2, 0, 1)), s, d
        ),
        f32(1, 7, 6, 2),
        f32(2, 3, 2, 3),
        f32(1, 3, 2, 3),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_2d_nhwc_fhwc",
        lambda x, w, s, d: channels_last(conv_channels_first)(
            x, np.moveaxis(w, -1, 1), s, d
        ),
        f32(1, 7, 6, 2),
        f32(3, 2, 3, 2),
        f32(1, 3, 2, 3),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_2d_ngchw_fgchw",
        lambda x, w, s, d: _grouped_first(x, w, s, d, filters_first=True),
        f32(1, 2, 2, 6, 6),
        f32(3, 2, 2, 2, 2),
        f32(1, 2, 3, 3, 4),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_2d_ngchw_gfchw",
        lambda x, w, s, d: _grouped_first(x, w, s, d, filters_first=False),
        f32(1, 2, 2, 6, 6),
        f32(2, 3, 2, 2, 2),
        f32(1, 2, 3, 3, 4),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_2d_nhwgc_gfhwc",
        _nhwgc_gfhwc,
        f32(1, 6, 6, 2, 2),
        f32(2, 3, 2, 2, 2),
        f32(1, 3, 4, 2, 3),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "conv_3d_ncdhw_fcdhw",
        conv_channels_first,
        f32(1, 2, 5, 5, 5),
        f32(3, 2, 2, 2, 2),
        f32(1, 3, 2, 2, 2),
        (2, 2, 2),
        (1, 1, 1),
    ),
    conv_case(
        "conv_3d_ndhwc_dhwcf",
        lambda x, w, s, d: channels_last(conv_channels_first)(
            x, np.transpose(w, (4, 3, 0, 1, 2)), s, d
        ),
        f32(1, 5, 5, 5, 2),
        f32(2, 2, 2, 2, 3),
        f32(1, 2, 2, 2, 3),
        (2, 2, 2),
        (1, 1, 1),
    ),
    conv_case(
        "depthwise_conv_1d_ncw_cw",
        depthwise_first,
        f32(1, 2, 9),
        f32(2, 2),
        f32(1, 2, 4),
        (2,),
        (2,),
    ),
    conv_case(
        "depthwise_conv_1d_nwc_wc",
        depthwise_last,
        f32(1, 9, 2),
        f32(2, 2),
        f32(1, 4, 2),
        (2,),
        (2,),
    ),
    conv_case(
        "depthwise_conv_1d_nwc_wcm",
        depthwise_multiplier,
        f32(1, 9, 2),
        f32(2, 2, 3),
        f32(1, 4, 2, 3),
        (2,),
        (2,),
    ),
    conv_case(
        "depthwise_conv_2d_nchw_chw",
        depthwise_first,
        f32(2, 3, 7, 6),
        f32(3, 2, 3),
        f32(2, 3, 3, 2),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "depthwise_conv_2d_nhwc_hwc",
        depthwise_last,
        f32(1, 7, 6, 3),
        f32(2, 3, 3),
        f32(1, 3, 2, 3),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "depthwise_conv_2d_nhwc_hwcm",
        depthwise_multiplier,
        f32(1, 7, 6, 2),
        f32(2, 3, 2, 3),
        f32(1, 3, 2, 2, 3),
        (2, 1),
        (1, 2),
    ),
    conv_case(
        "depthwise_conv_3d_ncdhw_cdhw",
        depthwise_first,
        f32(1, 2, 5, 5, 5),
        f32(2, 2, 2, 2),
        f32(1, 2, 2, 2, 2),
        (2, 2, 2),
        (1, 1, 1),
    ),
    conv_case(
        "depthwise_conv_3d_ndhwc_dhwc",
        depthwise_last,
        f32(1, 5, 5, 5, 2),
        f32(2, 2, 2, 2),
        f32(1, 2, 2, 2, 2),
        (2, 2, 2),
        (1, 1, 1),
    ),
    conv_case(
        "depthwise_conv_3d_ndhwc_dhwcm",
        depthwise_multiplier,
        f32(1, 5, 5, 5, 2),
        f32(2, 2, 2, 2, 3),
        f32(1, 2, 2, 2, 2, 3),
        (2, 2, 2),
        (1, 1, 1),
    ),
    conv_case(
        "conv_2d_nchw_fchw",
        conv_channels_first,
        i8(1, 2, 6, 6),
        i8(3, 2, 2, 2),
        i32(1, 3, 3, 5),
        (2, 1),
        (1, 1),
    ),
    pool_case(
        "pooling_nchw_max", "first", "max", f32(1, 2, 7, 7), (3, 3), f32(1, 2, 3, 3)
    ),
    pool_case(
        "pooling_nchw_max", "first", "max", i8(1, 2, 7, 7), (3, 3), i32(1, 2, 3, 3)
    ),
    pool_case(
        "pooling_nchw_sum", "first", "sum", f32(1, 2, 7, 7), (3, 3), f32(1, 2, 3, 3)
    ),
    pool_case(
        "pooling_nhwc_max", "last", "max", f32(1, 7, 7, 2), (3, 3), f32(1, 3, 3, 2)
    ),
    pool_case(
        "pooling_nhwc_min", "last", "min", f32(1, 7, 7, 2), (3, 3), f32(1, 3, 3, 2)
    ),
    pool_case(
        "pooling_nhwc_sum", "last", "sum", f32(1, 7, 7, 2), (3, 3), f32(1, 3, 3, 2)
    ),
    pool_case(
        "pooling_nhwc_max_unsigned",
        "last",
        "max_unsigned",
        i32(1, 7, 7, 2),
        (3, 3),
        i32(1, 3, 3, 2),
    ),
    pool_case(
        "pooling_nhwc_min_unsigned",
        "last",
        "min_unsigned",
        i32(1, 7, 7, 2),
        (3, 3),
        i32(1, 3, 3, 2),
    ),
    pool_case("pooling_ncw_max", "first", "max", f32(1, 2, 9), (3,), f32(1, 2, 4)),
    pool_case("pooling_ncw_sum", "first", "sum", f32(1, 2, 9), (3,), f32(1, 2, 4)),
    pool_case("pooling_nwc_max", "last", "max", f32(1, 9, 2), (3,), f32(1, 4, 2)),
    pool_case("pooling_nwc_min", "last", "min", f32(1, 9, 2), (3,), f32(1, 4, 2)),
    pool_case("pooling_nwc_sum", "last", "sum", f32(1, 9, 2), (3,), f32(1, 4, 2)),
    pool_case(
        "pooling_nwc_max_unsigned",
        "last",
        "max_unsigned",
        i32(1, 9, 2),
        (3,),
        i32(1, 4, 2),
    ),
    pool_case(
        "pooling_nwc_min_unsigned",
        "last",
        "min_unsigned",
        i32(1, 9, 2),
        (3,),
        i32(1, 4, 2),
    ),
    pool_case(
        "pooling_ndhwc_max",
        "last",
        "max",
        f32(1, 5, 5, 5, 2),
        (2, 2, 2),
        f32(1, 2, 2, 2, 2),
    ),
    pool_case(
        "pooling_ndhwc_min",
        "last",
        "min",
        f32(1, 5, 5, 5, 2),
        (2, 2, 2),
        f32(1, 2, 2, 2, 2),
    ),
    pool_case(
        "pooling_ndhwc_sum",
        "last",
        "sum",
        f32(1, 5, 5, 5, 2),
        (2, 2, 2),
        f32(1, 2, 2, 2, 2),
    ),
]


def quantized(name: str) -> Case:
    """The convolution case `name` as its `_q` op: i8 data, i32 zero points
    subtracted before the product, an i32 output."""
    case = next(c for c in CASES if c.id == name)
    image, kernel = (Operand(np.int8, o.shape, -9, 9) for o in case.inputs)
    zero_point = Operand(np.int32, None, -4, 4)

    def reference(x, w, x_zp, w_zp, initial):
        return case.reference(
            x.astype(np.int32) - x_zp, w.astype(np.int32) - w_zp, initial
        )

    return Case(
        f"{name}_q",
        case.op.replace(f"linalg.{name} ", f"linalg.{name}_q "),
        (image, kernel, zero_point, zero_point),
        Operand(np.int32, case.output.shape, -9, 9),
        reference,
    )


CASES += [
    quantized(name)
    for name in (
        "conv_2d_nchw_fchw",
        "conv_2d_nhwc_hwcf",
        "conv_2d_nhwc_fhwc",
        "conv_2d_ngchw_gfchw",
        "conv_2d_nhwgc_gfhwc",
        "conv_3d_ndhwc_dhwcf",
        "depthwise_conv_2d_nhwc_hwc",
        "depthwise_conv_2d_nhwc_hwcm",
    )
]


def elementwise_kind(kind: str, function, *inputs: Operand, maps: str = ""):
    """linalg.elementwise of `kind` (no casts: the output has the inputs' type)."""
    output = Operand(inputs[-1].dtype, inputs[-1].shape)
    return Case(
        f"elementwise_{kind}_{inputs[-1].mlir_type()}",
        f"linalg.elementwise kind=#linalg.elementwise_kind<{kind}> {maps}{{ins}} {{outs}}",
        inputs,
        output,
        lambda *args: np.asarray(function(*args[:-1])).astype(output.dtype),
    )


def unsigned_matmul(a, b, out):
    """out + a @ b with the i8 inputs read as unsigned (cast_unsigned)."""
    product = a.view(np.uint8).astype(np.int64) @ b.view(np.uint8).astype(np.int64)
    return (out + product).astype(out.dtype)


def as_unsigned(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint32)


UNSIGNED = "{cast = #linalg.type_fn<cast_unsigned>}"
CONTRACT_TRANSPOSED_OUT = (
    "indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
    "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]"
)
CONTRACT_MATMUL = (
    "indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
    "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]"
)

CASES += [
    elementwise_kind("exp", np.exp, f32(6)),
    elementwise_kind("log1p", np.log1p, f32(6, low=0)),
    elementwise_kind("atan", np.arctan, f32(6)),
    elementwise_kind("max_signed", np.maximum, i32(6), i32(6)),
    elementwise_kind(
        "max_unsigned",
        lambda a, b: np.maximum(as_unsigned(a), as_unsigned(b)).view(np.int32),
        i32(6),
        i32(6),
    ),
    elementwise_kind("select", np.where, Operand(np.bool_, (6,)), f32(6), f32(6)),
    Case(
        "elementwise_sub_transposed_and_broadcast",
        "linalg.elementwise kind=#linalg.elementwise_kind<sub> indexing_maps = "
        "[affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, "
        "affine_map<(i, j) -> (i, j)>] {ins} {outs}",
        (f32(3, 2), f32(2)),
        f32(2, 3),
        lambda a, b, _: a.T - b[:, None],
    ),
    Case(
        "contract_transposed_output",
        f"linalg.contract {CONTRACT_TRANSPOSED_OUT} {{ins}} {{outs}}",
        (f32(2, 3), f32(3, 4)),
        f32(4, 2),
        accumulate(lambda a, b: (a @ b).T),
    ),
    Case(
        "contract_unsigned_i8_i32",
        f"linalg.contract {CONTRACT_MATMUL} {UNSIGNED} {{ins}} {{outs}}",
        (i8(2, 3), i8(3, 4)),
        i32(2, 4),
        unsigned_matmul,
    ),
    Case(
        "matmul_unsigned_i8_f32",
        f"linalg.matmul {UNSIGNED} {{ins}} {{outs}}",
        (i8(2, 3), i8(3, 4)),
        f32(2, 4),
        unsigned_matmul,
    ),
    Case(
        "batch_reduce_matmul",
        "linalg.batch_reduce_matmul {ins} {outs}",
        (f32(5, 2, 3), f32(5, 3, 4)),
        f32(2, 4),
        accumulate(lambda a, b: np.einsum("bmk,bkn->mn", a, b)),
    ),
    Case(
        "batch_reduce_matmul_i8_i32",
        "linalg.batch_reduce_matmul {ins} {outs}",
        (i8(5, 2, 3), i8(5, 3, 4)),
        i32(2, 4),
        accumulate(lambda a, b: np.einsum("bmk,bkn->mn", a, b)),
    ),
]


def _print(module: ModuleOp, generic: bool) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


def _run(module: ModuleOp, inputs: Sequence[Value], initial: np.ndarray) -> np.ndarray:
    output = initial.copy()
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs]
    run_function(module, "main", [*args, output])
    return output


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_op_matches_numpy_as_parsed_and_after_round_trips(case: Case):
    rng = np.random.default_rng(sum(map(ord, case.id)))
    inputs = [operand.sample(rng) for operand in case.inputs]
    initial = np.asarray(case.output.sample(rng), dtype=case.output.dtype)
    expected = case.reference(
        *[a.copy() if isinstance(a, np.ndarray) else a for a in inputs], initial.copy()
    )
    parsed = parse_module(case.program())
    parsed.verify()
    modules = {
        "as parsed": parsed,
        "after a custom-form round trip": parse_module(_print(parsed, generic=False)),
        "after a generic-form round trip": parse_module(_print(parsed, generic=True)),
    }
    for when, module in modules.items():
        result = _run(module, inputs, initial)
        if np.issubdtype(result.dtype, np.floating):
            np.testing.assert_allclose(
                result, expected, rtol=1e-5, atol=1e-5, err_msg=f"{case.id} {when}"
            )
        else:
            np.testing.assert_array_equal(result, expected, err_msg=f"{case.id} {when}")


def test_every_named_op_has_a_case():
    """The table covers every named op memplan's linalg defines."""
    from xdsl.dialects.linalg.abstract_ops import NamedOperation

    from memplan.dialects.linalg import LINALG, MapOp

    named = {
        op.name.removeprefix("linalg.")
        for op in LINALG.operations
        if issubclass(op, NamedOperation) or op is MapOp
    }
    tested = {case.op.split()[0].removeprefix("linalg.") for case in CASES}
    assert named - tested == set()

"""Random linalg programs on memref views compute MLIR's bits.

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings
(`needs_mlir`).  A seeded, small version of the differential check
docs/interpreter.md describes: each program holds a few named ops, generics
and reductions of random shapes (sizes 0 and 1 among them) and element
types, whose operands are subviews, transposes, expand_shapes and
collapse_shapes of the arguments (rank-reducing subviews too), some cast to
dynamic sizes; memplan-run
with `sequential_sums` must give every argument MLIR's compiled code leaves,
bit for bit (any NaN for a NaN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from interpreter_helpers import parse
from mlir_execution import needs_mlir, run_in_mlir

from memplan.interpreter import run_function
from memplan.interpreter.element_types import BF16

pytestmark = needs_mlir

DTYPES = {
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "f16": np.dtype(np.float16),
    "bf16": BF16,
    "i8": np.dtype(np.int8),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "i1": np.dtype(np.bool_),
}
FLOATS = ("f32", "f64", "f16", "bf16")
INTEGERS = ("i8", "i32", "i64")


def _memref(
    shape: list[int], element: str, strides: list[int] | None = None, offset: int = 0
) -> str:
    dims = "".join(f"{d}x" for d in shape)
    if strides is None:
        return f"memref<{dims}{element}>"
    return f"memref<{dims}{element}, strided<{strides}, offset: {offset}>>"


def _row_major(shape: list[int]) -> list[int]:
    return [int(np.prod(shape[k + 1 :], dtype=np.int64)) for k in range(len(shape))]


@dataclass
class _Program:
    rng: np.random.Generator
    arrays: list[np.ndarray] = field(default_factory=list)
    params: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def values(self, shape: list[int], element: str) -> np.ndarray:
        """Random bit patterns (integers) or values of mixed magnitudes with
        a few zeros of both signs, infinities and NaNs (floats)."""
        size = int(np.prod(shape, dtype=np.int64))
        dtype = DTYPES[element]
        if element == "i1":
            return self.rng.integers(0, 2, shape).astype(bool)
        if element in INTEGERS:
            info = np.iinfo(dtype)
            wide = self.rng.integers(info.min, info.max, size, dtype, endpoint=True)
            small = self.rng.integers(-5, 6, size).astype(dtype)
            return np.where(self.rng.random(size) < 0.5, wide, small).reshape(shape)
        magnitudes = np.exp2(self.rng.integers(-8, 9, size))
        values = self.rng.standard_normal(size) * magnitudes
        special = self.rng.choice([0.0, -0.0, np.inf, np.nan], size)
        values = np.where(self.rng.random(size) < 0.05, special, values)
        return values.astype(np.float32).astype(dtype).reshape(shape)

    def operand(self, shape: list[int], element: str) -> tuple[str, str]:
        """An SSA value of `shape`: an argument, or a view of a larger,
        transposed or reshaped one; (name, type)."""
        name = f"%a{len(self.arrays)}"
        view = f"%v{len(self.arrays)}"
        kind = self.rng.integers(0, 6) if shape else 0
        if kind == 1:  # subview with offsets and steps
            steps = [int(self.rng.integers(1, 3)) for _ in shape]
            offsets = [int(self.rng.integers(0, 2)) for _ in shape]
            full = [
                o + max(d - 1, 0) * s + 1
                for d, s, o in zip(shape, steps, offsets, strict=True)
            ]
            base = _row_major(full)
            strides = [s * b for s, b in zip(steps, base, strict=True)]
            offset = sum(o * b for o, b in zip(offsets, base, strict=True))
            result = _memref(shape, element, strides, offset)
            self.lines.append(
                f"{view} = memref.subview {name}{offsets} {shape} {steps} : "
                f"{_memref(full, element)} to {result}"
            )
        elif kind == 2 and len(shape) > 1 and 0 not in shape:  # transpose
            order = [int(d) for d in self.rng.permutation(len(shape))]
            full = [0] * len(shape)
            for position, d in enumerate(order):
                full[d] = shape[position]
            base = _row_major(full)
            result = _memref(shape, element, [base[d] for d in order])
            dims = ", ".join(f"d{d}" for d in range(len(shape)))
            permuted = ", ".join(f"d{d}" for d in order)
            self.lines.append(
                f"{view} = memref.transpose {name} ({dims}) -> ({permuted}) : "
                f"{_memref(full, element)} to {result}"
            )
        elif kind == 3:  # collapse_shape of a unit-padded argument
            full = [d for size in shape for d in (size, 1)]
            groups = [[2 * k, 2 * k + 1] for k in range(len(shape))]
            result = _memref(shape, element)
            self.lines.append(
                f"{view} = memref.collapse_shape {name} {groups} : "
                f"{_memref(full, element)} into {result}"
            )
        elif kind == 4:  # expand_shape of the flat argument
            full = [int(np.prod(shape, dtype=np.int64))]
            groups = [list(range(len(shape)))]
            result = _memref(shape, element)
            self.lines.append(
                f"{view} = memref.expand_shape {name} {groups} output_shape {shape} : "
                f"{_memref(full, element)} into {result}"
            )
        elif kind == 5 and 0 not in shape:  # a rank-reducing subview
            at = int(self.rng.integers(0, len(shape) + 1))
            full = [*shape[:at], 2, *shape[at:]]
            offsets = [0] * len(full)
            offsets[at] = int(self.rng.integers(0, 2))
            sizes = [*shape[:at], 1, *shape[at:]]
            base = _row_major(full)
            strides = [*base[:at], *base[at + 1 :]]
            result = _memref(shape, element, strides, offsets[at] * base[at])
            self.lines.append(
                f"{view} = memref.subview {name}{offsets} {sizes} {[1] * len(full)} : "
                f"{_memref(full, element)} to {result}"
            )
        else:
            full, view, result = shape, name, _memref(shape, element)
        self.params.append(f"{name}: {_memref(full, element)}")
        self.arrays.append(self.values(full, element))
        if shape and self.rng.random() < 0.2 and "strided" not in result:
            cast = f"%c{len(self.arrays)}"
            dynamic_type = result.replace(f"<{shape[0]}x", "<?x", 1)
            self.lines.append(
                f"{cast} = memref.cast {view} : {result} to {dynamic_type}"
            )
            return cast, dynamic_type
        return view, result

    def size(self) -> int:
        return int(self.rng.choice([0, 1, 2, 3, 4], p=[0.05, 0.25, 0.25, 0.25, 0.2]))

    def text(self) -> str:
        body = "\n  ".join(self.lines)
        params = ", ".join(self.params)
        return (
            f"func.func @main({params}) attributes {{llvm.emit_c_interface}} "
            f"{{\n  {body}\n  func.return\n}}\n"
        )


def _contraction(p: _Program) -> None:
    lhs, rhs, out = [
        ("f32", "f32", "f32"),
        ("f16", "f16", "f32"),
        ("bf16", "bf16", "bf16"),
        ("i8", "i8", "i32"),
        ("i32", "i32", "i64"),
        ("i1", "i1", "i1"),
    ][int(p.rng.integers(0, 6))]
    m, n, k = p.size(), p.size(), p.size()
    a, a_type = p.operand([k, m], lhs)
    b, b_type = p.operand([k, n], rhs)
    c, c_type = p.operand([m, n], out)
    maps = (
        "[affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
        "affine_map<(d0, d1, d2) -> (d0, d1)>]"
    )
    p.lines.append(
        f"linalg.matmul indexing_maps = {maps} ins({a}, {b} : {a_type}, {b_type}) "
        f"outs({c} : {c_type})"
    )


def _convolution(p: _Program) -> None:
    element = str(p.rng.choice(["f32", "f16", "i32"]))
    n, c, f = p.size(), p.size(), p.size()
    oh, ow, kh, kw = (int(p.rng.integers(1, 4)) for _ in range(4))
    strides = [int(p.rng.integers(1, 3)) for _ in range(2)]
    dilations = [int(p.rng.integers(1, 3)) for _ in range(2)]
    ih = (oh - 1) * strides[0] + (kh - 1) * dilations[0] + 1
    iw = (ow - 1) * strides[1] + (kw - 1) * dilations[1] + 1
    x, x_type = p.operand([n, c, ih, iw], element)
    w, w_type = p.operand([f, c, kh, kw], element)
    y, y_type = p.operand([n, f, oh, ow], element)
    p.lines.append(
        f"linalg.conv_2d_nchw_fchw {{dilations = dense<{dilations}> : vector<2xi64>, "
        f"strides = dense<{strides}> : vector<2xi64>}} ins({x}, {w} : {x_type}, {w_type}) "
        f"outs({y} : {y_type})"
    )


def _generic(p: _Program) -> None:
    """A reduction generic over random projected permutations."""
    element = str(p.rng.choice([*FLOATS, *INTEGERS, "i1"]))
    loops = int(p.rng.integers(2, 4))
    sizes = [p.size() for _ in range(loops)]
    reduced = sorted(
        int(d)
        for d in p.rng.choice(loops, int(p.rng.integers(1, loops)), replace=False)
    )
    kept = [d for d in range(loops) if d not in reduced]
    read = [int(d) for d in p.rng.permutation(loops)]
    x, x_type = p.operand([sizes[d] for d in read], element)
    y, y_type = p.operand([sizes[d] for d in kept], element)
    if element in FLOATS:
        combiner = str(p.rng.choice(["addf", "mulf", "maximumf", "minnumf"]))
    else:
        combiner = str(
            p.rng.choice(["addi", "muli", "maxsi", "minsi", "maxui", "xori"])
        )
    dims = ", ".join(f"d{d}" for d in range(loops))
    maps = [
        f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in read)})>",
        f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in kept)})>",
    ]
    iterators = ", ".join(
        '"reduction"' if d in reduced else '"parallel"' for d in range(loops)
    )
    p.lines.append(
        f"linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
        f"[{iterators}]}} ins({x} : {x_type}) outs({y} : {y_type}) {{\n"
        f"  ^bb0(%in: {element}, %acc: {element}):\n"
        f"    %r = arith.{combiner} %acc, %in : {element}\n"
        f"    linalg.yield %r : {element}\n  }}"
    )


def _elementwise(p: _Program) -> None:
    element = str(p.rng.choice([*FLOATS, *INTEGERS, "i1"]))
    op = str(p.rng.choice(["add", "mul", "max", "min"]))
    shape = [p.size() for _ in range(int(p.rng.integers(1, 4)))]
    a, a_type = p.operand(shape, element)
    b, b_type = p.operand(shape, element)
    c, c_type = p.operand(shape, element)
    p.lines.append(
        f"linalg.{op} ins({a}, {b} : {a_type}, {b_type}) outs({c} : {c_type})"
    )


FAMILIES = (_contraction, _convolution, _generic, _elementwise)


def _program(seed: int) -> _Program:
    p = _Program(np.random.default_rng(seed))
    for _ in range(4):
        FAMILIES[int(p.rng.integers(0, len(FAMILIES)))](p)
    return p


def _differ(want: np.ndarray, got: np.ndarray) -> np.ndarray:
    """Elements whose bits differ, NaNs aside."""
    if not want.size:
        return np.zeros(0, bool)
    width = want.dtype.itemsize
    differ = (
        want.view(np.uint8).reshape(want.size, width)
        != got.view(np.uint8).reshape(got.size, width)
    ).any(axis=1)
    if got.dtype.kind == "f" or got.dtype == BF16:
        values = got.astype(np.float32).reshape(-1)
        wanted = want.reshape(-1)
        if wanted.dtype.kind == "V" or wanted.dtype == np.uint16:
            wanted = (wanted.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        differ &= ~(np.isnan(values) & np.isnan(wanted.astype(np.float32)))
    return differ


@pytest.mark.parametrize("seed", range(20))
def test_random_linalg_programs_match_mlir_bit_for_bit(seed: int, tmp_path: Path):
    p = _program(seed)
    text = p.text()
    expected = run_in_mlir(text, p.arrays, "none", tmp_path)
    ours = [a.copy() for a in p.arrays]
    run_function(parse(text), "main", ours, sequential_sums=True)
    for position, got in enumerate(ours):
        differ = _differ(expected[f"arg{position}"], got)
        assert not differ.any(), (text, position, np.flatnonzero(differ)[:5])

"""The math kernels a loop nest may run on whole arrays (`loop_vectorize`),
and `arith.maxnumf`/`minnumf`,
give on arrays the bits they give one element at a time, as the op-by-op
path runs them (0-d arrays): on random bit patterns, NaNs of both kinds and
signs, infinities, subnormals, huge and tiny values, for array lengths and
offsets that take numpy's SIMD loops and their tails."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.test_value import create_ssa_value

from memplan.interpreter import loop_vectorize
from memplan.interpreter.arith_impl import evaluate
from memplan.interpreter.element_types import BF16, numpy_dtype
from memplan.interpreter.math_impl import MATH_KERNELS

FLOATS: tuple[Attribute, ...] = (
    Float16Type(),
    BFloat16Type(),
    Float32Type(),
    Float64Type(),
)
INTEGERS: tuple[Attribute, ...] = tuple(IntegerType(w) for w in (8, 16, 32, 64))
INTEGER_OPS = (
    math.AbsIOp,
    math.CountLeadingZerosOp,
    math.CountTrailingZerosOp,
    math.CtPopOp,
    math.IPowIOp,
)
ARITY = {
    arith.MaxnumfOp: 2,
    arith.MinnumfOp: 2,
    math.Atan2Op: 2,
    math.CopySignOp: 2,
    math.PowFOp: 2,
    math.FPowIOp: 2,
    math.IPowIOp: 2,
    math.FmaOp: 3,
}
LENGTHS = (1, 3, 8, 17, 64, 1000)
"""One element, SIMD tails, whole registers, and long runs."""
OFFSETS = (0, 1, 3)
"""Arrays starting at an element this far into their buffer: unaligned."""
MANTISSA_BITS = {2: 10, 4: 23, 8: 52}
"""Of f16, f32 and f64 (bf16 has 7)."""
SPECIALS = (0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, np.inf, -np.inf, np.nan)
SPECIALS += (-np.nan, 1e30, -1e30, 1e-30, 3.0, 100.0)


def _op(op_type: type[Operation], type_: Attribute) -> Operation:
    operands = [type_] * ARITY.get(op_type, 1)
    if op_type is math.FPowIOp:
        operands[1] = IntegerType(32)
    return op_type.create(
        operands=[create_ssa_value(t) for t in operands], result_types=[type_]
    )


def _ops() -> list[Operation]:
    return [
        _op(op_type, type_)
        for op_type in (*MATH_KERNELS, arith.MaxnumfOp, arith.MinnumfOp)
        for type_ in (INTEGERS if op_type in INTEGER_OPS else FLOATS)
    ]


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _signaling_nans(dtype: np.dtype) -> np.ndarray:
    width = dtype.itemsize * 8
    mantissa = 7 if dtype == BF16 else MANTISSA_BITS[dtype.itemsize]
    exponent = ((1 << (width - mantissa - 1)) - 1) << mantissa
    payloads = np.asarray([1, (1 << (mantissa - 2)) + 3], _unsigned(dtype))
    patterns = np.concatenate(
        (exponent | payloads, exponent | payloads | (1 << (width - 1)))
    )
    return patterns.astype(_unsigned(dtype)).view(dtype)


def _values(rng: np.random.Generator, dtype: np.dtype, size: int) -> np.ndarray:
    """Random bits, and for floats a quarter each of specials (NaNs, zeros,
    infinities, subnormals, halves), values in [-6, 6] and of magnitudes
    1e-40 to 1e40."""
    unsigned = _unsigned(dtype)
    bits = rng.integers(0, np.iinfo(unsigned).max, size, unsigned, endpoint=True)
    values = bits.view(dtype).copy()
    if dtype.kind in "iu":
        return values
    with np.errstate(all="ignore"):
        tiny = np.asarray([1, 3], unsigned).view(dtype)
        specials = np.concatenate(
            (
                np.asarray(SPECIALS).astype(dtype),
                _signaling_nans(dtype),
                tiny,
                -tiny,
            )
        )
        quarter = size // 4
        values[:quarter] = rng.choice(specials, quarter)
        values[quarter : 2 * quarter] = rng.uniform(-6, 6, quarter).astype(dtype)
        magnitudes = 10.0 ** rng.uniform(-40, 40, quarter)
        signs = rng.choice(np.asarray([-1.0, 1.0]), quarter)
        values[2 * quarter : 3 * quarter] = (signs * magnitudes).astype(dtype)
    rng.shuffle(values)
    return values


def _bits(values: np.ndarray) -> np.ndarray:
    return values.view(_unsigned(values.dtype))


def _disagreements(op: Operation, seed: int) -> list[str]:
    """Where the kernel on arrays and on each element alone give other bits."""
    rng = np.random.default_rng(seed)
    dtypes = [numpy_dtype(v.type) for v in op.operands]
    found: list[str] = []
    for length in LENGTHS:
        for offset in OFFSETS:
            operands = [
                _values(rng, dtype, length + offset)[offset:] for dtype in dtypes
            ]
            if len(operands) > 1 and offset == 3:
                operands[-1] = np.asarray(operands[-1][0])  # a broadcast scalar
            with np.errstate(all="ignore"):
                on_array = evaluate(op, list(operands), 64)
                alone = [
                    evaluate(
                        op,
                        [np.asarray(o if o.ndim == 0 else o[i]) for o in operands],
                        64,
                    )
                    for i in range(length)
                ]
            expected = _bits(np.stack([np.asarray(a) for a in alone]))
            for i in np.flatnonzero(_bits(on_array) != expected)[:1]:
                arguments = [
                    hex(int(_bits(o if o.ndim == 0 else o[i : i + 1]).flat[0]))
                    for o in operands
                ]
                found.append(
                    f"length {length}, offset {offset}: {arguments} gives "
                    f"{hex(int(_bits(on_array)[i]))} on arrays, "
                    f"{hex(int(expected[i]))} alone"
                )
    return found


def _agrees(op: Operation) -> bool:
    return loop_vectorize._agrees_on_arrays(op)  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize(
    "op",
    [op for op in _ops() if _agrees(op)],
    ids=lambda op: f"{op.name}-{op.results[0].type}",
)
def test_a_math_kernel_nests_run_on_arrays_give_the_bits_of_one_element(
    op: Operation,
):
    for seed in range(3):
        assert _disagreements(op, seed) == []


def _cpu_has(feature: str) -> bool:
    features = getattr(np._core._multiarray_umath, "__cpu_features__", {})  # pyright: ignore[reportAttributeAccessIssue]
    return bool(features.get(feature))


@pytest.mark.skipif(
    not _cpu_has("AVX512_SKX"), reason="numpy's array loops are its scalar ones here"
)
@pytest.mark.parametrize(
    ("op_type", "type_"),
    [
        (math.PowFOp, Float32Type()),
        (math.PowFOp, Float64Type()),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_the_sampling_finds_the_ops_kept_op_by_op_disagreeing(
    op_type: type[Operation], type_: Attribute
):
    """What keeps these out of nests on arrays, found by the sampling of the
    test above (on a CPU with AVX-512, where numpy has SIMD loops for them)."""
    op = _op(op_type, type_)
    assert not _agrees(op)
    assert any(_disagreements(op, seed) for seed in range(3))

"""Mapping MLIR element types to numpy dtypes.

numpy has no bf16; `ml_dtypes.bfloat16` is a numpy dtype (2 bytes, ufuncs
and casts) that fills the gap, so bf16 is mapped here like any other float.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

from memplan.interpreter.errors import ModelError

_SIGNED = {
    1: np.dtype(np.bool_),
    8: np.dtype(np.int8),
    16: np.dtype(np.int16),
    32: np.dtype(np.int32),
    64: np.dtype(np.int64),
}
_UNSIGNED = {
    1: np.dtype(np.bool_),
    8: np.dtype(np.uint8),
    16: np.dtype(np.uint16),
    32: np.dtype(np.uint32),
    64: np.dtype(np.uint64),
}
BF16 = np.dtype(ml_dtypes.bfloat16)
"""numpy's dtype for bf16 (ml_dtypes')."""

_FLOATS = {
    BFloat16Type: BF16,
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


_SCALAR_TYPES = (IndexType, IntegerType, *_FLOATS)


def is_scalar_type(type_: Attribute) -> bool:
    """True for the types whose values are numbers, never tensors or storages."""
    return isinstance(type_, _SCALAR_TYPES)


def integer_width(type_: Attribute, index_bitwidth: int) -> int:
    """Bits of an integer or index type."""
    if isinstance(type_, IndexType):
        return index_bitwidth
    if isinstance(type_, IntegerType):
        return type_.width.data
    raise ModelError(f"{type_} is not an integer type")


def numpy_dtype(type_: Attribute, index_bitwidth: int = 64) -> np.dtype:
    """The dtype holding values of `type_`; integers are signed (MLIR is signless)."""
    exact = _FLOATS.get(type(type_))
    if exact is not None:
        return exact  # the common case, found without isinstance checks
    if isinstance(type_, IndexType | IntegerType):
        width = integer_width(type_, index_bitwidth)
        if width in _SIGNED:
            return _SIGNED[width]
    for float_type, dtype in _FLOATS.items():
        if isinstance(type_, float_type):
            return dtype
    raise ModelError(f"element type {type_} is not supported by the interpreter")


def unsigned_dtype(type_: Attribute, index_bitwidth: int = 64) -> np.dtype:
    """The unsigned dtype of the same width, for ops that read bits as unsigned."""
    width = integer_width(type_, index_bitwidth)
    if width not in _UNSIGNED:
        raise ModelError(f"integer width {width} is not supported by the interpreter")
    return _UNSIGNED[width]


def is_float_dtype(dtype: np.dtype) -> bool:
    """True for numpy's floats and bf16 (whose numpy kind is "V", not "f")."""
    return dtype in _FLOATS.values()


def convert(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`values` as `dtype`, rounding once to nearest even as MLIR does, and
    integers to i1 by their low bit.

    ml_dtypes converts f64 and integers to bf16 through f32, which rounds
    twice (1 + 2**-8 + 2**-30 gives 1 instead of 1 + 2**-7); so those go
    through f32 rounded to odd, whose 16 extra bits make the final rounding
    to bf16 exact.
    """
    if dtype == np.bool_ and values.dtype.kind in "iu":
        return (values & 1).astype(dtype)  # i1 keeps the low bit, as trunci
    if dtype != BF16 or values.dtype in (BF16, np.float32, np.float16):
        return values.astype(dtype)
    wide = values.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        narrow = wide.astype(np.float32)
        away = np.abs(narrow.astype(np.float64)) > np.abs(wide)
        narrow = np.where(away, np.nextafter(narrow, np.float32(0)), narrow)
        inexact = narrow.astype(np.float64) != wide
    bits = narrow.view(np.uint32) | (inexact & np.isfinite(wide)).astype(np.uint32)
    return bits.view(np.float32).astype(dtype)

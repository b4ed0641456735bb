"""Mapping MLIR element types to numpy dtypes."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
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
_FLOATS = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


def _bitwidth(type_: Attribute, index_bitwidth: int) -> int:
    if isinstance(type_, IndexType):
        return index_bitwidth
    if isinstance(type_, IntegerType):
        return type_.width.data
    raise ModelError(f"{type_} is not an integer type")


def numpy_dtype(type_: Attribute, index_bitwidth: int = 64) -> np.dtype:
    """The dtype holding values of `type_`; integers are signed (MLIR is signless)."""
    if isinstance(type_, IndexType | IntegerType):
        width = _bitwidth(type_, index_bitwidth)
        if width in _SIGNED:
            return _SIGNED[width]
    for float_type, dtype in _FLOATS.items():
        if isinstance(type_, float_type):
            return dtype
    raise ModelError(f"element type {type_} is not supported by the interpreter")


def unsigned_dtype(type_: Attribute, index_bitwidth: int = 64) -> np.dtype:
    """The unsigned dtype of the same width, for ops that read bits as unsigned."""
    width = _bitwidth(type_, index_bitwidth)
    if width not in _UNSIGNED:
        raise ModelError(f"integer width {width} is not supported by the interpreter")
    return _UNSIGNED[width]

"""The initial contents of a `memref.global`, including `dense_resource` blobs.

torch-mlir stores every weight as `dense_resource<key>`, with the bytes in the
file's `{-# dialect_resources: { builtin: { key: "0x..." } } #-}` section.
MLIR's blob encoding is a 4-byte little-endian alignment, then the elements
little-endian and densely packed (booleans one byte each).  A global whose
blob is missing or has the wrong size is an error naming it: reading zeros
instead would give plausible, wrong results.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    Builtin,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    MemRefType,
    UnitAttr,
)

from memplan.interpreter.arith_impl import constant_value
from memplan.interpreter.element_types import numpy_dtype
from memplan.interpreter.errors import ModelError

BLOB_HEADER_BYTES = 4
"""The alignment word that starts every MLIR blob."""


def blob_hex(handle: str) -> str | None:
    """The hex text of builtin resource `handle` as parsed, or None if absent."""
    interface = Builtin.get_interface(OpAsmDialectInterface)
    text = interface.lookup(handle) if interface is not None else None
    return text or None


def decode_blob(text: str, dtype: np.dtype, count: int, what: str) -> np.ndarray:
    """`count` elements of `dtype` from a blob's hex text ("0x" + header + data)."""
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError:
        raise ModelError(f"{what} is not hexadecimal") from None
    data = raw[BLOB_HEADER_BYTES:]
    expected = count * dtype.itemsize
    if len(raw) < BLOB_HEADER_BYTES or len(data) != expected:
        raise ModelError(
            f"{what} holds {len(data)} data bytes after its "
            f"{BLOB_HEADER_BYTES}-byte header, expected {expected} "
            f"({count} x {dtype.itemsize}-byte elements)"
        )
    return np.frombuffer(data, dtype=dtype.newbyteorder("<")).astype(dtype)


def global_values(definition: memref.GlobalOp, index_bitwidth: int) -> np.ndarray:
    """A fresh array holding the initial contents of `definition`.

    Uninitialized globals start as zeros; dense and dense_resource initial
    values are read in full.
    """
    name = definition.sym_name.data
    type_ = definition.type
    assert isinstance(type_, MemRefType)
    dtype = numpy_dtype(type_.element_type, index_bitwidth)
    shape = tuple(type_.get_shape())
    initial = definition.initial_value
    if isinstance(initial, UnitAttr):
        return np.zeros(shape, dtype)
    if isinstance(initial, DenseIntOrFPElementsAttr):
        return np.array(np.broadcast_to(constant_value(initial, dtype), shape))
    if isinstance(initial, DenseResourceAttr):
        handle = initial.resource_handle.data
        text = blob_hex(handle)
        if text is None:
            raise ModelError(
                f"memref.global @{name}: no data for dense_resource<{handle}> "
                "(the file's dialect_resources section does not define it)"
            )
        count = int(np.prod(shape, dtype=np.int64))
        what = f"memref.global @{name}: dense_resource<{handle}>"
        return decode_blob(text, dtype, count, what).reshape(shape)
    raise ModelError(
        f"memref.global @{name}: initial value {initial} is not supported "
        "by the interpreter"
    )

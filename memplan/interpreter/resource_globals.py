"""The initial contents of a `memref.global`, including `dense_resource` blobs.

torch-mlir stores every weight as `dense_resource<key>`, with the bytes in the
file's `{-# dialect_resources #-}` section; `memplan.dialects.memref.global_blob`
finds and checks them.  A global whose blob is missing or has the wrong size
is an error naming it: reading zeros instead would give plausible, wrong
results.  Decoding a model's weights takes longer than running it, so each
global's contents are decoded once per op and initial value; `constant`
globals then share that read-only array, others get a copy per run.
"""

from __future__ import annotations

import weakref

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    UnitAttr,
)
from xdsl.ir import Attribute

from memplan.dialects.memref import BlobError, GlobalOp, global_blob
from memplan.interpreter.arith_impl import constant_value
from memplan.interpreter.element_types import numpy_dtype
from memplan.interpreter.errors import ModelError

_DECODED: weakref.WeakKeyDictionary[
    GlobalOp, tuple[Attribute | None, int, np.ndarray]
] = weakref.WeakKeyDictionary()
"""Per global: the initial value and index bitwidth decoded, and the result."""


def global_values(definition: GlobalOp, index_bitwidth: int) -> np.ndarray:
    """The initial contents of `definition`: read-only and shared when the
    global is `constant`, else a fresh writable copy."""
    cached = _DECODED.get(definition)
    if (
        cached is None
        or cached[0] is not definition.initial_value
        or cached[1] != index_bitwidth
    ):
        values = _decode(definition, index_bitwidth)
        values.flags.writeable = False
        cached = (definition.initial_value, index_bitwidth, values)
        _DECODED[definition] = cached
    values = cached[2]
    return values if definition.constant is not None else values.copy()


def _decode(definition: GlobalOp, index_bitwidth: int) -> np.ndarray:
    """Uninitialized globals start as zeros; dense and dense_resource initial
    values are read in full; a declaration without a value is an error."""
    name = definition.sym_name.data
    type_ = definition.type
    dtype = numpy_dtype(type_.element_type, index_bitwidth)
    shape = tuple(type_.get_shape())
    initial = definition.initial_value
    if initial is None:
        raise ModelError(
            f"memref.global @{name} is only declared (no initial value): its "
            "contents are unknown"
        )
    if isinstance(initial, UnitAttr):
        return np.zeros(shape, dtype)
    if isinstance(initial, DenseIntOrFPElementsAttr):
        return np.array(np.broadcast_to(constant_value(initial, dtype), shape))
    if isinstance(initial, DenseResourceAttr):
        try:
            data = global_blob(definition)
        except BlobError as error:
            raise ModelError(str(error)) from None
        stored = (
            np.dtype(np.int64) if isinstance(type_.element_type, IndexType) else dtype
        )
        values = np.frombuffer(data, dtype=stored.newbyteorder("<"))
        return values.astype(dtype).reshape(shape)
    raise ModelError(
        f"memref.global @{name}: initial value {initial} is not supported "
        "by the interpreter"
    )

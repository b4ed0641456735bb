"""Arguments of the function to run: checked, never silently converted.

Python callers pass numpy arrays and numbers; `memplan-run` turns `--args`
attributes or the `arg0`, `arg1`, ... arrays of an `.npz` file into the same
values.  A value that does not fit its argument (a float for an integer, an
integer out of range, an array of another dtype or shape, a column-major array
for a row-major memref) is an error naming the argument, not a truncation.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute

from memplan.interpreter.element_types import BF16, convert, numpy_dtype
from memplan.interpreter.errors import ModelError


def check_argument(
    value: object, type_: Attribute, index_bitwidth: int, position: int
) -> object:
    """The interpreter's value for argument `position` of type `type_`.

    Memrefs take a numpy array of exactly the element dtype and shape, C-contiguous
    for the identity layout (used in place; ranked tensors take the same arrays and get read-only views of
    them: a tensor is a value, which the call must not change), or for a
    signless integer element type an unsigned array of its width, whose bits
    it holds (torch-mlir passes a uint8 image as `i8`);
    bf16 also takes the 2-byte void array `np.load` gives for a saved
    `ml_dtypes.bfloat16` array (.npz has no bf16 type); integers take Python or numpy integers within the type's range;
    floats take integers or floats.
    """
    if isinstance(type_, MemRefType):
        return _memref_argument(value, type_, index_bitwidth, position)
    if isinstance(type_, TensorType):
        array = _memref_argument(value, type_, index_bitwidth, position).view()
        array.flags.writeable = False
        return array
    _check_supported(type_, position)
    try:
        dtype = numpy_dtype(type_, index_bitwidth)
    except ModelError as error:
        raise ModelError(f"argument {position}: {error}") from None
    if isinstance(value, np.ndarray | np.generic):
        value = _loaded_bf16(np.asarray(value), dtype)
    if (isinstance(value, np.ndarray) and value.ndim == 0) or isinstance(
        value, np.generic
    ):
        value = value.item()
    if isinstance(type_, IntegerType | IndexType):
        if not isinstance(value, int):
            raise ModelError(
                f"argument {position} of type {type_} must be an integer, got {value!r}"
            )
        bits = 1 if dtype == np.bool_ else dtype.itemsize * 8
        low = -(1 << (bits - 1)) if bits > 1 else 0
        if not low <= value < 1 << bits:
            raise ModelError(
                f"argument {position} of type {type_} must be in [{low}, "
                f"{(1 << bits) - 1}], got {value}"
            )
        if dtype == np.bool_:
            return np.bool_(value)
        return np.array(value).astype(dtype)[()]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelError(
            f"argument {position} of type {type_} must be a number, got {value!r}"
        )
    return convert(np.asarray(value, dtype=np.float64), dtype)[()]


def _check_supported(type_: Attribute, position: int) -> None:
    if isinstance(type_, UnrankedMemRefType | UnrankedTensorType):
        raise ModelError(
            f"argument {position} is an unranked {type_}, which the interpreter "
            "does not run: give it a ranked type"
        )


def _loaded_bf16(value: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`value` as bf16 when `dtype` is bf16 and `value` is the 2-byte void
    array that .npz round trips a bf16 array to; else `value` unchanged."""
    if dtype == BF16 and value.dtype == np.dtype("V2"):
        return value.view(BF16)
    return value


def _memref_argument(
    value: object, type_: MemRefType | TensorType, index_bitwidth: int, position: int
) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise ModelError(f"argument {position} must be a numpy array for {type_}")
    dtype = numpy_dtype(type_.element_type, index_bitwidth)
    value = _loaded_bf16(value, dtype)
    if (
        value.dtype.kind == "u"
        and dtype.kind == "i"
        and value.itemsize == dtype.itemsize
    ):
        value = value.view(dtype)
    expected = type_.get_shape()
    if (
        value.dtype != dtype
        or len(value.shape) != len(expected)
        or any(
            want not in (have, DYNAMIC_INDEX)
            for have, want in zip(value.shape, expected, strict=True)
        )
    ):
        raise ModelError(
            f"argument {position} is a {value.dtype} array of shape "
            f"{list(value.shape)}, expected {type_}"
        )
    if (
        isinstance(type_, MemRefType)
        and isinstance(type_.layout, NoneAttr)
        and not value.flags.c_contiguous
    ):
        raise ModelError(
            f"argument {position} is an array with strides {list(value.strides)}, "
            f"expected a row-major (C-contiguous) array for {type_}, whose layout "
            "is the identity: pass np.ascontiguousarray(value)"
        )
    return value


def argument_from_attribute(
    attribute: Attribute, type_: Attribute, index_bitwidth: int, position: int
) -> object:
    """The value an `--args` attribute gives argument `position`."""
    if isinstance(type_, MemRefType | TensorType):
        return _memref_from_attribute(attribute, type_, index_bitwidth, position)
    _check_supported(type_, position)
    if isinstance(attribute, IntegerAttr):
        if isinstance(type_, IntegerType | IndexType):
            value = _literal_value(attribute, type_, index_bitwidth, position)
            return check_argument(value, type_, index_bitwidth, position)
        raise ModelError(
            f"argument {position} of type {type_} needs a float literal such as "
            f"{attribute.value.data}.0 : {type_}, got {attribute}"
        )
    if isinstance(attribute, FloatAttr):
        if isinstance(type_, IntegerType | IndexType):
            raise ModelError(
                f"argument {position} of type {type_} needs an integer literal, "
                f"got the float {attribute}"
            )
        return check_argument(attribute.value.data, type_, index_bitwidth, position)
    raise ModelError(f"argument {position} of type {type_} cannot be {attribute}")


def _literal_value(
    attribute: IntegerAttr, type_: Attribute, index_bitwidth: int, position: int
) -> int:
    """The integer an `--args` literal gives an argument of type `type_`.

    xDSL keeps a signless literal in its signed range: `true`, `1 : i1` and
    `255 : i8` all hold -1.  A literal at least as wide as the argument gives
    its signed value (the unsigned reading does not fit, or has the same
    bits; `true` for an i1 is 1); a narrower negative one is ambiguous
    (`255 : i8` and `-1 : i8` differ in an i32, `true` is 1 or -1), so it
    must be written in the argument's type rather than be silently changed.
    """
    value = attribute.value.data
    literal_type = attribute.type
    if (
        value >= 0
        or not isinstance(literal_type, IntegerType)
        or literal_type.signedness.data != Signedness.SIGNLESS
    ):
        return value
    width = literal_type.width.data
    bits = type_.width.data if isinstance(type_, IntegerType) else index_bitwidth
    if width >= bits:
        return 1 if width == 1 else value
    raise ModelError(
        f"argument {position} of type {type_} cannot take {attribute}: a signless "
        f"{literal_type} literal holds {value} and {value + (1 << width)} alike; "
        f"write the one meant in the argument's type: {value + (1 << width)} : "
        f"{type_} or {value} : {type_}"
    )


def _memref_from_attribute(
    attribute: Attribute,
    type_: MemRefType | TensorType,
    index_bitwidth: int,
    position: int,
) -> np.ndarray:
    """A fresh array from a `dense<...> : tensor<...>` literal of the same
    element type and shape (dynamic dimensions take the literal's size)."""
    expected = type_.get_shape()
    if (
        not isinstance(attribute, DenseIntOrFPElementsAttr)
        or attribute.get_element_type() != type_.element_type
        or len(attribute.get_shape()) != len(expected)
        or any(
            want not in (have, DYNAMIC_INDEX)
            for have, want in zip(attribute.get_shape(), expected, strict=True)
        )
    ):
        shape = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in expected)
        raise ModelError(
            f"argument {position} of type {type_} needs a dense literal of type "
            f"tensor<{shape}x{type_.element_type}>, got {attribute}"
        )
    dtype = numpy_dtype(type_.element_type, index_bitwidth)
    values = convert(np.array(attribute.get_values()), dtype)
    return values.reshape(tuple(attribute.get_shape()))


def arguments_from_npz(
    path: str, types: Sequence[Attribute], index_bitwidth: int, input_set: str = ""
) -> list[object]:
    """Arguments from the arrays `arg0`, `arg1`, ... of an `.npz` file, or
    with `input_set` from `INPUT_SET/arg0`, ... (an input set at another size
    that `examples/torch/export_model.py` stored for a dynamic model).

    Other arrays (such as `result0`, the expected outputs) are not read; an
    `argN` of the set beyond the function's arguments is an error.
    """
    prefix = f"{input_set}/" if input_set else ""
    try:
        with open(path, "rb") as file:
            # np.load takes other bytes for a pickle and says so, which misleads.
            if not zipfile.is_zipfile(file):
                raise ModelError("cannot read it as an .npz archive: not a zip file")
            file.seek(0)
            data = np.lib.npyio.NpzFile(file, allow_pickle=False)
            names = set(data.files)
            sets = sorted({name.rpartition("/")[0] for name in names if "/" in name})
            if input_set and not any(name.startswith(prefix) for name in names):
                raise ModelError(
                    f"has no input set {input_set} (arrays {prefix}arg0, ...); "
                    f"its input sets are: {', '.join(sets) or 'none'}"
                )
            extra = sorted(
                name
                for name in names
                if name.startswith(f"{prefix}arg")
                and name[len(prefix) + 3 :].isdigit()
                and int(name[len(prefix) + 3 :]) >= len(types)
            )
            if extra:
                raise ModelError(
                    f"holds {', '.join(extra)}, but the function takes "
                    f"{len(types)} argument(s)"
                )
            arguments: list[object] = []
            for position, type_ in enumerate(types):
                name = f"{prefix}arg{position}"
                if name not in names:
                    raise ModelError(
                        f"has no array {name} for argument {position} ({type_}); "
                        f"it holds {', '.join(sorted(names)) or 'nothing'}"
                    )
                array = data[name]
                shaped = isinstance(type_, MemRefType | TensorType)
                # An archive may store an array in Fortran order; the value
                # is the same, and the identity layout is row-major.
                value = np.array(array, order="C") if shaped else array
                arguments.append(check_argument(value, type_, index_bitwidth, position))
            return arguments
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ModelError(f"cannot read it as an .npz archive: {reason}") from None

"""The C library's math functions, one call per element (`--libm-math`).

MLIR's standard lowering to LLVM (`convert-math-to-funcs`,
`convert-math-to-llvm`, `convert-math-to-libm`) turns `math.exp`,
`math.tanh`, `math.erf`, ... into LLVM intrinsics or direct calls that end
as calls of the C library's `expf`, `tanhf`, `erff`, ... on f32 and `exp`,
`tanh`, `erf`, ... on f64, one per element; on f16 and bf16 LLVM extends the
operands to f32, calls the f32 function and truncates its result (one
rounding to nearest even).  `call` does the same through ctypes on the
library this process finds (`c_library`), so it gives the bits the compiled
code gives on this machine, where numpy's own functions use other, CPU-
specific code.

The mode is a context variable, as numpy's `errstate` is: `Runner` turns it
on around a run (`libm_math`), and the math kernels ask `active()` on each
call, so the default path pays one lookup.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

import numpy as np

from memplan.interpreter.errors import ModelError

_ACTIVE: ContextVar[bool] = ContextVar("libm_math", default=False)


def active() -> bool:
    """Whether math functions call the C library (`libm_math`)."""
    return _ACTIVE.get()


@contextmanager
def libm_math(on: bool) -> Iterator[None]:
    """Math functions call the C library inside the block when `on`."""
    token = _ACTIVE.set(on)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def _candidates() -> list[str | None]:
    """Where the math functions may be: libm (glibc, musl, macOS's
    libSystem), the Windows C runtime, and on POSIX the symbols already in
    the process (Python's own libm)."""
    names = [ctypes.util.find_library("m")]
    if sys.platform == "win32":
        names.append(ctypes.util.find_library("ucrtbase"))
        return [name for name in names if name is not None]
    return [name for name in names if name is not None] + [None]


@cache
def c_library() -> ctypes.CDLL:
    """The C library holding `expf` and the other math functions; a
    `ModelError` saying so when ctypes finds none."""
    tried: list[str] = []
    for name in _candidates():
        try:
            library = ctypes.CDLL(name)
        except OSError as error:
            tried.append(f"{name or 'the process'}: {error}")
            continue
        if hasattr(library, "expf"):
            return library
        tried.append(f"{name or 'the process'}: no expf")
    raise ModelError(
        "--libm-math needs the C library's math functions, which ctypes "
        f"cannot load here ({'; '.join(tried) or 'no libm found'})"
    )


@cache
def _function(name: str, arity: int, double: bool) -> Callable[..., float]:
    """The C function `name` of `arity` operands of C `double` or `float`."""
    number = ctypes.c_double if double else ctypes.c_float
    prototype = ctypes.CFUNCTYPE(number, *(number,) * arity)
    try:
        return prototype((name, c_library()))
    except AttributeError:
        raise ModelError(
            f"the C library has no {name}, which --libm-math calls"
        ) from None


def c_name(name: str, dtype: np.dtype) -> str:
    """The C function MLIR's code calls for `name` on `dtype`: `exp` on
    f64, `expf` on f32, f16 and bf16."""
    return name if dtype == np.float64 else f"{name}f"


TABLE_ABOVE = 1 << 16
"""A one-operand function of a 16-bit type (f16, bf16) on more elements
than this reads a table of its result for every bit pattern (`_table`),
computed once per function and type: as many calls as one such array."""


@cache
def _table(name: str, dtype: np.dtype) -> np.ndarray:
    """`name` of every value of the 16-bit `dtype`, indexed by its bits."""
    return call(name, np.arange(1 << 16, dtype=np.uint16).view(dtype))


def call(name: str, *values: np.ndarray) -> np.ndarray:
    """The C library's `name` of `values` (broadcast together), element by
    element, in their float type (see the module's doc)."""
    dtype = np.result_type(*values)
    if len(values) == 1 and dtype.itemsize == 2 and np.size(values[0]) > TABLE_ABOVE:
        return _table(name, dtype)[np.asarray(values[0]).view(np.uint16)]
    double = dtype == np.float64
    function = _function(c_name(name, dtype), len(values), double)
    wide = np.dtype(np.float64 if double else np.float32)
    arrays = np.broadcast_arrays(*(np.asarray(v) for v in values))
    shape = arrays[0].shape
    # An axis along which every operand repeats one value (a broadcast) is
    # computed once.
    once = tuple(
        slice(0, 1) if all(a.strides[axis] == 0 for a in arrays) else slice(None)
        for axis in range(len(shape))
    )
    distinct = [a[once].astype(wide).ravel().tolist() for a in arrays]
    kept = arrays[0][once].shape
    computed = np.fromiter(map(function, *distinct), wide, count=len(distinct[0]))
    return np.broadcast_to(computed.reshape(kept), shape).astype(dtype)

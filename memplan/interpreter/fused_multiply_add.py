"""`math.fma`: `a * b + c` rounded once, as MLIR lowers it (`llvm.intr.fma`).

numpy has no fused multiply-add, and a multiply then an add rounds twice.
f32 computes in f64, where the product is exact, and rounds the sum *to
odd* (an inexact result gets an odd last bit): rounding that to f32 is then
correctly rounded, as 53 bits hold 24 + 2.  f64 splits the product into two
doubles (Dekker) and adds the three parts with the same rule (Boldo and
Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
using rounding to odd", IEEE TC 2008).  Where the splitting could overflow
or underflow, the element is computed exactly with `fractions`.  f16 and
bf16 compute in f32 and round to their type, as LLVM promotes them on
targets without native half-precision arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np

_SPLITTER = np.float64(2**27 + 1)
"""Veltkamp's constant: splits a double into two halves of 26 bits."""
_SAFE_MAX = 2.0**995
"""Largest magnitude of a factor whose split cannot overflow."""
_SAFE_PRODUCT_MIN = 2.0**-960
"""Smallest product magnitude whose rounding error is still a normal double."""


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a * b + c` with one rounding, in the operands' float dtype."""
    dtype = np.result_type(a, b, c)
    if dtype == np.float64:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        flat = [np.broadcast_to(x, shape).ravel() for x in (a, b, c)]
        result = _fma64(*flat).reshape(shape)
    else:
        with np.errstate(all="ignore"):
            wide = [np.asarray(x, np.float64) for x in (a, b, c)]
            single = _round_to_odd_sum(wide[0] * wide[1], wide[2]).astype(np.float32)
            result = single.astype(dtype)
    return _first_nan_quieted((a, b, c), result)


def _first_nan_quieted(
    operands: tuple[np.ndarray, ...], result: np.ndarray
) -> np.ndarray:
    """Where an operand is a NaN, the first such operand with its quiet bit
    set.  Which of two NaNs numpy's own add keeps depends on its loop (SIMD,
    broadcast or one element), so the choice is made here, the same for an
    array and for each of its elements."""
    dtype = result.dtype
    unsigned = np.dtype(f"u{dtype.itemsize}")
    quiet_bit = unsigned.type(1 << (ml_dtypes.finfo(dtype).nmant - 1))
    chosen, any_nan = result, np.zeros(result.shape, np.bool_)
    for operand in reversed(operands):
        is_nan = np.isnan(operand)
        chosen = np.where(is_nan, operand, chosen)
        any_nan = any_nan | is_nan
    bits = np.asarray(chosen, dtype).view(unsigned)
    return np.where(any_nan, bits | quiet_bit, bits).view(dtype)


def _two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s and e with s = fl(x + y) and s + e = x + y exactly (Knuth)."""
    s = x + y
    y_part = s - x
    e = (x - (s - y_part)) + (y - y_part)
    return s, e


def _round_to_odd_sum(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x + y in f64 rounded to odd: an inexact sum keeps the neighbour whose
    last bit is 1 (of the two doubles around the exact value)."""
    s, e = _two_sum(x, y)
    bits = s.view(np.int64)
    even = (bits & 1) == 0
    move = (e != 0) & even & np.isfinite(s)
    toward = np.where(e > 0, np.inf, -np.inf)
    return np.where(move, np.nextafter(s, toward), s)


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p and e with p = fl(a * b) and p + e = a * b exactly (Dekker)."""
    p = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    e = ((a_high * b_high - p) + a_high * b_low + a_low * b_high) + a_low * b_low
    return p, e


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scaled = _SPLITTER * x
    high = scaled - (scaled - x)
    return high, x - high


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Over 1-d f64 arrays."""
    with np.errstate(all="ignore"):
        product, product_error = _two_product(a, b)
        high, low = _two_sum(c, product)
        result = high + _round_to_odd_sum(low, product_error)
        plain = a * b + c
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    magnitude = np.abs(product)
    safe = (
        (np.abs(a) <= _SAFE_MAX)
        & (np.abs(b) <= _SAFE_MAX)
        & ((magnitude >= _SAFE_PRODUCT_MIN) | (a == 0) | (b == 0))
        & np.isfinite(result)
    )
    # a finite product, however large, plus an infinity is that infinity
    infinite_addend = np.isfinite(a) & np.isfinite(b) & np.isinf(c)
    plain = np.where(infinite_addend, c, plain)
    result = np.where(finite, np.where(safe, result, plain), plain)
    for index in np.flatnonzero(finite & ~safe):
        result[index] = _exact_fma64(a[index], b[index], c[index])
    return result


def _exact_fma64(a: np.float64, b: np.float64, c: np.float64) -> np.float64:
    """One element through exact rationals (products near the ends of the
    double range); a zero sum keeps the sign IEEE gives it."""
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:
        with np.errstate(all="ignore"):
            return a * b + c
    try:
        return np.float64(float(exact))
    except OverflowError:
        return np.float64(np.inf if exact > 0 else -np.inf)

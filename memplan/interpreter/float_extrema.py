"""`arith.maximumf` / `arith.minimumf` and `maxnumf` / `minnumf` as MLIR
defines them.

`maximumf` and `minimumf` propagate NaN, as numpy's `maximum` / `minimum` do, and order -0.0
below +0.0, which numpy does not: it returns either zero of a tie between
+0.0 and -0.0.  So each use (elementwise, a reduction, a running fold) takes
numpy's result and gives a zero result the sign MLIR's order picks: a
maximum is +0.0 when any of its operands is +0.0, a minimum is -0.0 when any
is -0.0.  Integer operands have no signed zero and pass through.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memplan.interpreter.element_types import is_float_dtype


@dataclass(frozen=True)
class SignedZeroExtremum:
    """A ufunc-like fold (call, `reduce`, `accumulate`) of a maximum or a
    minimum that orders -0.0 below +0.0."""

    ufunc: np.ufunc
    """`np.maximum` or `np.minimum`."""
    negative_zero_wins: bool
    """Which zero a tie of +0.0 and -0.0 gives: -0.0 for a minimum."""

    def __call__(self, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        lhs, rhs = np.asarray(lhs), np.asarray(rhs)
        result = np.asarray(self.ufunc(lhs, rhs))
        if not is_float_dtype(result.dtype):
            return result
        winner = self._winning_zeros(lhs) | self._winning_zeros(rhs)
        return self._signed(result, winner)

    def reduce(
        self, values: np.ndarray, axis: int | tuple[int, ...], keepdims: bool = False
    ) -> np.ndarray:
        result = np.asarray(self.ufunc.reduce(values, axis=axis, keepdims=keepdims))
        if not is_float_dtype(result.dtype):
            return result
        winner = np.any(self._winning_zeros(values), axis=axis, keepdims=keepdims)
        return self._signed(result, winner)

    def accumulate(self, values: np.ndarray, axis: int) -> np.ndarray:
        result = self.ufunc.accumulate(values, axis)
        if not is_float_dtype(result.dtype):
            return result
        winner = np.logical_or.accumulate(self._winning_zeros(values), axis)
        return self._signed(result, winner)

    def _winning_zeros(self, values: np.ndarray) -> np.ndarray:
        """Where `values` holds the zero that wins a tie."""
        return (values == 0) & (np.signbit(values) == self.negative_zero_wins)

    def _signed(self, result: np.ndarray, winner: np.ndarray) -> np.ndarray:
        """`result` with each zero signed as MLIR's order has it: the winning
        zero where one of the folded values was it, the other zero elsewhere."""
        zero = result == 0
        if not np.any(zero):
            return result
        negative = winner == self.negative_zero_wins
        zeros = np.where(negative, -0.0, 0.0).astype(result.dtype)
        return np.where(zero, zeros, result)


MAXIMUMF = SignedZeroExtremum(np.maximum, negative_zero_wins=False)
MINIMUMF = SignedZeroExtremum(np.minimum, negative_zero_wins=True)


def maxnumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """`arith.maxnumf`: a NaN operand, quiet or signaling, gives the other
    operand (np.fmax gives a quieted signaling NaN on one element).  Where
    MLIR leaves the choice open it does what its x86 code does: of equal
    operands (+0.0 and -0.0) the first, of two NaNs the second, bits kept;
    on f16, which LLVM widens to f32 and hands to the C library's `fmaxf`
    (x86's `maxss`), of equal operands the second, of two NaNs the first,
    quieted."""
    return _number_preferring(lhs, rhs, np.greater_equal, np.greater)


def minnumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """`arith.minnumf`, as `maxnumf` with the smaller operand."""
    return _number_preferring(lhs, rhs, np.less_equal, np.less)


def _number_preferring(
    lhs: np.ndarray, rhs: np.ndarray, first_wins: np.ufunc, f16_first_wins: np.ufunc
) -> np.ndarray:
    lhs, rhs = np.asarray(lhs), np.asarray(rhs)
    only_rhs_nan = np.isnan(rhs) & ~np.isnan(lhs)
    if lhs.dtype != np.float16:
        return np.where(only_rhs_nan | first_wins(lhs, rhs), lhs, rhs)
    both_nan = np.isnan(lhs) & np.isnan(rhs)
    quieted = (lhs.view(np.uint16) | np.uint16(0x0200)).view(np.float16)
    picked = np.where(only_rhs_nan | f16_first_wins(lhs, rhs), lhs, rhs)
    return np.where(both_nan, quieted, picked)

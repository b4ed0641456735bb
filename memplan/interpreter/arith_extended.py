"""arith's two-result integer ops: `addui_extended` (the sum and its carry)
and `mulsi_extended` / `mului_extended` (the low and high halves of the
double-width product).

They compute on Python integers, exact at any width (an i64 product needs
128 bits), and return each half as the element type's signed value, as the
other arith kernels do.  They run scalar only: a body that uses one is
evaluated element by element.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute

from memplan.interpreter.element_types import (
    integer_width,
    numpy_dtype,
    unsigned_dtype,
)


def _signed(value: int, type_: Attribute, bits: int) -> object:
    """`value` wrapped to the integer type, as its (signed) numpy scalar."""
    wrapped = value % (1 << integer_width(type_, bits))
    return np.asarray(wrapped, unsigned_dtype(type_, bits)).view(
        numpy_dtype(type_, bits)
    )[()]


def _unsigned(value: object, type_: Attribute, bits: int) -> int:
    signed = np.asarray(value).astype(numpy_dtype(type_, bits))
    return int(signed.view(unsigned_dtype(type_, bits)))


@register_impls
class ExtendedArithFunctions(InterpreterFunctions):
    @impl(arith.AddUIExtendedOp)
    def run_addui_extended(
        self, interpreter: Interpreter, op: arith.AddUIExtendedOp, args: PythonValues
    ) -> PythonValues:
        type_, bits = op.sum.type, interpreter.index_bitwidth
        total = _unsigned(args[0], type_, bits) + _unsigned(args[1], type_, bits)
        return _signed(total, type_, bits), np.bool_(
            total >> integer_width(type_, bits)
        )

    @impl(arith.MulSIExtendedOp)
    def run_mulsi_extended(
        self, interpreter: Interpreter, op: arith.MulSIExtendedOp, args: PythonValues
    ) -> PythonValues:
        type_, bits = op.low.type, interpreter.index_bitwidth
        dtype = numpy_dtype(type_, bits)
        product = int(np.asarray(args[0]).astype(dtype)) * int(
            np.asarray(args[1]).astype(dtype)
        )
        return self._halves(product, type_, bits)

    @impl(arith.MulUIExtendedOp)
    def run_mului_extended(
        self, interpreter: Interpreter, op: arith.MulUIExtendedOp, args: PythonValues
    ) -> PythonValues:
        type_, bits = op.low.type, interpreter.index_bitwidth
        product = _unsigned(args[0], type_, bits) * _unsigned(args[1], type_, bits)
        return self._halves(product, type_, bits)

    @staticmethod
    def _halves(product: int, type_: Attribute, bits: int) -> PythonValues:
        """The low and high words of a double-width product (Python's `>>`
        on a negative product is arithmetic, as the signed high word needs)."""
        width = integer_width(type_, bits)
        return _signed(product, type_, bits), _signed(product >> width, type_, bits)

"""func for memplan: xDSL 0.74's dialect with a `func.call` whose verifier
finds the callee through `memplan.symbols` (an index of the module's
symbols) instead of xDSL's `SymbolTable.lookup_symbol`, which scans the
module for every call: verifying a module of N functions called from one
was quadratic in N.  The checks and their messages are xDSL's."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import FlatSymbolRefAttrConstr
from xdsl.ir import Dialect, Operation
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from memplan.symbols import lookup_symbol


class CallOpSymbolUserOpInterface(func.CallOpSymbolUserOpInterface):
    """xDSL's checks of a call against its callee, with their messages, the
    callee found by `memplan.symbols.lookup_symbol`."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, func.CallOp)
        callee = lookup_symbol(op, op.callee)
        if not callee:
            raise VerifyException(f"'{op.callee}' could not be found in symbol table")
        if not isinstance(callee, func.FuncOp):
            raise VerifyException(f"'{op.callee}' does not reference a valid function")
        inputs = callee.function_type.inputs
        outputs = callee.function_type.outputs
        if len(inputs) != len(op.arguments):
            raise VerifyException("incorrect number of operands for callee")
        if len(outputs) != len(op.result_types):
            raise VerifyException("incorrect number of results for callee")
        for number, (expected, provided) in enumerate(
            zip(inputs, op.arguments.types, strict=True)
        ):
            if expected != provided:
                raise VerifyException(
                    f"operand type mismatch: expected operand type {expected}, "
                    f"but provided {provided} for operand number {number}"
                )
        for number, (expected, provided) in enumerate(
            zip(outputs, op.result_types, strict=True)
        ):
            if expected != provided:
                raise VerifyException(
                    f"result type mismatch: expected result type {expected}, but "
                    f"provided {provided} for result number {number}"
                )


_TRAITS = traits_def(CallOpSymbolUserOpInterface())


@irdl_op_definition
class CallOp(func.CallOp):
    """xDSL's `func.call`, verified against its callee in constant time."""

    name = "func.call"
    arguments = var_operand_def()
    callee = prop_def(FlatSymbolRefAttrConstr)
    res = var_result_def()

    traits = _TRAITS

    assembly_format = None
    """None: the parser and printer are xDSL's, made from its format."""

    def verify_(self) -> None:
        """Nothing beyond the definition's checks: xDSL's `verify_` would run
        xDSL's callee lookup too."""


# `irdl_op_definition` adds the traits of xDSL's class to its subclass's,
# xDSL's callee check (the scan of the module) with them: memplan's call has
# its own only.
CallOp.traits = CallOp.get_irdl_definition().traits = _TRAITS


FUNC = Dialect(
    "func",
    [CallOp if op is func.CallOp else op for op in func.Func.operations],
    list(func.Func.attributes),
)

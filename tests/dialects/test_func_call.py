"""memplan's `func.call`: its callee found through `memplan.symbols` (an
index of each symbol table, built once) with xDSL's answers and messages,
while the module changes between verifications."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Operation, Region
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from memplan import symbols
from memplan.context import memplan_context, parse_module, run_context
from memplan.dialects.func import CallOp
from memplan.interpreter import run_function
from memplan.parser import MemplanParser
from memplan.symbols import lookup_symbol

CALL_F = """
func.func private @f(i32) -> i32
func.func @main(%a: i32) -> i32 {
  %r = func.call @f(%a) : (i32) -> i32
  func.return %r : i32
}
"""


def _many_calls(count: int) -> str:
    """`count` functions, each called once from `@main`."""
    functions = [
        f"func.func @f{n}(%x: i32) -> i32 {{\n  func.return %x : i32\n}}"
        for n in range(count)
    ]
    calls = [f"  %r{n} = func.call @f{n}(%a) : (i32) -> i32" for n in range(count)]
    main = ["func.func @main(%a: i32) -> i32 {", *calls, "  func.return %a : i32", "}"]
    return "\n".join([*functions, *main]) + "\n"


def _the_call(module: Operation) -> func.CallOp:
    return next(op for op in module.walk() if isinstance(op, func.CallOp))


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    return next(
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data == name
    )


def _outcome(check: Callable[[], object]) -> object:
    """What `check` returns, or the type and message of what it raises."""
    try:
        return check()
    except (VerifyException, ValueError) as error:
        return (type(error), str(error))


def _diagnostic(call: func.CallOp) -> str | None:
    """memplan's verdict on `call`, checked to be xDSL's: None or the message."""
    ours = _outcome(lambda: _verify_memplan(call))
    xdsl = _outcome(lambda: func.CallOpSymbolUserOpInterface().verify(call))
    assert ours == xdsl
    return None if ours is None else str(ours[1])  # pyright: ignore[reportIndexIssue, reportUnknownArgumentType]


def _verify_memplan(call: func.CallOp) -> None:
    for trait in CallOp.traits:
        trait.verify(call)


def _same_lookup(op: Operation, name: str | StringAttr | SymbolRefAttr) -> object:
    """memplan's lookup of `name` from `op`, checked to be xDSL's."""
    ours = _outcome(lambda: lookup_symbol(op, name))
    assert ours == _outcome(lambda: SymbolTable.lookup_symbol(op, name))
    return ours


def test_memplan_tools_parse_func_call_as_memplan_call_op():
    for ctx in (memplan_context(), run_context()):
        call = _the_call(MemplanParser(ctx, CALL_F).parse_module())
        assert type(call) is CallOp
        assert isinstance(call, func.CallOp)
    assert type(_the_call(parse_module(CALL_F))) is CallOp


def test_memplan_run_executes_memplan_call_op():
    module = parse_module(_many_calls(3).replace("func.return %a", "func.return %r2"))
    module.verify()
    assert type(_the_call(module)) is CallOp
    assert run_function(module, "main", (7,)).results == (7,)


def test_call_op_has_only_memplan_callee_check():
    traits = list(CallOp.traits)
    assert len(traits) == 1
    assert type(traits[0]).__module__ == "memplan.dialects.func"
    assert list(CallOp.get_irdl_definition().traits) == traits


def test_verifying_many_calls_indexes_the_module_once_and_never_scans_it(
    monkeypatch: pytest.MonkeyPatch,
):
    scans: list[str] = []
    builds: list[object] = []
    xdsl_lookup = SymbolTable.lookup_symbol
    build_index = symbols.build_index

    def counted_lookup(op: Operation, name: str | StringAttr | SymbolRefAttr):
        scans.append(str(name))
        return xdsl_lookup(op, name)

    def counted_build(block: object):
        builds.append(block)
        return build_index(block)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(SymbolTable, "lookup_symbol", staticmethod(counted_lookup))
    monkeypatch.setattr(symbols, "build_index", counted_build)
    module = parse_module(_many_calls(300))
    module.verify()
    module.verify()
    assert scans == []
    assert len(builds) == 1


def test_renamed_callee_is_not_found_under_its_old_name():
    module = parse_module(CALL_F)
    module.verify()
    call = _the_call(module)
    _function(module, "f").sym_name = StringAttr("g")
    assert _diagnostic(call) == "'@f' could not be found in symbol table"
    call.callee = SymbolRefAttr("g")
    assert _diagnostic(call) is None


def test_erased_callee_is_not_found_and_a_new_one_of_its_name_is():
    module = parse_module(CALL_F)
    module.verify()
    call = _the_call(module)
    callee = _function(module, "f")
    callee.detach()
    callee.erase()
    assert _diagnostic(call) == "'@f' could not be found in symbol table"
    module.body.block.add_op(func.FuncOp.external("f", [i64], [i32]))
    assert _diagnostic(call) == (
        "operand type mismatch: expected operand type i64, but provided i32 for "
        "operand number 0"
    )


def test_callee_replaced_by_a_global_of_its_name_is_not_a_function():
    module = parse_module(CALL_F)
    module.verify()
    call = _the_call(module)
    callee = _function(module, "f")
    global_ = memref.GlobalOp.get(StringAttr("f"), MemRefType(i32, [1]), UnitAttr())
    module.body.block.insert_op_before(global_, callee)
    callee.detach()
    callee.erase()
    assert _diagnostic(call) == "'@f' does not reference a valid function"


def test_function_added_after_indexing_is_found():
    module = parse_module(CALL_F)
    module.verify()
    call = _the_call(module)
    call.callee = SymbolRefAttr("added")
    assert _diagnostic(call) == "'@added' could not be found in symbol table"
    module.body.block.add_op(func.FuncOp.external("added", [i32], [i32]))
    assert _diagnostic(call) is None


def test_nested_modules_have_an_index_each():
    module = parse_module(
        """
        func.func private @f(i32) -> i32
        builtin.module @inner {
          func.func private @f(i64) -> i64
          func.func @caller(%x: i64) -> i64 {
            %y = func.call @f(%x) : (i64) -> i64
            func.return %y : i64
          }
        }
        func.func @main(%a: i32) -> i32 {
          %r = func.call @f(%a) : (i32) -> i32
          func.return %r : i32
        }
        """
    )
    module.verify()
    inner_call, outer_call = [op for op in module.walk() if isinstance(op, CallOp)]
    inner = inner_call.parent_op()
    assert inner is not None and inner.parent_op() is not None
    assert _same_lookup(inner_call, "f") is not _same_lookup(outer_call, "f")
    # The inner module's @f moved out, in place of the outer one.
    outer_f = _function(module, "f")
    inner_f = _same_lookup(inner_call, "f")
    assert isinstance(inner_f, func.FuncOp)
    inner_f.detach()
    module.body.block.insert_op_before(inner_f, outer_f)
    outer_f.detach()
    outer_f.erase()
    assert _diagnostic(inner_call) == "'@f' could not be found in symbol table"
    assert _diagnostic(outer_call) == (
        "operand type mismatch: expected operand type i64, but provided i32 for "
        "operand number 0"
    )


def test_first_of_two_symbols_of_a_name_is_found_as_in_xdsl():
    module = parse_module(
        CALL_F.replace(
            "func.func private @f(i32) -> i32",
            "func.func private @f(i32) -> i32\nfunc.func private @f(i64) -> i64",
        )
    )
    call = _the_call(module)
    assert _same_lookup(call, "f") is _function(module, "f")
    assert _diagnostic(call) is None


def _with_nameless_symbol(before_callee: bool) -> func.CallOp:
    """The call of `CALL_F` in a module with a `func.func` without `sym_name`
    just before or after the callee."""
    module = parse_module(CALL_F)
    nameless = func.FuncOp.create(
        properties={"function_type": FunctionType.from_lists([], [])},
        regions=[Region()],
    )
    callee = _function(module, "f")
    if before_callee:
        module.body.block.insert_op_before(nameless, callee)
    else:
        module.body.block.insert_op_after(nameless, callee)
    return _the_call(module)


def test_symbol_without_a_name_fails_the_lookup_only_of_names_after_it():
    assert _diagnostic(_with_nameless_symbol(before_callee=False)) is None
    message = _diagnostic(_with_nameless_symbol(before_callee=True))
    assert message is not None and 'must have a "sym_name" attribute' in message


def test_symbol_without_a_symbol_table_raises_xdsls_error():
    module = parse_module(CALL_F)
    main = _function(module, "main")
    main.detach()
    outcome = _same_lookup(_the_call(main), "f")
    assert isinstance(outcome, tuple) and outcome[0] is ValueError  # pyright: ignore[reportUnknownMemberType]


def test_nested_symbol_references_are_looked_up_as_in_xdsl():
    module = parse_module(
        'builtin.module @inner {\n  func.func private @f()\n}\n"test.op"() : () -> ()',
        allow_unregistered=True,
    )
    user = next(op for op in module.ops if op.name == "test.op")
    found = _same_lookup(user, SymbolRefAttr("inner", ["f"]))
    assert isinstance(found, func.FuncOp)


def test_index_does_not_keep_its_module_alive():
    module = parse_module(CALL_F)
    module.verify()
    alive = weakref.ref(module)
    del module
    gc.collect()
    assert alive() is None

"""What a call's results may be, from what its callee returns
(memplan.passes.call_aliases): the plain-data fixpoint, then whole modules."""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.passes.call_aliases import (
    CallAliases,
    FunctionFlow,
    Reach,
    returned_arguments,
)
from memplan.passes.liveness import FunctionLiveness

NONE: frozenset[int] = frozenset()


def test_an_argument_returned_is_that_result_only() -> None:
    flow = FunctionFlow(2, {0: Reach(returned=frozenset({1})), 1: Reach()}, [])
    assert returned_arguments([flow]) == [(NONE, frozenset({0}))]


def test_an_argument_stored_to_memory_may_be_every_result() -> None:
    flow = FunctionFlow(2, {0: Reach(escapes=True)}, [])
    assert returned_arguments([flow]) == [(frozenset({0}), frozenset({0}))]


def test_an_argument_passed_to_a_callee_is_what_the_callee_returns_it_as() -> None:
    # f(a) = g(a)[1]; g(x, y) = (y, x): f returns its argument.
    f = FunctionFlow(
        1,
        {0: Reach(passed=frozenset({(0, 0)}))},
        [(1, {0: Reach(), 1: Reach(returned=frozenset({0}))})],
    )
    g = FunctionFlow(
        2, {0: Reach(returned=frozenset({1})), 1: Reach(returned=frozenset({0}))}, []
    )
    assert returned_arguments([f, g]) == [
        (frozenset({0}),),
        (frozenset({1}), frozenset({0})),
    ]


def test_a_recursion_returns_what_its_other_paths_return() -> None:
    # f(a, b) returns b, or f(b, a) through its recursive call: both; h(a)
    # returns a fresh buffer or h(a): none.
    f = FunctionFlow(
        1,
        {
            0: Reach(passed=frozenset({(0, 1)})),
            1: Reach(returned=frozenset({0}), passed=frozenset({(0, 0)})),
        },
        [(0, {0: Reach(returned=frozenset({0}))})],
    )
    h = FunctionFlow(
        1,
        {0: Reach(passed=frozenset({(0, 0)}))},
        [(1, {0: Reach(returned=frozenset({0}))})],
    )
    assert returned_arguments([f, h]) == [(frozenset({0, 1}),), (NONE,)]


def parse(source: str) -> ModuleOp:
    module = Parser(memplan_context(allow_unregistered=True), source).parse_module()
    module.verify()
    return module


def function(module: ModuleOp, name: str) -> func.FuncOp:
    return next(
        op
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.sym_name.data == name
    )


CALLEES = """
func.func @copy_of(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  func.return %b : memref<4xf32>
}
func.func @same(%a: memref<4xf32>) -> memref<4xf32> {
  func.return %a : memref<4xf32>
}
func.func @view(%a: memref<4xf32>) -> memref<2xf32, strided<[1]>> {
  %v = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  func.return %v : memref<2xf32, strided<[1]>>
}
func.func @either(%a: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    %b = func.call @copy_of(%a) : (memref<4xf32>) -> memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  func.return %r : memref<4xf32>
}
func.func @swap(%a: memref<4xf32>, %b: memref<4xf32>)
    -> (memref<4xf32>, memref<4xf32>) {
  %x = func.call @same(%b) : (memref<4xf32>) -> memref<4xf32>
  func.return %x, %a : memref<4xf32>, memref<4xf32>
}
func.func @countdown(%a: memref<4xf32>, %b: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    %f = func.call @copy_of(%b) : (memref<4xf32>) -> memref<4xf32>
    scf.yield %f : memref<4xf32>
  } else {
    %x = func.call @countdown(%b, %a, %c)
        : (memref<4xf32>, memref<4xf32>, i1) -> memref<4xf32>
    scf.yield %x : memref<4xf32>
  }
  func.return %r : memref<4xf32>
}
func.func @stored(%a: memref<4xf32>, %box: memref<1xmemref<4xf32>>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  memref.store %a, %box[%c0] : memref<1xmemref<4xf32>>
  %l = memref.load %box[%c0] : memref<1xmemref<4xf32>>
  func.return %l : memref<4xf32>
}
func.func private @external(memref<4xf32>) -> memref<4xf32>
"""


@pytest.mark.parametrize(
    ("call", "types", "aliased"),
    [
        ("@copy_of(%a)", "(memref<4xf32>) -> memref<4xf32>", [False]),
        ("@countdown(%a, %a, %c)", "(memref<4xf32>, memref<4xf32>, i1) -> memref<4xf32>", [False]),
        ("@same(%a)", "(memref<4xf32>) -> memref<4xf32>", [True]),
        ("@view(%a)", "(memref<4xf32>) -> memref<2xf32, strided<[1]>>", [True]),
        ("@either(%a, %c)", "(memref<4xf32>, i1) -> memref<4xf32>", [True]),
        ("@swap(%a, %o)", "(memref<4xf32>, memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)", [False, True]),
        ("@swap(%o, %a)", "(memref<4xf32>, memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)", [True, False]),
        ("@stored(%a, %box)", "(memref<4xf32>, memref<1xmemref<4xf32>>) -> memref<4xf32>", [True]),
        ("@external(%a)", "(memref<4xf32>) -> memref<4xf32>", [True]),
    ],
)  # fmt: skip
def test_a_call_result_aliases_the_argument_only_if_the_callee_may_return_it(
    call: str, types: str, aliased: list[bool]
) -> None:
    results = ", ".join(f"%r{n}" for n in range(len(aliased)))
    module = parse(
        CALLEES
        + "func.func @main(%o: memref<4xf32>, %c: i1, %box: memref<1xmemref<4xf32>>) {\n"
        + "  %a = memref.alloc() : memref<4xf32>\n"
        + f"  {results} = func.call {call} : {types}\n"
        + "  func.return\n}\n"
    )
    main = function(module, "main")
    liveness = FunctionLiveness(main, CallAliases(module).forward)
    allocation = next(op for op in main.walk() if op.name == "memref.alloc")
    (call_op,) = (op for op in main.walk() if isinstance(op, func.CallOp))
    found = liveness.aliases(allocation.results[0])
    assert [result in found for result in call_op.results] == aliased

"""Scope groups (`memplan/passes/retype.py`): which values move together,
which cannot move, and lookups that still work after a group is retyped."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.passes.retype import ScopeGroup, ScopeGroups
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE

CONTEXT = memplan_context()

SOURCE = """
func.func @public_use(%a: memref<4xf32>) {
  func.return
}
func.func private @private_use(%a: memref<4xf32>) {
  func.return
}
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  func.call @public_use(%a) : (memref<4xf32>) -> ()
  func.call @private_use(%b) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  func.return
}
"""


def _parse() -> tuple[ModuleOp, dict[str, func.FuncOp]]:
    module = Parser(CONTEXT, SOURCE).parse_module()
    functions = {
        op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
    }
    return module, functions


def test_a_public_function_keeps_its_signature_and_a_private_one_may_change():
    module, functions = _parse()
    groups = ScopeGroups(module)
    public = groups.group_of(functions["public_use"].args[0])
    private = groups.group_of(functions["private_use"].args[0])
    assert public.fixed == "it is an argument of @public_use, which is public"
    assert private.fixed is None


def test_values_a_retype_makes_stay_in_their_group():
    module, functions = _parse()
    groups = ScopeGroups(module)
    group = groups.group_of(functions["private_use"].args[0])
    old = list(group.values)
    new = groups.retype(group.values, VTCM_SCOPE)
    assert group.scope == VTCM_SCOPE
    assert group.values == new
    assert all(groups.group_of(value) is group for value in new)
    assert not any(value in new for value in old)
    signature = functions["private_use"].function_type.inputs.data
    assert [str(t) for t in signature] == ['memref<4xf32, "global.vtcm">']
    groups.retype(group.values, GLOBAL_SCOPE)
    assert groups.group_of(functions["private_use"].args[0]) is group


def _allocated_groups(source: str) -> dict[str, ScopeGroup]:
    module = Parser(memplan_context(allow_unregistered=True), source).parse_module()
    groups = ScopeGroups(module)
    return {
        op.results[0].name_hint or "": groups.group_of(op.results[0])
        for op in module.walk()
        if op.name == "memref.alloc"
    }


def test_an_affine_for_moves_with_its_inits_and_what_it_yields():
    groups = _allocated_groups("""
func.func @main() {
  %x = memref.alloc() : memref<4xf32>
  %r = affine.for %i = 0 to 2 iter_args(%acc = %x) -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    affine.yield %t : memref<4xf32>
  }
  func.return
}
""")
    assert groups["x"] is groups["t"]
    assert groups["t"].fixed is None
    assert len(groups["t"].values) == 4


def test_what_a_terminator_memplan_does_not_know_yields_is_fixed():
    groups = _allocated_groups("""
func.func @main() {
  %r = "test.region"() ({
    %t = memref.alloc() : memref<4xf32>
    "test.yield"(%t) : (memref<4xf32>) -> ()
  }) : () -> memref<4xf32>
  func.return
}
""")
    assert groups["t"].fixed == (
        "test.yield uses it (an op whose types memory-place does not change)"
    )


TO_BUFFER_THROUGH_A_CALL = """
func.func private @read(%t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  func.return %v : f32
}
func.func @main() -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %t = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  %v = func.call @read(%t) : (tensor<4xf32>) -> f32
  func.return %v : f32
}
"""


def test_a_memref_made_back_from_a_tensor_of_memory_moves_with_it():
    module = Parser(CONTEXT, TO_BUFFER_THROUGH_A_CALL).parse_module()
    groups = ScopeGroups(module)
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results}
    group = groups.group_of(ops["a"].results[0])
    assert group.fixed is None
    assert groups.group_of(ops["m"].results[0]) is group
    groups.retype(group.values, VTCM_SCOPE)
    assert str(ops["m"].results[0].type) == 'memref<4xf32, "global.vtcm">'
    read = next(
        op
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.sym_name.data == "read"
    )
    assert [str(t) for t in read.function_type.inputs.data] == ["tensor<4xf32>"]


def test_a_tensor_value_of_memory_in_two_scopes_keeps_both():
    groups = _allocated_groups("""
func.func @main(%flag: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32, "global.vtcm">
  %t = scf.if %flag -> (tensor<4xf32>) {
    %ta = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
    scf.yield %ta : tensor<4xf32>
  } else {
    %tb = bufferization.to_tensor %b : memref<4xf32, "global.vtcm"> to tensor<4xf32>
    scf.yield %tb : tensor<4xf32>
  }
  %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  func.return %v : f32
}
""")
    assert groups["a"] is groups["b"]
    assert (
        groups["a"].fixed == "tensor values tie it to memory in global and global.vtcm"
    )

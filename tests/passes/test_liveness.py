"""Live ranges of memplan.passes.liveness on small functions, one construct each.

Ops that matter carry a `tag` attribute; expected points are looked up from
the tags, so the tests say which op ends a range rather than its number.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.passes.liveness import FunctionLiveness, LiveRange


def parse(source: str) -> ModuleOp:
    module = Parser(memplan_context(allow_unregistered=True), source).parse_module()
    module.verify()
    return module


class Analysed:
    """One parsed function, its liveness, and its ops by tag and result name."""

    def __init__(self, body: str, signature: str = "()", declarations: str = ""):
        module = parse(
            f"func.func @f{signature} {{\n{body}\n  func.return\n}}\n{declarations}"
        )
        function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
        self.liveness = FunctionLiveness(function)

    def tagged(self, tag: str) -> Operation:
        return next(
            op
            for op in self.liveness.index
            if op.attributes.get("tag") == StringAttr(tag)
        )

    def allocation(self, name: str) -> Operation:
        return next(
            op
            for op in self.liveness.index
            if op.results and op.results[0].name_hint == name
        )

    def range(self, name: str) -> LiveRange:
        return self.liveness.range_of(self.allocation(name))

    def start(self, name: str) -> int:
        return self.liveness.index[self.allocation(name)]

    def point(self, tag: str) -> int:
        return self.liveness.index[self.tagged(tag)]

    def end_of(self, tag: str) -> int:
        return self.liveness.end[self.tagged(tag)]


T = "memref<16xf32>"
STORAGE = '!memory.storage<"global">'


def test_straight_line_ends_at_last_use_not_at_kill_or_dealloc():
    a = Analysed(
        f"""
  %s = memory.alloc_storage [64] : {STORAGE}
  %a = memory.alloc_tensor %s[0] : {STORAGE} to {T}
  %b = memref.alloc() : {T}
  "test.op"(%a) {{tag = "a_last"}} : ({T}) -> ()
  "test.op"(%b) {{tag = "b_last"}} : ({T}) -> ()
  "test.op"() : () -> ()
  memory.kill %a : {T}
  memref.dealloc %b : {T}"""
    )
    assert a.range("a") == LiveRange(
        a.start("a"), a.point("a_last"), False, False, a.tagged("a_last")
    )
    assert (a.range("b").start, a.range("b").end) == (a.start("b"), a.point("b_last"))
    assert a.range("b").upper == a.point("b_last") + 1


def test_unused_tensor_lives_at_its_allocation_only():
    a = Analysed(f"  %a = memref.alloc() : {T}")
    live = a.range("a")
    assert (live.start, live.end, live.last_user) == (
        a.start("a"),
        a.start("a"),
        a.allocation("a"),
    )


def test_memory_copy_and_call_operands_are_uses():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  %b = memref.alloc() : {T}
  memory.copy %a, %b {{tag = "copy"}} : {T} to {T}
  func.call @g(%b) {{tag = "call"}} : ({T}) -> ()
  "test.op"() : () -> ()""",
        declarations=f"func.func private @g({T})",
    )
    assert a.range("a").end == a.point("copy")
    assert a.range("b").end == a.point("call")


def test_call_result_may_alias_its_argument():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  %r = func.call @g(%a) : ({T}) -> memref<4xf32>
  "test.op"(%r) {{tag = "use_result"}} : (memref<4xf32>) -> ()""",
        declarations=f"func.func private @g({T}) -> memref<4xf32>",
    )
    assert a.range("a").end == a.point("use_result")


@pytest.mark.parametrize(
    ("source_type", "view", "view_type"),
    [
        (T, f"memref.subview %a[0] [4] [1] : {T} to memref<4xf32>", "memref<4xf32>"),
        (T, f'"memref.cast"(%a) : ({T}) -> memref<?xf32>', "memref<?xf32>"),
        (
            T,
            f"memref.expand_shape %a [[0, 1]] output_shape [2, 8] : {T} into memref<2x8xf32>",
            "memref<2x8xf32>",
        ),
        (
            T,
            "memref.reinterpret_cast %a to offset: [0], sizes: [4, 4], strides: [4, 1] "
            f": {T} to memref<4x4xf32>",
            "memref<4x4xf32>",
        ),
        (
            "memref<2x8xf32>",
            f"memref.collapse_shape %a [[0, 1]] : memref<2x8xf32> into {T}",
            T,
        ),
        ("memref<64xi8>", f"memref.view %a[%c0][] : memref<64xi8> to {T}", T),
        (
            "memref<4x4xf32>",
            "memref.transpose %a (d0, d1) -> (d1, d0) : memref<4x4xf32> to "
            "memref<4x4xf32, strided<[1, 4]>>",
            "memref<4x4xf32, strided<[1, 4]>>",
        ),
        (
            T,
            f'memref.memory_space_cast %a : {T} to memref<16xf32, "global.vtcm">',
            'memref<16xf32, "global.vtcm">',
        ),
    ],
)
def test_views_are_aliases(source_type: str, view: str, view_type: str):
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : {source_type}
  %v = {view}
  "test.op"() : () -> ()
  "test.op"(%v) {{tag = "view_use"}} : ({view_type}) -> ()"""
    )
    assert a.range("a").end == a.point("view_use")


def test_use_in_branch_lives_to_end_of_if():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  scf.if %cond {{
    "test.op"(%a) : ({T}) -> ()
    "test.op"() : () -> ()
  }} else {{
    "test.op"() : () -> ()
  }} {{tag = "if"}}
  "test.op"() : () -> ()""",
        "(%cond: i1)",
    )
    live = a.range("a")
    assert live.end == a.end_of("if")
    assert live.last_user is a.tagged("if")


def test_tensor_allocated_in_branch_and_yielded_reaches_past_the_if():
    a = Analysed(
        f"""
  %r = scf.if %cond -> ({T}) {{
    %a = memref.alloc() : {T}
    scf.yield %a : {T}
  }} else {{
    %b = memref.alloc() : {T}
    scf.yield %b : {T}
  }}
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
        "(%cond: i1)",
    )
    for name in ("a", "b"):
        live = a.range(name)
        assert (live.end, live.last_user, live.carried) == (
            a.point("use_result"),
            None,
            False,
        )


def test_tensor_passed_to_a_terminator_has_no_last_user_in_its_block():
    a = Analysed(
        f"""
  %r = scf.if %cond -> ({T}) {{
    %a = memref.alloc() : {T}
    scf.yield %a : {T}
  }} else {{
    %b = memref.alloc() : {T}
    scf.yield %b : {T}
  }}""",
        "(%cond: i1)",
    )
    assert a.range("a").last_user is None


def test_use_in_loop_lives_through_whole_loop():
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : {T}
  scf.for %i = %c0 to %n step %c1 {{
    "test.op"(%a) : ({T}) -> ()
    %t = memref.alloc() : {T}
    "test.op"(%t) {{tag = "t_last"}} : ({T}) -> ()
    "test.op"() : () -> ()
  }} {{tag = "loop"}}""",
        "(%n: index)",
    )
    assert a.range("a").end == a.end_of("loop")
    inner = a.range("t")
    assert (inner.start, inner.end) == (a.start("t"), a.point("t_last"))
    assert inner.last_user is a.tagged("t_last")
    assert not inner.carried


CARRYING_LOOPS = {
    "scf.for": ("scf.for %i = %c0 to %n step %c1", "scf.yield"),
    "affine.for": ("affine.for %i = 0 to 4", "affine.yield"),
}


@pytest.mark.parametrize(
    ("loop", "yield_"), CARRYING_LOOPS.values(), ids=CARRYING_LOOPS.keys()
)
def test_loop_carried_tensor_lives_over_the_whole_loop_and_its_result_uses(
    loop: str, yield_: str
):
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = {loop} iter_args(%prev = %init) -> ({T}) {{
    "test.op"(%prev) : ({T}) -> ()
    %t = memref.alloc() : {T}
    {yield_} %t : {T}
  }} {{tag = "loop"}}
  "test.op"() : () -> ()
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
        f"(%n: index, %init: {T})",
    )
    live = a.range("t")
    assert (live.start, live.end) == (a.point("loop"), a.point("use_result"))
    assert live.carried and live.last_user is None
    assert live.needs_own_storage


def test_affine_if_result_is_an_alias_of_what_it_yields():
    a = Analysed(
        f"""
  %r = "affine.if"(%n) <{{condition = affine_set<(d0) : (d0 >= 0)>}}> ({{
    %t = memref.alloc() : {T}
    affine.yield %t : {T}
  }}, {{
    affine.yield %init : {T}
  }}) : (index) -> {T}
  "test.op"() : () -> ()
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
        f"(%n: index, %init: {T})",
    )
    assert a.range("t").end == a.point("use_result")


def test_a_terminator_memplan_does_not_know_forwards_to_its_parents_results():
    a = Analysed(
        f"""
  %r = "test.region"() ({{
    %t = memref.alloc() : {T}
    "test.yield"(%t) : ({T}) -> ()
  }}) : () -> {T}
  "test.op"() : () -> ()
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
    )
    assert a.range("t").end == a.point("use_result")


PARALLEL = (
    '"scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}>'
)


@pytest.mark.parametrize(
    ("opening", "closing", "concurrent"),
    [
        ("scf.for %i = %c0 to %n step %c1 {", "}", False),
        ("affine.for %i = 0 to 4 {", "}", False),
        (
            f"{PARALLEL} ({{\n^bb0(%i: index):",
            "scf.reduce\n}) : (index, index, index) -> ()",
            True,
        ),
        ('"test.region"() ({', "}) : () -> ()", True),
    ],
)
def test_tensor_in_a_loop_that_may_run_iterations_at_once_is_concurrent(
    opening: str, closing: str, concurrent: bool
):
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  {opening}
    %t = memref.alloc() : {T}
    "test.op"(%t) : ({T}) -> ()
  {closing}""",
        "(%n: index)",
    )
    live = a.range("t")
    assert live.concurrent is concurrent
    assert live.needs_own_storage is concurrent
    assert not live.carried


def test_iter_arg_init_lives_through_the_loop_and_its_result_uses():
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : {T}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %a) -> ({T}) {{
    scf.yield %prev : {T}
  }}
  "test.op"() : () -> ()
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
        "(%n: index)",
    )
    assert a.range("a").end == a.point("use_result")


def test_while_before_region_use_lives_through_the_loop():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  %b = memref.alloc() : {T}
  %r = scf.while (%arg = %b) : ({T}) -> {T} {{
    %cond = "test.op"(%a) : ({T}) -> i1
    scf.condition(%cond) %arg : {T}
  }} do {{
  ^bb0(%arg2: {T}):
    scf.yield %arg2 : {T}
  }}
  "test.op"(%r) {{tag = "use_result"}} : ({T}) -> ()""",
    )
    loop = a.allocation("r")
    assert a.range("a").end == a.liveness.end[loop] > a.liveness.index[loop]
    assert a.range("b").end == a.point("use_result")


def test_nested_use_counts_at_the_op_of_the_allocating_block():
    a = Analysed(
        f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : {T}
  scf.for %i = %c0 to %n step %c1 {{
    %t = memref.alloc() : {T}
    scf.if %cond {{
      scf.for %j = %c0 to %n step %c1 {{
        "test.op"(%a, %t) : ({T}, {T}) -> ()
      }}
    }} {{tag = "inner_if"}}
    "test.op"() : () -> ()
  }} {{tag = "outer_loop"}}""",
        "(%cond: i1, %n: index)",
    )
    assert a.range("a").end == a.end_of("outer_loop")
    assert a.range("t").end == a.end_of("inner_if")
    assert a.range("t").last_user is a.tagged("inner_if")


def test_returned_tensors_escape_also_through_aliases():
    module = parse(
        f"""
func.func @f() -> memref<?xf32> {{
  %a = memref.alloc() : {T}
  %cast = "memref.cast"(%a) : ({T}) -> memref<?xf32>
  %b = memref.alloc() : {T}
  "test.op"(%b) : ({T}) -> ()
  func.return %cast : memref<?xf32>
}}"""
    )
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    liveness = FunctionLiveness(function)
    first, second = liveness.tensors()
    assert liveness.range_of(first).escapes
    assert liveness.range_of(first).end == liveness.last_point
    assert not liveness.range_of(second).escapes


def test_a_tensor_whose_address_is_taken_escapes():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  %p = memref.extract_aligned_pointer_as_index %a : {T} -> index
  "test.op"() {{tag = "later"}} : () -> ()"""
    )
    assert a.range("a").escapes
    assert a.range("a").end == a.liveness.last_point


def test_alloca_scope_result_is_an_alias_and_the_scope_is_not_a_loop():
    a = Analysed(
        f"""
  %a = memref.alloc() : {T}
  %r = memref.alloca_scope -> ({T}) {{
    %b = memref.alloc() : {T}
    "test.op"(%b) {{tag = "b_use"}} : ({T}) -> ()
    memref.alloca_scope.return %a : {T}
  }}
  "test.op"(%r) {{tag = "result_use"}} : ({T}) -> ()"""
    )
    assert a.range("a").end == a.point("result_use")
    assert a.range("b").end == a.point("b_use")
    assert not a.range("b").concurrent and not a.range("b").carried


def test_discontiguous_and_memory_tensors_are_tensors():
    a = Analysed(
        """
  %tables = memory.alloc_storage [64] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %d = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[0, 1024, 2048, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<4x64xi32, #memory.discontiguous, "global.vtcm">
  %t = memory.alloc_tensor %vtcm[0] : !memory.storage<"global.vtcm"> to memref<4xi32, "global.vtcm">"""
    )
    assert [op.results[0].name_hint for op in a.liveness.tensors()] == ["d", "t"]


def test_op_at_finds_the_op_of_a_block_holding_a_point():
    a = Analysed(
        """
  scf.if %cond {
    "test.op"() {tag = "inside"} : () -> ()
  } {tag = "if"}
  "test.op"() {tag = "after"} : () -> ()""",
        "(%cond: i1)",
    )
    block = a.tagged("if").parent_block()
    assert a.liveness.op_at(block, a.point("inside")) is a.tagged("if")
    assert a.liveness.op_at(block, a.point("after")) is a.tagged("after")
    assert a.liveness.op_at(a.tagged("inside").parent_block(), a.point("after")) is None


def test_planning_units_are_the_body_and_each_conditional_block():
    a = Analysed(
        f"""
  %top = memref.alloc() : {T}
  scf.if %cond {{
    %then = memref.alloc() : {T}
    scf.for %i = %c0 to %n step %c1 {{
      %in_loop = memref.alloc() : {T}
      "test.op"(%in_loop, %top) : ({T}, {T}) -> ()
    }}
    scf.if %cond {{
      %inner = memref.alloc() : {T}
      "test.op"(%inner, %then) : ({T}, {T}) -> ()
    }} {{tag = "inner_if"}}
  }} else {{
    %other = memref.alloc() : {T}
    "test.op"(%other) : ({T}) -> ()
  }} {{tag = "if"}}
  scf.index_switch %n
  case 0 {{
    %case = memref.alloc() : {T}
    "test.op"(%case) : ({T}) -> ()
    scf.yield
  }}
  default {{
    scf.yield
  }}""",
        "(%cond: i1, %n: index, %c0: index, %c1: index)",
    )
    outer, inner = a.tagged("if"), a.tagged("inner_if")
    then_block, else_block = (region.block for region in outer.regions)
    entry = a.liveness.function.body.block
    assert a.liveness.unit_of(a.allocation("top")) is entry
    assert a.liveness.unit_of(a.allocation("then")) is then_block
    assert a.liveness.unit_of(a.allocation("in_loop")) is then_block
    assert a.liveness.unit_of(a.allocation("inner")) is inner.regions[0].block
    assert a.liveness.unit_of(a.allocation("other")) is else_block
    case = a.allocation("case")
    assert a.liveness.unit_of(case) is case.parent_block()
    assert a.liveness.unit_of_op(inner) is then_block
    assert a.liveness.unit_of_op(outer) is entry


def test_tensor_yielded_out_of_a_branch_belongs_to_the_enclosing_unit():
    a = Analysed(
        f"""
  %r = scf.if %cond -> ({T}) {{
    %a = memref.alloc() : {T}
    scf.yield %a : {T}
  }} else {{
    %b = memref.alloc() : {T}
    %v = memref.subview %b[0] [4] [1] : {T} to memref<4xf32>
    "test.op"(%v) : (memref<4xf32>) -> ()
    scf.yield %b : {T}
  }}
  "test.op"(%r) : ({T}) -> ()""",
        "(%cond: i1)",
    )
    entry = a.liveness.function.body.block
    assert a.liveness.unit_of(a.allocation("a")) is entry
    assert a.liveness.unit_of(a.allocation("b")) is entry

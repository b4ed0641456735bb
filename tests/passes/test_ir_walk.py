"""memplan.ir_walk: xDSL's walk order, in time linear in the ops."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from memplan.context import parse_module
from memplan.interpreter.cost import LinalgBodies
from memplan.ir_walk import LinearWalker, walk

NESTED = """
func.func @f(%c: i1, %n: index, %m: memref<4xf32>) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.if %c {
    scf.for %i = %zero to %n step %one {
      %v = arith.constant 1.0 : f32
      linalg.map ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
        (%x: f32) {
          %y = arith.addf %x, %v : f32
          linalg.yield %y : f32
        }
    }
  } else {
    %w = arith.constant 2.0 : f32
  }
  func.return
}
func.func @g() {
  func.return
}
"""


def test_walk_visits_ops_in_xdsl_order():
    module = parse_module(NESTED)
    assert list(walk(module)) == list(module.walk())
    body = module.body
    assert list(walk(body)) == list(body.walk())
    assert list(walk(body.block)) == list(body.block.walk())


def test_walk_allows_erasing_the_op_it_gave():
    module = parse_module(NESTED)
    seen = []
    for op in walk(module):
        seen.append(op.name)
        if isinstance(op, arith.ConstantOp) and op.parent_block() is not None:
            op.detach()
    assert seen.count("arith.constant") == 4
    assert not [op for op in walk(module) if isinstance(op, arith.ConstantOp)]


class _Record(RewritePattern):
    def __init__(self) -> None:
        self.order: list[Operation] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.order.append(op)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("regions_first", [False, True])
def test_linear_walker_visits_ops_as_xdsl_s_walker_does(
    reverse: bool, regions_first: bool
):
    module = parse_module(NESTED)
    ours, theirs = _Record(), _Record()
    LinearWalker(
        ours, walk_reverse=reverse, walk_regions_first=regions_first
    ).rewrite_module(module)
    PatternRewriteWalker(
        theirs, walk_reverse=reverse, walk_regions_first=regions_first
    ).rewrite_module(module)
    assert ours.order == theirs.order
    assert len(ours.order) == len(list(walk(module.body)))


def test_linalg_bodies_tell_the_ops_of_a_linalg_body():
    module = parse_module(NESTED)
    in_body = LinalgBodies()
    inside = {op.name for op in walk(module) if in_body(op)}
    assert inside == {"arith.addf", "linalg.yield"}
    assert [in_body(op) for op in walk(module)] == [
        LinalgBodies()(op) for op in walk(module)
    ]

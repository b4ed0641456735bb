"""memory-place counts VTCM it cannot move up to the op that frees it, in
program order, whatever the order of the value's uses."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.parser import Parser
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.context import memplan_context
from memplan.dialects import memref
from memplan.dialects.memory import AllocStorageOp, KillOp
from memplan.passes.place import MemoryPlacePass
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE

# %p (8 KiB) cannot move: the public @use keeps its signature.  It is freed
# at the end, so only one of the 4 KiB tensors %a and %b fits the 12 KiB of
# VTCM beside it.
PROGRAM = """
func.func @use(%p: memref<2048xf32, "global.vtcm">) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%p : memref<2048xf32, "global.vtcm">)
  func.return
}

func.func @main(%x: memref<1024xf32>, %out: memref<1024xf32>) {
  %p = memref.alloc() : memref<2048xf32, "global.vtcm">
  func.call @use(%p) : (memref<2048xf32, "global.vtcm">) -> ()
  %a_storage = memory.alloc_storage [4096] : !memory.storage<"global">
  %a = memory.alloc_tensor %a_storage[0] : !memory.storage<"global"> to memref<1024xf32>
  %b_storage = memory.alloc_storage [4096] : !memory.storage<"global">
  %b = memory.alloc_tensor %b_storage[0] : !memory.storage<"global"> to memref<1024xf32>
  linalg.add ins(%x, %x : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %x : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>)
  memory.kill %a : memref<1024xf32>
  memory.kill %a_storage : !memory.storage<"global">
  memory.kill %b : memref<1024xf32>
  memory.kill %b_storage : !memory.storage<"global">
  memref.dealloc %p : memref<2048xf32, "global.vtcm">
  func.return
}
"""


def test_kill_of_pinned_alloc_made_after_its_dealloc_does_not_end_its_hold() -> None:
    context = memplan_context()
    module = Parser(context, PROGRAM).parse_module()
    alloc = next(op for op in module.walk() if isinstance(op, memref.AllocOp))
    call = next(op for op in module.walk() if isinstance(op, func.CallOp))
    # A kill built after the dealloc comes first among the uses of %p (xDSL
    # lists the newest use first), though it precedes the dealloc in the
    # block; it ends the tensor, not the allocation.
    kill = KillOp(alloc.memref)
    Rewriter.insert_op(kill, InsertPoint.after(call))
    assert next(iter(alloc.memref.uses)).operation is kill

    MemoryPlacePass(target="hexagon-v65", capacity=12288).apply(context, module)

    scopes = {
        op.result.name_hint: op.scope
        for op in module.walk()
        if isinstance(op, AllocStorageOp)
    }
    assert scopes == {"a_storage": VTCM_SCOPE, "b_storage": GLOBAL_SCOPE}

"""Where the tensors a partly planned storage keeps go (`kept_tensors`)."""

from __future__ import annotations

from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp
from memplan.passes.kept_tensors import kept_layout, shrink

SOURCE = """
func.func @main() {
  %s = memory.alloc_storage [1024] align 64 : !memory.storage<"global">
  %t1 = memory.alloc_tensor %s[128] : !memory.storage<"global"> to memref<8xf32>
  %t2 = memory.alloc_tensor %s[144] : !memory.storage<"global"> to memref<8xf32>
  %t3 = memory.alloc_tensor %s[1000] : !memory.storage<"global"> to memref<4xf32>
  func.return
}
"""


def test_kept_tensors_keep_overlaps_and_address_alignment_and_the_storage_shrinks():
    module = Parser(memplan_context(), SOURCE).parse_module()
    storage = next(op for op in module.walk() if isinstance(op, AllocStorageOp))
    tensors = {
        op.result.name_hint: op for op in module.walk() if isinstance(op, AllocTensorOp)
    }
    layout = kept_layout(storage, [tensors["t3"], tensors["t2"], tensors["t1"]])
    # %t1 and %t2 overlap: one run, moved from 128 down to 0 (128 = 0 mod
    # 64); %t3 (1000 = 40 mod 64) goes to the first such offset past it.
    assert {t.result.name_hint: o for t, o in layout.offsets.items()} == {
        "t1": 0,
        "t2": 16,
        "t3": 104,
    }
    assert layout.size == 120
    shrink(storage, layout)
    assert storage.static_size_bytes() == 120
    assert tensors["t3"].static_offset_bytes() == 104
    module.verify()

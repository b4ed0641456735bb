"""memory-plan{dynamic-arenas=true}: tensors of one dynamic unit packed in
units hold for every run-time value of the unit, 0 included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from stable_strategies import one_of_values
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp
from memplan.interpreter import run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

CONTEXT = memplan_context(allow_unregistered=True)
UNITS = (0, 1, 2, 3, 7)
ELEMENTS = {"i8": 1, "f32": 4, "f64": 8}


def _parse(source: str) -> ModuleOp:
    module = Parser(CONTEXT, source).parse_module()
    module.verify()
    return module


def _value(value: SSAValue, unit: int) -> int:
    """`value` computed from constants, `arith.muli` and the unit %n (an
    argument or a `memref.dim`)."""
    if isinstance(value, BlockArgument) or value.name_hint == "n":
        return unit
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        assert isinstance(owner.value, IntegerAttr)
        return owner.value.value.data
    assert isinstance(owner, arith.MuliOp), owner
    return _value(owner.lhs, unit) * _value(owner.rhs, unit)


def _offset(tensor: AllocTensorOp, unit: int) -> int:
    static = tensor.static_offset_bytes()
    if static is not None:
        return static
    (offset,) = tensor.dynamic_offset
    return _value(offset, unit)


tensors = st.lists(
    st.tuples(
        st.integers(0, 7),  # step of the allocation
        st.integers(0, 3),  # steps it stays live after it
        st.integers(1, 5),  # static columns
        one_of_values(list(ELEMENTS)),
        one_of_values([None, 16, 64]),  # align request
    ),
    min_size=2,
    max_size=8,
)


def _program(drawn: list[tuple[int, int, int, str, int | None]]) -> str:
    """Tensors of unit %n allocated and used at their steps, killed at the end."""
    lines = ["func.func @f(%n: index) {"]
    for step in range(12):
        for i, (start, _, columns, element, align) in enumerate(drawn):
            if start == step:
                bytes_ = ELEMENTS[element] * columns
                request = f" align {align}" if align else ""
                lines += [
                    f"  %k{i} = arith.constant {bytes_} : index",
                    f"  %b{i} = arith.muli %k{i}, %n : index",
                    f'  %s{i} = memory.alloc_storage [%b{i}] : !memory.storage<"global">',
                    f"  %t{i} = memory.alloc_tensor %s{i}[0][%n]{request} : "
                    f'!memory.storage<"global"> to memref<?x{columns}x{element}>',
                ]
        for i, (start, length, columns, element, _) in enumerate(drawn):
            if start <= step <= start + length:
                lines.append(
                    f'  "test.op"(%t{i}) : (memref<?x{columns}x{element}>) -> ()'
                )
    lines += [
        f'  memory.kill %s{i} : !memory.storage<"global">' for i in range(len(drawn))
    ]
    return "\n".join([*lines, "  func.return", "}"])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(tensors)
def test_dynamic_arena_plan_is_valid_for_every_unit(drawn) -> None:
    """Brute force over units: tensors live at once share an arena but never
    a byte, each address is a multiple of its alignment, and each fits its
    arena."""
    module = _parse(_program(drawn))
    MemoryPlanPass(dynamic_arenas=True).apply(CONTEXT, module)
    module.verify()
    MemoryVerifyPass().apply(CONTEXT, module)
    placed = {
        op.result.name_hint: op for op in module.walk() if isinstance(op, AllocTensorOp)
    }
    for unit in UNITS:
        spans: dict[int, tuple[AllocStorageOp, int, int]] = {}
        for i, (_, _, columns, element, align) in enumerate(drawn):
            tensor = placed[f"t{i}"]
            storage = tensor.storage.owner
            assert isinstance(storage, AllocStorageOp)
            offset = _offset(tensor, unit)
            size = ELEMENTS[element] * columns * unit
            (storage_bytes,) = storage.dynamic_size
            assert offset + size <= _value(storage_bytes, unit)
            assert offset % max(ELEMENTS[element], align or 1) == 0
            assert storage.alignment.value.data % (align or 1) == 0
            spans[i] = (storage, offset, offset + size)
        for i, (start, length, *_) in enumerate(drawn):
            for j, (other, other_length, *_) in enumerate(drawn[:i]):
                storage, low, high = spans[i]
                other_storage, other_low, other_high = spans[j]
                live_together = (
                    start <= other + other_length and other <= start + length
                )
                if live_together:
                    # One run: one arena, where they must not overlap.
                    assert storage is other_storage, (i, j)
                    assert high <= other_low or other_high <= low, (unit, i, j)


PROGRAM = """
func.func @main(%x: memref<?x4xf32>) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x4xf32>)
  %b = memref.alloc(%n) : memref<?x4xf32>
  linalg.add ins(%a, %x : memref<?x4xf32>, memref<?x4xf32>) outs(%b : memref<?x4xf32>)
  %c = memref.alloc(%n) : memref<?x4xf32>
  linalg.add ins(%a, %b : memref<?x4xf32>, memref<?x4xf32>) outs(%c : memref<?x4xf32>)
  memref.dealloc %a : memref<?x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  return %c : memref<?x4xf32>
}
"""


def test_dynamic_arena_runs_at_unit_zero_and_above() -> None:
    """%a and %b share an arena of 32 * n bytes (%c is returned); at n = 0
    the arena is empty and the run still computes."""
    unplanned = _parse(PROGRAM)
    module = _parse(PROGRAM)
    MemoryManifestPass().apply(CONTEXT, module)
    MemoryPlanPass(dynamic_arenas=True).apply(CONTEXT, module)
    (arena,) = [
        op
        for op in module.walk()
        if isinstance(op, AllocStorageOp) and op.result.name_hint == "arena"
    ]
    (size,) = arena.dynamic_size
    assert _value(size, 5) == 32 * 5
    for rows in (0, 3):
        x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4)
        want = run_function(unplanned, args=[x.copy()]).results[0]
        got = run_function(module, args=[x.copy()]).results[0]
        assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray)
        assert got.shape == (rows, 4)
        assert got.tobytes() == want.tobytes()

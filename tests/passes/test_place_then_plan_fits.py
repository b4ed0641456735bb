"""What `memory-place{capacity=C}` keeps in VTCM, `memory-plan{capacity=C}`
plans without running out of room: memory-place plans a clone of its
placement as memory-plan would and places again what memory-plan's arena
checks or its final capacity check (that of `memory-verify`) refuse.

The random programs hand VTCM storages to an external function (so both
passes leave them where they are: pinned memory) and free them at random
points, around tensors that memory-place may move, and call functions
with tensors of their own; first fit leaves holes where pinned storages
were freed around one still held, which the live bytes of memory-place's
model do not show.  (`program_gen`'s programs pin no VTCM.)  Without the
check, of 1000 such programs (derandomized, 186 of them refused by
memory-place for their pinned memory alone) placed at 4 to 16 KiB, 5 were
refused by memory-plan while it accepted them with every tensor in DDR; 0
with it.  A program whose pinned memory alone finds no room in first fit
is refused either way."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stable_strategies import one_of_values
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.passes.place import MemoryPlacePass
from memplan.passes.plan import MemoryPlanPass

CONTEXT = memplan_context()
TARGET = "hexagon-v65"
VTCM = '"global.vtcm"'


def _kill(storage: str, tensor: str, memref: str, scope: str) -> list[str]:
    return [
        f"  memory.kill {tensor} : {memref}",
        f"  memory.kill {storage} : !memory.storage<{scope}>",
    ]


def _work(elements: int) -> list[str]:
    """A private function whose DDR tensor memory-place may move to VTCM."""
    memref = f"memref<{elements}xf32>"
    return [
        f"func.func private @work{elements}() {{",
        "  %one = arith.constant 1.0 : f32",
        f'  %s = memory.alloc_storage [{4 * elements}] : !memory.storage<"global">',
        f'  %t = memory.alloc_tensor %s[0] : !memory.storage<"global"> to {memref}',
        f"  linalg.fill ins(%one : f32) outs(%t : {memref})",
        f"  linalg.add ins(%t, %t : {memref}, {memref}) outs(%t : {memref})",
        *_kill("%s", "%t", memref, '"global"'),
        "  func.return",
        "}",
    ]


@st.composite
def pinned_programs(draw: st.DrawFn) -> str:
    """A `@main` of straight-line code: VTCM storages of 2 or 4 KiB handed
    to `@use` (pinned) and freed at random points; DDR or VTCM tensors of 2
    or 4 KiB, filled, updated and freed at random points; calls of
    functions with a tensor of 2 or 4 KiB of their own."""
    lines = [
        f"func.func private @use(!memory.storage<{VTCM}>)",
        *_work(512),
        *_work(1024),
        "func.func @main() {",
        "  %one = arith.constant 1.0 : f32",
    ]
    pinned: list[str] = []
    live: list[tuple[str, str, str, str]] = []
    for count in range(draw(st.integers(3, 12))):
        what = draw(st.integers(0, 5))
        if what == 0:
            name = f"%p{count}"
            size = draw(one_of_values([2048, 4096]))
            lines += [
                f"  {name} = memory.alloc_storage [{size}] : !memory.storage<{VTCM}>",
                f"  func.call @use({name}) : (!memory.storage<{VTCM}>) -> ()",
            ]
            pinned.append(name)
        elif what == 1 and pinned:
            name = pinned.pop(draw(st.integers(0, len(pinned) - 1)))
            lines.append(f"  memory.kill {name} : !memory.storage<{VTCM}>")
        elif what == 2 or not live:
            storage, tensor = f"%s{count}", f"%t{count}"
            elements = draw(one_of_values([512, 1024]))
            scope = draw(one_of_values(['"global"', VTCM]))
            space = f", {VTCM}" if scope == VTCM else ""
            memref = f"memref<{elements}xf32{space}>"
            lines += [
                f"  {storage} = memory.alloc_storage [{4 * elements}] "
                f": !memory.storage<{scope}>",
                f"  {tensor} = memory.alloc_tensor {storage}[0] "
                f": !memory.storage<{scope}> to {memref}",
                f"  linalg.fill ins(%one : f32) outs({tensor} : {memref})",
            ]
            live.append((storage, tensor, memref, scope))
        elif what == 5:
            lines.append(
                f"  func.call @work{draw(one_of_values([512, 1024]))}() : () -> ()"
            )
        elif what == 3:
            _, tensor, memref, _ = live[draw(st.integers(0, len(live) - 1))]
            lines.append(
                f"  linalg.add ins({tensor}, {tensor} : {memref}, {memref}) "
                f"outs({tensor} : {memref})"
            )
        else:
            lines += _kill(*live.pop(draw(st.integers(0, len(live) - 1))))
    for found in live:
        lines += _kill(*found)
    lines += [f"  memory.kill {name} : !memory.storage<{VTCM}>" for name in pinned]
    return "\n".join([*lines, "  func.return", "}"])


def _all_ddr(text: str) -> str:
    """`text` with every tensor in DDR: VTCM stays pinned only."""
    return "\n".join(
        line
        if "%p" in line or "@use" in line
        else line.replace(f", {VTCM}", "").replace(f"<{VTCM}>", '<"global">')
        for line in text.splitlines()
    )


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    text=pinned_programs(),
    capacity=one_of_values([4096, 8192, 12288, 16384]),
    tensor_alignment=one_of_values([None, 1024]),
)
def test_memory_plan_accepts_what_memory_place_keeps_in_vtcm(
    text: str, capacity: int, tensor_alignment: int | None
) -> None:
    module = Parser(CONTEXT, text).parse_module()
    place = MemoryPlacePass(
        target=TARGET, capacity=capacity, tensor_alignment=tensor_alignment
    )
    try:
        place.apply(CONTEXT, module)
    except PassFailedException:
        return  # the pinned memory alone does not fit
    plan = MemoryPlanPass(
        target=TARGET, capacity=capacity, tensor_alignment=tensor_alignment
    )
    try:
        plan.apply(CONTEXT, module)
    except PassFailedException:
        # Only when first fit finds no room for the pinned memory alone.
        all_ddr = Parser(CONTEXT, _all_ddr(text)).parse_module()
        with pytest.raises(PassFailedException):
            plan.apply(CONTEXT, all_ddr)

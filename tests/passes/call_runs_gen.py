"""Random straight-line programs whose VTCM tensors are live across calls to
functions that hold VTCM of their own: the programs where one arena per run
of chained live ranges can hold more than the program at a call.

`@main` allocates each tensor in a storage of its own, copies into it, and
copies out of it at its last use, then kills the storage; between them it
calls the callees.  Each callee holds a VTCM storage of its own, and may
call the next callee while holding it, so a caller's peak includes its
callees'.  The callees come after `@main` in the module."""

from __future__ import annotations

from hypothesis import strategies as st
from stable_strategies import one_of_values

ELEMENTS = (128, 256, 512, 1024)
"""f32 elements of a tensor: 512 to 4096 bytes."""

WHOLE_ELEMENTS = (512, 1024)
"""f32 elements of a tensor that fills whole 2048-byte VTCM ranges, so no
alignment padding leaves holes in the window."""

VTCM = '!memory.storage<"global.vtcm">'


def _tensor(name: str, elements: int) -> list[str]:
    memref = f'memref<{elements}xf32, "global.vtcm">'
    return [
        f"  %s{name} = memory.alloc_storage [{elements * 4}] : {VTCM}",
        f"  %{name} = memory.alloc_tensor %s{name}[0] : {VTCM} to {memref}",
        f"  %v{name} = memref.subview %r[0] [{elements}] [1] : memref<1024xf32> "
        f"to memref<{elements}xf32, strided<[1]>>",
        f"  linalg.copy ins(%v{name} : memref<{elements}xf32, strided<[1]>>) "
        f"outs(%{name} : {memref})",
    ]


def _last_use(name: str, elements: int) -> list[str]:
    memref = f'memref<{elements}xf32, "global.vtcm">'
    return [
        f"  linalg.copy ins(%{name} : {memref}) "
        f"outs(%v{name} : memref<{elements}xf32, strided<[1]>>)",
        f"  memory.kill %s{name} : {VTCM}",
    ]


def _callee(index: int, elements: int, calls_next: bool) -> str:
    lines = [f"func.func private @f{index}(%r: memref<1024xf32>) {{"]
    lines += _tensor("c", elements)
    if calls_next:
        lines.append(f"  func.call @f{index + 1}(%r) : (memref<1024xf32>) -> ()")
    lines += _last_use("c", elements)
    lines += ["  func.return", "}"]
    return "\n".join(lines)


@st.composite
def call_runs(draw: st.DrawFn, elements: tuple[int, ...] = ELEMENTS) -> str:
    """MLIR text of `@main` and its callees (see the module docstring), each
    tensor of one of `elements` f32 elements."""
    callees = draw(st.integers(1, 3))
    sizes = [draw(one_of_values(elements)) for _ in range(callees)]
    chained = [draw(st.booleans()) for _ in range(callees - 1)] + [False]
    slots = draw(st.integers(2, 6))
    calls = [draw(st.none() | st.integers(0, callees - 1)) for _ in range(slots)]
    tensors: list[tuple[int, int, int]] = []
    for _ in range(draw(st.integers(2, 6))):
        start = draw(st.integers(0, slots - 1))
        end = draw(st.integers(start, slots - 1))
        tensors.append((start, end, draw(one_of_values(elements))))
    lines = ["func.func @main(%r: memref<1024xf32>) {"]
    for slot, call in enumerate(calls):
        for name, (start, _, size) in enumerate(tensors):
            if start == slot:
                lines += _tensor(f"t{name}", size)
        if call is not None:
            lines.append(f"  func.call @f{call}(%r) : (memref<1024xf32>) -> ()")
        for name, (_, end, size) in enumerate(tensors):
            if end == slot:
                lines += _last_use(f"t{name}", size)
    lines += ["  func.return", "}"]
    functions = [
        _callee(index, size, calls_next)
        for index, (size, calls_next) in enumerate(zip(sizes, chained, strict=True))
    ]
    return "\n\n".join(["\n".join(lines), *functions]) + "\n"

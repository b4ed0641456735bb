"""memory-verify on IR the dialect verifier cannot reject, and its helpers."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.interpreter import InterpretationError, run_function
from memplan.passes.placements import Placement, address_alignment
from memplan.passes.verify import MemoryVerifyPass
from memplan.targets import get_target

STORAGE = '!memory.storage<"global.vtcm">'


def context() -> Context:
    return memplan_context(allow_unregistered=True)


def parse_unverified(source: str) -> ModuleOp:
    """Parse without verifying, as IR built by a buggy pass would be."""
    return Parser(context(), source).parse_module()


def problems(source: str) -> list[str]:
    try:
        MemoryVerifyPass().apply(context(), parse_unverified(source))
    except PassFailedException as failure:
        return str(failure).splitlines()
    return []


def test_out_of_bounds_tensor_is_reported_even_without_dialect_verification():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[512] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [512, 1536) of %vtcm) is "
        "out of bounds: expected bytes within [0, 1024)"
    ]


def test_blocks_and_table_out_of_bounds_are_reported_by_their_layout_sizes():
    blocked = 'memref<3x50xi32, #memory.discontiguous<128>, "global.vtcm">'
    found = problems(
        f"""
func.func @f() {{
  %tables = memory.alloc_storage [4] : !memory.storage<"global">
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %t = memory.alloc_discontiguous_tensor table %tables[0], blocks %vtcm[0, 960] : !memory.storage<"global">, {STORAGE} to {blocked}
  "test.op"(%t) : ({blocked}) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_discontiguous_tensor %t (pointer table, "
        "bytes [0, 8) of %tables) is out of bounds: expected bytes within [0, 4)",
        "memory-verify: in @f, memory.alloc_discontiguous_tensor %t (block 1, "
        "bytes [960, 1048) of %vtcm) is out of bounds: expected bytes within [0, 1024)",
    ]


def test_tensor_below_its_requested_alignment_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[32] align 256 : {STORAGE} to memref<4xi32, "global.vtcm">
  "test.op"(%a) : (memref<4xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [32, 48) of %vtcm, "
        "storage aligned to 2048) is only 32-byte aligned: expected a multiple of "
        "256 bytes"
    ]


def test_offset_misaligned_for_its_elements_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[2] : {STORAGE} to memref<4xi32, "global.vtcm">
  "test.op"(%a) : (memref<4xi32, "global.vtcm">) -> ()
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, memory.alloc_tensor %a (bytes [2, 18) of %vtcm, storage "
        "aligned to 2048) is only 2-byte aligned: expected a multiple of 4 bytes"
    ]


def test_every_problem_of_every_function_is_reported():
    found = problems(
        f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  %b = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  func.return
}}
func.func @g() {{
  %big = memory.alloc_storage [16777216] align 2048 : {STORAGE}
  func.return
}}"""
    )
    assert [line.split(",")[0] for line in found] == [
        "memory-verify: in @f",
        "memory-verify: in @g",
    ]
    assert "overlaps %a" in found[0]
    assert "holds 16777216 bytes" in found[1]


def test_use_after_kill_is_reported_also_when_nested():
    found = problems(
        f"""
func.func @f(%cond: i1) {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  memory.kill %a : memref<256xi32, "global.vtcm">
  scf.if %cond {{
    "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  }}
  memory.kill %a : memref<256xi32, "global.vtcm">
  func.return
}}"""
    )
    assert found == [
        "memory-verify: in @f, %a is used by test.op after the memory.kill that ended "
        "its life: expected no use after a kill",
        "memory-verify: in @f, %a is killed again after the memory.kill that ended "
        "its life: expected no use after a kill",
    ]


def test_clean_module_is_unchanged():
    source = f"""
func.func @f() {{
  %vtcm = memory.alloc_storage [1024] align 2048 : {STORAGE}
  %a = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  %b = memory.alloc_tensor %vtcm[0] : {STORAGE} to memref<256xi32, "global.vtcm">
  "test.op"(%b) : (memref<256xi32, "global.vtcm">) -> ()
  memory.kill %vtcm : {STORAGE}
  func.return
}}"""
    module = parse_unverified(source)
    MemoryVerifyPass().apply(context(), module)
    assert module.is_structurally_equivalent(parse_unverified(source))


def test_clean_plan_of_unnamed_tensors_names_none_of_them(
    monkeypatch: pytest.MonkeyPatch,
):
    """Naming a tensor without a name hint (`%12`, as in a module MLIR printed
    generic) counts the values printed before it, a walk of the module: doing
    it for every tensor of a clean plan made memory-verify quadratic (88 s on
    an exported 80-step LSTM of 1,941 tensors)."""
    tensors = "\n".join(
        f"  %{n} = memory.alloc_tensor %0[{256 * (n - 1)}] : {STORAGE} "
        f'to memref<64xf32, "global.vtcm">\n'
        f'  "test.op"(%{n}) : (memref<64xf32, "global.vtcm">) -> ()'
        for n in range(1, 5)
    )
    source = f"""
func.func @f() {{
  %0 = memory.alloc_storage [1024] align 2048 : {STORAGE}
{tensors}
  func.return
}}"""

    def named(placement: object) -> str:
        raise AssertionError(f"{placement} named for no problem")

    monkeypatch.setattr(Placement, "tensor_name", named)
    assert problems(source) == []


@pytest.mark.parametrize(
    ("storage_alignment", "offset", "expected"),
    [(2048, 0, 2048), (2048, 64, 64), (64, 128, 64), (2048, 1536, 512), (1, 8, 1)],
)
def test_address_alignment(storage_alignment: int, offset: int, expected: int):
    assert address_alignment(storage_alignment, offset) == expected


def _vtcm(elements: int) -> str:
    return f'memref<{elements}xf32, "global.vtcm">'


def _vtcm_program(body: str, callee: str = "") -> str:
    """@main running `body` (after `callee`); %one, %c0, %c1, %c2 defined."""
    return (
        f"{callee}func.func @main() {{\n"
        "  %one = arith.constant 1.0 : f32\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n"
        f"{body}  func.return\n}}\n"
    )


def _storage(name: str, size: int) -> str:
    return (
        f"  %{name} = memory.alloc_storage [{size}] : {STORAGE}\n"
        f"  memory.kill %{name} : {STORAGE}\n"
    )


def _filled(name: str, elements: int, allocation: str) -> str:
    """`allocation` of %name, then a fill of it (memplan-run runs it)."""
    return (
        f"  %{name} = {allocation} : {_vtcm(elements)}\n"
        f"  linalg.fill ins(%one : f32) outs(%{name} : {_vtcm(elements)})\n"
    )


def _filled_tensor(name: str, elements: int) -> str:
    """%name in its own storage %name_storage, as memory-manifest makes a
    memref.alloc, then a fill of it."""
    return (
        f"  %{name}_storage = memory.alloc_storage [{4 * elements}] : {STORAGE}\n"
        f"  %{name} = memory.alloc_tensor %{name}_storage[0] : {STORAGE} to "
        f"{_vtcm(elements)}\n"
        f"  linalg.fill ins(%one : f32) outs(%{name} : {_vtcm(elements)})\n"
    )


def _realloc(source: str, name: str, old: int, new: int) -> str:
    return f"  %{name} = memref.realloc %{source} : {_vtcm(old)} to {_vtcm(new)}\n"


def _dealloc(name: str, elements: int) -> str:
    return f"  memref.dealloc %{name} : {_vtcm(elements)}\n"


VTCM_ALLOCATIONS = {
    "an alloca beside a storage": (
        _vtcm_program(_filled("a", 1024, "memref.alloca()") + _storage("s", 4096)),
        False,
    ),
    "allocas aligned past the window": (
        _vtcm_program(
            "".join(
                _filled(name, 25, "memref.alloca() {alignment = 4096 : i64}")
                for name in "abc"
            )
        ),
        False,
    ),
    "an alloca freed by each return, killed or not": (
        _vtcm_program(
            "  func.call @stack() : () -> ()\n" * 2 + _storage("s", 4096),
            callee="func.func @stack() {\n  %one = arith.constant 1.0 : f32\n"
            + _filled("a", 1024, "memref.alloca()")
            + f"  memory.kill %a : {_vtcm(1024)}\n  func.return\n}}\n",
        ),
        True,
    ),
    "an alloca freed at the end of its alloca_scope": (
        _vtcm_program(
            "  memref.alloca_scope {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n"
            + _storage("s", 4096)
        ),
        True,
    ),
    "an alloca beside a storage in an iteration": (
        _vtcm_program(
            "  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {\n"
            + _filled("a", 1024, "memref.alloca()")
            + _storage("s", 4096)
            + "    scf.reduce\n  }\n"
        ),
        False,
    ),
    "an alloca freed at the end of each iteration": (
        _vtcm_program(
            "  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "    scf.reduce\n  }\n"
            + _storage("s", 4096)
        ),
        True,
    ),
    "an alloca freed at the end of each scf.for iteration": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n"
        ),
        True,
    ),
    "allocas of nested loops, freed per iteration": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n  affine.for %j = 0 to 2 {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n  }\n"
        ),
        True,
    ),
    "an alloca of a branch held to the end of its iteration": (
        _vtcm_program(
            "  %true = arith.constant true\n"
            "  affine.for %i = 0 to 2 {\n  scf.if %true {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n"
            + _storage("s", 4096)
            + "  }\n"
        ),
        False,
    ),
    "an alloca in each iteration of an scf.while": (
        _vtcm_program(
            "  %r = scf.while (%x = %c0) : (index) -> index {\n"
            "  %more = arith.cmpi slt, %x, %c2 : index\n"
            "  scf.condition(%more) %x : index\n"
            "  } do {\n  ^bb0(%y: index):\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  %next = arith.addi %y, %c1 : index\n  scf.yield %next : index\n  }\n"
        ),
        False,
    ),
    "an alloca of a loop that runs zero times": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c0 step %c1 {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n"
            + _storage("s", 6144)
        ),
        True,
    ),
    "an alloca freed in each iteration by its alloca_scope": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n  memref.alloca_scope {\n"
            + _filled("a", 1024, "memref.alloca()")
            + "  }\n  }\n"
            + _storage("s", 4096)
        ),
        True,
    ),
    "an alloc its loop does not free, in each iteration": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n"
            + _filled("a", 1024, "memref.alloc()")
            + "  }\n"
        ),
        False,
    ),
    "allocs of nested loops that do not free them": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n  affine.for %j = 0 to 2 {\n"
            + _filled("a", 256, "memref.alloc()")
            + "  }\n  }\n"
        ),
        False,
    ),
    "a storage its loop does not kill, in each iteration": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n"
            + _filled_tensor("a", 1024)
            + "  }\n"
        ),
        False,
    ),
    "a storage killed in each iteration of its loop": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n"
            + _filled_tensor("a", 1024)
            + f"  memory.kill %a_storage : {STORAGE}\n"
            + "  }\n"
            + _storage("s", 4096)
        ),
        True,
    ),
    "an alloc freed in each iteration of its loop": (
        _vtcm_program(
            "  scf.for %i = %c0 to %c2 step %c1 {\n"
            + _filled("a", 1024, "memref.alloc()")
            + _dealloc("a", 1024)
            + "  }\n"
            + _storage("s", 4096)
        ),
        True,
    ),
    "a realloc of the buffer its loop yields, freeing it": (
        _vtcm_program(
            _filled("a", 256, "memref.alloc()")
            + f"  %r = affine.for %i = 0 to 3 iter_args(%buf = %a) -> ({_vtcm(256)}) {{\n"
            + _realloc("buf", "b", 256, 256)
            + f"  affine.yield %b : {_vtcm(256)}\n  }}\n"
            + _dealloc("r", 256)
        ),
        True,
    ),
    "a realloc holding both buffers beside a storage": (
        _vtcm_program(
            f"  %s = memory.alloc_storage [2048] : {STORAGE}\n"
            + _filled("a", 512, "memref.alloc()")
            + _realloc("a", "b", 512, 1024)
            + _dealloc("b", 1024)
            + f"  memory.kill %s : {STORAGE}\n"
        ),
        False,
    ),
    "a realloc freeing its source": (
        _vtcm_program(
            _filled("a", 1024, "memref.alloc()")
            + _realloc("a", "b", 1024, 512)
            + _storage("s", 4096)
            + _dealloc("b", 512)
        ),
        True,
    ),
    "a clone beside its operand": (
        _vtcm_program(
            _filled("a", 1024, "memref.alloc()")
            + f"  %b = bufferization.clone %a : {_vtcm(1024)} to {_vtcm(1024)}\n"
            + _dealloc("a", 1024)
            + _dealloc("b", 1024)
        ),
        False,
    ),
    "a realloc's buffer beside a storage": (
        _vtcm_program(
            _filled("a", 512, "memref.alloc()")
            + _realloc("a", "b", 512, 1024)
            + _storage("s", 4096)
            + _dealloc("b", 1024)
        ),
        False,
    ),
}


@pytest.mark.parametrize(
    ("source", "fits"), VTCM_ALLOCATIONS.values(), ids=VTCM_ALLOCATIONS.keys()
)
def test_verify_refuses_exactly_the_vtcm_allocations_the_run_cannot_fit(
    source: str, fits: bool
):
    """memory-verify counts a VTCM memref.alloca (to the end of its automatic
    allocation scope: a function, a memref.alloca_scope, an iteration of an
    scf.for, affine.for or parallel loop; once per iteration of the loops
    inside it, such as an scf.while), a
    memref.alloc or a memory.alloc_storage once per iteration of the loops
    that do not free it, both
    buffers of a memref.realloc (the new one allocated before the old one is
    freed) and a bufferization.clone as memplan-run allocates them."""
    module = Parser(memplan_context(), source).parse_module()
    try:
        run_function(module.clone(), target=get_target().with_vtcm_size(6144))
        run_fits = True
    except InterpretationError as error:
        assert "cannot allocate" in str(error)
        run_fits = False
    try:
        MemoryVerifyPass(capacity=6144).apply(memplan_context(), module)
        verify_fits = True
    except PassFailedException:
        verify_fits = False
    assert (run_fits, verify_fits) == (fits, fits)


GLOBAL = '!memory.storage<"global">'
VECTOR = "memref<16xf32>"


def _global_program(body: str) -> str:
    """@main running `body` with %x, a filled memref, and %s, a storage of
    128 bytes; %one, %true, %c0, %c1, %c2 defined."""
    return (
        "func.func @main() {\n"
        "  %one = arith.constant 1.0 : f32\n"
        "  %true = arith.constant true\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n"
        f"  %x = memref.alloc() : {VECTOR}\n"
        f"  linalg.fill ins(%one : f32) outs(%x : {VECTOR})\n"
        f"  %s = memory.alloc_storage [128] : {GLOBAL}\n"
        f"{body}  func.return\n}}\n"
    )


def _at(name: str, storage: str, offset: int) -> str:
    return (
        f"  %{name} = memory.alloc_tensor %{storage}[{offset}] : {GLOBAL} to {VECTOR}\n"
    )


def _read(name: str, source: str) -> str:
    return f"  %{name} = memref.load %{source}[%c0] : {VECTOR}\n"


def _fill(name: str, value: str = "%one") -> str:
    return f"  linalg.fill ins({value} : f32) outs(%{name} : {VECTOR})\n"


def _copy(source: str, target: str) -> str:
    return f'  "memref.copy"(%{source}, %{target}) : ({VECTOR}, {VECTOR}) -> ()\n'


def _carrying(loop: str, body: str, result: str = "r", init: str = "x") -> str:
    """`loop` (`scf.for` or `affine.for`, two iterations) carrying %acc, from
    `init`, to the %t `body` allocates."""
    bounds = "%c0 to %c2 step %c1" if loop == "scf.for" else "0 to 2"
    yield_ = "scf.yield" if loop == "scf.for" else "affine.yield"
    return (
        f"  %{result} = {loop} %i = {bounds} iter_args(%acc = %{init}) -> "
        f"({VECTOR}) {{\n{body}  {yield_} %t : {VECTOR}\n  }}\n"
    )


_READ_THEN_PLACE = _read("v", "acc") + _at("t", "s", 0) + _fill("t", "%v")

PLACEMENTS_AND_KILLS = {
    "a loop result read after its storage's kill": (
        _global_program(
            _carrying("affine.for", _READ_THEN_PLACE)
            + f"  memory.kill %s : {GLOBAL}\n"
            + _read("w", "r")
        ),
        False,
    ),
    "a loop result read before its storage's kill": (
        _global_program(
            _carrying("affine.for", _READ_THEN_PLACE)
            + _read("w", "r")
            + f"  memory.kill %s : {GLOBAL}\n"
        ),
        True,
    ),
    "an scf.if result read after the kill of the tensor it yields": (
        _global_program(
            _at("t", "s", 0)
            + _fill("t")
            + f"  %r = scf.if %true -> ({VECTOR}) {{\n  scf.yield %t : {VECTOR}\n"
            + f"  }} else {{\n  scf.yield %x : {VECTOR}\n  }}\n"
            + f"  memory.kill %t : {VECTOR}\n"
            + _read("w", "r")
        ),
        False,
    ),
    "an scf.for iteration placing its tensor over the carried one it reads": (
        _global_program(
            _carrying("scf.for", _at("t", "s", 0) + _copy("acc", "t")) + _read("w", "r")
        ),
        False,
    ),
    "an affine.for iteration placing its tensor over the carried one it reads": (
        _global_program(
            _carrying("affine.for", _at("t", "s", 64) + _copy("acc", "t"))
            + _read("w", "r")
        ),
        False,
    ),
    "an scf.for iteration done with the carried tensor before placing its own": (
        _global_program(_carrying("scf.for", _READ_THEN_PLACE) + _read("w", "r")),
        True,
    ),
    "a carried tensor in a storage of each iteration": (
        _global_program(
            _carrying(
                "scf.for",
                f"  %own = memory.alloc_storage [64] : {GLOBAL}\n"
                + _at("t", "own", 0)
                + _copy("acc", "t"),
            )
            + _read("w", "r")
        ),
        True,
    ),
    "a tensor carried through the regions of an scf.while": (
        _global_program(
            f"  %r:2 = scf.while (%a = %x, %k = %c0) : ({VECTOR}, index) -> "
            f"({VECTOR}, index) {{\n"
            + _read("u", "a")
            + "  %go = arith.cmpi slt, %k, %c2 : index\n"
            + f"  scf.condition(%go) %a, %k : {VECTOR}, index\n"
            + f"  }} do {{\n  ^bb0(%b: {VECTOR}, %j: index):\n"
            + _read("v", "b")
            + _at("t", "s", 0)
            + _fill("t", "%v")
            + "  %next = arith.addi %j, %c1 : index\n"
            + f"  scf.yield %t, %next : {VECTOR}, index\n  }}\n"
            + _read("w", "r#0")
        ),
        True,
    ),
    "a tensor carried by nested loops through the inner iter_arg": (
        _global_program(
            f"  %r = scf.for %o = %c0 to %c2 step %c1 iter_args(%prev = %x) -> "
            f"({VECTOR}) {{\n"
            + _carrying("affine.for", _READ_THEN_PLACE, result="in", init="prev")
            + f"  scf.yield %in : {VECTOR}\n  }}\n"
            + _read("w", "r")
        ),
        True,
    ),
    "a tensor carried by the outer loop, read in each inner iteration": (
        _global_program(
            f"  %r = scf.for %o = %c0 to %c2 step %c1 iter_args(%prev = %x) -> "
            f"({VECTOR}) {{\n"
            + _carrying(
                "affine.for",
                _read("v", "prev") + _at("t", "s", 0) + _fill("t", "%v"),
                result="in",
            )
            + f"  scf.yield %in : {VECTOR}\n  }}\n"
            + _read("w", "r")
        ),
        False,
    ),
}


@pytest.mark.parametrize(
    ("source", "correct"),
    PLACEMENTS_AND_KILLS.values(),
    ids=PLACEMENTS_AND_KILLS.keys(),
)
def test_verify_refuses_exactly_the_overlaps_and_kills_the_run_finds(
    source: str, correct: bool
):
    """A tensor read through a loop or branch result after its kill, or
    carried to the next iteration of a loop that places a new one on its
    bytes (of a storage allocated outside the loop) while it is still read:
    memory-verify refuses what memplan-run finds wrong, and accepts the
    loop-carried tensors the run accepts."""
    module = Parser(memplan_context(), source).parse_module()
    try:
        run_function(module.clone())
        run_correct = True
    except InterpretationError as error:
        assert "still live" in str(error) or "killed" in str(error), error
        run_correct = False
    try:
        MemoryVerifyPass().apply(memplan_context(), module)
        verify_correct = True
    except PassFailedException:
        verify_correct = False
    assert (run_correct, verify_correct) == (correct, correct)

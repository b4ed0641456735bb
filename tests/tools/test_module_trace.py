"""`memplan plot` on a planned .mlir module: tensors become buffers at their offsets."""

from __future__ import annotations

from pathlib import Path

import pytest
from long_tokens import LONG_TOKEN_PROGRAMS, MAX_ERROR

from memplan.parser import MemplanParser
from memplan.planning import lower_bound
from memplan.tools.memplan_main import main
from memplan.tools.module_trace import (
    ModuleTrace,
    ModuleTraceError,
    module_trace,
    read_module,
)

PLANNED = """
func.func @f() {
  %arena = memory.alloc_storage [2048] align 2048 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  %b = memory.alloc_tensor %arena[1024] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a, %b) : (memref<256xi32, "global.vtcm">, memref<256xi32, "global.vtcm">) -> ()
  %c = memory.alloc_tensor %arena[0] : !memory.storage<"global.vtcm"> to memref<128xi32, "global.vtcm">
  "test.op"(%b, %c) : (memref<256xi32, "global.vtcm">, memref<128xi32, "global.vtcm">) -> ()
  %ddr = memory.alloc_storage [64] : !memory.storage<"global">
  %d = memory.alloc_tensor %ddr[0] : !memory.storage<"global"> to memref<16xi32>
  "test.op"(%d) : (memref<16xi32>) -> ()
  memory.kill %arena : !memory.storage<"global.vtcm">
  func.return
}
"""


@pytest.fixture
def planned(tmp_path: Path) -> Path:
    path = tmp_path / "planned.mlir"
    path.write_text(PLANNED)
    return path


def test_tensors_of_the_scope_become_buffers_with_their_offsets(planned: Path) -> None:
    trace = module_trace(read_module(planned), "global.vtcm", None)
    assert trace.offsets == {"%a": 0, "%b": 1024, "%c": 0}
    sizes = {b.id: b.size for b in trace.buffers}
    assert sizes == {"%a": 1024, "%b": 1024, "%c": 512}
    live = {b.id: (b.lower, b.upper) for b in trace.buffers}
    assert live["%a"][1] <= live["%c"][0], "a dies before c is allocated over it"
    assert "@f" in trace.title and "2048 bytes" in trace.title


TWO_STORAGES = """
func.func @f() {{
  %s1 = memory.alloc_storage [1024] align 256 : !memory.storage<"global.vtcm">
  %a = memory.alloc_tensor %s1[0] : !memory.storage<"global.vtcm"> to memref<256xi32, "global.vtcm">
  "test.op"(%a) : (memref<256xi32, "global.vtcm">) -> ()
  {first_kill}
  %s2 = memory.alloc_storage [512] align 256 : !memory.storage<"global.vtcm">
  %b = memory.alloc_tensor %s2[0] : !memory.storage<"global.vtcm"> to memref<128xi32, "global.vtcm">
  "test.op"(%b) : (memref<128xi32, "global.vtcm">) -> ()
  {last_kill}
  memory.kill %s2 : !memory.storage<"global.vtcm">
  func.return
}}
"""
KILL_S1 = 'memory.kill %s1 : !memory.storage<"global.vtcm">'


def _two_storages(tmp_path: Path, first_kill: str, last_kill: str) -> ModuleTrace:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_STORAGES.format(first_kill=first_kill, last_kill=last_kill))
    return module_trace(read_module(path), "global.vtcm", None)


def test_storages_never_alive_together_are_drawn_at_shared_addresses(
    tmp_path: Path,
) -> None:
    trace = _two_storages(tmp_path, KILL_S1, "")
    assert trace.offsets == {"%a": 0, "%b": 0}
    assert "2 storages of 1536 bytes" in trace.title


def test_storages_alive_together_are_drawn_apart(tmp_path: Path) -> None:
    trace = _two_storages(tmp_path, "", KILL_S1)
    # Greedy puts the larger storage at 0 and the other on top of it.
    assert trace.offsets == {"%a": 0, "%b": 1024}


def test_a_storage_never_killed_is_drawn_alive_to_the_end(tmp_path: Path) -> None:
    # memplan-run never frees it: %s2 cannot take its bytes.
    trace = _two_storages(tmp_path, "", "")
    assert trace.offsets == {"%a": 0, "%b": 1024}


def test_other_scope_is_drawn_on_request(planned: Path) -> None:
    trace = module_trace(read_module(planned), "global", "f")
    assert trace.offsets == {"%d": 0}


def test_a_module_without_placed_tensors_says_to_plan_it(tmp_path: Path) -> None:
    source = tmp_path / "unplanned.mlir"
    source.write_text(
        "func.func @f() {\n  %a = memref.alloc() : memref<4xf32>\n  func.return\n}\n"
    )
    with pytest.raises(
        ModuleTraceError,
        match=r"no scope has any \(run memory-manifest and memory-plan first\)",
    ):
        module_trace(read_module(source), "global.vtcm", None)


def test_unknown_function_is_named(planned: Path) -> None:
    with pytest.raises(ModuleTraceError, match="no function @g"):
        module_trace(read_module(planned), "global.vtcm", "g")


def test_cli_draws_a_planned_module(planned: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "plan.png"
    assert main(["plot", str(planned), "-o", str(output)]) == 0
    assert output.stat().st_size > 0


def test_cli_rejects_a_module_with_nothing_in_the_scope(
    planned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    code = main(["plot", str(planned), "-o", str(tmp_path / "p.png"), "--scope", "x"])
    assert code == 2
    assert (
        'no tensor at a static offset of a static storage in scope "x" in any '
        'function; expected one of the scopes that have some: "global", '
        '"global.vtcm"'
    ) in capsys.readouterr().err


def test_cli_reports_a_parse_error_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.mlir"
    bad.write_text("%x = memory.alloc_storage [64] : !memory.storage<\n")
    assert main(["plot", str(bad), "-o", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memplan plot: error: ") and "bad.mlir" in err


@pytest.mark.parametrize(
    "flags",
    [
        ["--algorithm", "greedy"],
        ["--budget", "10"],
        ["--time-limit", "1"],
        ["--alignment", "8"],
    ],
)
def test_cli_rejects_planning_flags_for_a_module_naming_them(
    planned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "p.png"
    assert main(["plot", str(planned), "-o", str(output), *flags]) == 2
    assert f"argument {flags[0]}: a .mlir module is drawn as planned" in (
        capsys.readouterr().err
    )
    assert not output.exists()


BLOCKS = """
func.func @f(%o: index) {
  %arena = memory.alloc_storage [4096] align 2048 : !memory.storage<"global.vtcm">
  %tables = memory.alloc_storage [16] : !memory.storage<"global">
  %a = memory.alloc_discontiguous_tensor table %tables[0], blocks %arena[2048, 0] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x256xi32, #memory.discontiguous, "global.vtcm">
  %b = memory.alloc_tensor %arena[%o] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %c = memory.alloc_discontiguous_tensor table %tables[8], blocks %arena[%o, 3072] : !memory.storage<"global">, !memory.storage<"global.vtcm"> to memref<2x64xi32, #memory.discontiguous, "global.vtcm">
  "test.op"(%a, %b, %c) : (memref<2x256xi32, #memory.discontiguous, "global.vtcm">, memref<16xi32, "global.vtcm">, memref<2x64xi32, #memory.discontiguous, "global.vtcm">) -> ()
  func.return
}
"""


@pytest.fixture
def blocks(tmp_path: Path) -> Path:
    path = tmp_path / "blocks.mlir"
    path.write_text(BLOCKS)
    return path


def test_each_block_of_a_discontiguous_tensor_is_a_buffer(blocks: Path) -> None:
    trace = module_trace(read_module(blocks), "global.vtcm", None)
    assert trace.offsets == {"%a[0]": 2048, "%a[1]": 0, "%c[1]": 3072}
    assert lower_bound(trace.buffers) == 2048 + 256


def test_a_pointer_table_is_a_buffer_of_its_scope(blocks: Path) -> None:
    trace = module_trace(read_module(blocks), "global", None)
    assert trace.offsets == {"%a table": 0, "%c table": 8}
    assert [b.size for b in trace.buffers] == [8, 8]
    assert trace.left_out == []


def test_tensors_that_cannot_be_drawn_are_named(
    blocks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = module_trace(read_module(blocks), "global.vtcm", None)
    assert trace.left_out == ["%b", "%c[0]"]
    pytest.importorskip("matplotlib")
    assert main(["plot", str(blocks), "-o", str(tmp_path / "p.svg")]) == 0
    assert capsys.readouterr().err == (
        f"memplan plot: {blocks}: not drawn (a dynamic offset or storage size), "
        "nor counted in the lower bound: %b, %c[0]\n"
    )
    assert "not drawn: %b, %c[0]" in (tmp_path / "p.svg").read_text()


def test_cli_reports_a_module_that_is_not_utf8_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.mlir"
    bad.write_bytes(b"\xff\xfe")
    assert main(["plot", str(bad), "-o", str(tmp_path / "p.png")]) == 2
    assert capsys.readouterr().err == (
        f"memplan plot: error: cannot read {bad}: not UTF-8 text (byte 0xff at "
        "offset 0)\n"
    )


SIDEWAYS = """#map = affine_map<(d0) -> (d0)>
func.func @f(%a: memref<4xf32>) {
  linalg.generic {indexing_maps = [#map], iterator_types = ["sideways"]} outs(%a : memref<4xf32>) {
  ^bb0(%x: f32):
    linalg.yield %x : f32
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            SIDEWAYS,
            "{bad}:3:3\n  linalg.generic {{indexing_maps = [#map], iterator_types = "
            '["sideways"]}} outs(%a : memref<4xf32>) {{\n  ^^^^^^^^^^^^^^\n  '
            "linalg.generic: 'sideways' is not a valid IteratorType\n",
        ),
    ],
    ids=["op parser"],
)
def test_cli_reports_an_op_its_parser_rejects_as_bad_input(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An op's own parser raises a ValueError: bad input at the op, not an
    internal error."""
    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.mlir"
    bad.write_text(text)
    assert main(["plot", str(bad), "-o", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert err == "memplan plot: error: " + expected.format(bad=bad)


@pytest.mark.parametrize(
    ("text", "expected"),
    LONG_TOKEN_PROGRAMS.values(),
    ids=list(LONG_TOKEN_PROGRAMS),
)
def test_cli_shows_a_long_token_of_an_error_cut_with_its_length(
    text: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.mlir"
    bad.write_text(text)
    assert main(["plot", str(bad), "-o", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memplan plot: error: ")
    for fragment in expected:
        assert fragment in err, err[:300]
    assert len(err) < MAX_ERROR, err[:300]


def _out_of_memory(*args: object) -> None:
    raise MemoryError


def test_cli_reports_running_out_of_memory_naming_the_module(
    planned: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(MemplanParser, "parse_module", _out_of_memory)
    assert main(["plot", str(planned), "-o", str(tmp_path / "p.png")]) == 2
    assert capsys.readouterr().err == (
        f"memplan plot: error: {planned}: out of memory: it needs more than this "
        "machine has free\n"
    )


UNNAMED = """
func.func @f(%0: index) {
  %1 = memory.alloc_storage [4096] : !memory.storage<"global.vtcm">
  %2 = memory.alloc_tensor %1[%0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %x = memory.alloc_tensor %1[%0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %x_1 = memory.alloc_tensor %1[%0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %3 = memory.alloc_tensor %1[%0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  %4 = memory.alloc_tensor %1[0] : !memory.storage<"global.vtcm"> to memref<16xi32, "global.vtcm">
  "test.op"(%2, %x, %x_1, %3, %4) : (memref<16xi32, "global.vtcm">, memref<16xi32, "global.vtcm">, memref<16xi32, "global.vtcm">, memref<16xi32, "global.vtcm">, memref<16xi32, "global.vtcm">) -> ()
  func.return
}
"""


def test_tensors_left_out_are_named_as_the_printed_module_names_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "unnamed.mlir"
    path.write_text(UNNAMED)
    module = read_module(path)
    trace = module_trace(module, "global.vtcm", None)
    assert trace.left_out == ["%2", "%x", "%x_1", "%3"]
    printed = str(module)
    for name in trace.left_out:
        assert f"{name} = memory.alloc_tensor" in printed

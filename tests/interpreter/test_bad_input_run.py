"""Bad input to `memplan-run`: one clean error line naming the culprit.

Every case exits with status 1 (2 for what argparse rejects), prints exactly
one `memplan-run: error:` line (parser errors add xDSL's caret lines under
it), no traceback and no Python exception class name, and names what is
wrong: the op with its location, the flag, the file or the argument.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from long_tokens import LONG_TOKEN_PROGRAMS, MAX_ERROR

from memplan.parser import MemplanParser
from memplan.tools.memplan_run import main

SCALAR = "func.func @main(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"
MEMREF = "func.func @main(%m: memref<4xi32>) {\n  func.return\n}\n"
STORAGE = '!memory.storage<"global">'
VTCM = '!memory.storage<"global.vtcm">'


def body(*lines: str, args: str = "") -> str:
    return "\n".join([f"func.func @main({args}) {{", *lines, "  func.return", "}"])


# (program text, extra flags, what the error must contain)
PROGRAMS: list[tuple[str, list[str], str]] = [
    ("", [], "is empty: there is no function to run"),
    ("func.func @main( {", [], "bad.mlir:1:"),
    ("func.func @main() {\n  %x = foo.bar : i32\n  func.return\n}\n", [], "foo.bar"),
    (SCALAR, ["--symbol", "nope"], "no function named @nope"),
    (
        SCALAR,
        ["--args", "1.5 : f32"],
        "--args: argument 0 of type i32 needs an integer literal",
    ),
    (
        SCALAR,
        ["--args", "1 : i32, 2 : i32"],
        "@main takes 1 argument(s), --args gave 2",
    ),
    (SCALAR, ["--args", "]]"], "--args: cannot read"),
    (
        SCALAR,
        ["--args", "9999999999 : i64"],
        "--args: argument 0 of type i32 must be in",
    ),
    (
        MEMREF,
        ["--args", "dense<1> : tensor<5xi32>"],
        "needs a dense literal of type tensor<4xi32>",
    ),
    (MEMREF, [], "@main takes 1 argument(s), --args gave 0"),
    (
        "func.func @main(%t: tensor<4xf32>) {\n  func.return\n}\n",
        ["--args", "dense<1> : tensor<4xi32>"],
        "--args: argument 0 of type tensor<4xf32> needs a dense literal of type "
        "tensor<4xf32>, got dense<1> : tensor<4xi32>",
    ),
    (
        "func.func @main(%t: tensor<4xf32>) {\n  func.return\n}\n",
        ["--args", "1.0 : f32"],
        "--args: argument 0 of type tensor<4xf32> needs a dense literal",
    ),
    (
        "func.func @main(%t: tensor<*xf32>) {\n  func.return\n}\n",
        ["--args", "dense<1.0> : tensor<4xf32>"],
        "--args: argument 0 is an unranked tensor<*xf32>, which the interpreter "
        "does not run: give it a ranked type",
    ),
    (
        body(
            f"  %s = memory.alloc_storage [16] : {STORAGE}",
            f"  %t = memory.alloc_tensor %s[8] : {STORAGE} to memref<4xi32>",
        ),
        [],
        "bad.mlir:3:3: memory.alloc_tensor %t (in @main): tensor of 16 bytes at offset 8",
    ),
    (
        body(
            f"  %s = memory.alloc_storage [16] : {STORAGE}",
            f"  %t = memory.alloc_tensor %s[2] : {STORAGE} to memref<2xi32>",
        ),
        [],
        "bad.mlir:3:3: memory.alloc_tensor %t (in @main): offset 2 is not aligned",
    ),
    (
        body(
            f"  %a = memory.alloc_storage [4096] : {VTCM}",
            f"  %b = memory.alloc_storage [4096] : {VTCM}",
            f"  memory.kill %a : {VTCM}",
            f"  %c = memory.alloc_storage [6144] : {VTCM}",
        ),
        ["--vtcm-size", "10KiB"],
        "bad.mlir:5:3: memory.alloc_storage %c (in @main): cannot allocate 6144 bytes",
    ),
    (
        body(
            f"  %s = memory.alloc_storage [16] : {STORAGE}",
            f"  memory.kill %s : {STORAGE}",
            f"  memory.kill %s : {STORAGE}",
        ),
        [],
        "bad.mlir:4:3: memory.kill (in @main): storage allocated by memory.alloc_storage %s (line 2, in @main) was already killed by memory.kill (line 3, in @main)",
    ),
    (
        body(
            "  %i = arith.constant 9 : index",
            "  %v = memref.load %m[%i] : memref<4xi32>",
            args="%m: memref<4xi32>",
        ),
        ["--args", "dense<1> : tensor<4xi32>"],
        "memref.load %v (in @main): index [9] is out of bounds for shape [4]",
    ),
    (
        body(
            "  %i = arith.constant 1 : index",
            "  %d = memref.dim %m, %i : memref<4xi32>",
            args="%m: memref<4xi32>",
        ),
        ["--args", "dense<1> : tensor<4xi32>"],
        "memref.dim %d (in @main): dimension index 1 is out of range for a rank-1 memref",
    ),
    (
        body(
            "  %z = arith.constant 0 : i32",
            "  %d = arith.divsi %a, %z : i32",
            args="%a: i32",
        ),
        ["--args", "3 : i32"],
        "arith.divsi %d (in @main): ",
    ),
    (
        body("  %m = memref.alloc(%n) : memref<?xi32>", args="%n: index"),
        ["--args", "-3 : index"],
        "memref.alloc %m (in @main): negative dimension in shape [-3]",
    ),
    (
        body("  %m = memref.alloc() : memref<4xi32, 7>"),
        [],
        "memref.alloc %m (in @main): memory space 7 : i64 is not a scope",
    ),
    (
        body(
            f"  %s = memory.alloc_storage [16] : {STORAGE}",
            f"  %t = memory.alloc_tensor %s[0] : {STORAGE} to memref<4xi32>",
            "  %i = arith.constant 0 : index",
            "  %v = memref.load %t[%i] : memref<4xi32>",
        ),
        ["--check-uninitialized"],
        "memref.load %v (in @main): the element it loads reads bytes never written",
    ),
    (
        body(
            "  linalg.square ins(%a : memref<4xi32>) outs(%a : memref<4xi32>)",
            args="%a: memref<4xi32>",
        ),
        ["--args", "dense<3> : tensor<4xi32>"],
        "linalg.square is only defined on floats, not on i32",
    ),
    (
        body(
            "  linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned>"
            " ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%a : memref<4xi1>)",
            args="%a: memref<4xi1>",
        ),
        ["--args", "dense<true> : tensor<4xi1>"],
        "linalg max_unsigned is not defined on i1",
    ),
]


def _with_blob(blob: str) -> str:
    return (
        'memref.global "private" constant @w : memref<2xf32> = dense_resource<k>\n'
        f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      k: "{blob}"\n'
        "    }\n  }\n#-}\n" + body()
    )


PROGRAMS += [
    (
        "#map = affine_map<(d0) -> (d0)>\n"
        + body(
            '  linalg.generic {indexing_maps = [#map], iterator_types = ["sideways"]}'
            " outs(%a : memref<4xf32>) {",
            "  ^bb0(%x: f32):",
            "    linalg.yield %x : f32",
            "  }",
            args="%a: memref<4xf32>",
        ),
        [],
        "bad.mlir:3:3\n  linalg.generic {indexing_maps = [#map], iterator_types = ["
        '"sideways"]} outs(%a : memref<4xf32>) {\n  ^^^^^^^^^^^^^^\n  '
        "linalg.generic: 'sideways' is not a valid IteratorType",
    ),
    (
        body(f"  %e = arith.constant dense<1.0> : vector<{10**14}xf32>"),
        [],
        "bad.mlir:2:36",
    ),
    (
        body(f'  %e = arith.constant dense<"0x0000803F"> : vector<{10**14}xf32>'),
        [],
        "bad.mlir:2:45",
    ),
    (
        body(f"  %c = arith.constant {'9' * 5000} : i32"),
        [],
        "bad.mlir:2:23",
    ),
    (
        body(f"  %c = arith.constant {'9' * 5000} : i32"),
        [],
        "integer literal of 5,000 digits: memplan reads at most 4,300",
    ),
    (
        _with_blob("0x030000000000803F0000803F"),
        [],
        'bad.mlir:5:13\n      k: "0x0300',
    ),
    (
        _with_blob("0x030000000000803F0000803F"),
        [],
        "blob k: expected the data's alignment in its first 4 bytes, a power of two, "
        "got 3 (0x03000000)",
    ),
]


def _check(err: str, expected: str) -> None:
    assert expected in err
    assert err.startswith("memplan-run: error: ")
    assert err.count("memplan-run: error:") == 1
    assert "Traceback" not in err
    assert not re.search(r"\b[A-Z]\w*(Error|Exception)\b", err), err


@pytest.mark.parametrize(("text", "flags", "expected"), PROGRAMS)
def test_bad_programs_and_arguments_give_one_clean_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    flags: list[str],
    expected: str,
):
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    assert main([str(path), *flags]) == 1
    _check(capsys.readouterr().err, expected)


def _npz(path: Path, **arrays: np.ndarray) -> str:
    np.savez(path, **arrays)  # pyright: ignore[reportArgumentType]
    return str(path)


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        (
            "--cost-model",
            "missing.json",
            "--cost-model: cannot read {dir}/missing.json: No such file",
        ),
        (
            "--cost-model",
            "costs.json",
            "--cost-model {dir}/costs.json: unknown cost parameter",
        ),
        ("--stats-json", "", "--stats-json: cannot write {dir}: Is a directory"),
        ("--output", "", "--output: cannot write {dir}: Is a directory"),
        (
            "--args",
            "missing.npz",
            "--args {dir}/missing.npz: cannot read it as an .npz",
        ),
        ("--args", "other.npz", "--args {dir}/other.npz: has no array arg0"),
        (
            "--args",
            "binary.npz",
            "--args {dir}/binary.npz: cannot read it as an .npz archive: not a zip file",
        ),
        (
            "--cost-model",
            "binary.json",
            "--cost-model {dir}/binary.json: not UTF-8 text (byte 0xff at offset 0)",
        ),
    ],
)
def test_bad_flag_files_name_the_flag_and_the_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flag: str,
    value: str,
    expected: str,
):
    program = tmp_path / "p.mlir"
    program.write_text(SCALAR)
    (tmp_path / "costs.json").write_text('{"speed": 1}')
    _npz(tmp_path / "other.npz", x=np.zeros(2))
    for binary in ("binary.npz", "binary.json"):
        (tmp_path / binary).write_bytes(b"\xff\xfe")
    argument = str(tmp_path / value) if value else str(tmp_path)
    extra = [] if flag == "--args" else ["--args", "1 : i32"]
    assert main([str(program), flag, argument, *extra]) == 1
    _check(capsys.readouterr().err, expected.format(dir=tmp_path))


@pytest.mark.parametrize(
    "flags",
    [
        ["--target", "hexagon-v1"],
        ["--vtcm-size", "-5"],
        ["--vtcm-size", "2 GB per core"],
        ["--vtcm-size", "18446744073709551616"],
        ["--vtcm-size", "17592186044416MiB"],
        ["--no-stats", "--verbose"],
        ["--index-bitwidth", "16"],
        ["--no-such-flag"],
    ],
)
def test_bad_command_lines_exit_2_naming_the_flag(
    capsys: pytest.CaptureFixture[str], flags: list[str]
):
    with pytest.raises(SystemExit) as exit_info:
        main(["p.mlir", *flags])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert flags[0] in err and "Traceback" not in err


def test_missing_and_directory_inputs_name_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    assert main([str(tmp_path / "none.mlir")]) == 1
    _check(capsys.readouterr().err, f"cannot read {tmp_path}/none.mlir: No such file")
    assert main([str(tmp_path)]) == 1
    _check(capsys.readouterr().err, f"cannot read {tmp_path}: Is a directory")


def test_an_error_on_a_long_line_shows_the_line_cut_around_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """A blob's line may be megabytes long: the error shows a window of it."""
    path = tmp_path / "bad.mlir"
    path.write_text(_with_blob("0x04000000" + "00" * 50_000).replace('00"', "00", 1))
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    _check(err, "unterminated string literal")
    assert len(err) < 1_000 and "..." in err, err[:300]


@pytest.mark.parametrize(
    ("text", "expected"),
    LONG_TOKEN_PROGRAMS.values(),
    ids=list(LONG_TOKEN_PROGRAMS),
)
def test_an_error_quoting_a_long_token_shows_it_cut_with_its_length(
    text: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
):
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    for fragment in expected:
        _check(err, fragment)
    assert len(err) < MAX_ERROR, err[:300]


def _out_of_memory(*args: object) -> None:
    raise MemoryError


def test_running_out_of_memory_is_one_error_naming_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    path = tmp_path / "bad.mlir"
    path.write_text(SCALAR)
    monkeypatch.setattr(MemplanParser, "parse_module", _out_of_memory)
    assert main([str(path), "--args", "1 : i32"]) == 1
    _check(
        capsys.readouterr().err,
        f"{path}: out of memory: it needs more than this machine has free",
    )

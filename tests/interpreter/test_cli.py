"""The memplan-run command line: flags, outputs and clean errors."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from interpreter_helpers import EXAMPLES

from memplan.tools.memplan_run import main, parse_byte_size

SEED = str(EXAMPLES / "seed_vtcm_offsets.mlir")

SCALAR = """
func.func @main(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  func.return %s : i32
}
"""


def test_prints_results_and_stats_summary(capsys: pytest.CaptureFixture[str]):
    assert main([SEED]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("result: array([[     2,     20,")
    assert "peak bytes global=4096, global.vtcm=4096" in err


def test_stats_json_and_npz_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    stats_path, output_path = tmp_path / "stats.json", tmp_path / "out.npz"
    assert (
        main(
            [
                SEED,
                "--stats-json",
                str(stats_path),
                "--output",
                str(output_path),
                "--no-stats",
            ]
        )
        == 0
    )
    assert capsys.readouterr().err == ""
    stats = json.loads(stats_path.read_text())
    assert stats["peak_bytes"]["global.vtcm"] == 4096
    assert stats["storage_allocations"]["global.vtcm"] == 1
    with np.load(output_path) as saved:
        assert list(saved) == ["result0"]
        i, j = np.indices((4, 64))
        x = 64 * i + j
        np.testing.assert_array_equal(saved["result0"], (x + 2 * x + 1) * (3 * x + 2))


def test_args_and_symbol(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "scalar.mlir"
    path.write_text(SCALAR.replace("@main", "@add"))
    assert (
        main(
            [
                str(path),
                "--symbol",
                "add",
                "--args",
                "2147483647 : i32, 1 : i32",
                "--no-stats",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == "result: -2147483648\n"


def test_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SCALAR.encode())))
    assert main(["-", "--args", "3 : i32, 4 : i32", "--no-stats"]) == 0
    assert capsys.readouterr().out == "result: 7\n"


def test_small_vtcm_size_makes_the_seed_fail(capsys: pytest.CaptureFixture[str]):
    assert main([SEED, "--vtcm-size", "2KiB"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"memplan-run: error: {SEED}:21:3: memory.alloc_storage %vtcm (in @seed): "
        'cannot allocate 4096 bytes in "global.vtcm": no free range of its '
        "2048-byte window holds them at a 2048-byte aligned address (2048 bytes "
        "free in total, the largest free range has 2048 bytes)\n"
    )


def test_bad_target_names_the_flag(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exit_info:
        main([SEED, "--target", "hexagon-v99"])
    assert exit_info.value.code == 2
    assert "argument --target: invalid choice: 'hexagon-v99'" in capsys.readouterr().err


def test_bad_vtcm_size_names_the_flag(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        main([SEED, "--vtcm-size", "lots"])
    assert "argument --vtcm-size: invalid byte size 'lots'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("4096", 4096),
        ("256KiB", 256 * 1024),
        ("2MiB", 2 * 1024 * 1024),
        ("4M", 4 * 1024 * 1024),
        ("1kb", 1000),
    ],
)
def test_byte_sizes(text: str, size: int):
    assert parse_byte_size(text) == size


def test_missing_file_is_a_clean_error(capsys: pytest.CaptureFixture[str]):
    assert main(["/nonexistent/program.mlir"]) == 1
    assert capsys.readouterr().err == (
        "memplan-run: error: cannot read /nonexistent/program.mlir: "
        "No such file or directory\n"
    )


def test_unknown_symbol_is_a_clean_error(capsys: pytest.CaptureFixture[str]):
    assert main([SEED, "--symbol", "nope"]) == 1
    assert capsys.readouterr().err == (
        "memplan-run: error: no function named @nope in the module; the functions "
        "with a body are @compute_add_in_vtcm, @compute_mul_in_vtcm, @seed, "
        "@fill_affine, @main\n"
    )


def test_a_missing_function_lists_at_most_eight_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program = tmp_path / "many.mlir"
    program.write_text(
        "".join(f"func.func @f{i}() {{\n  func.return\n}}\n" for i in range(10))
    )
    assert main([str(program)]) == 1
    assert capsys.readouterr().err == (
        "memplan-run: error: no function named @main in the module; the functions "
        "with a body are @f0, @f1, @f2, @f3, @f4, @f5, @f6, @f7 and 2 more\n"
    )


def test_verbose_prints_the_stats_json(capsys: pytest.CaptureFixture[str]):
    assert main([SEED, "--verbose", "--target", "hexagon-v68"]) == 0
    stats = json.loads(capsys.readouterr().err)
    assert stats["target"] == "hexagon-v68"
    assert stats["capacity"]["global.vtcm"] == 4 * 1024 * 1024


def test_verifier_failure_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "bad.mlir"
    path.write_text(
        'func.func @main() {\n  %s = memory.alloc_storage [16] : !memory.storage<"global">\n'
        '  %t = memory.alloc_tensor %s[8] : !memory.storage<"global"> to memref<4xi32>\n  func.return\n}\n'
    )
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"memplan-run: error: {path}:3:3: memory.alloc_tensor %t (in @main): "
        "tensor of 16 bytes at offset 8 ends at byte 24, past the end of its "
        "16-byte storage\n"
    )


def test_cost_model_overrides_change_cycles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    default, cheap = tmp_path / "default.json", tmp_path / "cheap.json"
    costs = tmp_path / "costs.json"
    costs.write_text(
        json.dumps(
            {"op_overhead_cycles": 0, "scopes": {"global": {"latency_cycles": 0}}}
        )
    )
    assert main([SEED, "--no-stats", "--stats-json", str(default)]) == 0
    assert (
        main(
            [SEED, "--no-stats", "--stats-json", str(cheap), "--cost-model", str(costs)]
        )
        == 0
    )
    default_stats, cheap_stats = (
        json.loads(default.read_text()),
        json.loads(cheap.read_text()),
    )
    assert cheap_stats["modeled_cycles"] < default_stats["modeled_cycles"]
    assert cheap_stats["peak_bytes"] == default_stats["peak_bytes"]


def test_unknown_cost_parameter_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"warp_speed": 9}))
    assert main([SEED, "--cost-model", str(costs)]) == 1
    assert "unknown cost parameter(s): warp_speed" in capsys.readouterr().err


@pytest.mark.parametrize("args", ["foo", "3 : i32, 4 : i32 junk"])
def test_unreadable_args_name_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: str
):
    program = tmp_path / "scalar.mlir"
    program.write_text(SCALAR)
    assert main([str(program), "--args", args]) == 1
    assert (
        f"memplan-run: error: --args: cannot read '{args}'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("flag", "verb"),
    [("--cost-model", "read"), ("--stats-json", "write"), ("--output", "write")],
)
def test_unusable_file_flags_name_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, verb: str
):
    missing = tmp_path / "no-such-dir" / "file"
    assert main([SEED, flag, str(missing)]) == 1
    assert (
        f"memplan-run: error: {flag}: cannot {verb} {missing}: No such file or directory"
        in capsys.readouterr().err
    )


def test_output_is_written_to_the_path_as_given(tmp_path: Path):
    output = tmp_path / "results.bin"
    assert main([SEED, "--output", str(output), "--no-stats"]) == 0
    assert sorted(np.load(output).files) == ["result0"]
    assert not (tmp_path / "results.bin.npz").exists()


def test_empty_input_is_a_clean_error(capsys: pytest.CaptureFixture[str]):
    assert main(["/dev/null"]) == 1
    assert capsys.readouterr().err == (
        "memplan-run: error: /dev/null is empty: there is no function to run\n"
    )


def test_binary_input_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "binary.mlir"
    path.write_bytes(b"\xff\xfe\x00")
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"memplan-run: error: cannot read {path}: not UTF-8 text (byte 0xff at "
        "offset 0)\n"
    )


@pytest.mark.parametrize(
    ("costs", "message"),
    [
        (
            {"op_overhead_cycles": "10"},
            'op_overhead_cycles must be a non-negative number, got "10"',
        ),
        (
            {"scopes": {"global": {"bytes_per_cycle": 0}}},
            "scopes.global.bytes_per_cycle must be a positive number, got 0",
        ),
        (
            {"copy_setup_cycles": -1},
            "copy_setup_cycles must be a non-negative number, got -1",
        ),
        ({"vector_bytes": 1.5}, "vector_bytes must be a positive integer, got 1.5"),
        (
            {"macs_per_cycle": True},
            "macs_per_cycle must be a positive number, got true",
        ),
        ([1, 2], "expected a JSON object of cost parameters, got [1, 2]"),
        ({"scopes": 3}, "scopes must map scope names to objects of"),
        ({"scopes": {"global": 3}}, "scopes.global must be an object of"),
    ],
)
def test_bad_cost_model_values_name_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], costs: object, message: str
):
    path = tmp_path / "costs.json"
    path.write_text(json.dumps(costs))
    assert main([SEED, "--cost-model", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"memplan-run: error: --cost-model {path}: {message}")
    assert err.count("\n") == 1


def test_cost_model_that_is_not_json_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "costs.json"
    path.write_text("{bad")
    assert main([SEED, "--cost-model", str(path)]) == 1
    assert capsys.readouterr().err.startswith(
        f"memplan-run: error: --cost-model {path}: not valid JSON: "
    )


NAIVE = str(EXAMPLES / "seed_naive.mlir")
SEED_ARGS = ", ".join(
    f"dense<{v}> : tensor<4x64xi32>" for v in (1, 2, 3, 0)
)  # @seed(x, y, z, out): out = (x + y) * z


def test_memref_arguments_the_call_writes_are_printed_and_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    output = tmp_path / "out.npz"
    assert (
        main([NAIVE, "--symbol", "seed", "--args", SEED_ARGS, "--output", str(output)])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("arg3: array([[9, 9, 9,")
    assert "result" not in out
    with np.load(output) as saved:
        assert saved.files == ["arg3"]
        np.testing.assert_array_equal(saved["arg3"], np.full((4, 64), 9, np.int32))


def test_help_says_what_verbose_does(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--verbose print the full statistics as JSON on stderr" in help_text
    assert "Print resulting Python values" not in help_text


def test_args_from_an_npz_file_and_output_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program = tmp_path / "scale.mlir"
    program.write_text(
        "func.func @main(%x: memref<2x3xf32>, %k: f32) -> memref<2x3xf32> {\n"
        "  %y = memref.alloc() : memref<2x3xf32>\n"
        "  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
        'affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} '
        "ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>) {\n"
        "  ^bb0(%a: f32, %b: f32):\n"
        "    %m = arith.mulf %a, %k : f32\n"
        "    linalg.yield %m : f32\n"
        "  }\n"
        "  func.return %y : memref<2x3xf32>\n"
        "}\n"
    )
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    inputs, output = tmp_path / "inputs.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=x, arg1=np.float32(2.5), result0=x * 2.5)
    assert main([str(program), "--args", str(inputs), "--output", str(output)]) == 0
    with np.load(output) as saved, np.load(inputs) as expected:
        assert saved.files == ["result0"]
        np.testing.assert_array_equal(saved["result0"], expected["result0"])


def test_an_npz_array_stored_in_fortran_order_is_read_row_major(tmp_path: Path):
    """np.savez keeps a Fortran-order array so; its values are what count."""
    program = tmp_path / "flatten.mlir"
    program.write_text(
        "func.func @main(%x: memref<2x3xf32>) -> memref<6xf32> {\n"
        "  %f = memref.collapse_shape %x [[0, 1]] : memref<2x3xf32> into memref<6xf32>\n"
        "  %y = memref.alloc() : memref<6xf32>\n"
        "  memref.copy %f, %y : memref<6xf32> to memref<6xf32>\n"
        "  func.return %y : memref<6xf32>\n"
        "}\n"
    )
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    inputs, output = tmp_path / "inputs.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=np.asfortranarray(x))
    assert main([str(program), "--args", str(inputs), "--output", str(output)]) == 0
    with np.load(output) as saved:
        np.testing.assert_array_equal(saved["result0"], x.ravel())


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (
            {"arg0": np.zeros(3, np.int32)},
            "has no array arg1 for argument 1 (i32); it holds arg0",
        ),
        (
            {"arg0": np.zeros(3, np.int32), "arg1": np.int32(1), "arg2": np.int32(2)},
            "holds arg2, but the function takes 2 argument(s)",
        ),
        (
            {"arg0": np.zeros(3, np.float32), "arg1": np.int32(1)},
            "argument 0 is a float32 array of shape [3], expected memref<3xi32>",
        ),
        (
            {"arg0": np.zeros(3, np.int32), "arg1": np.float32(1.5)},
            "argument 1 of type i32 must be an integer, got 1.5",
        ),
    ],
)
def test_bad_npz_arguments_name_the_file_and_the_argument(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    arrays: dict[str, np.ndarray],
    message: str,
):
    program = tmp_path / "p.mlir"
    program.write_text(
        "func.func @main(%x: memref<3xi32>, %n: i32) -> i32 {\n"
        "  func.return %n : i32\n}\n"
    )
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **arrays)  # pyright: ignore[reportArgumentType]
    assert main([str(program), "--args", str(inputs)]) == 1
    assert (
        capsys.readouterr().err == f"memplan-run: error: --args {inputs}: {message}\n"
    )


def test_an_npz_path_that_is_not_an_archive_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program = tmp_path / "p.mlir"
    program.write_text(SCALAR)
    inputs = tmp_path / "in.npz"
    inputs.write_text("not a zip")
    assert main([str(program), "--args", str(inputs)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"memplan-run: error: --args {inputs}: cannot read it as an .npz"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            "1.5 : f32, 2 : i32",
            "argument 0 of type i32 needs an integer literal, got the float",
        ),
        ("1.5, 2 : i32", "argument 0 of type i32 needs an integer literal"),
        ("4294967296 : i64, 1 : i32", "argument 0 of type i32 must be in"),
        ("dense<1> : tensor<2xi32>, 1 : i32", "argument 0 of type i32 cannot be"),
        (
            "255 : i8, 1 : i32",
            "argument 0 of type i32 cannot take -1 : i8: a signless i8 literal "
            "holds -1 and 255 alike; write the one meant in the argument's type: "
            "255 : i32 or -1 : i32",
        ),
        (
            "true, 1 : i32",
            "argument 0 of type i32 cannot take true: a signless i1 literal holds "
            "-1 and 1 alike; write the one meant in the argument's type: 1 : i32 "
            "or -1 : i32",
        ),
        (
            "300 : i8, 1 : i32",
            "Integer value 300 is out of range for type i8",
        ),
    ],
)
def test_scalar_arguments_are_never_truncated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: str, message: str
):
    program = tmp_path / "scalar.mlir"
    program.write_text(SCALAR)
    assert main([str(program), "--args", args]) == 1
    assert capsys.readouterr().err.startswith(f"memplan-run: error: --args: {message}")


@pytest.mark.parametrize(
    ("args", "results"),
    [
        ("true, 1 : i8", "True,\n    1\n"),
        ("1 : i1, 255 : i8", "True,\n    -1\n"),
        ("false, false", "False,\n    0\n"),
        ("true, -1 : i64", "True,\n    -1\n"),
    ],
)
def test_signless_literals_keep_their_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: str, results: str
):
    """xDSL holds `true` and `255 : i8` as -1: `true` still passes an i1,
    `false` is 0 in any integer, and an i8 literal gives an i8 argument its
    bits."""
    program = tmp_path / "flags.mlir"
    program.write_text(
        "func.func @main(%b: i1, %x: i8) -> (i1, i8) {\n"
        "  func.return %b, %x : i1, i8\n}\n"
    )
    assert main([str(program), "--args", args, "--no-stats"]) == 0
    assert capsys.readouterr().out == f"result: (\n    {results})\n"


@pytest.mark.parametrize(
    "literal",
    ["dense<1> : tensor<3x8xi32>", "dense<1.0> : tensor<4x8xf32>", "3 : i32"],
)
def test_memref_arguments_need_a_literal_of_their_type_and_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], literal: str
):
    program = tmp_path / "dim.mlir"
    program.write_text("func.func @main(%m: memref<4x8xi32>) {\n  func.return\n}\n")
    assert main([str(program), "--args", literal]) == 1
    assert capsys.readouterr().err.startswith(
        "memplan-run: error: --args: argument 0 of type memref<4x8xi32> needs a "
        "dense literal of type tensor<4x8xi32>, got "
    )


def test_errors_never_show_python_exception_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program = tmp_path / "space.mlir"
    program.write_text(
        "func.func @main(%m: memref<4xi32, 1>) {\n"
        "  %c = memref.alloc() : memref<4xi32, 1>\n"
        "  func.return\n}\n"
    )
    assert main([str(program), "--args", "dense<1> : tensor<4xi32>"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"memplan-run: error: {program}:2:3: memref.alloc %c (in @main): "
    )
    assert "Exception" not in err and "Error:" not in err


DYNAMIC_ROWS = """
func.func @main(%x: memref<?x3xf32>) -> memref<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  %y = memref.alloc(%n) : memref<?x3xf32>
  memref.copy %x, %y : memref<?x3xf32> to memref<?x3xf32>
  func.return %y : memref<?x3xf32>
}
"""


def test_args_set_reads_an_input_set_at_another_size(tmp_path: Path):
    """export_model.py stores a dynamic model's inputs at other sizes as
    setN/arg0, ...: --args-set picks one, at its own size."""
    program = tmp_path / "rows.mlir"
    program.write_text(DYNAMIC_ROWS)
    inputs, output = tmp_path / "inputs.npz", tmp_path / "out.npz"
    example, other = np.ones((2, 3), np.float32), np.arange(15, dtype=np.float32)
    arrays = {"arg0": example, "set1/arg0": other.reshape(5, 3)}
    np.savez(inputs, **arrays)  # pyright: ignore[reportArgumentType]
    for input_set, want in (
        ([], example),
        (["--args-set", "set1"], arrays["set1/arg0"]),
    ):
        command = [str(program), "--args", str(inputs), *input_set]
        assert main([*command, "--output", str(output), "--no-stats"]) == 0
        with np.load(output) as saved:
            np.testing.assert_array_equal(saved["result0"], want)


@pytest.mark.parametrize(
    ("arrays", "flags", "message"),
    [
        (
            {"arg0": np.zeros((2, 3), np.float32), "set1/arg0": np.zeros((4, 4))},
            ["--args-set", "set1"],
            "argument 0 is a float64 array of shape [4, 4], expected memref<?x3xf32>",
        ),
        (
            {"arg0": np.zeros((2, 4), np.float32)},
            [],
            "argument 0 is a float32 array of shape [2, 4], expected memref<?x3xf32>",
        ),
        (
            {"arg0": np.zeros((2, 3, 1), np.float32)},
            [],
            "argument 0 is a float32 array of shape [2, 3, 1], expected memref<?x3xf32>",
        ),
        (
            {"arg0": np.zeros((2, 3), np.float32), "set1/arg0": np.zeros((4, 3))},
            ["--args-set", "set7"],
            "has no input set set7 (arrays set7/arg0, ...); its input sets are: set1",
        ),
        (
            {"arg0": np.zeros((2, 3), np.float32)},
            ["--args-set", "set1"],
            "has no input set set1 (arrays set1/arg0, ...); its input sets are: none",
        ),
        (
            {"set1/arg0": np.zeros((2, 3), np.float32), "set1/arg1": np.int32(1)},
            ["--args-set", "set1"],
            "holds set1/arg1, but the function takes 1 argument(s)",
        ),
    ],
)
def test_an_input_of_another_size_or_rank_is_a_clean_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    arrays: dict[str, np.ndarray],
    flags: list[str],
    message: str,
):
    """A dynamic size takes any size; a static size, the rank and the element
    type must be the argument's."""
    program = tmp_path / "rows.mlir"
    program.write_text(DYNAMIC_ROWS)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **arrays)  # pyright: ignore[reportArgumentType]
    status = main([str(program), "--args", str(inputs), *flags, "--no-stats"])
    err = capsys.readouterr().err
    assert (status, err) == (1, f"memplan-run: error: --args {inputs}: {message}\n")


def test_args_set_without_an_npz_is_a_clean_error(capsys: pytest.CaptureFixture[str]):
    assert main([SEED, "--args-set", "set1"]) == 1
    assert capsys.readouterr().err == (
        "memplan-run: error: --args-set set1: names an input set of an .npz "
        "archive, but --args is not an .npz path\n"
    )

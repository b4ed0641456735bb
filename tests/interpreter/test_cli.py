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
    assert err.startswith(
        'memplan-run: error: memory.alloc_storage: cannot allocate 4096 bytes in "global.vtcm": 0 of 2048'
    )
    assert "Traceback" not in err


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
    assert (
        capsys.readouterr().err
        == "memplan-run: error: no function named @nope in the module\n"
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
    err = capsys.readouterr().err
    assert err.startswith(
        "memplan-run: error: tensor of 16 bytes at offset 8 ends at byte 24"
    )
    assert "Traceback" not in err


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

"""Functions on tensors as MLIR's default one-shot-bufferize leaves them:
tensor arguments and results, `bufferization.to_buffer` and `to_tensor`."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from interpreter_helpers import Run, parse

from memplan.context import memplan_context
from memplan.interpreter import InterpretationError, run_function
from memplan.interpreter.cost import CostModel, profile
from memplan.interpreter.errors import READ_ONLY_WRITE
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.targets import get_target
from memplan.tools.memplan_run import main

BUFFERIZED = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "one_shot_bufferize"
    / "add_mul_add.mlir"
)
A = np.linspace(-2.0, 3.0, 16, dtype=np.float32)
B = np.arange(16, dtype=np.float32)
EXPECTED = (A + B) * A + B


def _planned(text: str) -> str:
    module = parse(text)
    for module_pass in (MemoryManifestPass(), MemoryPlanPass()):
        module_pass.apply(memplan_context(), module)
    return str(module)


def test_one_shot_bufferized_function_runs_the_same_before_and_after_planning():
    text = BUFFERIZED.read_text()
    planned = _planned(text)
    assert "memory.alloc_tensor" in planned
    a, b = A.copy(), B.copy()
    for program in (text, planned):
        (result,) = run_function(parse(program), "main", (a, b)).results
        np.testing.assert_array_equal(result, EXPECTED)
    np.testing.assert_array_equal(a, A)
    np.testing.assert_array_equal(b, B)


def test_memplan_run_prints_the_same_tensor_result_before_and_after_planning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    planned = tmp_path / "planned.mlir"
    planned.write_text(_planned(BUFFERIZED.read_text()))
    args = "dense<1.5> : tensor<16xf32>, dense<2.0> : tensor<16xf32>"
    outputs = []
    for program in (BUFFERIZED, planned):
        assert main([str(program), "--args", args, "--no-stats"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("result: array([7.25, 7.25,")
    assert "arg" not in outputs[0]


def test_tensor_arguments_from_an_npz_file_and_saved_tensor_results(tmp_path: Path):
    inputs, output = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=A, arg1=B)
    assert main([str(BUFFERIZED), "--args", str(inputs), "--output", str(output)]) == 0
    with np.load(output) as saved:
        assert saved.files == ["result0"]
        np.testing.assert_array_equal(saved["result0"], EXPECTED)


STORAGE = '!memory.storage<"global">'
STRIDED = "memref<4xf32, strided<[?], offset: ?>>"


def _program(*lines: str) -> str:
    """@main copies its tensor argument into a tensor `%m` of storage `%s`,
    runs `lines` (which define `%t`) and returns `%t`."""
    return "\n".join(
        [
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {",
            f"  %in = bufferization.to_buffer %a : tensor<4xf32> to {STRIDED}",
            f"  %s = memory.alloc_storage [16] : {STORAGE}",
            f"  %m = memory.alloc_tensor %s[0] : {STORAGE} to memref<4xf32>",
            f"  linalg.copy ins(%in : {STRIDED}) outs(%m : memref<4xf32>)",
            *lines,
            "  func.return %t : tensor<4xf32>",
            "}",
        ]
    )


TO_TENSOR = "  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>"
FILL = "  %c = arith.constant 7.0 : f32\n  linalg.fill ins(%c : f32) outs({} : {})"


def test_to_tensor_is_an_alias_of_the_memref_not_a_snapshot(run: Run):
    program = _program(TO_TENSOR, FILL.format("%m", "memref<4xf32>"))
    (result,) = run(program, np.arange(4, dtype=np.float32)).results
    np.testing.assert_array_equal(result, np.full(4, 7.0, np.float32))


KILLED = "after it was killed by memory.kill (in @main), which killed its storage"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((TO_TENSOR, f"  memory.kill %s : {STORAGE}"), KILLED),
        ((f"  memory.kill %s : {STORAGE}", TO_TENSOR), KILLED),
        (
            (TO_TENSOR, "  memory.kill %m : memref<4xf32>"),
            "after it was killed by memory.kill (in @main)",
        ),
        (
            (
                TO_TENSOR,
                f"  %o = memory.alloc_tensor %s[0] : {STORAGE} to memref<4xf32>",
                FILL.format("%o", "memref<4xf32>"),
            ),
            "but memory.alloc_tensor %o (in @main) was placed over its bytes [0, 16)",
        ),
    ],
    ids=["storage-killed-after", "storage-killed-before", "tensor-killed", "reused"],
)
def test_a_plan_that_frees_or_reuses_a_returned_tensor_s_bytes_is_reported(
    run: Run, lines: tuple[str, ...], message: str
):
    with pytest.raises(InterpretationError) as error:
        run(_program(*lines), np.zeros(4, np.float32))
    assert str(error.value).startswith(
        "@main result 0: uses the tensor allocated by memory.alloc_tensor %m (in @main)"
    )
    assert message in str(error.value)


def test_reading_a_dead_tensor_through_to_buffer_is_reported(run: Run):
    program = _program(
        TO_TENSOR,
        f"  memory.kill %s : {STORAGE}",
        "  %back = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>",
        f"  %n = memory.alloc_storage [16] : {STORAGE}",
        f"  %o = memory.alloc_tensor %n[0] : {STORAGE} to memref<4xf32>",
        "  linalg.copy ins(%back : memref<4xf32>) outs(%o : memref<4xf32>)",
    )
    with pytest.raises(
        InterpretationError, match=f"^linalg.copy .*{re.escape(KILLED)}$"
    ):
        run(program, np.zeros(4, np.float32))


@pytest.mark.parametrize(
    "lines",
    [
        (TO_TENSOR, FILL.format("%in", STRIDED)),
        (
            TO_TENSOR,
            "  %r = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>",
            FILL.format("%r", "memref<4xf32>"),
        ),
    ],
    ids=["tensor-argument", "read-only"],
)
def test_writing_a_buffer_mlir_leaves_undefined_to_write_stops_the_run(
    run: Run, lines: tuple[str, ...]
):
    argument = np.arange(4, dtype=np.float32)
    with pytest.raises(InterpretationError) as error:
        run(_program(*lines), argument)
    assert str(error.value) == f"linalg.fill (in @main): {READ_ONLY_WRITE}"
    np.testing.assert_array_equal(argument, np.arange(4, dtype=np.float32))


def test_writing_through_to_buffer_of_a_to_tensor_reaches_the_memref(run: Run):
    program = _program(
        TO_TENSOR,
        "  %w = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>",
        FILL.format("%w", "memref<4xf32>"),
        "  %u = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>",
    ).replace("return %t", "return %u")
    (result,) = run(program, np.zeros(4, np.float32)).results
    np.testing.assert_array_equal(result, np.full(4, 7.0, np.float32))


DYNAMIC = """
func.func @main(%a: tensor<?x3xi32>) -> (tensor<?x3xi32>, index) {
  %c0 = arith.constant 0 : index
  %m = bufferization.to_buffer %a : tensor<?x3xi32> to memref<?x3xi32, strided<[?, ?], offset: ?>>
  %n = memref.dim %m, %c0 : memref<?x3xi32, strided<[?, ?], offset: ?>>
  %o = memref.alloc(%n) : memref<?x3xi32>
  linalg.add ins(%m, %m : memref<?x3xi32, strided<[?, ?], offset: ?>>, memref<?x3xi32, strided<[?, ?], offset: ?>>) outs(%o : memref<?x3xi32>)
  %t = bufferization.to_tensor %o : memref<?x3xi32> to tensor<?x3xi32>
  func.return %t, %n : tensor<?x3xi32>, index
}
"""


def test_dynamic_tensor_arguments_and_results_take_the_array_s_sizes(run: Run):
    values = np.arange(6, dtype=np.int32).reshape(2, 3)
    result, rows = run(DYNAMIC, values).results
    np.testing.assert_array_equal(result, values * 2)
    assert rows == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            np.zeros(4, np.float64),
            "argument 0 is a float64 array of shape [4], expected tensor<4xf32>",
        ),
        (
            np.zeros(5, np.float32),
            "argument 0 is a float32 array of shape [5], expected tensor<4xf32>",
        ),
        (1.0, "argument 0 must be a numpy array for tensor<4xf32>"),
    ],
)
def test_a_tensor_argument_of_another_dtype_or_shape_is_refused(
    run: Run, value: object, message: str
):
    with pytest.raises(InterpretationError) as error:
        run(_program(TO_TENSOR), value)
    assert str(error.value) == f"@main: {message}"


def test_conversions_cost_nothing():
    module = parse(BUFFERIZED.read_text())
    cost = CostModel(get_target())
    conversions = [
        op for op in module.walk() if op.name.startswith("bufferization.to_")
    ]
    assert len(conversions) == 5
    assert {cost.fixed_cycles(profile(op)) for op in conversions} == {0.0}


def test_a_to_tensor_of_bytes_never_written_is_an_uninitialized_result():
    program = """
func.func @main() -> tensor<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  func.return %t : tensor<4xf32>
}
"""
    with pytest.raises(InterpretationError, match=r"^@main result 0: result 0 reads"):
        run_function(parse(program), check_uninitialized=True)

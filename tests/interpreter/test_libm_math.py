"""`libm_math=True` (`memplan-run --libm-math`): math functions call the C
library's, as MLIR's compiled code does, and the ops MLIR expands compute
its expansion.

The inputs below are ones where memplan's default (numpy in f64, rounded)
differs from glibc's f32 and f64 functions on x86-64; the expected bits are
the C library's, called here through ctypes on the same machine.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from interpreter_helpers import parse

from memplan.interpreter import InterpretationError, libm, run_function
from memplan.interpreter.element_types import BF16
from memplan.tools.memplan_run import main

DIFFERING = {
    ("exp", "f32"): [0.092534139752388, 0.011082109995186329, -0.10489722341299057],
    ("tanh", "f32"): [-0.9489004611968994, -0.38560399413108826, 0.2820369005203247],
    ("erf", "f32"): [-1.3093057870864868, -0.8662995100021362, -1.4177629947662354],
    ("log", "f32"): [4.099390506744385, 1.0937020778656006, 2.6895785331726074],
    ("sin", "f32"): [-3.7771966457366943, -3.833040475845337, 3.4945919513702393],
    ("exp", "f64"): [-1.7150619964753844, -1.4153771483249091, -2.914094414380338],
    ("tanh", "f64"): [5.963654081436005, 1.7119076383911604, -0.0718380068539107],
    ("log", "f64"): [1.023325236266874, 0.31687677489286337, 0.9822020463433361],
}
"""(function, type) -> inputs where numpy's f64 result, rounded, is not the
C library's (found by sampling normal values)."""

DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}


def _c_library_result(name: str, element: str, *operands: list[float]) -> np.ndarray:
    """`name` of the C library, called through ctypes on each element of
    `operands` (one list per operand)."""
    library = ctypes.CDLL(ctypes.util.find_library("m"))
    number = ctypes.c_float if element == "f32" else ctypes.c_double
    function = getattr(library, name if element == "f64" else f"{name}f")
    function.restype, function.argtypes = number, [number] * len(operands)
    return np.array(
        [function(*v) for v in zip(*operands, strict=True)], DTYPES[element]
    )


def _scalar_program(name: str, element: str) -> str:
    return f"""
func.func @main(%x: {element}) -> {element} {{
  %r = math.{name} %x : {element}
  func.return %r : {element}
}}
"""


def _body_program(name: str, element: str, size: int) -> str:
    memref = f"memref<{size}x{element}>"
    return f"""
#id = affine_map<(d0) -> (d0)>
func.func @main(%a: {memref}, %c: {memref}) {{
  linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel"]}}
      ins(%a : {memref}) outs(%c : {memref}) {{
  ^bb0(%x: {element}, %unused: {element}):
    %r = math.{name} %x : {element}
    linalg.yield %r : {element}
  }}
  func.return
}}
"""


@pytest.mark.parametrize(("name", "element"), sorted(DIFFERING))
def test_a_scalar_math_op_gives_the_c_librarys_bits(name: str, element: str):
    values = DIFFERING[name, element]
    expected = _c_library_result(name, element, values)
    module = parse(_scalar_program(name, element))
    dtype = DTYPES[element]
    got = [
        run_function(module, "main", [dtype.type(v)], libm_math=True).results[0]
        for v in values
    ]
    assert np.array(got, dtype).tobytes() == expected.tobytes()


@pytest.mark.parametrize(("name", "element"), sorted(DIFFERING))
def test_a_math_op_in_a_linalg_body_gives_the_c_librarys_bits(name: str, element: str):
    values = DIFFERING[name, element]
    expected = _c_library_result(name, element, values)
    dtype = DTYPES[element]
    a, c = np.array(values, dtype), np.zeros(len(values), dtype)
    run_function(
        parse(_body_program(name, element, len(values))), "main", [a, c], libm_math=True
    )
    assert c.tobytes() == expected.tobytes()


NAMED = """
func.func @main(%a: memref<3xf32>, %b: memref<3xf32>, %c: memref<3xf32>,
    %e: memref<3xf32>, %l: memref<3xf32>, %t: memref<3xf32>) {
  linalg.exp ins(%a : memref<3xf32>) outs(%e : memref<3xf32>)
  linalg.log ins(%b : memref<3xf32>) outs(%l : memref<3xf32>)
  linalg.elementwise kind=#linalg.elementwise_kind<tanh>
      ins(%c : memref<3xf32>) outs(%t : memref<3xf32>)
  func.return
}
"""


def test_named_linalg_ops_give_the_c_librarys_bits():
    """`linalg.exp` and `linalg.log` (numpy kernels of their own) and
    `linalg.elementwise` (through its body)."""
    names = ("exp", "log", "tanh")
    inputs = [np.array(DIFFERING[name, "f32"], np.float32) for name in names]
    outputs = [np.zeros(3, np.float32) for _ in names]
    run_function(parse(NAMED), "main", [*inputs, *outputs], libm_math=True)
    for name, values, result in zip(names, inputs, outputs, strict=True):
        expected = _c_library_result(name, "f32", values.tolist())
        assert result.tobytes() == expected.tobytes(), name


SOFTMAX = """
func.func @main(%x: memref<1x2xf32>, %y: memref<1x2xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<1x2xf32>) outs(%y : memref<1x2xf32>)
  func.return
}
"""


def test_softmax_exponentiates_with_the_c_librarys_expf():
    """MLIR decomposes softmax into exp(x - max) / sum (a sum from 0 in
    index order): with a maximum of 0, `expf` of the inputs."""
    x = np.array([[0.0, DIFFERING["exp", "f32"][2]]], np.float32)
    y = np.zeros_like(x)
    run_function(parse(SOFTMAX), "main", [x, y], libm_math=True)
    exps = _c_library_result("exp", "f32", x[0].tolist())
    total = np.float32(0)
    for value in exps:
        total = np.float32(value + total)
    assert y.tobytes() == (exps / total).astype(np.float32).tobytes()


@pytest.fixture
def requested(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, bool]]]:
    """The C functions `libm.call` asks for: (name, takes doubles)."""
    asked: list[tuple[str, bool]] = []
    function = libm._function  # pyright: ignore[reportPrivateUsage]

    def spy(name: str, arity: int, double: bool):
        asked.append((name, double))
        return function(name, arity, double)

    monkeypatch.setattr(libm, "_function", spy)
    yield asked


@pytest.mark.parametrize(
    ("element", "dtype", "called"),
    [
        ("f16", np.dtype(np.float16), ("tanhf", False)),
        ("bf16", BF16, ("tanhf", False)),
        ("f32", np.dtype(np.float32), ("tanhf", False)),
        ("f64", np.dtype(np.float64), ("tanh", True)),
    ],
)
def test_each_type_calls_mlirs_c_function(
    element: str,
    dtype: np.dtype,
    called: tuple[str, bool],
    requested: list[tuple[str, bool]],
):
    """f64 calls `tanh`, f32 `tanhf`, f16 and bf16 `tanhf` on their values
    extended to f32, rounded back once, as LLVM lowers their calls."""
    a = np.array([-0.9489004611968994, 0.5, 3.0], dtype)
    c = np.zeros(3, dtype)
    run_function(
        parse(_body_program("tanh", element, 3)), "main", [a, c], libm_math=True
    )
    assert requested == [called]
    wide = a.astype(np.float32 if dtype != np.float64 else np.float64)
    single = "f64" if dtype == np.float64 else "f32"
    expected = _c_library_result("tanh", single, wide.tolist()).astype(dtype)
    assert c.tobytes() == expected.tobytes()


def test_without_libm_math_no_c_function_is_called(
    requested: list[tuple[str, bool]],
):
    a, c = np.array([0.5], np.float32), np.zeros(1, np.float32)
    run_function(parse(_body_program("tanh", "f32", 1)), "main", [a, c])
    assert requested == []


EXPANDED = """
func.func @main(%x: f32) -> (f32, f32) {
  %e = math.expm1 %x : f32
  %l = math.log1p %x : f32
  func.return %e, %l : f32, f32
}
"""


def test_expm1_and_log1p_compute_mlirs_expansions():
    """MLIR lowers expm1 to exp(x) - 1 and log1p to log(1 + x): on a tiny x
    both are 0, where the functions give x."""
    module = parse(EXPANDED)
    tiny = np.float32(1e-10)
    assert run_function(module, "main", [tiny], libm_math=True).results == (0.0, 0.0)
    default = run_function(module, "main", [tiny]).results
    assert default == (pytest.approx(1e-10), pytest.approx(1e-10))


FPOWI_MINIMUM = """
func.func @main(%x: f64) -> f64 {
  %n = arith.constant -2147483648 : i32
  %r = math.fpowi %x, %n : f64, i32
  func.return %r : f64
}
"""


def test_fpowi_of_the_minimum_exponent_is_mlirs_power_of_the_maximum_times_x():
    """convert-math-to-funcs raises x to the i32 minimum as 1 / (x ** (2**31
    - 1) * x); LLVM's powi (the default) as 1 / x ** 2**31 by squaring."""
    x = np.float64(1.0000001)
    power = np.float64(1.0)
    square = x
    for _ in range(31):  # 2**31 - 1: every bit of the exponent
        power, square = power * square, square * square
    expected = 1 / (power * x)
    module = parse(FPOWI_MINIMUM)
    got = run_function(module, "main", [x], libm_math=True).results[0]
    assert got == expected
    assert run_function(module, "main", [x]).results[0] != expected


POWERS = """
func.func @main(%x: f32) -> (f32, f32, f32, f32) {
  %two = arith.constant 2.0 : f32
  %half = arith.constant 5.000000e-01 : f64
  %eight = arith.constant 8.0 : f32
  %h = arith.truncf %half : f64 to f32
  %square = math.powf %x, %two : f32
  %root = math.powf %x, %h : f32
  %exp = math.powf %eight, %x : f32
  %pow = math.powf %x, %x : f32
  func.return %square, %root, %exp, %pow : f32, f32, f32, f32
}
"""


@pytest.mark.parametrize(
    "value", [27.4189395904541, 3.618586778640747, 0.6071626543998718]
)
def test_powf_of_a_constant_is_what_llvms_optimizer_makes_of_it(value: float):
    """x ** 2.0 is x * x, x ** 0.5 (its constant truncated from f64) a
    square root, 8 ** x exp2f(3 * x), where `powf` differs on these inputs;
    x ** x is `powf`."""
    x = np.float32(value)
    got = run_function(parse(POWERS), "main", [x], libm_math=True).results
    exp2 = _c_library_result("exp2", "f32", [float(x * np.float32(3))])[0]
    powf = _c_library_result("pow", "f32", [value], [value])[0]
    assert np.array(got, np.float32).tobytes() == (
        np.array([x * x, np.sqrt(x), exp2, powf], np.float32).tobytes()
    )


@pytest.fixture
def no_c_library(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """ctypes finds no library with the math functions."""
    monkeypatch.setattr(
        libm,
        "_candidates",
        lambda: [str(Path(__file__).parent / "no-such-libm.so")],
    )
    libm.c_library.cache_clear()
    yield
    monkeypatch.undo()
    libm.c_library.cache_clear()


@pytest.mark.usefixtures("no_c_library")
def test_a_missing_c_library_is_a_clear_error_before_the_run():
    with pytest.raises(InterpretationError, match="--libm-math needs the C library"):
        run_function(
            parse(_scalar_program("exp", "f32")), "main", [1.0], libm_math=True
        )


@pytest.mark.usefixtures("no_c_library")
def test_memplan_run_reports_a_missing_c_library_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program = tmp_path / "exp.mlir"
    program.write_text(_scalar_program("exp", "f32"))
    assert main([str(program), "--args", "1.0 : f32", "--libm-math"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("memplan-run: error: --libm-math needs the C library's")
    assert "no-such-libm.so" in err


def test_memplan_run_libm_math_prints_the_c_librarys_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    program, output = tmp_path / "tanh.mlir", tmp_path / "out.npz"
    program.write_text(_scalar_program("tanh", "f32"))
    value = DIFFERING["tanh", "f32"][0]
    arguments = ["--args", f"{value!r} : f32", "--output", str(output), "--no-stats"]
    assert main([str(program), *arguments, "--libm-math"]) == 0
    with np.load(output) as saved:
        got = saved["result0"]
    expected = _c_library_result("tanh", "f32", [value])
    assert got.astype(np.float32).tobytes() == expected.tobytes()


def test_help_describes_libm_math(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--libm-math compute math functions (exp, tanh, erf, ...) as MLIR's" in (
        help_text
    )


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BF16], ids=["f16", "bf16"])
def test_a_large_16_bit_array_calls_the_function_once_per_bit_pattern(
    dtype: np.dtype, monkeypatch: pytest.MonkeyPatch
):
    """Past `TABLE_ABOVE` elements a one-operand function of f16 or bf16
    reads a table of its 65,536 results: the bits of one call per element."""
    calls = [0]
    function = libm._function  # pyright: ignore[reportPrivateUsage]

    def counted(name: str, arity: int, double: bool):
        called = function(name, arity, double)

        def count(*operands: float) -> float:
            calls[0] += 1
            return called(*operands)

        return count

    monkeypatch.setattr(libm, "_function", counted)
    patterns = np.arange(1 << 16, dtype=np.uint16).view(dtype)
    values = np.concatenate([patterns[::-1], patterns[:1000]])
    with np.errstate(all="ignore"):
        tabled = libm.call("sinh", values)
        assert calls[0] <= 1 << 16
        monkeypatch.setattr(libm, "TABLE_ABOVE", values.size)
        one_by_one = libm.call("sinh", values)
    assert tabled.tobytes() == one_by_one.tobytes()


POWER_NEST = """
func.func @main(%a: memref<200xf32>, %b: memref<200xf32>, %c: memref<200xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 200 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<200xf32>
    %y = memref.load %b[%i] : memref<200xf32>
    %p = math.powf %x, %y : f32
    memref.store %p, %c[%i] : memref<200xf32>
  }
  func.return
}
"""


def test_a_loop_nest_with_powf_runs_on_arrays_with_libm_math(
    requested: list[tuple[str, bool]],
):
    """`powf` keeps a nest op by op by default (numpy's `power` gives other
    bits on arrays); with the mode it calls `powf` for each element either
    way, so the nest runs on arrays: one call of `libm.call`, not 200."""
    rng = np.random.default_rng(9)
    a = np.abs(rng.standard_normal(200)).astype(np.float32)
    b = rng.standard_normal(200).astype(np.float32)
    c = np.zeros(200, np.float32)
    run_function(parse(POWER_NEST), "main", [a, b, c], libm_math=True)
    assert requested == [("powf", False)]
    expected = _c_library_result("pow", "f32", a.tolist(), b.tolist())
    assert c.tobytes() == expected.tobytes()

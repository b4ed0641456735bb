"""memref.global initial values, dense_resource blobs first, as memplan-run reads them."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from memplan.context import parse_module
from memplan.interpreter import InterpretationError, run_function


def blob(values: np.ndarray) -> str:
    """MLIR's hex blob: a 4-byte little-endian alignment, then the data."""
    alignment = max(values.dtype.itemsize, 1).to_bytes(4, "little")
    data = values.astype(values.dtype.newbyteorder("<")).tobytes()
    return "0x" + (alignment + data).hex().upper()


def program(globals_: str, body: str, results: str, blobs: dict[str, str]) -> str:
    entries = ",\n      ".join(f'{key}: "{text}"' for key, text in blobs.items())
    section = (
        f"{{-#\n  dialect_resources: {{\n    builtin: {{\n      {entries}\n    }}\n  }}\n#-}}"
        if blobs
        else ""
    )
    return f"""
    {globals_}
    func.func @main() -> ({results}) {{
      {body}
    }}
    {section}
    """


def load(text: str) -> ModuleOp:
    module = parse_module(text)
    module.verify()
    return module


@pytest.mark.parametrize(
    ("element", "values"),
    [
        ("f32", np.array([[1.5, -2.0, 3.25], [0.0, 1e-3, -7.0]], np.float32)),
        ("f16", np.array([[1.5, -2.0, 3.25], [0.0, 65504.0, -7.0]], np.float16)),
        ("f64", np.array([[np.pi, -np.e, 1e300], [0.0, -0.0, 2.0]])),
        ("i8", np.array([[-128, 127, 0], [1, -1, 5]], np.int8)),
        ("i64", np.array([[2**62, -(2**62), 0], [1, -1, 5]], np.int64)),
        ("i1", np.array([[True, False, True], [False, False, True]])),
    ],
)
def test_dense_resource_global_reads_its_blob(element: str, values: np.ndarray):
    type_ = f"memref<2x3x{element}>"
    text = program(
        f'memref.global "private" constant @w : {type_} = dense_resource<w_blob> {{alignment = 64 : i64}}',
        f"%w = memref.get_global @w : {type_}\n      func.return %w : {type_}",
        type_,
        {"w_blob": blob(values)},
    )
    (result,) = run_function(load(text)).results
    np.testing.assert_array_equal(result, values)
    assert np.asarray(result).dtype == values.dtype


def test_torch_mlir_generic_form_global_reads_its_blob():
    values = np.arange(8, dtype=np.float32) - 3.5
    text = program(
        '"memref.global"() <{alignment = 64 : i64, constant, initial_value = '
        "dense_resource<torch_tensor_8_torch.float32> : tensor<8xf32>, "
        """sym_name = "__constant_8xf32", sym_visibility = "private", """
        "type = memref<8xf32>}> : () -> ()",
        "%w = memref.get_global @__constant_8xf32 : memref<8xf32>\n"
        "      func.return %w : memref<8xf32>",
        "memref<8xf32>",
        {"torch_tensor_8_torch.float32": blob(values)},
    )
    np.testing.assert_array_equal(run_function(load(text)).results[0], values)


ONE_WEIGHT = (
    'memref.global "private" constant @weights : memref<4xf32> = dense_resource<blob_w>',
    "%w = memref.get_global @weights : memref<4xf32>\n      func.return %w : memref<4xf32>",
    "memref<4xf32>",
)


def test_global_without_its_blob_is_an_error_naming_it():
    module = load(program(*ONE_WEIGHT, {}))
    with pytest.raises(
        InterpretationError,
        match=r"memref\.get_global.*memref\.global @weights: dense_resource<blob_w> "
        "has no data",
    ):
        run_function(module)


def test_blob_of_the_wrong_size_is_an_error_naming_the_global():
    module = load(program(*ONE_WEIGHT, {"blob_w": blob(np.zeros(3, np.float32))}))
    with pytest.raises(
        InterpretationError,
        match=r"memref\.global @weights: blob blob_w holds 12 bytes, expected 16",
    ):
        run_function(module)


def test_modules_sharing_a_resource_key_keep_their_own_data():
    first, second = np.arange(4, dtype=np.float32), -np.arange(4, dtype=np.float32)
    module_a = load(program(*ONE_WEIGHT, {"blob_w": blob(first)}))
    module_b = load(program(*ONE_WEIGHT, {"blob_w": blob(second)}))
    np.testing.assert_array_equal(run_function(module_b).results[0], second)
    np.testing.assert_array_equal(run_function(module_a).results[0], first)


def test_a_mutable_global_starts_from_its_initial_value_in_every_run():
    text = program(
        'memref.global "private" @counter : memref<1xi32> = dense_resource<start>',
        """%g = memref.get_global @counter : memref<1xi32>
      %c0 = arith.constant 0 : index
      %v = memref.load %g[%c0] : memref<1xi32>
      %one = arith.constant 1 : i32
      %n = arith.addi %v, %one : i32
      memref.store %n, %g[%c0] : memref<1xi32>
      func.return %n : i32""",
        "i32",
        {"start": blob(np.array([41], np.int32))},
    )
    module = load(text)
    assert run_function(module).results == (42,)
    assert run_function(module).results == (42,)


def test_uninitialized_global_starts_as_zeros_and_a_declaration_is_an_error():
    zeros = program(
        'memref.global "private" @scratch : memref<3xf32> = uninitialized',
        "%g = memref.get_global @scratch : memref<3xf32>\n      func.return %g : memref<3xf32>",
        "memref<3xf32>",
        {},
    )
    np.testing.assert_array_equal(run_function(load(zeros)).results[0], np.zeros(3))
    declared = zeros.replace(" = uninitialized", "")
    with pytest.raises(
        InterpretationError, match=r"memref\.global @scratch is only declared"
    ):
        run_function(load(declared))


def test_many_globals_are_verified_and_read_without_scanning_the_module(
    monkeypatch: pytest.MonkeyPatch,
):
    """Each `memref.get_global` finds its global through memplan's symbol
    index, when verified and when run: xDSL's lookup scans the module for
    each, quadratic in the number of globals."""
    count = 200
    globals_ = "\n".join(
        f'memref.global "private" constant @w{i} : memref<1xi32> = dense<{i}>'
        for i in range(count)
    )
    reads = "\n".join(
        f"%g{i} = memref.get_global @w{i} : memref<1xi32>\n"
        f"%v{i} = memref.load %g{i}[%c0] : memref<1xi32>\n"
        f"%s{i + 1} = arith.addi %s{i}, %v{i} : i32"
        for i in range(count)
    )
    body = f"%c0 = arith.constant 0 : index\n%s0 = arith.constant 0 : i32\n{reads}\n"
    scans: list[str] = []
    xdsl_lookup = SymbolTable.lookup_symbol

    def counted_lookup(op: Operation, name: str | StringAttr | SymbolRefAttr):
        scans.append(str(name))
        return xdsl_lookup(op, name)

    monkeypatch.setattr(SymbolTable, "lookup_symbol", staticmethod(counted_lookup))
    module = load(program(globals_, f"{body}func.return %s{count} : i32", "i32", {}))
    assert run_function(module, "main", ()).results == (sum(range(count)),)
    assert scans == []

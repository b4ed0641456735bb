"""dense_resource blobs: read per parsed module, printed back, never zeros."""

from __future__ import annotations

import tracemalloc
from io import StringIO

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseResourceAttr, MemRefType, ModuleOp, f32, i8
from xdsl.parser import Parser
from xdsl.printer import Printer

from memplan.context import memplan_context, parse_module
from memplan.dialects.memref import BlobError, GlobalOp, global_blob


def _program(key: str, values: np.ndarray, type_: str = "memref<2xf32>") -> str:
    blob = "0x04000000" + values.tobytes().hex().upper()
    return (
        f'memref.global "private" constant @w : {type_} = dense_resource<{key}>\n'
        f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      {key}: "{blob}"\n'
        "    }\n  }\n#-}\n"
    )


def _global(module: ModuleOp) -> GlobalOp:
    (op,) = [op for op in module.walk() if isinstance(op, GlobalOp)]
    return op


def _printed(module: ModuleOp, ctx_dialects) -> str:
    stream = StringIO()
    printer = Printer(stream=stream)
    printer.print_op(module)
    printer.print_metadata(ctx_dialects)
    return stream.getvalue()


def test_global_blob_is_the_data_after_the_alignment_header():
    values = np.array([1.5, -2.0], np.float32)
    data = global_blob(_global(parse_module(_program("k", values))))
    assert np.frombuffer(data, np.float32).tolist() == values.tolist()


def test_modules_parsed_in_one_process_read_their_own_blobs():
    """xDSL 0.74 keeps blobs in one process-wide store and renames a key seen
    again, so a second parse read empty data; each memplan context has its own."""
    first = parse_module(_program("torch_tensor_2", np.array([1, 2], np.float32)))
    second = parse_module(_program("torch_tensor_2", np.array([3, 4], np.float32)))
    assert np.frombuffer(global_blob(_global(first)), np.float32).tolist() == [1, 2]
    assert np.frombuffer(global_blob(_global(second)), np.float32).tolist() == [3, 4]
    initial = _global(second).initial_value
    assert isinstance(initial, DenseResourceAttr)
    assert initial.resource_handle.data == "torch_tensor_2"


def test_a_clone_reads_the_blobs_of_its_original():
    module = parse_module(_program("k", np.array([7, 8], np.float32)))
    clone = module.clone()
    del module
    assert np.frombuffer(global_blob(_global(clone)), np.float32).tolist() == [7, 8]


def test_second_parse_in_a_process_prints_its_blobs_back():
    text = _program("again", np.array([1, 2], np.float32))
    for _ in range(2):
        ctx = memplan_context()
        module = Parser(ctx, text).parse_module()
        assert 'again: "0x040000000000803F00000040"' in _printed(
            module, ctx.loaded_dialects
        )


def test_missing_blob_is_an_error_naming_the_global():
    module = parse_module(
        'memref.global "private" constant @w : memref<2xf32> = dense_resource<gone>'
    )
    with pytest.raises(
        BlobError, match=r"memref.global @w: dense_resource<gone> has no data"
    ):
        global_blob(_global(module))


def test_blob_of_the_wrong_size_is_an_error():
    module = parse_module(_program("short", np.array([1], np.float32)))
    with pytest.raises(
        BlobError, match=r"@w: blob short holds 4 bytes, expected 8 for memref<2xf32>"
    ):
        global_blob(_global(module))


def test_module_parsed_without_attaching_blobs_is_an_error_not_zeros():
    module = Parser(
        memplan_context(), _program("k", np.zeros(2, np.float32))
    ).parse_module()
    with pytest.raises(BlobError, match=r"the blob of dense_resource<k> is unknown"):
        global_blob(_global(module))


def test_global_without_resource_has_no_blob():
    op = GlobalOp("g", MemRefType(i8, [2]))
    with pytest.raises(BlobError, match="@g is not initialized by a dense_resource"):
        global_blob(op)


def test_global_builder_verifies_and_prints_mlir_syntax():
    op = GlobalOp("g", MemRefType(f32, [2]), constant=True, alignment=64)
    op.verify()
    stream = StringIO()
    Printer(stream=stream).print_op(op)
    assert stream.getvalue() == (
        'memref.global "private" constant @g : memref<2xf32> {alignment = 64 : i64}'
    )


def test_a_long_blob_is_read_in_memory_proportional_to_its_length():
    """Lexing a string literal one character per repetition of a regular
    expression kept a backtracking entry per character (about 140 bytes):
    reading resnet18's 19 MB blob took 2.6 GB; now a few copies of the text."""
    values = np.arange(500_000, dtype=np.float32)
    text = _program("k", values, "memref<500000xf32>")
    parse_module(text)  # loads every dialect the program needs
    tracemalloc.start()
    try:
        module = parse_module(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * len(text)
    assert np.array_equal(
        np.frombuffer(global_blob(_global(module)), np.float32), values
    )

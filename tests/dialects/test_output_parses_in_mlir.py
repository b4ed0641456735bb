"""Upstream MLIR parses and verifies what memplan prints (a development check).

Runs only when MEMPLAN_MLIR_PYTHON names a Python with MLIR's bindings, such
as torch-mlir's (`from torch_mlir import ir`); they are not a dependency of
memplan.  For every torch fixture and the dialect lit inputs, what memplan
prints in custom and in generic form goes through MLIR's parser and verifier
(blobs included), and what MLIR prints back parses in memplan again.  Planned
output holds memplan's own memory dialect, which
MLIR does not know; its lowering is checked by the lowering tests.
"""

from __future__ import annotations

import re
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from mlir_execution import MLIR_PYTHON, needs_mlir
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.printer import Printer
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import ParseError, PassFailedException, VerifyException

from memplan.context import memplan_context
from memplan.parser import MemplanParser
from memplan.passes.manifest import MemoryManifestPass

TESTS = Path(__file__).resolve().parents[1]
INPUTS = sorted(
    [
        *(TESTS / "fixtures" / "torch").glob("*.mlir"),
        TESTS / "filecheck" / "dialects" / "affine" / "if.mlir",
        TESTS / "filecheck" / "dialects" / "affine" / "load-store.mlir",
        TESTS / "filecheck" / "dialects" / "affine" / "parallel.mlir",
        TESTS / "filecheck" / "dialects" / "affine" / "semi-affine.mlir",
        TESTS / "filecheck" / "dialects" / "bufferization" / "clone.mlir",
        TESTS / "filecheck" / "dialects" / "bufferization" / "conversions.mlir",
        TESTS / "filecheck" / "dialects" / "linalg" / "ops.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "ops.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "mlir-syntax.mlir",
        TESTS / "filecheck" / "dialects" / "memref" / "subview.mlir",
        TESTS / "filecheck" / "dialects" / "scf" / "execute-region.mlir",
        TESTS / "filecheck" / "dialects" / "scf" / "forall.mlir",
        TESTS / "filecheck" / "dialects" / "scf" / "parallel.mlir",
    ]
)

pytestmark = needs_mlir

MLIR_CHECK = """
import sys
from torch_mlir import ir
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    module.operation.verify()
    print(module)
"""


def _run_mlir(script: str, text: str) -> subprocess.CompletedProcess[str]:
    """`script` run by MLIR_PYTHON on `text`."""
    assert MLIR_PYTHON is not None
    return subprocess.run(
        [MLIR_PYTHON, "-c", script],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )


def _memplan_output(path: Path, generic: bool) -> str:
    ctx = memplan_context()
    module = MemplanParser(ctx, path.read_text(), str(path)).parse_module()
    module.verify()
    stream = StringIO()
    printer = Printer(stream=stream, print_generic_format=generic)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)
    return stream.getvalue()


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.stem)
def test_mlir_parses_and_verifies_memplan_output(path: Path, generic: bool):
    text = _memplan_output(path, generic)
    done = _run_mlir(MLIR_CHECK, text)
    assert done.returncode == 0, done.stderr[-2000:]
    module = MemplanParser(memplan_context(), done.stdout, "mlir-output").parse_module()
    module.verify()


def test_the_check_can_fail():
    """A module MLIR rejects (a verifier error) makes the check fail."""
    done = _run_mlir(
        MLIR_CHECK,
        '"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()',
    )
    assert done.returncode != 0
    assert "static shaped" in done.stderr


NEGATIVE_SUBVIEWS = {
    "size": "memref.subview %m[0, 0] [-1, 2] [1, 1] : memref<4x4xf32> to "
    "memref<?x2xf32, strided<[4, 1]>>",
    "offset": "memref.subview %m[-1, 0] [1, 2] [1, 1] : memref<4x4xf32> to "
    "memref<1x2xf32, strided<[4, 1], offset: -4>>",
}


@pytest.mark.parametrize("subview", NEGATIVE_SUBVIEWS.values(), ids=NEGATIVE_SUBVIEWS)
def test_mlir_rejects_a_negative_subview_value_with_memplan_s_message(subview: str):
    """memplan's verifier message for a negative static offset or size is
    the one MLIR gives."""
    text = (
        f"func.func @f(%m: memref<4x4xf32>) {{\n  %v = {subview}\n  func.return\n}}\n"
    )
    module = MemplanParser(memplan_context(), text, "negative").parse_module()
    with pytest.raises(VerifyException) as memplan_error:
        module.verify()
    message = str(memplan_error.value).splitlines()[0]
    done = _run_mlir(MLIR_CHECK, text)
    assert done.returncode != 0
    assert message in done.stderr


MLIR_CANONICALIZE = """
import sys
from torch_mlir import ir
from torch_mlir.passmanager import PassManager
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    print(module)
"""


def _function_without_names(module: ModuleOp, name: str) -> str:
    """The function `name` of `module` printed with numbered values only."""
    (function,) = (
        op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name
    )
    for op in function.walk():
        for value in op.results:
            value.name_hint = None
        for block in (block for region in op.regions for block in region.blocks):
            for value in block.args:
                value.name_hint = None
    stream = StringIO()
    Printer(stream=stream).print_op(function)
    return stream.getvalue()


def test_canonicalize_folds_subview_constants_as_mlir_does():
    """memref/subview.mlir's @fold_constants after memplan's canonicalize is
    what MLIR's canonicalize makes of it."""
    path = TESTS / "filecheck" / "dialects" / "memref" / "subview.mlir"
    done = _run_mlir(MLIR_CANONICALIZE, path.read_text())
    assert done.returncode == 0, done.stderr[-2000:]
    ctx = memplan_context()
    by_mlir = MemplanParser(ctx, done.stdout, "mlir-output").parse_module()
    by_memplan = MemplanParser(ctx, path.read_text(), str(path)).parse_module()
    CanonicalizePass().apply(ctx, by_memplan)
    assert _function_without_names(by_memplan, "fold_constants") == (
        _function_without_names(by_mlir, "fold_constants")
    )


def _function(op: str, *types: str) -> str:
    """`op` (its operands %a, %b, ...) in a function taking them."""
    args = ", ".join(f"%{name}: {t}" for name, t in zip("abc", types, strict=False))
    return f"func.func @f({args}) {{\n  {op}\n  func.return\n}}\n"


def _cast(source: str, dest: str) -> str:
    return _function(f"%r = memref.cast %a : {source} to {dest}", source)


def _reshape(source: str, shape: str, result: str) -> str:
    return _function(
        f"%r = memref.reshape %a(%b) : ({source}, {shape}) -> {result}", source, shape
    )


def _clone(source: str, result: str) -> str:
    return _function(f"%r = bufferization.clone %a : {source} to {result}", source)


def _to_buffer(tensor: str, buffer: str) -> str:
    return _function(f"%r = bufferization.to_buffer %a : {tensor} to {buffer}", tensor)


def _to_tensor(buffer: str, tensor: str) -> str:
    return _function(f"%r = bufferization.to_tensor %a : {buffer} to {tensor}", buffer)


def _affine_if(condition: str, *operands: str) -> str:
    """An `affine.if` without results, in generic form, on index arguments
    %a and %b."""
    types = ", ".join("index" for _ in operands)
    return _function(
        f'"affine.if"({", ".join(operands)}) <{{condition = {condition}}}> ({{\n'
        f'    "affine.yield"() : () -> ()\n  }}, {{\n  }}) : ({types}) -> ()',
        "index",
        "index",
    )


SAME_VERDICT = {
    "affine-if": (
        _affine_if("affine_set<(d0)[s0] : (d0 - s0 >= 0)>", "%a", "%b"),
        True,
    ),
    "affine-if-too-many-operands": (
        _affine_if("affine_set<(d0) : (d0 >= 0)>", "%a", "%b"),
        False,
    ),
    "affine-if-too-few-operands": (
        _affine_if("affine_set<(d0)[s0] : (d0 - s0 >= 0)>", "%a"),
        False,
    ),
    "affine-if-empty-then": (
        _function(
            '"affine.if"() <{condition = affine_set<() : (0 == 0)>}> ({\n  }, {\n  }) '
            ": () -> ()"
        ),
        False,
    ),
    "affine-if-results-without-else": (
        _function(
            '%r = "affine.if"(%a) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({\n'
            '    "affine.yield"(%a) : (index) -> ()\n  }, {\n  }) : (index) -> index',
            "index",
        ),
        False,
    ),
    "affine-if-yield-type": (
        _function(
            '%r = "affine.if"(%a) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({\n'
            '    "affine.yield"(%b) : (i32) -> ()\n  }, {\n'
            '    "affine.yield"(%a) : (index) -> ()\n  }) : (index) -> index',
            "index",
            "i32",
        ),
        False,
    ),
    "cast-unit-dim-stride": (
        _cast("memref<1x8xf32, strided<[40, 1]>>", "memref<1x8xf32>"),
        True,
    ),
    "cast-unit-dim-in-result": (
        _cast("memref<?x8xf32, strided<[40, 1]>>", "memref<1x8xf32, strided<[3, 1]>>"),
        True,
    ),
    "cast-unit-dim-offset": (
        _cast("memref<1x8xf32, strided<[40, 1], offset: 8>>", "memref<1x8xf32>"),
        False,
    ),
    "cast-unit-dim-other-stride": (
        _cast("memref<1x8xf32, strided<[40, 2]>>", "memref<1x8xf32>"),
        False,
    ),
    "cast-dynamic-dim-stride": (
        _cast("memref<?x8xf32, strided<[40, 1]>>", "memref<?x8xf32>"),
        False,
    ),
    "clone-into-identity-layout": (
        _clone("memref<6xf32, strided<[1]>>", "memref<6xf32>"),
        True,
    ),
    "clone-any-memrefs": (_clone("memref<6xf32>", "memref<2x3xi32>"), True),
    "to-buffer-strided": (
        _to_buffer("tensor<16xf32>", "memref<16xf32, strided<[?], offset: ?>>"),
        True,
    ),
    "to-buffer-memory-space": (
        _to_buffer("tensor<16xf32>", 'memref<16xf32, "global.vtcm">'),
        True,
    ),
    "to-buffer-unranked": (_to_buffer("tensor<*xf32>", "memref<*xf32>"), True),
    "to-buffer-other-shape": (_to_buffer("tensor<16xf32>", "memref<8xf32>"), False),
    "to-buffer-dynamic-for-static": (
        _to_buffer("tensor<16xf32>", "memref<?xf32>"),
        False,
    ),
    "to-buffer-unranked-for-ranked": (
        _to_buffer("tensor<?xf32>", "memref<*xf32>"),
        False,
    ),
    "to-buffer-element-type": (_to_buffer("tensor<16xf32>", "memref<16xi32>"), False),
    "to-tensor-strided": (
        _to_tensor("memref<16xf32, strided<[?], offset: ?>>", "tensor<16xf32>"),
        True,
    ),
    "to-tensor-memory-space": (
        _to_tensor('memref<16xf32, "global.vtcm">', "tensor<16xf32>"),
        True,
    ),
    "to-tensor-other-shape": (_to_tensor("memref<16xf32>", "tensor<?xf32>"), False),
    "to-tensor-element-type": (_to_tensor("memref<16xf32>", "tensor<16xi32>"), False),
    "reshape": (
        _reshape("memref<?x?x4xf32>", "memref<3xi64>", "memref<?x?x4xf32>"),
        True,
    ),
    "reshape-i8-shape": (
        _reshape("memref<32xf32>", "memref<2xi8>", "memref<?x?xf32>"),
        True,
    ),
    "reshape-rank-1-strided-source": (
        _reshape("memref<8xf32, strided<[1]>>", "memref<2xindex>", "memref<2x4xf32>"),
        True,
    ),
    "reshape-unranked": (
        _reshape("memref<*xf32>", "memref<?xindex>", "memref<*xf32>"),
        True,
    ),
    "reshape-element-count-not-checked": (
        _reshape("memref<32xf32>", "memref<2xindex>", "memref<4x4xf32>"),
        True,
    ),
    "reshape-strided-source": (
        _reshape(
            "memref<4x8xf32, strided<[8, 1]>>", "memref<2xindex>", "memref<?x?xf32>"
        ),
        False,
    ),
    "reshape-offset-source": (
        _reshape(
            "memref<8xf32, strided<[1], offset: 2>>", "memref<1xindex>", "memref<?xf32>"
        ),
        False,
    ),
    "reshape-strided-result": (
        _reshape(
            "memref<32xf32>", "memref<2xindex>", "memref<4x8xf32, strided<[8, 1]>>"
        ),
        False,
    ),
    "reshape-element-type": (
        _reshape("memref<32xf32>", "memref<2xindex>", "memref<?x?xi32>"),
        False,
    ),
    "reshape-float-shape": (
        _reshape("memref<32xf32>", "memref<2xf32>", "memref<?x?xf32>"),
        False,
    ),
    "reshape-signed-shape": (
        _reshape("memref<32xf32>", "memref<2xsi32>", "memref<?x?xf32>"),
        False,
    ),
    "reshape-2d-shape": (
        _reshape("memref<32xf32>", "memref<1x2xindex>", "memref<?x?xf32>"),
        False,
    ),
    "reshape-dynamic-length": (
        _reshape("memref<32xf32>", "memref<?xindex>", "memref<?x?xf32>"),
        False,
    ),
    "reshape-length-not-rank": (
        _reshape("memref<32xf32>", "memref<3xindex>", "memref<?x?xf32>"),
        False,
    ),
}


def _memplan_verifies(text: str) -> str | None:
    """None when memplan parses and verifies `text`, else its message."""
    try:
        MemplanParser(memplan_context(), text, "case").parse_module().verify()
    except (ParseError, VerifyException) as error:
        return str(error)
    return None


@pytest.mark.parametrize(
    ("text", "valid"), SAME_VERDICT.values(), ids=list(SAME_VERDICT)
)
def test_memplan_verifies_the_cast_clone_and_reshape_mlir_verifies(
    text: str, valid: bool
):
    """memref.cast, bufferization.clone, to_buffer, to_tensor,
    memref.reshape and affine.if: memplan accepts what MLIR's verifier accepts and refuses
    what it refuses (with MLIR's message for reshape)."""
    done = _run_mlir(MLIR_CHECK, text)
    assert (done.returncode == 0) == valid, done.stderr[-2000:]
    error = _memplan_verifies(text)
    assert (error is None) == valid, error
    if error is not None and "memref.reshape" in text:
        assert error.splitlines()[0].split(": ", 1)[-1] in done.stderr


def test_memplan_refuses_a_reshape_across_memory_spaces_which_mlir_verifies():
    """The one place memplan's reshape verifier is stricter than MLIR's (a
    view in another scope has no meaning for memplan; docs/frontend-ops.md)."""
    text = _reshape("memref<32xf32>", "memref<2xindex>", "memref<?x?xf32, 1>")
    assert _run_mlir(MLIR_CHECK, text).returncode == 0
    error = _memplan_verifies(text)
    assert error is not None and "in one memory space" in error


MLIR_LOWER_CLONE = """
import sys
from torch_mlir import ir
from torch_mlir.passmanager import PassManager
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    PassManager.parse("builtin.module(convert-bufferization-to-memref)").run(
        module.operation
    )
    module.operation.verify()
"""

CLONES = {
    "another-layout": ("memref<6xf32, strided<[1]>>", "memref<6xf32>", True),
    "dynamic-result": ("memref<4xf32>", "memref<?xf32>", True),
    "dynamic-layout": (
        "memref<2x2xf32, strided<[8, 2]>>",
        "memref<2x2xf32, strided<[?, ?], offset: ?>>",
        True,
    ),
    "element-type": ("memref<4xf32>", "memref<4xi32>", False),
    "shape": ("memref<4xf32>", "memref<5xf32>", False),
    "rank": ("memref<6xf32>", "memref<2x3xf32>", False),
    "static-stride": (
        "memref<4xf32, strided<[2]>>",
        "memref<4xf32, strided<[2]>>",
        False,
    ),
}


@pytest.mark.parametrize(
    ("source", "result", "lowers"), CLONES.values(), ids=list(CLONES)
)
def test_memory_manifest_rewrites_the_clones_mlir_lowers(
    source: str, result: str, lowers: bool
):
    """MLIR verifies every clone between memrefs; what one means is its
    lowering (an alloc of the result's shape, a copy, a cast), which
    `clone_allocation` follows: memory-manifest rewrites a clone exactly when
    MLIR's convert-bufferization-to-memref gives valid IR.  (A clone from or
    to an unranked memref, which MLIR lowers, is refused: memplan runs ranked
    memrefs only.)"""
    text = _clone(source, result)
    done = _run_mlir(MLIR_LOWER_CLONE, text)
    assert (done.returncode == 0) == lowers, done.stderr[-2000:]
    module = MemplanParser(memplan_context(), text, "clone").parse_module()
    module.verify()
    if lowers:
        MemoryManifestPass().apply(memplan_context(), module)
        module.verify()
        return
    with pytest.raises(PassFailedException):
        MemoryManifestPass().apply(memplan_context(), module)


MLIR_GENERIC = """
import sys
from torch_mlir import ir
with ir.Context():
    module = ir.Module.parse(sys.stdin.read())
    module = ir.Module.parse(str(module))
    print(module.operation.get_asm(print_generic_op_form=True))
"""
"""MLIR's generic form of a module, after one trip through MLIR's custom form
(which leaves out properties at their default, such as `nontemporal = false`,
that xDSL's generic form keeps)."""


@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.stem)
def test_custom_and_generic_forms_mean_the_same_to_mlir(path: Path):
    """What memplan prints in custom form is the same IR, read by MLIR, as
    what it prints in generic form: a custom printer that parses but says
    something else (xDSL's affine.load printed a symbol from the wrong
    operand) fails here."""
    custom = _run_mlir(MLIR_GENERIC, _memplan_output(path, generic=False))
    generic = _run_mlir(MLIR_GENERIC, _memplan_output(path, generic=True))
    assert custom.returncode == 0, custom.stderr[-2000:]
    assert generic.returncode == 0, generic.stderr[-2000:]
    assert custom.stdout == generic.stdout


def _pack(source: str, dest: str, spec: str, op: str = "linalg.pack") -> str:
    """A function running `op` with `spec` on `source` into `dest` (memrefs)."""
    return f"""
func.func @f(%a: {source}, %b: {dest}, %p: f32, %t: index) {{
  {op} %a {spec} into %b : {source} -> {dest}
  func.return
}}
"""


RELAYOUTS_MLIR_ACCEPTS = {
    "dynamic-source": _pack(
        "memref<?x16xf32>",
        "memref<2x16x4xf32>",
        "inner_dims_pos = [0] inner_tiles = [4]",
    ),
    "dynamic-dest": _pack(
        "memref<8x16xf32>",
        "memref<?x?x4xf32>",
        "inner_dims_pos = [0] inner_tiles = [4]",
    ),
    "element-types": _pack(
        "memref<8x16xf32>",
        "memref<2x16x4xf64>",
        "inner_dims_pos = [0] inner_tiles = [4]",
    ),
    "padding-whole-tiles": _pack(
        "memref<8x16xf32>",
        "memref<2x16x4xf32>",
        "padding_value(%p : f32) inner_dims_pos = [0] inner_tiles = [4]",
    ),
    "dynamic-tile-outer-divides": _pack(
        "memref<8x16xf32>",
        "memref<2x16x?xf32>",
        "inner_dims_pos = [0] inner_tiles = [%t]",
    ),
    "no-tiles": _pack(
        "memref<8x16xf32>",
        "memref<16x8xf32>",
        "outer_dims_perm = [1, 0] inner_dims_pos = [] inner_tiles = []",
    ),
    "unpack-partial-tile": _pack(
        "memref<2x16x4xf32>",
        "memref<7x16xf32>",
        "inner_dims_pos = [0] inner_tiles = [4]",
        "linalg.unpack",
    ),
    "unpack-dynamic-tile": _pack(
        "memref<3x16x?xf32>",
        "memref<8x16xf32>",
        "inner_dims_pos = [0] inner_tiles = [%t]",
        "linalg.unpack",
    ),
}


def _winograd(op: str, source: str, output: str, fmr: str = "F_4_3") -> str:
    """A function running the Winograd step `op` on `source` into `output`."""
    return f"""
func.func @f(%a: {source}, %b: {output}) -> {output} {{
  %0 = linalg.{op} fmr({fmr}) ins(%a : {source}) outs(%b : {output}) -> {output}
  func.return %0 : {output}
}}
"""


WINOGRADS_MLIR_ACCEPTS = {
    "filter-height-1": _winograd(
        "winograd_filter_transform", "tensor<2x1x3x5xf32>", "tensor<1x6x5x2xf32>"
    ),
    "filter-dynamic-channels": _winograd(
        "winograd_filter_transform", "tensor<?x3x3x?xi32>", "tensor<6x6x?x?xi32>"
    ),
    "filter-f-2-5": _winograd(
        "winograd_filter_transform",
        "tensor<2x5x5x5xf32>",
        "tensor<6x6x5x2xf32>",
        "F_2_5",
    ),
    "input-partial-tile": _winograd(
        "winograd_input_transform", "tensor<2x13x14x5xf32>", "tensor<6x6x2x3x2x5xf32>"
    ),
    "input-untransformed-height": _winograd(
        "winograd_input_transform", "tensor<2x7x10x5xf32>", "tensor<1x6x7x2x2x5xf32>"
    ),
    "input-dynamic": _winograd(
        "winograd_input_transform", "tensor<?x?x?x?xf32>", "tensor<6x6x?x?x?x?xf32>"
    ),
    "input-dynamic-output": _winograd(
        "winograd_input_transform", "tensor<2x10x10x5xf32>", "tensor<?x?x?x?x?x?xf32>"
    ),
    "output-untransformed-height": _winograd(
        "winograd_output_transform", "tensor<1x6x3x2x2x3xf32>", "tensor<2x3x8x3xf32>"
    ),
    "output-dynamic-height": _winograd(
        "winograd_output_transform", "tensor<?x6x?x2x2x3xf32>", "tensor<2x17x8x3xf32>"
    ),
}


def _invalid_cases(word: str) -> dict[str, str]:
    """The cases of the linalg invalid.mlir whose function name holds `word`,
    but one MLIR crashes on."""
    path = TESTS / "filecheck" / "dialects" / "linalg" / "invalid.mlir"
    cases = {}
    for chunk in path.read_text().split("// -----"):
        name = re.search(r"func\.func @(\w+)", chunk)
        if name and word in name[1] and "MLIR crashes" not in chunk:
            cases[name[1]] = chunk
    return cases


MLIR_REFUSES_TOO = {**_invalid_cases("pack"), **_invalid_cases("winograd")}


MLIR_ACCEPTS = {**RELAYOUTS_MLIR_ACCEPTS, **WINOGRADS_MLIR_ACCEPTS}


UNDEFINED_BODIES = {**_invalid_cases("integer_square"), **_invalid_cases("_of_bools")}


@pytest.mark.parametrize("text", UNDEFINED_BODIES.values(), ids=list(UNDEFINED_BODIES))
def test_mlir_refuses_the_named_op_bodies_memplan_refuses(text: str):
    """MLIR's UnaryFn.square, as its other unary functions, is defined on
    floats only, and its BinaryFn has no difference or unsigned extremum of
    bools; memplan computed `x * x` on integers and or / and for an
    unsigned maximum / minimum of bools."""
    assert _memplan_verifies(text) is not None
    assert _run_mlir(MLIR_CHECK, text).returncode != 0


@pytest.mark.parametrize("text", MLIR_ACCEPTS.values(), ids=list(MLIR_ACCEPTS))
def test_memplan_accepts_the_pack_unpack_and_winograd_mlir_accepts(text: str):
    done = _run_mlir(MLIR_CHECK, text)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _memplan_verifies(text) is None


@pytest.mark.parametrize("text", MLIR_REFUSES_TOO.values(), ids=list(MLIR_REFUSES_TOO))
def test_mlir_refuses_the_pack_unpack_and_winograd_memplan_refuses(text: str):
    """Each pack, unpack and Winograd case of the linalg invalid.mlir
    (memplan's verifier errors there) is an error for MLIR too."""
    assert _memplan_verifies(text) is not None
    assert _run_mlir(MLIR_CHECK, text).returncode != 0


def _lit_cases(path: Path) -> dict[str, str]:
    """The `// -----` chunks of a lit file, by function name."""
    cases = {}
    for chunk in path.read_text().split("// -----"):
        name = re.search(r"func\.func @(\w+)", chunk)
        assert name is not None
        cases[name[1]] = chunk
    return cases


RESHAPES = _lit_cases(
    TESTS / "filecheck" / "dialects" / "memref" / "collapse-expand-shape.mlir"
)


@pytest.mark.parametrize("text", RESHAPES.values(), ids=list(RESHAPES))
def test_memplan_verifies_the_collapse_and_expand_shapes_mlir_verifies(text: str):
    """memref.collapse_shape and memref.expand_shape: memplan accepts what
    MLIR's verifier accepts and refuses what it refuses, with MLIR's message
    (memplan may add the values after it)."""
    done = _run_mlir(MLIR_CHECK, text)
    error = _memplan_verifies(text)
    assert (error is None) == (done.returncode == 0), (error, done.stderr[-2000:])
    if error is not None:
        message = re.search(r"'memref\.\w+' op (.*)", done.stderr)
        assert message is not None, done.stderr[-2000:]
        assert message[1] in error.splitlines()[0]

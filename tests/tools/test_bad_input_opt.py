"""Bad input to `memplan-opt`: malformed or wrong IR for every memory op, a
wrong value for every pass option, a pass that cannot do what the IR asks,
bad flags and paths.

Each case must end with a non-zero exit status and one `memplan-opt: error:`
message that names the op, option, flag or file and says what is wrong; no
case may raise (an exception escaping `main` is what prints a traceback).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from long_tokens import LONG_TOKEN_PROGRAMS, MAX_ERROR

from memplan.dialects.scf import WhileOp
from memplan.parser import MemplanParser
from memplan.passes.verify import MemoryVerifyPass
from memplan.tools.internal_error import TRACEBACK_VARIABLE
from memplan.tools.memplan_opt import main

S = '!memory.storage<"global">'
V = '!memory.storage<"global.vtcm">'
BLOCKS = f'{V}, {V} to memref<2x4xi8, #memory.discontiguous, "global.vtcm">'


def function(*body: str) -> str:
    return "\n".join(["func.func @f() {", *body, "  func.return", "}", ""])


def storage(size: int = 64, scope: str = S) -> str:
    return f"  %s = memory.alloc_storage [{size}] : {scope}"


def tensor(offset: str, result: str) -> str:
    return f"  %t = memory.alloc_tensor %s[{offset}] : {S} to {result}"


@dataclass(frozen=True)
class Case:
    source: str
    args: tuple[str, ...]
    expected: tuple[str, ...]
    """Fragments the error message must contain."""


IR_CASES = {
    # memory.alloc_storage
    "storage negative size": Case(
        function(f"  %s = memory.alloc_storage [-4] : {S}"),
        (),
        ("memory.alloc_storage", "storage size must be non-negative, got -4"),
    ),
    "storage alignment": Case(
        function(f"  %s = memory.alloc_storage [64] align 3 : {S}"),
        (),
        ("memory.alloc_storage", "alignment must be a positive power of two, got 3"),
    ),
    "storage device": Case(
        function(f"  %s = memory.alloc_storage [64] device -1 : {S}"),
        (),
        ("memory.alloc_storage", "device index must be non-negative, got -1"),
    ),
    "storage empty scope": Case(
        function(storage(scope='!memory.storage<"">')),
        (),
        ("in.mlir:2:3", "memory.alloc_storage", "memory scope must be a non-empty"),
    ),
    "storage two sizes": Case(
        function(f"  %s = memory.alloc_storage [64, 8] : {S}"),
        (),
        ("memory.alloc_storage", "expected exactly one size, got 2"),
    ),
    "storage of a non-storage type": Case(
        function("  %s = memory.alloc_storage [64] : i32"),
        (),
        ("in.mlir:2:3", "memory.alloc_storage", "i32"),
    ),
    # memory.alloc_tensor
    "tensor negative offset": Case(
        function(storage(), tensor("-4", "memref<4xi32>")),
        (),
        ("memory.alloc_tensor", "offset must be non-negative, got -4"),
    ),
    "tensor offset not a multiple of the element size": Case(
        function(storage(), tensor("2", "memref<4xi32>")),
        (),
        ("memory.alloc_tensor", "offset 2 is not aligned to the element size"),
    ),
    "tensor past the end of its storage": Case(
        function(storage(16), tensor("8", "memref<4xi32>")),
        (),
        ("memory.alloc_tensor", "past the end of its 16-byte storage"),
    ),
    "tensor in another scope than its storage": Case(
        function(storage(), tensor("0", 'memref<4xi32, "global.vtcm">')),
        (),
        ("memory.alloc_tensor", 'does not match the storage scope "global"'),
    ),
    "tensor with a layout": Case(
        function(storage(), tensor("0", "memref<4xi32, strided<[2]>>")),
        (),
        ("memory.alloc_tensor", "result must have the identity layout"),
    ),
    "tensor without its dynamic sizes": Case(
        function(storage(), tensor("0", "memref<?xi32>")),
        (),
        ("memory.alloc_tensor", "expected 1 dynamic size operand(s)"),
    ),
    "tensor of complex elements": Case(
        function(storage(), tensor("0", "memref<4xcomplex<f32>>")),
        (),
        ("memory.alloc_tensor", "complex<f32> is not supported"),
    ),
    "tensor alignment not a power of two": Case(
        function(
            storage(),
            f"  %t = memory.alloc_tensor %s[0] align 48 : {S} to memref<4xi32>",
        ),
        (),
        ("memory.alloc_tensor", "alignment must be a positive power of two, got 48"),
    ),
    "tensor alignment its storage cannot give": Case(
        function(
            storage(),
            f"  %t = memory.alloc_tensor %s[0] align 256 : {S} to memref<4xi32>",
        ),
        (),
        ("memory.alloc_tensor", "expected a multiple of 256 bytes"),
    ),
    "tensor placed in a non-storage": Case(
        function("  %s = arith.constant 0 : index", tensor("0", "memref<4xi32>")),
        (),
        ("in.mlir:3:28", "previously used or defined with type index"),
    ),
    # memory.alloc_discontiguous_tensor
    "discontiguous without its layout": Case(
        function(
            storage(64, V),
            f"  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16, 32] : "
            f'{V}, {V} to memref<2x4xi8, "global.vtcm">',
        ),
        (),
        ("memory.alloc_discontiguous_tensor", "#memory.discontiguous layout"),
    ),
    "discontiguous of rank 1": Case(
        function(
            storage(64, V),
            f"  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16, 32] : "
            f'{V}, {V} to memref<8xi8, #memory.discontiguous, "global.vtcm">',
        ),
        (),
        ("memory.alloc_discontiguous_tensor", "rank 2 or more"),
    ),
    "discontiguous with a block missing": Case(
        function(
            storage(64, V),
            f"  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16] : {BLOCKS}",
        ),
        (),
        ("memory.alloc_discontiguous_tensor", "expected 2 block offsets"),
    ),
    "discontiguous pointer width": Case(
        function(
            storage(64, V),
            "  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16, 32] "
            f"pointer_width 3 : {BLOCKS}",
        ),
        (),
        ("memory.alloc_discontiguous_tensor", "pointer width must be 4 or 8"),
    ),
    "discontiguous blocks overlapping": Case(
        function(
            storage(64, V),
            f"  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16, 18] : {BLOCKS}",
        ),
        (),
        ("memory.alloc_discontiguous_tensor", "blocks 0 and 1 overlap"),
    ),
    # memory.kill and memory.copy
    "kill of an integer": Case(
        function("  %c = arith.constant 0 : i32", "  memory.kill %c : i32"),
        (),
        ("in.mlir:3:3", "memory.kill", "i32"),
    ),
    "copy between shapes": Case(
        function(
            storage(),
            f"  %a = memory.alloc_tensor %s[0] : {S} to memref<4xi32>",
            f"  %b = memory.alloc_tensor %s[16] : {S} to memref<2xi32>",
            "  memory.copy %a, %b : memref<4xi32> to memref<2xi32>",
        ),
        (),
        ("memory.copy", "source shape [4] does not match target shape [2]"),
    ),
    "copy between element types": Case(
        function(
            storage(),
            f"  %a = memory.alloc_tensor %s[0] : {S} to memref<4xi32>",
            f"  %b = memory.alloc_tensor %s[16] : {S} to memref<4xf32>",
            "  memory.copy %a, %b : memref<4xi32> to memref<4xf32>",
        ),
        (),
        (
            "memory.copy",
            "source element type i32 does not match target element type f32",
        ),
    ),
    # Malformed text
    "unknown memory op": Case(
        function("  memory.nope"), (), ("Operation memory.nope is not registered",)
    ),
    "alloc_tensor without `to`": Case(
        function(storage(), f"  %t = memory.alloc_tensor %s[0] : {S} memref<4xi32>"),
        (),
        ("in.mlir:3:", "Expected 'to'"),
    ),
    "kill of an undefined value": Case(
        function(f"  memory.kill %nothing : {S}"), (), ("%nothing",)
    ),
    "unbalanced braces": Case("func.func @f() {\n", (), ("in.mlir:",)),
    # xDSL can neither print an f80 or f128 value nor pack a dense literal
    # of them.
    "f80 constant": Case(
        function("  %c = arith.constant 1.0 : f80"),
        (),
        ("in.mlir:2:", "f80 values are not supported", "expected f16, bf16"),
    ),
    "f128 dense literal": Case(
        function("  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf128>"),
        (),
        ("in.mlir:2:", "f128 values are not supported"),
    ),
    # xDSL packs index elements as signed 64-bit integers (struct.error).
    "index element over 64 bits": Case(
        function(
            "  %c = arith.constant dense<[1, 0xfff0000000000000]> : tensor<2xindex>"
        ),
        (),
        ("in.mlir:2:", "index element 0xfff0000000000000 does not fit in 64 bits"),
    ),
    # xDSL 0.74 reads these without a word; MLIR rejects them.
    "index attribute over 64 bits": Case(
        function("  %c = arith.constant 99999999999999999999 : index"),
        (),
        (
            "in.mlir:2:23:",
            "index value 99999999999999999999 does not fit in 64 bits",
            "expected a value in [-9223372036854775808, 9223372036854775807]",
        ),
    ),
    "function body of empty braces": Case(
        "func.func @f() {\n}\n",
        (),
        ("in.mlir:1:16:", "func.func @f: expected a non-empty function body"),
    ),
    # MLIR: "symbol declaration cannot have public visibility"; xDSL reads it.
    "public declaration": Case(
        "func.func @f(i32)\n",
        (),
        (
            "in.mlir:1:1:",
            "func.func @f: a declaration (a function without a body) cannot be "
            "public: expected `func.func private @f`, or a body",
        ),
    ),
    "declaration marked public": Case(
        "func.func public @f(i32)\n",
        (),
        ("in.mlir:1:1:", "func.func @f: a declaration", "cannot be public"),
    ),
    "generic declaration without visibility": Case(
        '"func.func"() ({}) {sym_name = "f", function_type = () -> ()} : () -> ()\n',
        (),
        ("in.mlir:1:1:", "func.func @f: a declaration", "cannot be public"),
    ),
    # xDSL 0.74's message shows `{first_char}` literally.
    "% without a name": Case(
        function("  %c = arith.constant 1.0 : f32", "  %d = arith.addf %c, % : f32"),
        (),
        ("in.mlir:3:23:", "invalid SSA name: expected a name after '%'"),
    ),
    "% without a name as the first token": Case(
        "% = arith.constant 1 : i32\n",
        (),
        ("in.mlir:1:1:", "invalid SSA name: expected a name after '%'"),
    ),
    "^ without a name": Case(
        function("  cf.br ^"),
        (),
        ("in.mlir:2:9:", "invalid block name: expected a name after '^'"),
    ),
    "block without its terminator": Case(
        "func.func @f() {\n  %a = memref.alloc() : memref<4xf32>\n}\n",
        (),
        ("in.mlir:2:3:", "memref.alloc terminates block", "not a terminator"),
    ),
    # xDSL verifies the func.return (which reads its function's type) before
    # the func.func's own properties.
    "generic func.func without a type": Case(
        '"func.func"() <{sym_name = "f"}> ({\n  "func.return"() : () -> ()\n})'
        " : () -> ()\n",
        (),
        ("in.mlir:1:1:", "property 'function_type' expected in operation 'func.func'"),
    ),
    # integer literals and types: xDSL failed on Python's limit on converting
    # long numbers to text, and took minutes and gigabytes for a wide type
    "integer literal too long": Case(
        function(f"  %c = arith.constant {'9' * 5000} : i32"),
        (),
        ("in.mlir:2:23: integer literal of 5,000 digits: memplan reads at most 4,300",),
    ),
    "hex integer literal too long": Case(
        function(f"  %c = arith.constant 0x{'F' * 4000} : i32"),
        (),
        ("in.mlir:2:23: hex integer literal of 4,000 digits: memplan reads at most",),
    ),
    "dense array of zero-bit integers": Case(
        function('  "test.op"() {a = array<i0: 0, 0>} : () -> ()'),
        (),
        ("in.mlir:2:26: dense array element type i0 has no bits",),
    ),
    # xDSL holds every element of a splat: a billion took minutes
    "splat too large": Case(
        function(f"  %e = arith.constant dense<1.0> : vector<{10**14}xf32>"),
        (),
        ("in.mlir:2:36: a splat of 100,000,000,000,000 elements: memplan holds",),
    ),
    "splat of a global too large": Case(
        'memref.global "private" constant @g : memref<100000000000000xf32>'
        " = dense<0.0>\n",
        (),
        ("in.mlir:1:74: a splat of 100,000,000,000,000 elements: memplan holds",),
    ),
    "hex splat too large": Case(
        function(f'  %e = arith.constant dense<"0x0000803F"> : vector<{10**14}xf32>'),
        (),
        ("in.mlir:2:45: a splat of 100,000,000,000,000 elements: memplan",),
    ),
    "integer type too wide": Case(
        function("  %c = arith.constant 1 : i16777216"),
        (),
        ("in.mlir:2:27: integer bitwidth is limited to 16777215 bits",),
    ),
}

ALLOC = '  %a = memref.alloc() : memref<512xi32, "global.vtcm">'
USE = '  "test.op"(%a) : (memref<512xi32, "global.vtcm">) -> ()'

PASS_CASES = {
    "manifest: use after dealloc": Case(
        function(
            "  %a = memref.alloc() : memref<4xi32>",
            '  %c = "memref.cast"(%a) : (memref<4xi32>) -> memref<?xi32>',
            "  memref.dealloc %a : memref<4xi32>",
            '  "test.op"(%c) : (memref<?xi32>) -> ()',
        ),
        ("-p", "memory-manifest"),
        ("memory-manifest: in @f, test.op uses %c (a view of %a)", "undefined"),
    ),
    "manifest: alloc with a layout": Case(
        function("  %a = memref.alloc() : memref<4xi32, strided<[2]>>"),
        ("-p", "memory-manifest"),
        ("memory-manifest: in @f, memref.alloc", "expected the identity layout"),
    ),
    "manifest: integer memory space": Case(
        function("  %a = memref.alloc() : memref<4xi32, 1>"),
        ("-p", "memory-manifest"),
        ("memory-manifest: in @f, memref.alloc", "is not a scope"),
    ),
    "plan: over capacity": Case(
        function(ALLOC, USE),
        (
            "-p",
            "memory-manifest,memory-plan{capacity=1024}",
            "--allow-unregistered-dialect",
        ),
        ("memory-plan: in @f", "over the scope capacity of 1024 bytes"),
    ),
    "verify: a second kill": Case(
        function(
            storage(),
            tensor("0", "memref<4xi32>"),
            "  memory.kill %t : memref<4xi32>",
            "  memory.kill %t : memref<4xi32>",
        ),
        ("-p", "memory-verify"),
        ("memory-verify: in @f, %t is killed again",),
    ),
    "lowering: discontiguous tensor": Case(
        function(
            storage(64, V),
            f"  %t = memory.alloc_discontiguous_tensor table %s[0], blocks %s[16, 32] : {BLOCKS}",
        ),
        ("-p", "convert-memory-to-memref"),
        ("convert-memory-to-memref: in @f", "memory.alloc_discontiguous_tensor"),
    ),
    "lowering: storage on device 1": Case(
        function(f"  %s = memory.alloc_storage [64] device 1 : {S}"),
        ("-p", "convert-memory-to-memref"),
        ("convert-memory-to-memref: in @f", "on device 1"),
    ),
}

TARGETS = "expected one of: hexagon-v65"
POWER_OF_TWO = "positive power of two"
OPTION_CASES = {
    "memory-manifest{target=nope}": (
        "memory-manifest",
        "unknown target 'nope'",
        TARGETS,
    ),
    "memory-manifest{target=1}": ("memory-manifest", "option target=1", "a name"),
    "memory-manifest{x=1}": ("memory-manifest", "unknown option 'x'", "target"),
    "memory-coalesce{alignment=3}": ("memory-coalesce", "alignment", POWER_OF_TWO, "3"),
    "memory-coalesce{alignment=0}": ("memory-coalesce", "alignment", POWER_OF_TWO, "0"),
    "memory-coalesce{alignment=-8}": ("memory-coalesce", "alignment", POWER_OF_TWO),
    "memory-coalesce{alignment=9223372036854775808}": (
        "memory-coalesce",
        "alignment 9223372036854775808 does not fit in 64 bits",
    ),
    "memory-coalesce{alignment=x}": ("memory-coalesce", "alignment=x", "an integer"),
    "memory-coalesce{alignment}": ("memory-coalesce", "alignment has no value"),
    "memory-coalesce{target=nope}": ("memory-coalesce", "unknown target 'nope'"),
    "memory-plan{algorithm=nope}": ("memory-plan", "unknown algorithm 'nope'", "best"),
    "memory-plan{algorithm=1}": ("memory-plan", "option algorithm=1", "a name"),
    "memory-plan{algorithm=greedy,best}": ("memory-plan", "algorithm=greedy,best"),
    "memory-plan{alignment=48}": ("memory-plan", "alignment", POWER_OF_TWO, "48"),
    "memory-plan{tensor-alignment=0}": ("memory-plan", "tensor-alignment 0 is not"),
    "memory-place{tensor-alignment=0}": ("memory-place", "tensor-alignment 0 is not"),
    "memory-plan{block-size=18446744073709551616}": (
        "memory-plan",
        "block-size 18446744073709551616 does not fit in 64 bits",
    ),
    "memory-verify{alignment=9223372036854775808}": (
        "memory-verify",
        "alignment 9223372036854775808 does not fit in 64 bits",
    ),
    "memory-plan{capacity=-5}": ("memory-plan", "capacity must be >= 0", "-5"),
    "memory-plan{capacity=18446744073709551616}": (
        "memory-plan",
        "capacity 18446744073709551616 does not fit in 64 bits",
        "18446744073709551615 bytes",
    ),
    "memory-place{capacity=99999999999999999999999}": (
        "memory-place",
        "capacity 99999999999999999999999 does not fit in 64 bits",
    ),
    "memory-plan{capacity=x}": ("memory-plan", "capacity=x", "an integer"),
    "memory-plan{capacity}": ("memory-plan", "capacity has no value"),
    "memory-plan{insert-kills=2}": ("memory-plan", "insert-kills=2", "true or false"),
    "memory-plan{arenas=x}": ("memory-plan", "unknown arenas 'x'", "run, function"),
    "memory-plan{budget=-1}": ("memory-plan", "budget must be >= 0", "-1"),
    "memory-plan{budget=x}": ("memory-plan", "budget=x", "an integer"),
    "memory-plan{budget=18446744073709551616}": (
        "memory-plan",
        "budget 18446744073709551616 does not fit in 64 bits",
        "18446744073709551615 search nodes",
    ),
    "memory-place{budget=18446744073709551616}": (
        "memory-place",
        "budget 18446744073709551616 does not fit in 64 bits",
    ),
    "memory-plan{time-limit=-1}": ("memory-plan", "time-limit must be >= 0", "-1"),
    "memory-plan{time-limit=nan}": ("memory-plan", "time-limit=nan", "a number"),
    "memory-plan{time-limit=18446744073709551616}": (
        "memory-plan",
        "time-limit 18446744073709551616 does not fit in 64 bits",
        "18446744073709551615 seconds",
    ),
    "memory-plan{target=nope}": ("memory-plan", "unknown target 'nope'", TARGETS),
    "memory-plan{nope=1}": ("memory-plan", "unknown option 'nope'", "algorithm"),
    "memory-verify{alignment=3}": ("memory-verify", "alignment", POWER_OF_TWO, "3"),
    "memory-verify{alignment=1.5}": ("memory-verify", "alignment=1.5", "an integer"),
    "memory-verify{capacity=-1}": ("memory-verify", "capacity must be >= 0"),
    "memory-verify{target=nope}": ("memory-verify", "unknown target 'nope'"),
    "convert-memory-to-memref{x=1}": ("convert-memory-to-memref", "takes no options"),
    "memory-plan{": ("bad pass pipeline given to -p", "Expected argument name"),
    "memory-plan}": ("bad pass pipeline given to -p", "Expected a comma"),
    "memory-manifest,,memory-plan": ("bad pass pipeline given to -p", "pass name"),
    "memory-plan{algorithm=}": ("bad pass pipeline given to -p",),
    "no-such-pass": ("-p: unknown pass 'no-such-pass'", "--help` lists the passes"),
    "memory-plna,nope": (
        "unknown pass 'memory-plna' (did you mean memory-plan",
        "; unknown pass 'nope':",
    ),
}


def run(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["memplan-opt", *argv])
    try:
        code = main()
    except SystemExit as exit_:
        code = exit_.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


def assert_one_clean_error(code: int, err: str, expected: tuple[str, ...]) -> None:
    assert code == 1, err
    assert err.startswith("memplan-opt: error: "), err
    assert err.count("memplan-opt: error:") == 1, err
    assert "Traceback" not in err
    for fragment in expected:
        assert fragment in err, f"{fragment!r} not in {err!r}"


@pytest.mark.parametrize(
    "case", [*IR_CASES.values(), *PASS_CASES.values()], ids=[*IR_CASES, *PASS_CASES]
)
def test_bad_ir_is_one_error_naming_the_op(
    case: Case,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(case.source)
    code, err = run([str(source), *case.args], monkeypatch, capsys)
    assert_one_clean_error(code, err, case.expected)


@pytest.mark.parametrize(
    ("pipeline", "expected"), OPTION_CASES.items(), ids=list(OPTION_CASES)
)
def test_bad_pass_option_is_one_error_naming_the_option(
    pipeline: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    code, err = run([str(source), "-p", pipeline], monkeypatch, capsys)
    assert_one_clean_error(code, err, expected)


@pytest.mark.parametrize("split", [False, True], ids=["whole-file", "split-input"])
def test_an_op_that_fails_to_verify_is_named_by_file_line_and_column(
    split: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = """func.func @f() {
  %s = memory.alloc_storage [100] : !memory.storage<"global">
  %t = memory.alloc_tensor %s[3] : !memory.storage<"global"> to memref<4xf32>
  func.return
}
"""
    before = "func.func @g() {\n  func.return\n}\n// -----\n" if split else ""
    source = tmp_path / "in.mlir"
    source.write_text(before + bad)
    code, err = run(
        [str(source), *(["--split-input-file"] if split else [])], monkeypatch, capsys
    )
    line = 7 if split else 3
    assert_one_clean_error(
        code, err, (f"{source}:{line}:3: memory.alloc_tensor: offset 3 is not aligned",)
    )


WHILE_LOOP = """func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%x = %c0) : (index) -> index {
    %more = arith.cmpi slt, %x, %n : index
    scf.condition(%more) %x : index
  } do {
  ^bb0(%y: index):
    scf.yield %y : index
  }
  func.return
}
"""


def _verify_raising_a_plain_exception(self: object) -> None:
    raise Exception("loop-carried types differ")


def test_a_verifier_raising_a_plain_exception_is_the_ops_error_at_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Some of xDSL's verifiers raise a plain `Exception`, not a
    `VerifyException` (xDSL's own `scf.while` did): still the op's error,
    named where it was written, not an internal error."""
    source = tmp_path / "in.mlir"
    source.write_text(WHILE_LOOP)
    monkeypatch.setattr(WhileOp, "verify_", _verify_raising_a_plain_exception)
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(
        code, err, (f"{source}:3:3: scf.while: loop-carried types differ",)
    )


def test_missing_input_file_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.mlir"
    code, err = run([str(missing)], monkeypatch, capsys)
    assert_one_clean_error(code, err, (f"cannot open {missing}", "No such file"))


def test_directory_as_input_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run([str(tmp_path)], monkeypatch, capsys)
    assert_one_clean_error(code, err, (f"cannot open {tmp_path}", "Is a directory"))


def test_unwritable_output_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    output = tmp_path / "no-such-dir" / "out.mlir"
    code, err = run([str(source), "-o", str(output)], monkeypatch, capsys)
    assert_one_clean_error(
        code, err, (f"-o: cannot write {output}: No such file or directory",)
    )


def test_a_failing_run_leaves_the_output_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    kept = tmp_path / "kept.mlir"
    kept.write_text("// an earlier result\n")
    absent = tmp_path / "absent.mlir"
    for output in (kept, absent):
        code, err = run(
            [str(source), "-p", "memory-plan{capacity=-1}", "-o", str(output)],
            monkeypatch,
            capsys,
        )
        assert_one_clean_error(code, err, ("capacity must be >= 0",))
    assert kept.read_text() == "// an earlier result\n"
    assert not absent.exists()


def test_the_output_file_may_be_the_input_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    code, err = run([str(source), "-o", str(source)], monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert "func.func @f" in source.read_text()


def test_binary_input_says_it_is_not_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_bytes(b"\xff\xfe\x00func")
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, ("not UTF-8 text", "byte 0xff at offset 0"))


def test_an_unterminated_string_literal_is_an_error_at_once(tmp_path: Path) -> None:
    # xDSL's lexer takes time exponential in the rest of the line here; the
    # timeout turns that hang into a failure.
    source = tmp_path / "in.mlir"
    source.write_text(
        function('  %v = "memref.cast(%r) : (memref<4xf32>) -> memref<?xf32>')
    )
    done = subprocess.run(
        [sys.executable, "-m", "memplan.tools.memplan_opt", str(source)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"memplan-opt: error: {source}:2:8: unterminated string literal: expected "
        "its closing '\"' on the same line\n"
    )


def blob_global(blob: str) -> str:
    return (
        'memref.global "private" constant @w : memref<2xf32> = dense_resource<k>\n'
        f'{{-#\n  dialect_resources: {{\n    builtin: {{\n      k: "{blob}"\n'
        "    }\n  }\n#-}\n"
    )


@pytest.mark.parametrize(
    ("blob", "expected"),
    [
        ("0x040000000000803F0000803", ":5:36: blob k: expected whole bytes, got an "),
        ("0x04000000Z000803F0000803F", ":5:21: blob k: expected a hex digit, got 'Z'"),
        ("0x040000", ":5:13: blob k: expected the data's alignment in its first 4"),
        ("0x030000000000803F0000803F", ":5:13: blob k: expected the data's alignment"),
        ("0x000000000000803F0000803F", ":5:13: blob k: expected the data's alignment"),
        ("040000000000803F0000803F", ":5:11: blob k: expected a hex string starting"),
    ],
    ids=[
        "odd length",
        "not hex",
        "no alignment",
        "alignment 3",
        "alignment 0",
        "no 0x",
    ],
)
def test_a_malformed_blob_is_an_error_at_its_fault(
    blob: str,
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """MLIR's parser rejects these blobs; xDSL kept them (and quoted the whole
    blob, which may be megabytes, when it did reject one)."""
    source = tmp_path / "in.mlir"
    source.write_text(blob_global(blob))
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, (f"{source}{expected}",))
    assert blob not in err.splitlines()[0]


SIDEWAYS = """#map = affine_map<(d0) -> (d0)>
func.func @f(%a: memref<4xf32>) {
  scf.execute_region {
    linalg.generic {indexing_maps = [#map], iterator_types = ["sideways"]} outs(%a : memref<4xf32>) {
    ^bb0(%x: f32):
      linalg.yield %x : f32
    }
    scf.yield
  }
  func.return
}
"""


def test_an_op_its_own_parser_rejects_is_shown_at_the_innermost_op(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """xDSL's `linalg.generic` parser raises a plain `ValueError`, without a
    location: shown at that op, not at the ops around it."""
    source = tmp_path / "in.mlir"
    source.write_text(SIDEWAYS)
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, ())
    assert err.splitlines()[:4] == [
        f"memplan-opt: error: {source}:4:5",
        "    linalg.generic {indexing_maps = [#map], iterator_types = "
        '["sideways"]} outs(%a : memref<4xf32>) {',
        "    ^^^^^^^^^^^^^^",
        "    linalg.generic: 'sideways' is not a valid IteratorType",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    LONG_TOKEN_PROGRAMS.values(),
    ids=list(LONG_TOKEN_PROGRAMS),
)
def test_an_error_quoting_a_long_token_shows_it_cut_with_its_length(
    text: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(text)
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, expected)
    assert len(err) < MAX_ERROR, err[:300]


@pytest.mark.parametrize("fault", ["Z", '"'], ids=["not hex", "unterminated"])
def test_an_error_on_a_long_line_shows_the_line_cut_around_it(
    fault: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A blob's line may be megabytes long: the error shows a window of it."""
    digits = "0x04000000" + "00" * 50_000
    blob = digits[:60_000] + fault + digits[60_001:]
    source = tmp_path / "in.mlir"
    source.write_text(blob_global(blob).replace(f'"{blob}"', f'"{blob}'))
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, (f"{source}:5:",))
    assert len(err) < 1_000, err[:300]
    assert "..." in err


def test_unknown_extension_says_how_to_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.txt"
    source.write_text(function())
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(code, err, ("Unrecognized file extension 'txt'", "-f mlir"))


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        (["-t", "nope"], "argument -t/--target: invalid choice: 'nope'"),
        (["-f", "nope"], "argument -f/--frontend: invalid choice: 'nope'"),
    ],
    ids=["unknown flag", "unknown target", "unknown frontend"],
)
def test_bad_flag_is_a_usage_error_naming_it(
    flags: list[str],
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    code, err = run([str(source), *flags], monkeypatch, capsys)
    assert code == 2, err
    assert f"memplan-opt: error: {expected}" in err
    assert "Traceback" not in err


def _out_of_memory(*args: object) -> None:
    raise MemoryError


def test_running_out_of_memory_is_one_error_naming_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    monkeypatch.setattr(MemplanParser, "parse_module", _out_of_memory)
    code, err = run([str(source)], monkeypatch, capsys)
    assert_one_clean_error(
        code, err, (f"{source}: out of memory: it needs more than this machine",)
    )


def _broken_verify(self: MemoryVerifyPass, ctx: object, op: object) -> None:
    raise RuntimeError("an unexpected state")


def test_an_unexpected_exception_is_one_internal_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    monkeypatch.delenv(TRACEBACK_VARIABLE, raising=False)
    monkeypatch.setattr(MemoryVerifyPass, "apply", _broken_verify)
    code, err = run([str(source), "-p", "memory-verify"], monkeypatch, capsys)
    assert code == 1
    assert err.startswith(
        "memplan-opt: internal error: RuntimeError: an unexpected state\n"
    )
    assert "this is a bug in memplan" in err and "Traceback" not in err


def test_the_traceback_of_an_internal_error_is_shown_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.mlir"
    source.write_text(function())
    monkeypatch.setenv(TRACEBACK_VARIABLE, "1")
    monkeypatch.setattr(MemoryVerifyPass, "apply", _broken_verify)
    with pytest.raises(RuntimeError, match="an unexpected state"):
        run([str(source), "-p", "memory-verify"], monkeypatch, capsys)

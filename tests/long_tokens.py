"""Programs quoting a 100,000-character token where they go wrong, and what
the error must still say: a tool shows the token cut, with its length
(`memplan.text.cut_tokens`)."""

from __future__ import annotations

LONG = "x" * 100_000

MAX_ERROR = 1_500
"""Characters of the longest error such a program may print: a few cut source
lines and a message."""


def _function(*lines: str, args: str = "") -> str:
    return "\n".join([f"func.func @main({args}) {{", *lines, "  func.return", "}", ""])


LONG_TOKEN_PROGRAMS = {
    "callee": (
        _function(f"  func.call @{LONG}() : () -> ()"),
        ("(100,003 characters) could not be found in symbol table",),
    ),
    "op name": (
        _function(f'  "foo.{LONG}"() : () -> ()'),
        ("Operation foo.xxx", "(100,004 characters) is not registered"),
    ),
    "value name": (
        _function(f"  memref.dealloc %{LONG} : memref<4xf32>"),
        ("values used but not defined", "(100,003 characters)"),
    ),
    "property name": (
        _function(
            f'  "memref.dealloc"(%a) <{{{LONG} = 1}}> : (memref<4xf32>) -> ()',
            args="%a: memref<4xf32>",
        ),
        (
            "(100,001 characters) = 1 : i64} for op memref.dealloc: this "
            "operation has empty properties",
        ),
    ),
    "iterator type": (
        "#map = affine_map<(d0) -> (d0)>\n"
        + _function(
            "  linalg.generic {indexing_maps = [#map], iterator_types = "
            f'["{LONG}"]}} outs(%a : memref<4xf32>) {{',
            "  ^bb0(%x: f32):",
            "    linalg.yield %x : f32",
            "  }",
            args="%a: memref<4xf32>",
        ),
        ("linalg.generic: 'xxx", "(100,002 characters) is not a valid IteratorType"),
    ),
    "visibility with spaces": (
        '"func.func"() <{sym_name = "main", function_type = () -> (), '
        f'sym_visibility = "{"ab " * 33_000}"}}> ({{\n'
        '  "func.return"() : () -> ()\n'
        "}) : () -> ()\n",
        ('but got "ab ab', '..." (99,002 characters)'),
    ),
}
"""Each program, and fragments its error must hold."""

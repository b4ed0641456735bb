"""xDSL's parser, reading a type, function type or property dictionary once
per distinct spelling in a file.

A model exported by torch-mlir repeats a few dozen spellings thousands of
times (`memref<1x32x32x32xf32>`, `: (f32, f32) -> f32`,
`<{operandSegmentSizes = array<i32: 2, 1>}>`), and xDSL 0.74 reads each
slowly: every `memref<...>` builds an irdl constraint for its shape
(`MemRefType.__init__` calls `isa(shape, ArrayAttr[IntAttr])`), every dense
literal one for its type (`_parse_dense_literal_type`), and every token is
lexed again after a shape's `x` splits it.  Reading such a file took 5 s of
CPU, half of a `memplan-opt` run; `MemoizingParser` reads each spelling once
and reuses the attribute for later ones (xDSL attributes are immutable
values, so sharing one object changes nothing).

Only spellings a regular expression recognizes are reused, and only after
xDSL's parser read exactly that text without error: the same text then
gives the same attribute.  Spellings with aliases, strings other than plain
names, nested functions or dictionaries, or a `dense_resource` (reading it
declares a blob) are always read by xDSL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    FunctionType,
    IndexType,
    IntegerType,
    RankedStructure,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.parser import Parser

_T = TypeVar("_T")

_NAME = r'"[\w.]*"'
"""A string literal without escapes, e.g. `"global.vtcm"`."""
_SHAPED_TYPE = (
    rf"(?:memref|tensor|vector)<(?:[^<>(){{}}\"#!]|{_NAME}|<[^<>(){{}}\"#!]*>)*>"
)
"""`memref<1x?xf32, strided<[?, 1]>, "global.vtcm">`: a shaped type whose
parameters nest one level of `<...>` at most and spell no alias."""
_TYPE_LIST = rf"\((?:[^(){{}}\"#!]|{_NAME})*\)"
_DICTIONARY = rf"\{{(?:[^{{}}\"]|{_NAME})*\}}"

TYPE = re.compile(_SHAPED_TYPE)
FUNCTION_TYPE = re.compile(
    rf"{_TYPE_LIST}\s*->\s*(?:{_TYPE_LIST}|{_SHAPED_TYPE}|[a-z][a-z0-9_]*(?![\w$.<]))"
)
"""`(f32, memref<4xf32>) -> f32`; a bare result type must end where its
token does (`f32` in `f32 loc(...)`, not in `f32$x`)."""
PROPERTIES = re.compile(f"<{_DICTIONARY}>")
"""`<{alignment = 64 : i64}>`: properties holding no dictionary."""
ATTRIBUTES = re.compile(_DICTIONARY)
"""`{iterator_types = ["parallel"]}`: an attribute dictionary, likewise."""


_DenseLiteralType = RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]


class MemoizingParser(Parser):
    """xDSL's parser reusing what it read for a spelling seen before."""

    def __init__(self, ctx: Context, input: str | bytes, name: str = "<unknown>"):
        super().__init__(ctx, input, name)
        self._types: dict[str, TypeAttribute | None] = {}
        self._function_types: dict[str, FunctionType | None] = {}
        self._properties: dict[str, dict[str, Attribute]] = {}
        self._attributes: dict[str, dict[str, Attribute]] = {}
        self._dense_types: dict[str, _DenseLiteralType] = {}

    def _memoized(
        self, cache: dict[str, _T], pattern: re.Pattern[str], parse: Callable[[], _T]
    ) -> _T:
        """`parse()`, or what it returned before for the text `pattern`
        matches at the current token (kept when `parse` read all of that
        text and nothing after it)."""
        content = self.lexer.input.content
        match = pattern.match(content, self.pos)
        if match is None:
            return parse()
        text = match.group()
        if text in cache:
            self._resume_from(match.end())
            return cache[text]
        result = parse()
        read_exactly = (
            self.pos >= match.end() and not content[match.end() : self.pos].strip()
        )
        if read_exactly and "dense_resource" not in text:
            cache[text] = result
        return result

    def parse_optional_type(self) -> TypeAttribute | None:
        return self._memoized(self._types, TYPE, super().parse_optional_type)

    def parse_optional_function_type(self) -> FunctionType | None:
        return self._memoized(
            self._function_types, FUNCTION_TYPE, super().parse_optional_function_type
        )

    def parse_optional_properties_dict(self) -> dict[str, Attribute]:
        properties = self._memoized(
            self._properties, PROPERTIES, super().parse_optional_properties_dict
        )
        return dict(properties)  # each op gets a dictionary of its own

    def parse_optional_dictionary_attr_dict(self) -> dict[str, Attribute]:
        attributes = self._memoized(
            self._attributes, ATTRIBUTES, super().parse_optional_dictionary_attr_dict
        )
        return dict(attributes)

    def _parse_dense_literal_type(self) -> _DenseLiteralType:
        # xDSL checks the type against a constraint it builds for every literal.
        return self._memoized(
            self._dense_types, TYPE, super()._parse_dense_literal_type
        )

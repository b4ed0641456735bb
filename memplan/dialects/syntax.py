"""Pieces of MLIR's custom syntax that several of memplan's ops share."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xdsl.parser import Parser


def parse_optional_arrow_types(parser: Parser) -> Sequence[Attribute]:
    """MLIR's `parseOptionalArrowTypeList`: nothing, `-> type` or `-> (type, ...)`."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_type
    )
    return [parser.parse_type()] if types is None else types

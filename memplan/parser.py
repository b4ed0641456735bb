"""The parser every memplan tool reads MLIR with: xDSL's, with MLIR's meaning
for hexadecimal elements of float `dense` literals, reading each repeated
type or property spelling once (`memplan.parse_memo`).

MLIR reads `dense<0xFF800000> : tensor<f32>` as the bit pattern 0xFF800000,
that is -inf (how MLIR prints an infinity or a NaN, e.g. the fill value of an
attention mask).  xDSL 0.74 reads it as the integer 4286578688 converted to
f32, so the module silently computes something else.  `MemplanParser` reads
such an element as MLIR does, bit for bit (NaN payloads included), and each
hex part of a complex float element too, and rejects what MLIR rejects: a
leading minus and a pattern wider than the type.
A decimal integer for a float element (`dense<1> : tensor<f32>`, an error in
MLIR) keeps xDSL's reading, the value 1.0.

It reads semi-affine maps and integer sets (`s0 * s1`, `d0 mod s0`), which
MLIR's `expand-strided-metadata` writes and xDSL 0.74 cannot build
(`memplan.semi_affine`).

It also rejects, as MLIR does, what xDSL 0.74 reads without a word: a use its
definition does not dominate (`memplan.dominance`), an `index` attribute
outside 64 bits (`99999999999999999999 : index`), a custom-form
`func.func` with empty braces (`func.func @f() {}`, which xDSL reads as a
declaration), a public declaration (`func.func @f()` without a body:
MLIR's "symbol declaration cannot have public visibility"), a branch that
hands a block other values than its arguments (`memplan.branches`), a
memref type MLIR's verifier rejects (`memplan.type_checks`: strides or an
affine map that do not match the rank, a float memory space, a tensor
element), an integer type wider than 16,777,215 bits and a malformed
`dense_resource` blob (reported at its fault).  A dense array of zero-bit
integers (`array<i0: 0>`, which xDSL divides by zero on) is an error at its
type, an integer literal longer than Python converts to text (4,300
digits) at the literal, and an error's source line is cut to
`CONTEXT_WIDTH` characters around it (`span_context`): a blob's line may be
megabytes long.  A `%`, `^`, `#` or `!` followed by no name is reported with what
was expected, not xDSL's unformatted "Expected suffix identifier after
{first_char}".

Regions may nest `MAX_REGION_NESTING` levels deep: every memplan tool
follows that deep on its large stack (`memplan.deep_stack`); the region
beyond is a parse error, before the recursion that follows it runs out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyDenseElement,
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    PackableType,
    RankedStructure,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.ir.affine import AffineMap, AffineSet
from xdsl.irdl import IRDLOperation
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

from memplan.branches import empty_block, mismatched_branch
from memplan.dialects.memref import MalformedBlob
from memplan.dominance import undominated_use
from memplan.generic_form import read_as_mlir, unmodeled_attribute
from memplan.parse_memo import MemoizingParser
from memplan.semi_affine import SemiAffineParser
from memplan.terminators import misplaced_yield
from memplan.type_checks import memref_type_problem

MAX_REGION_NESTING = 10_000
"""Levels of regions one inside another (a function body is the first; the
body of a `builtin.module` is no level, so that a tool reads back what it
printed): xDSL's parser, verifier and printer and memplan's passes take
some 10 Python frames per level, the interpreter 10 to 35, and
`memplan.deep_stack.RECURSION_LIMIT` allows 250,000."""

_MODULE_SPELLINGS = ("builtin.module", "module", '"builtin.module"')
"""How the first token of a `builtin.module` op is written."""


_VISIBILITIES = frozenset({"public", "private", "nested"})
"""The symbol visibilities MLIR knows (`SymbolOpInterface`); xDSL reads any
string, and memplan took an unknown one for "not public"."""


def too_deep(name: str) -> str:
    """What a tool says when the input `name` ran memplan out of recursion:
    brackets nested tens of thousands deep (or regions, with the small stack
    `memplan.deep_stack` falls back to under a memory limit)."""
    return (
        f"{name}: brackets or regions nest deeper than memplan can follow "
        f"(regions at most {MAX_REGION_NESTING:,} levels, some 100 when a memory "
        "limit such as ulimit -v leaves memplan no room for its stack)"
    )


CONTEXT_WIDTH = 160
"""Characters of a source line an error shows around its place."""


def span_context(span: Span[str] | Span[bytes], message: str | None = None) -> str:
    """What `span.print_with_context(message)` shows (where, each source line
    of the span with carets under it, the message under the first), each
    line cut to `CONTEXT_WIDTH` characters around the span, `...` marking
    each cut: a line of a `dense_resource` blob may be megabytes long."""
    content = span.input.content
    if isinstance(content, bytes):  # memplan's tools parse decoded text
        return span.print_with_context(message)
    line_start = span.input.get_start_of_line(span.start)
    context_end = span.input.get_end_of_line(max(span.start, span.end - 1))
    shown = [str(span.get_location())]
    for line in content[line_start:context_end].split("\n"):
        text = line.removesuffix("\r")
        first = min(max(span.start - line_start, 0), len(text))
        last = min(max(span.end - line_start, 0), len(text))
        cut = max(0, min(first - CONTEXT_WIDTH // 2, len(text) - CONTEXT_WIDTH))
        left = "..." if cut else ""
        right = "..." if cut + CONTEXT_WIDTH < len(text) else ""
        column = len(left) + first - cut
        width = min(last, cut + CONTEXT_WIDTH) - first
        shown.append(left + text[cut : cut + CONTEXT_WIDTH] + right)
        shown.append(" " * column + "^" * max(width, 1))
        if message is not None:
            shown.append(" " * column + message)
            message = None
        line_start += len(line) + 1
    return "\n".join(shown) + "\n"


def parse_error_text(error: ParseError) -> str:
    """`str(error)`, its source lines cut as `span_context` cuts them."""
    text = span_context(error.span, error.msg)
    if isinstance(error, MultipleSpansParseError):
        if error.ref_text is not None:
            text += error.ref_text + "\n"
        for span, message in error.refs:
            text += span_context(span, message) + "\n"
    return text


@dataclass(frozen=True)
class OpBeingParsed:
    """The op `MemplanParser` was reading when an error not its own (not a
    `ParseError`) left it: the op's name and its first token."""

    name: str
    start: Span


_OP_BEING_PARSED = "memplan_op_being_parsed"
"""The attribute of an error that holds its `OpBeingParsed`."""


def op_being_parsed(error: BaseException) -> OpBeingParsed | None:
    """The innermost op `MemplanParser` was reading when `error` left it."""
    op = getattr(error, _OP_BEING_PARSED, None)
    return op if isinstance(op, OpBeingParsed) else None


def at_op_being_parsed(error: Exception, message: str) -> str:
    """`message` shown at the op being parsed when `error` was raised, as
    `span_context` shows it: an op's own parser and type checks raise
    without a location (`'sideways' is not a valid IteratorType`).  Just
    `message` when `error` was not raised while parsing an op."""
    op = op_being_parsed(error)
    if op is None:
        return message
    named = message if message.startswith(op.name) else f"{op.name}: {message}"
    return span_context(op.start, named)


def out_of_memory(name: str) -> str:
    """What a tool says when reading, transforming or running the input
    `name` ran memplan out of memory."""
    return f"{name}: out of memory: it needs more than this machine has free"


def _byte_width(type_: AnyFloat) -> int | None:
    """Bytes of one element of `type_`, when its bits fill whole bytes."""
    try:
        size = type_.compile_time_size
    except NotImplementedError:
        return None
    return size if size * 8 == type_.bitwidth else None


def _storable(type_: AnyFloat) -> bool:
    """Whether xDSL can pack (and so print) a value of `type_`."""
    if not isinstance(type_, PackableType):
        return False
    try:
        type_.pack((0.0,))
    except NotImplementedError:
        return False
    return True


def _hex_bits(text: str) -> int | None:
    """The integer a literal spells in hex (`0x...`, or `-0x...`), else None."""
    digits = text.strip().removeprefix("-").lstrip()
    return int(digits, 16) if digits.startswith("0x") else None


_INDEX_MIN = -(1 << 63)
"""The smallest index value: xDSL stores index elements as 64-bit integers."""


def _index_range_error(text: str) -> str:
    """The error for the index value spelled `text`, which is outside 64 bits."""
    return (
        f"{text} does not fit in 64 bits: expected a value in "
        f"[{_INDEX_MIN}, {-_INDEX_MIN - 1}]"
    )


_UNFORMATTED = "Expected suffix identifier after {first_char}"
"""xDSL 0.74's lexer error for a `%`, `^`, `#` or `!` without a name after it:
an f-string missing its `f`, so it shows `{first_char}` literally."""

_PREFIXED = {
    "%": "SSA name",
    "^": "block name",
    "#": "attribute name",
    "!": "type name",
}
"""What each prefix starts, as MLIR's errors call it ("invalid SSA name")."""


def _with_prefix_named(error: ParseError) -> ParseError:
    """`error`, or in place of xDSL's unformatted message the name that is
    missing and what it may be made of."""
    prefix = error.span.text[:1]
    if error.msg != _UNFORMATTED or prefix not in _PREFIXED:
        return error
    return ParseError(
        error.span,
        f"invalid {_PREFIXED[prefix]}: expected a name after '{prefix}' (digits, "
        "or a letter or one of $._- followed by letters, digits and $._-)",
    )


MAX_INTEGER_DIGITS = 4_300
"""Decimal digits of the longest integer literal memplan reads: Python
refuses to convert a longer number to decimal text or back
(`sys.int_info`), which xDSL does to read one and to say it is out of its
type's range."""

MAX_HEX_DIGITS = 3_571
"""Hex digits of the longest hex integer literal memplan reads: the most
whose value has at most `MAX_INTEGER_DIGITS` decimal digits."""

MAX_SPLAT_ELEMENTS = 1 << 24
"""Elements of the largest splat (`dense<1.0> : tensor<4096x4096xf32>`)
memplan reads: xDSL holds every element of a dense literal, built through a
Python list, some 10 s and 0.9 GB per 10 million elements; a billion took
minutes and gigabytes before an error."""

MAX_INTEGER_WIDTH = 16_777_215
"""Bits of the widest integer type, as in MLIR (`IntegerType::kMaxWidth`)."""

_INTEGER_TYPE = re.compile(r"[su]?i([0-9]+)")


def _integer_too_long(token: MLIRToken) -> str | None:
    """MLIR's error for an integer type wider than it allows, or memplan's
    for an integer literal longer than it reads; None for other tokens."""
    text = token.span.text
    if token.kind == MLIRTokenKind.INTEGER_LIT:
        hex_digits = text[2:] if text[:2] in ("0x", "0X") else None
        digits = len(text if hex_digits is None else hex_digits)
        most = MAX_INTEGER_DIGITS if hex_digits is None else MAX_HEX_DIGITS
        if digits > most:
            kind = "integer" if hex_digits is None else "hex integer"
            return (
                f"{kind} literal of {digits:,} digits: memplan reads at most {most:,}"
            )
    elif token.kind == MLIRTokenKind.BARE_IDENT and (
        width := _INTEGER_TYPE.fullmatch(text)
    ):
        digits = width.group(1).lstrip("0")
        if len(digits) > len(str(MAX_INTEGER_WIDTH)) or int(digits or 0) > (
            MAX_INTEGER_WIDTH
        ):
            return f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits"
    return None


_SPLAT = re.compile(r'<\s*(?:[^\s\[">]|"0x(?:[0-9A-Fa-f]{2}){1,16}")')
"""The start of a splat dense literal after `dense`: one value, or a hex
string of at most 16 bytes (a complex f64), which fills no more elements
unless it is a splat."""

_ZERO_BIT_ARRAY = re.compile(r"<\s*([su]?i0+)\b")
"""The start of a dense array of zero-bit integers, `array<i0: 0, 0>`."""

_UNTERMINATED = "End of file reached before closing string literal."
"""xDSL's message for a string literal whose line ends before its quote."""


class _Lexer(MLIRLexer):
    """xDSL's lexer, saying which name is missing after a `%`, `^`, `#` or
    `!`, and reading string literals in time linear in their length."""

    _unescaped_characters_regex = re.compile(
        r'"[^"\\\n\v\f]*(?:\\(?:["nt\\]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*)*"'
    )
    """xDSL's string literal, as a run of plain characters, then escapes each
    followed by such a run: one way to split any line, so time linear in its
    length, and memory in its number of escapes.  xDSL's `[^"...]+` inside
    `(...)*` tries every way to split the rest of the line when the closing
    quote is missing, time exponential in the line's length (an unterminated
    `"memref.cast(%r) : (i32) -> i32` hung the parser); one plain character
    per repetition of the `*` instead kept a backtracking entry per
    character, about 140 bytes each (2.6 GB to read resnet18's 19 MB
    `dense_resource` blob)."""

    def lex(self) -> MLIRToken:
        try:
            token = super().lex()
        except ParseError as error:
            if error.msg == _UNTERMINATED:
                raise ParseError(
                    error.span,
                    "unterminated string literal: expected its closing '\"' on "
                    "the same line",
                ) from None
            raise _with_prefix_named(error) from None
        problem = _integer_too_long(token)
        if problem is not None:
            raise ParseError(token.span, problem)
        return token


@dataclass
class _Element(AttrParser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """A tensor literal element read as MLIR reads it for a float type: a hex
    literal is the element's bits (for complex, each part's)."""

    def bits(self) -> int | None:
        """The literal's integer value when it is a real number spelled in hex."""
        return _hex_bits(self.span.text)

    def to_type(
        self,
        parser: AttrParser,
        type: AnyFloat | IntegerType | IndexType | ComplexType,
    ):
        text = self.span.text
        value = self.value
        if (
            isinstance(type, IndexType)
            and isinstance(value, int | float)
            and not _INDEX_MIN <= value < -_INDEX_MIN
        ):
            parser.raise_error(f"index element {_index_range_error(text)}", self.span)
        if isinstance(type, ComplexType) and not isinstance(self.value, tuple):
            parser.raise_error(
                f"a {type} element must be a pair (real, imaginary), got {text}",
                self.span,
            )
        if isinstance(type, AnyFloat) and (bits := _hex_bits(text)) is not None:
            return _decode(parser, self.span, text, bits, type)
        if (
            isinstance(type, ComplexType)
            and isinstance(part_type := type.element_type, AnyFloat)
            and isinstance(self.value, tuple)
        ):
            real, imag = (
                float(value)
                if (bits := _hex_bits(part)) is None
                else _decode(parser, self.span, part, bits, part_type)
                for part, value in zip(
                    text.strip()[1:-1].split(","), self.value, strict=True
                )
            )
            return real, imag
        return super().to_type(parser, type)


def _decode(parser: AttrParser, span: Span, text: str, bits: int, type_: AnyFloat):
    """The float whose `type_` bits the hex literal `text` spells."""
    return next(type_.iter_unpack(_bit_pattern(parser, span, text, bits, type_)))


def _bit_pattern(
    parser: AttrParser, span: Span, text: str, bits: int, type_: AnyFloat
) -> bytes:
    """The little-endian bytes of the hex literal `text` (at `span`) as a
    `type_` element, or MLIR's error for it."""
    if text.strip().startswith("-"):
        parser.raise_error(
            "hexadecimal float literal should not have a leading minus",
            at_position=span,
        )
    width = _byte_width(type_)
    if width is None:
        parser.raise_error(
            f"hexadecimal float literals for {type_.name} elements are not "
            "supported (only types whose bits fill whole bytes, e.g. f16, bf16, "
            "f32, f64)",
            at_position=span,
        )
    if bits >= 1 << (8 * width):
        parser.raise_error(
            f"hexadecimal float constant out of range for type {type_.name}",
            at_position=span,
        )
    return bits.to_bytes(width, "little")


@dataclass
class _Parsing:
    """An op `MemplanParser` is reading."""

    start: Span
    """Its first token."""

    name: str | None = None
    """Its name, once read."""

    properties: bool = False
    """Whether it spells a properties dictionary `<{...}>`, once read."""

    @property
    def module(self) -> bool:
        """Whether it is a `builtin.module`."""
        return self.start.text in _MODULE_SPELLINGS


class MemplanParser(MemoizingParser):
    """xDSL's parser reading hex float elements of dense literals as MLIR does,
    each repeated type or property spelling once, rejecting what MLIR rejects
    and xDSL does not (see the module's documentation), and noting where each
    op's text starts (xDSL keeps no position on an op whose text spells no
    `loc(...)`), so errors about an op can name its line."""

    _literal: list[_Element] | None = None
    """The elements of the dense literal being parsed, in order."""

    _splat: bool = False
    """Whether the dense literal being parsed is a splat: one value, or a
    hex string short enough to be one element (`dense<"0x0000803F">`)."""

    op_spans: dict[Operation, Span]
    """The first token of each parsed op."""

    _empty_regions: dict[Region, Span]
    """The `{` of each region parsed from braces holding no block."""

    _region_depth = 0
    """Regions open around the parser's position, module bodies left out."""

    _parsing: list[_Parsing]
    """Each op being parsed, outermost first."""

    def __init__(self, ctx: Context, input: str | bytes, name: str = "<unknown>"):
        try:
            super().__init__(ctx, input, name)
        except ParseError as error:  # on the first token
            raise _with_prefix_named(error) from None
        lexer = _Lexer(self.lexer.input)
        lexer.pos = self.lexer.pos
        self._parser_state.lexer = lexer
        self.op_spans = {}
        self._empty_regions = {}
        self._parsing = []

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """The module, once every block of a region of several ends in a
        terminator, every yield ends an op that may hold it, every use is
        dominated by its definition and every branch hands its successors
        their arguments' types."""
        module = super().parse_module(allow_implicit_module)
        empty = empty_block(module)
        if empty is not None:
            op, region, block = empty
            self.raise_error(
                f"{op.name}: empty block: expect at least a terminator (block "
                f"#{block} of region #{region}, which has several blocks)",
                self.op_spans.get(op),
            )
        stray = misplaced_yield(module)
        if stray is not None:
            op, problem = stray
            self.raise_error(f"{op.name}: {problem}", self.op_spans.get(op))
        mismatched = mismatched_branch(module)
        if mismatched is not None:
            op, problem = mismatched
            self.raise_error(f"{op.name}: {problem}", self.op_spans.get(op))
        misplaced = undominated_use(module)
        if misplaced is not None:
            op, position = misplaced
            operand = op.operands[position]
            name = f" (%{operand.name_hint})" if operand.name_hint else ""
            self.raise_error(
                f"{op.name}: operand #{position}{name} does not dominate this "
                "use: expected a value defined above it in its block, in an "
                "enclosing block, or in a block every path to it goes through",
                self.op_spans.get(op),
            )
        return module

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        parsing = _Parsing(start)
        self._parsing.append(parsing)
        try:
            op = super().parse_operation()
        except (ParseError, RecursionError, MemoryError):
            raise
        except Exception as error:
            # An op's own parser or type checks raise without a location:
            # the innermost op whose name was read is where it failed.
            if parsing.name is not None and op_being_parsed(error) is None:
                setattr(error, _OP_BEING_PARSED, OpBeingParsed(parsing.name, start))
            raise
        finally:
            self._parsing.pop()
        self.op_spans[op] = start
        unmodeled = unmodeled_attribute(op)
        if unmodeled is not None:
            self.raise_error(unmodeled, start)
        visibility = op.properties.get("sym_visibility") or op.attributes.get(
            "sym_visibility"
        )
        if visibility is not None and (
            not isinstance(visibility, StringAttr)
            or visibility.data not in _VISIBILITIES
        ):
            self.raise_error(
                f"{op.name}: visibility expected to be one of "
                '["public", "private", "nested"], but got '
                f"{visibility}",
                start,
            )
        # In custom form (the op's first token is its bare name), braces
        # holding nothing are an error, not a declaration.
        if isinstance(op, func.FuncOp) and start.text == op.name:
            braces = self._empty_regions.get(op.body)
            if braces is not None:
                self.raise_error(
                    f"func.func @{op.sym_name.data}: expected a non-empty function "
                    "body: a block ending in func.return (a declaration has no "
                    "braces)",
                    braces,
                )
        if isinstance(op, func.FuncOp) and not op.body.blocks:
            visibility = op.sym_visibility
            if visibility is None or visibility.data == "public":
                self.raise_error(
                    f"func.func @{op.sym_name.data}: a declaration (a function "
                    "without a body) cannot be public: expected `func.func "
                    f"private @{op.sym_name.data}`, or a body",
                    start,
                )
        return op

    def _parse_generic_operation(self, op_type: type[Operation]) -> Operation:
        """xDSL's op, its properties read as MLIR reads them
        (`memplan.generic_form`)."""
        op = super()._parse_generic_operation(op_type)
        if isinstance(op, IRDLOperation):
            problem = read_as_mlir(op, self._parsing[-1].properties)
            if problem is not None:
                self.raise_error(problem, self._parsing[-1].start)
        return op

    def parse_optional_properties_dict(self) -> dict[str, Attribute]:
        if self._current_token.text == "<" and self._parsing:
            self._parsing[-1].properties = True
        return super().parse_optional_properties_dict()

    def _get_op_by_name(self, name: str) -> type[Operation]:
        """The op named `name`, noted as the one being parsed."""
        op_type = super()._get_op_by_name(name)
        self._parsing[-1].name = op_type.name
        return op_type

    def parse_optional_region(
        self, arguments: Iterable[Parser.Argument] | None = None
    ) -> Region | None:
        start = self._current_token.span
        in_module = bool(self._parsing) and self._parsing[-1].module
        level = 0 if in_module else 1
        if self._region_depth + level > MAX_REGION_NESTING and start.text == "{":
            self.raise_error(
                "regions nest deeper than memplan can follow: expected at most "
                f"{MAX_REGION_NESTING:,} levels",
                start,
            )
        self._region_depth += level
        try:
            region = super().parse_optional_region(arguments)
        finally:
            self._region_depth -= level
        if region is not None and not region.blocks:
            self._empty_regions[region] = start
        return region

    def _parse_block(self) -> Block:
        """xDSL's block, whose label is recorded as defined when a branch
        named it first too: xDSL records only the forward reference, so a
        second block of that label failed with an internal `KeyError`
        instead of its re-declaration error."""
        label = self._current_token
        block = super()._parse_block()
        name = label.text[1:]
        if label.kind == MLIRTokenKind.CARET_IDENT and name in self.blocks:
            self.blocks[name] = (block, label.span)
        return block

    def _parse_resource(
        self, dialect_name: str, interface: OpAsmDialectInterface
    ) -> None:
        """xDSL's, with a malformed blob (`MalformedBlob`) reported at its
        fault: xDSL reports it at the token after the blob."""
        key = self._parse_dialect_resource_handle(dialect_name, interface)
        self._parse_token(MLIRTokenKind.COLON, "expected `:`")
        blob = self._current_token.span
        value = self.parse_str_literal()
        try:
            interface.parse_resource(key, value)
        except MalformedBlob as error:
            at = min(blob.start + 1 + error.offset, blob.end - 1)
            self.raise_error(str(error), at, at + 1)
        except Exception as error:
            self.raise_error(f"got an error when parsing a resource: {error}")

    def _parse_builtin_densearray_attr(self) -> DenseArrayBase | None:
        """xDSL's, refusing an element type without bits (`array<i0: 0>`),
        whose array xDSL divided by its zero bytes while building it."""
        zero_bits = _ZERO_BIT_ARRAY.match(self.lexer.input.content, self.pos)
        if zero_bits is not None:
            self.raise_error(
                f"dense array element type {zero_bits.group(1)} has no bits: "
                "expected an integer type of 1 bit or more, or a float type",
                zero_bits.start(1),
                zero_bits.end(1),
            )
        return super()._parse_builtin_densearray_attr()

    def parse_affine_map(self) -> AffineMap:
        return SemiAffineParser(self._parser_state).parse_affine_map()

    def parse_affine_set(self) -> AffineSet:
        return SemiAffineParser(self._parser_state).parse_affine_set()

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        parsed = super()._parse_tensor_literal_element()
        element = _Element(parsed.is_negative, parsed.value, parsed.span)
        if self._literal is not None:
            self._literal.append(element)
        return element

    def parse_optional_builtin_int_or_float_attr(
        self,
    ) -> IntegerAttr | FloatAttr | None:
        start = self._current_token.span
        attr = super().parse_optional_builtin_int_or_float_attr()
        if isinstance(attr, FloatAttr):
            self._check_storable(attr.type, start)
        elif (
            isinstance(attr, IntegerAttr)
            and isinstance(attr.type, IndexType)
            and not _INDEX_MIN <= attr.value.data < -_INDEX_MIN
        ):
            self.raise_error(
                f"index value {_index_range_error(str(attr.value.data))}",
                start.start,
                self._current_token.span.start,
            )
        return attr

    def _parse_memref_attrs(self) -> MemRefType | UnrankedMemRefType:
        """The parameters of a memref type, which MLIR checks
        (`memplan.type_checks`) and xDSL does not."""
        start = self._current_token.span.start
        type_ = super()._parse_memref_attrs()
        problem = memref_type_problem(type_)
        if problem is not None:
            self.raise_error(problem, start, self._current_token.span.start)
        return type_

    def _parse_dense_literal_type(
        self,
    ) -> RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]:
        start = self._current_token.span
        type = super()._parse_dense_literal_type()
        self._check_storable(type.get_element_type(), start)
        if self._splat:
            self._check_splat_size(type, start.start)
        return type

    def _check_splat_size(self, type: RankedStructure[Attribute], start: int) -> None:
        """Fail, from `start` to here, on a splat of `type` with more than
        `MAX_SPLAT_ELEMENTS` elements."""
        elements = math.prod(type.get_shape())
        if elements > MAX_SPLAT_ELEMENTS:
            self.raise_error(
                f"a splat of {elements:,} elements: memplan holds every element "
                f"of a dense literal, at most {MAX_SPLAT_ELEMENTS:,} of a splat",
                start,
                self._current_token.span.start,
            )

    def _check_storable(self, element: Attribute, start: Span) -> None:
        """Fail, from `start` to here, on a value of a float type that xDSL
        can neither store nor print (`1.0 : f80` fails when printed, and a
        dense literal of f8E4M3FN elements when read)."""
        if isinstance(element, ComplexType):
            element = element.element_type
        if isinstance(element, AnyFloat) and not _storable(element):
            self.raise_error(
                f"{element.name} values are not supported: xDSL 0.74 can neither "
                "store nor print them; expected f16, bf16, f32 or f64",
                start.start,
                self._current_token.span.start,
            )

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        splat = _SPLAT.match(self.lexer.input.content, self.pos) is not None
        if type is not None:
            self._check_storable(type.get_element_type(), self._current_token.span)
            if splat:  # the type came first: `memref.global ... = dense<0.0>`
                self._check_splat_size(type, self.pos)
        outer, self._literal = self._literal, []
        outer_splat, self._splat = self._splat, splat
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
            elements = self._literal
        finally:
            self._literal = outer
            self._splat = outer_splat
        element_type = attr.get_element_type()
        if not isinstance(element_type, AnyFloat):
            return attr
        patterns = {
            index: _bit_pattern(
                self, element.span, element.span.text, bits, element_type
            )
            for index, element in enumerate(elements)
            if (bits := element.bits()) is not None
        }
        if not patterns:
            return attr
        # The elements went through Python floats, which may change a NaN's
        # payload: write each hex element's bits as they were spelled.
        size = element_type.compile_time_size
        data = bytearray(attr.data.data)
        if len(elements) == 1:  # a splat, or a single element
            data[:] = patterns[0] * (len(data) // size)
        else:
            for index, pattern in patterns.items():
                data[index * size : (index + 1) * size] = pattern
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(bytes(data)))

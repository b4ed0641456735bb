"""The sizes a dynamic export allows, checked before a run.

`examples/torch/export_model.py` records, on each argument of `@main` with
dynamic dimensions, the size range `torch.export` allows for each of them
(its `Dim`'s `min` and `max`) as the discardable argument attribute

    memplan.sizes = [{dim = 0 : i64, max = 16 : i64, min = 1 : i64,
                      name = "batch", symbol = "s77"}, ...]

one dictionary per dynamic dimension: `dim` the dimension, `symbol` the
export's size symbol (dimensions of one symbol, in any arguments, must have
equal sizes), `min` and `max` its bounds (`max` absent when unbounded),
`name` the `Dim`'s name (optional, for messages).  A derived `Dim` (`2 *
batch + 1`) adds `scale` and `offset`: the dimension is `scale * symbol +
offset`, and `min`, `max` and `name` are the symbol's.  A run at sizes
outside them, or at sizes that give one symbol two values, would compute
what PyTorch would have refused or specialized: `check_sizes` stops it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from memplan.interpreter.errors import ModelError

SIZES_ATTRIBUTE = "memplan.sizes"
FORM = (
    '{dim = N : i64, symbol = "s0", min = N : i64[, max = N : i64][, name = "batch"]'
    "[, scale = N : i64][, offset = N : i64]}"
)
REQUIRED = ("dim", "symbol", "min")
OPTIONAL = ("max", "name", "scale", "offset")


@dataclass(frozen=True)
class AllowedSize:
    """Dimension `dim` of argument `argument` is `scale * symbol + offset`,
    where the export's `symbol` is in `low`..`high` (`high` None: no upper
    bound)."""

    argument: int
    dim: int
    symbol: str
    name: str | None
    low: int
    high: int | None
    scale: int = 1
    offset: int = 0

    def who(self) -> str:
        """The symbol for a message, with its `Dim`'s name if known."""
        return f"{self.symbol} (Dim {self.name})" if self.name else self.symbol

    def bounds(self) -> str:
        return f"{self.low}..{self.high}" if self.high is not None else f"{self.low}.."

    def is_derived(self) -> bool:
        return (self.scale, self.offset) != (1, 0)

    def formula(self) -> str:
        """The size as torch prints it: `2*s77 + 1`, `s77 - 1`."""
        term = f"{self.scale}*{self.symbol}" if self.scale != 1 else self.symbol
        if self.offset == 0:
            return term
        sign = "+" if self.offset > 0 else "-"
        return f"{term} {sign} {abs(self.offset)}"

    def symbol_value(self, size: int) -> int | None:
        """The symbol's value that gives `size`; None if no integer does."""
        value, rest = divmod(size - self.offset, self.scale)
        return None if rest else value


def allowed_sizes(op: Operation, types: Sequence[Attribute]) -> list[AllowedSize]:
    """The sizes the `memplan.sizes` attributes of `op`'s arguments allow
    (none for a function without them); a malformed attribute is a
    `ModelError` naming the argument."""
    arg_attrs = op.arg_attrs if isinstance(op, func.FuncOp) else None
    if arg_attrs is None:
        return []
    allowed: list[AllowedSize] = []
    for position, (attributes, type_) in enumerate(
        zip(arg_attrs.data, types, strict=False)
    ):
        attribute = attributes.data.get(SIZES_ATTRIBUTE)
        if attribute is not None:
            try:
                allowed += _argument_sizes(attribute, type_, position)
            except ModelError as error:
                raise ModelError(
                    f"argument {position}: its {SIZES_ATTRIBUTE} attribute is "
                    f"malformed: {error}"
                ) from None
    _check_consistent(allowed)
    return allowed


def _argument_sizes(
    attribute: Attribute, type_: Attribute, position: int
) -> list[AllowedSize]:
    if not isinstance(type_, MemRefType | TensorType):
        raise ModelError(f"the argument is a {type_}, not a ranked memref or tensor")
    if not isinstance(attribute, ArrayAttr):
        raise ModelError(f"expected an array of {FORM}, got {attribute}")
    shape = type_.get_shape()
    sizes: list[AllowedSize] = []
    for number, entry in enumerate(attribute.data):
        size = _entry(entry, number, position)
        if not 0 <= size.dim < len(shape) or shape[size.dim] != DYNAMIC_INDEX:
            raise ModelError(
                f"entry {number} is for dimension {size.dim}, which is not a "
                f"dynamic dimension of {type_}"
            )
        if any(other.dim == size.dim for other in sizes):
            raise ModelError(f"dimension {size.dim} has two entries")
        sizes.append(size)
    return sizes


def _entry(entry: Attribute, number: int, position: int) -> AllowedSize:
    if not isinstance(entry, DictionaryAttr):
        raise ModelError(f"entry {number} is {entry}, expected {FORM}")
    fields = entry.data
    unknown = sorted(set(fields) - {*REQUIRED, *OPTIONAL})
    missing = [key for key in REQUIRED if key not in fields]
    problems = [f"has no {', '.join(missing)}"] if missing else []
    problems += [f"has unknown {', '.join(unknown)}"] if unknown else []
    if problems:
        raise ModelError(f"entry {number} {' and '.join(problems)}, expected {FORM}")
    low = _integer(fields["min"], number, "min")
    high = _integer(fields["max"], number, "max") if "max" in fields else None
    if low < 0 or (high is not None and high < low):
        raise ModelError(
            f"entry {number} has min = {low}, max = {high}: expected a minimum of "
            "at least 0 and a maximum of at least the minimum"
        )
    size = AllowedSize(
        position,
        _integer(fields["dim"], number, "dim"),
        _string(fields["symbol"], number, "symbol"),
        _string(fields["name"], number, "name") if "name" in fields else None,
        low,
        high,
        _integer(fields["scale"], number, "scale") if "scale" in fields else 1,
        _integer(fields["offset"], number, "offset") if "offset" in fields else 0,
    )
    if size.scale < 1:
        raise ModelError(
            f"entry {number} has scale = {size.scale}: expected a scale of at least 1"
        )
    if size.scale * low + size.offset < 0:
        raise ModelError(
            f"entry {number} makes dimension {size.dim} {size.formula()}, which is "
            f"below 0 at {size.symbol} = {low}: expected sizes of at least 0 over "
            f"{size.bounds()}"
        )
    return size


def _integer(attribute: Attribute, number: int, key: str) -> int:
    if not isinstance(attribute, IntegerAttr):
        raise ModelError(f"entry {number} has {key} = {attribute}, expected an integer")
    return attribute.value.data


def _string(attribute: Attribute, number: int, key: str) -> str:
    if not isinstance(attribute, StringAttr):
        raise ModelError(f"entry {number} has {key} = {attribute}, expected a string")
    return attribute.data


def _check_consistent(allowed: list[AllowedSize]) -> None:
    """One symbol has one range wherever it appears."""
    first: dict[str, AllowedSize] = {}
    for size in allowed:
        seen = first.setdefault(size.symbol, size)
        if (seen.low, seen.high) != (size.low, size.high):
            raise ModelError(
                f"argument {size.argument}: its {SIZES_ATTRIBUTE} attribute is "
                f"malformed: {size.symbol} is {size.bounds()} for its dimension "
                f"{size.dim}, but {seen.bounds()} for argument {seen.argument}'s "
                f"dimension {seen.dim}"
            )


def check_sizes(allowed: list[AllowedSize], shapes: Sequence[tuple[int, ...]]) -> None:
    """A `ModelError` naming the argument and dimension if a size in `shapes`
    (one per argument) is not its formula at an integer value of its symbol,
    puts the symbol outside its range, or gives it another value than an
    earlier size did."""
    first: dict[str, tuple[AllowedSize, int, int]] = {}
    for size in allowed:
        actual = shapes[size.argument][size.dim]
        where = f"argument {size.argument}: dimension {size.dim} is {actual}"
        value = size.symbol_value(actual)
        if value is None:
            raise ModelError(
                f"{where}, but the export makes it {size.formula()}, which is "
                f"{actual} for no integer {size.who()}"
            )
        if value < size.low or (size.high is not None and value > size.high):
            shown = f"{where} = {_at(size, value)}" if size.is_derived() else where
            raise ModelError(
                f"{shown}, outside {size.bounds()} that the export allows for "
                f"{size.who()}"
            )
        seen, seen_actual, seen_value = first.setdefault(
            size.symbol, (size, actual, value)
        )
        if seen_value != value:
            if size.is_derived() or seen.is_derived():
                raise ModelError(
                    f"{where} = {_at(size, value)}, but argument {seen.argument}'s "
                    f"dimension {seen.dim} is {seen_actual} = {_at(seen, seen_value)}, "
                    f"and the export gives {size.who()} one value"
                )
            raise ModelError(
                f"{where}, but argument {seen.argument}'s dimension {seen.dim} is "
                f"{seen_actual}, and the export makes both {size.who()}"
            )


def _at(size: AllowedSize, value: int) -> str:
    """`2*s77 + 1 at s77 = 4` for a derived size, `s77` for the symbol itself."""
    if not size.is_derived():
        return size.symbol
    return f"{size.formula()} at {size.symbol} = {value}"

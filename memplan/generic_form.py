"""An op's properties read as MLIR reads them, where xDSL 0.74 reads them
otherwise (checked against upstream MLIR's parser, `docs/frontend-ops.md`).

In generic form (`"memref.alloc"() <{...}> : ...`):

- MLIR drops a key of the properties dictionary the op does not define
  (`<{value = 1 : i32, foo = 1}>` is `<{value = 1 : i32}>`), and rejects a
  properties dictionary on an op that has none (`memref.dealloc`: `invalid
  properties {foo = 1 : i64} for op memref.dealloc: this operation has empty
  properties`), even an empty one (`<{}>`).  xDSL kept the key and its
  verifier rejected it, and read `<{}>` as no dictionary.
- MLIR takes a missing `operandSegmentSizes` as all zeros: `"memref.alloc"()
  : () -> memref<4xf32>` is valid, and an op with operands is then a count
  mismatch.  xDSL required the property.
- An inherent attribute written both as a property and in the attribute
  dictionary is the property; MLIR drops the dictionary's.  xDSL kept it as a
  discardable attribute.

In any form, an inherent attribute MLIR defines and memplan does not model
that changes what the op computes (`UNMODELED`: `unsignedCmp` on `scf.for`,
`roundingmode` on `arith.addf`) is an error: MLIR takes it from the attribute
dictionary too (`scf.for ... {unsignedCmp}` is an unsigned loop), where xDSL
kept it as a discardable attribute and memplan computed the op without it.
The others (`KEPT`: `isExact`, `nonNeg`, `no_inline`, ...) change nothing a
valid program computes and stay on the op as discardable attributes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, i32
from xdsl.ir import Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    IRDLOperation,
)

UNMODELED: dict[str, frozenset[str]] = {
    "arith.addf": frozenset({"roundingmode"}),
    "arith.subf": frozenset({"roundingmode"}),
    "arith.mulf": frozenset({"roundingmode"}),
    "arith.divf": frozenset({"roundingmode"}),
    "arith.truncf": frozenset({"roundingmode"}),
    "bufferization.alloc_tensor": frozenset({"memory_space"}),
    "linalg.copy": frozenset({"cast"}),
    "math.fma": frozenset({"roundingmode"}),
    "scf.for": frozenset({"unsignedCmp"}),
}
"""The inherent attributes of MLIR's ops (its ODS definitions, as torch-mlir's
generated Python bindings list them) that xDSL 0.74's ops, as memplan
registers them, do not define, and that change what the op computes or
where its memory is: an error, since memplan would compute the op without
them."""

KEPT: dict[str, frozenset[str]] = {
    "arith.divsi": frozenset({"isExact"}),
    "arith.divui": frozenset({"isExact"}),
    "arith.shrsi": frozenset({"isExact"}),
    "arith.shrui": frozenset({"isExact"}),
    "arith.extf": frozenset({"fastmath"}),
    "arith.truncf": frozenset({"fastmath"}),
    "arith.extui": frozenset({"nonNeg"}),
    "arith.uitofp": frozenset({"nonNeg"}),
    "cf.cond_br": frozenset({"branch_weights"}),
    "func.func": frozenset({"no_inline"}),
    "func.call": frozenset({"arg_attrs", "no_inline", "res_attrs"}),
    "scf.execute_region": frozenset({"no_inline"}),
}
"""The other inherent attributes of MLIR's ops that xDSL 0.74's do not
define: promises (`isExact`, `nonNeg`: the result is poison otherwise),
hints and annotations, which change nothing a valid program computes.  They
are kept as discardable attributes, so the printed module still has them
and MLIR reads them back as the op's own; one given as a property in
generic form moves to the attribute dictionary."""


def unmodeled_attribute(op: Operation) -> str | None:
    """The error for an inherent attribute of MLIR's `op` that memplan does not
    model, given as a property or in the attribute dictionary; else None."""
    names = UNMODELED.get(op.name, frozenset())
    given = sorted(
        names.intersection(op.properties).union(names & op.attributes.keys())
    )
    if not given:
        return None
    return (
        f"{op.name}: '{given[0]}' is an inherent attribute of MLIR's {op.name} "
        "that memplan does not model: expected the op without it"
    )


def read_as_mlir(op: IRDLOperation, properties: bool) -> str | None:
    """Make `op`, just built from generic form (spelling a properties
    dictionary if `properties`), what MLIR builds from the same text (see the
    module's documentation); the error MLIR gives instead, if any."""
    definition = type(op).get_irdl_definition()
    if not definition.properties and op.name not in UNMODELED and op.name not in KEPT:
        if not properties:
            return None
        return (
            f"invalid properties {DictionaryAttr(op.properties)} for op "
            f"{op.name}: this operation has empty properties"
        )
    known = definition.properties.keys() | UNMODELED.get(op.name, frozenset())
    kept = KEPT.get(op.name, frozenset())
    for name in [name for name in op.properties if name not in known]:
        value = op.properties.pop(name)
        if name in kept:
            op.attributes.setdefault(name, value)
    for name in definition.properties.keys() & op.attributes.keys():
        if name in op.properties:
            del op.attributes[name]
    for option in definition.options:
        if (
            isinstance(option, AttrSizedSegments)
            and option.as_property
            and option.attribute_name not in op.properties
        ):
            segments = _segment_count(op, option)
            op.properties[option.attribute_name] = DenseArrayBase.from_list(
                i32, [0] * segments
            )
    return None


def _segment_count(op: IRDLOperation, option: AttrSizedSegments) -> int:
    """How many segments `option` splits `op`'s operands (or results, regions,
    successors) into: one per definition."""
    definition = type(op).get_irdl_definition()
    if isinstance(option, AttrSizedOperandSegments):
        return len(definition.operands)
    if isinstance(option, AttrSizedResultSegments):
        return len(definition.results)
    if isinstance(option, AttrSizedRegionSegments):
        return len(definition.regions)
    return len(definition.successors)

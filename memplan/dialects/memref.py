"""The memref dialect memplan parses with: xDSL 0.74's, with the ops that
current MLIR writes differently defined here.

- `memref.global` takes every initial value MLIR's verifier accepts
  (`uninitialized`, `dense<...>`, `dense_resource<...>` as torch-mlir emits
  weights) and has MLIR's custom syntax, the form mlir-opt prints by default.
- `memref.load` / `memref.store` take MLIR's `nontemporal`, `invariant` (load
  only) and `alignment` properties.
- `memref.copy` has MLIR's custom syntax.

`dense_resource` blobs live in the parsing context (as in MLIR), not in the
IR: `builtin_dialect()` gives each context its own store, `attach_blobs`
keeps a parsed module's blobs with it (`memplan.context.parse_module` does
both), and `global_blob` reads a global's data.  Every other op is xDSL's class, re-exported:
import memref ops from this module, never from `xdsl.dialects.memref`, because
the interpreter dispatches on the exact class.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    I64,
    AnyDenseElement,
    AnyFloat,
    BoolAttr,
    Builtin,
    ComplexType,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.memref import (
    AllocaOp,
    AllocaScopeOp,
    AllocaScopeReturnOp,
    AllocOp,
    AssumeAlignmentOp,
    AtomicRMWOp,
    CastOp,
    CollapseShapeOp,
    DeallocOp,
    DimOp,
    DmaStartOp,
    DmaWaitOp,
    ExpandShapeOp,
    ExtractAlignedPointerAsIndexOp,
    ExtractStridedMetaDataOp,
    GetGlobalOp,
    MemorySpaceCastOp,
    RankOp,
    ReinterpretCastOp,
    SubviewOp,
    ViewOp,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

__all__ = [
    "MEMREF",
    "AllocOp",
    "AllocaOp",
    "AllocaScopeOp",
    "AllocaScopeReturnOp",
    "AssumeAlignmentOp",
    "AtomicRMWOp",
    "BlobError",
    "BlobStore",
    "CastOp",
    "CollapseShapeOp",
    "CopyOp",
    "DeallocOp",
    "DimOp",
    "DmaStartOp",
    "DmaWaitOp",
    "ExpandShapeOp",
    "ExtractAlignedPointerAsIndexOp",
    "ExtractStridedMetaDataOp",
    "GetGlobalOp",
    "GlobalOp",
    "LoadOp",
    "MemorySpaceCastOp",
    "RankOp",
    "ReinterpretCastOp",
    "StoreOp",
    "SubviewOp",
    "ViewOp",
    "attach_blobs",
    "blob_store",
    "builtin_dialect",
    "dense_resource_data",
    "element_bytes",
    "global_blob",
]


def _verify_alignment(alignment: IntegerAttr | None) -> None:
    if alignment is None:
        return
    value = alignment.value.data
    if value <= 0 or value & (value - 1):
        raise VerifyException(f"alignment must be a positive power of two, got {value}")


def _verify_indices(op: Operation, memref: SSAValue, indices: Sequence[SSAValue]):
    memref_type = memref.type
    assert isinstance(memref_type, MemRefType)
    rank = memref_type.get_num_dims()
    if rank != len(indices):
        raise VerifyException(
            f"incorrect number of indices for {op.name.removeprefix('memref.')}, "
            f"expected {rank} but got {len(indices)}"
        )


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Reads one element; `nontemporal`, `invariant` and `alignment` are hints."""

    name = "memref.load"

    T: ClassVar = VarConstraint("T", AnyAttr())

    nontemporal = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    invariant = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    alignment = opt_prop_def(IntegerAttr[I64])

    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType())
    res = result_def(T)

    traits = traits_def(MemoryReadEffect())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_(self) -> None:
        _verify_indices(self, self.memref, self.indices)
        _verify_alignment(self.alignment)

    @classmethod
    def get(
        cls, ref: SSAValue | Operation, indices: Sequence[SSAValue | Operation]
    ) -> Self:
        memref = SSAValue.get(ref, type=MemRefType)
        return cls(operands=[ref, indices], result_types=[memref.type.element_type])


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Writes one element; `nontemporal` and `alignment` are hints."""

    name = "memref.store"

    T: ClassVar = VarConstraint("T", AnyAttr())

    nontemporal = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    alignment = opt_prop_def(IntegerAttr[I64])

    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType())

    traits = traits_def(MemoryWriteEffect())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_(self) -> None:
        _verify_indices(self, self.memref, self.indices)
        _verify_alignment(self.alignment)

    @classmethod
    def get(
        cls,
        value: SSAValue | Operation,
        ref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
    ) -> Self:
        return cls(operands=[value, ref, indices])


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copies `source` into `destination`: same shape and element type."""

    name = "memref.copy"

    source = operand_def(MemRefType)
    destination = operand_def(MemRefType)

    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())

    assembly_format = (
        "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"
    )

    def __init__(self, source: SSAValue | Operation, destination: SSAValue | Operation):
        super().__init__(operands=[source, destination])

    def verify_(self) -> None:
        source, destination = self.source.type, self.destination.type
        assert isinstance(source, MemRefType) and isinstance(destination, MemRefType)
        if source.get_element_type() != destination.get_element_type():
            raise VerifyException(
                f"memref.copy requires the same element type for source ({source}) "
                f"and destination ({destination})"
            )
        if source.get_shape() != destination.get_shape():
            raise VerifyException(
                f"memref.copy requires the same shape for source ({source}) and "
                f"destination ({destination})"
            )


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A named static memref, uninitialized, initialized or only declared.

    Custom syntax as MLIR's: `memref.global "private" constant @w :
    memref<8xf32> = dense_resource<blob> {alignment = 64 : i64}`; the initial
    value is written without its type, which is the memref's as a tensor."""

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(Attribute)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())

    def __init__(
        self,
        sym_name: str | StringAttr,
        type_: MemRefType,
        initial_value: Attribute | None = None,
        *,
        sym_visibility: str | StringAttr | None = "private",
        constant: bool = False,
        alignment: int | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": _string(sym_name),
                "sym_visibility": _string(sym_visibility),
                "type": type_,
                "initial_value": initial_value,
                "constant": UnitAttr() if constant else None,
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
            }
        )

    def tensor_type(self) -> TensorType:
        """The type the initial value has: the memref's shape and element type."""
        return TensorType(self.type.get_element_type(), self.type.get_shape())

    def verify_(self) -> None:
        if not self.type.has_static_shape():
            raise VerifyException(
                f"type should be static shaped memref, but got {self.type}"
            )
        _verify_alignment(self.alignment)
        initial = self.initial_value
        if initial is None or isinstance(initial, UnitAttr):
            return
        if not isinstance(initial, DenseIntOrFPElementsAttr | DenseResourceAttr):
            raise VerifyException(
                "initial value should be a unit attribute, dense<...> or "
                f"dense_resource<...>, but got {initial}"
            )
        value_type = initial.get_type()
        if not isinstance(value_type, TensorType):
            raise VerifyException(
                f"initial value must have a tensor type, got {value_type}"
            )
        if value_type.get_shape() != self.type.get_shape():
            raise VerifyException(
                f"initial value shape expected to be {list(self.type.get_shape())} "
                f"but was {list(value_type.get_shape())}"
            )
        if value_type.get_element_type() != self.type.get_element_type():
            raise VerifyException(
                "initial value element expected to be of type "
                f"{self.type.get_element_type()}, but was of type "
                f"{value_type.get_element_type()}"
            )

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        initial = self.initial_value
        if isinstance(initial, UnitAttr):
            printer.print_string(" = uninitialized")
        elif isinstance(initial, DenseIntOrFPElementsAttr | DenseResourceAttr):
            printer.print_string(" = ")
            initial.print_without_type(printer)
        elif initial is not None:
            printer.print_string(" = ")
            printer.print_attribute(initial)
        extra: dict[str, Attribute] = dict(self.attributes)
        if self.alignment is not None:
            extra["alignment"] = self.alignment
        if extra:
            printer.print_string(" ")
            printer.print_attr_dict(extra)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parser.parse_optional_str_literal()
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        type_at = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, MemRefType):
            parser.raise_error(
                f"memref.global type must be a memref, got {type_}", type_at
            )
        initial: Attribute | None = None
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                initial = UnitAttr()
            else:
                initial = _parse_initial_value(parser, type_)
        attributes = parser.parse_optional_attr_dict()
        alignment = attributes.pop("alignment", None)
        if alignment is not None and not isinstance(alignment, IntegerAttr):
            parser.raise_error(f"alignment must be an integer, got {alignment}")
        op = cls(sym_name, type_, initial, sym_visibility=visibility, constant=constant)
        if alignment is not None:
            op.properties["alignment"] = IntegerAttr(alignment.value, i64)
        op.attributes.update(attributes)
        return op


def _string(value: str | StringAttr | None) -> StringAttr | None:
    return StringAttr(value) if isinstance(value, str) else value


def _parse_initial_value(parser: Parser, type_: MemRefType) -> Attribute:
    """`dense<...>` or `dense_resource<key>` written without a type: the
    memref's shape and element type, as a tensor."""
    tensor = TensorType(type_.get_element_type(), type_.get_shape())
    at = parser.pos
    if parser.parse_optional_keyword("dense") is not None:
        if not isa(tensor, TensorType[AnyDenseElement]):
            parser.raise_error(f"dense<...> cannot initialize {type_}", at)
        return parser.parse_dense_int_or_fp_elements_attr(tensor)
    if parser.parse_optional_keyword("dense_resource") is not None:
        parser.parse_punctuation("<")
        key = parser.parse_identifier(" (a dense_resource key)")
        parser.parse_punctuation(">")
        return DenseResourceAttr.from_params(_declare_blob(parser, key), tensor)
    parser.raise_error(
        "expected `uninitialized`, dense<...> or dense_resource<...> as the initial "
        "value of memref.global",
        at,
        parser.pos,
    )


def _declare_blob(parser: Parser, key: str) -> str:
    """Register `key` with the context's blob store, as parsing
    `dense_resource<key> : type` does, so that its blob is read and printed."""
    store = parser.ctx.get_dialect("builtin").get_interface(OpAsmDialectInterface)
    if store is None:
        raise VerifyException("the builtin dialect has no blob store")
    if ("builtin", key) not in parser.dialect_resources:
        key = store.declare_resource(key)
        parser.dialect_resources.add(("builtin", key))
    return key


# --- dense_resource blobs ---------------------------------------------------------


class BlobError(VerifyException):
    """A dense_resource whose data is missing or does not fit its type."""


class BlobStore(OpAsmDialectInterface):
    """The builtin dialect's resource blobs, one store per parsing context.

    xDSL keeps them in its module-level `Builtin` dialect and renames a key the
    second time it is declared, so a second parse in the same process refers
    to renamed, empty resources (which then print without their blobs).  Here
    a key means one blob, as in MLIR, and each context has its own blobs."""

    def declare_resource(self, key: str) -> str:
        self._blob_storage.setdefault(key, "")
        return key

    def clear(self) -> None:
        """Forget every blob: what a new input file starts from."""
        self._blob_storage.clear()

    def snapshot(self) -> dict[str, str]:
        """Every blob by key, as hex text (`0x`, alignment header, data)."""
        return {key: text for key, text in self._blob_storage.items() if text}


def builtin_dialect() -> Dialect:
    """xDSL's builtin dialect with a blob store of its own (one per context)."""
    return Dialect(
        "builtin", list(Builtin.operations), list(Builtin.attributes), [BlobStore()]
    )


def blob_store(ctx: Context) -> BlobStore:
    """The blob store of `ctx`'s builtin dialect (see `builtin_dialect`)."""
    store = ctx.get_dialect("builtin").get_interface(OpAsmDialectInterface)
    if not isinstance(store, BlobStore):
        raise BlobError(
            "this context keeps dense_resource blobs in xDSL's process-wide store; "
            "parse with memplan.context.memplan_context() to read them"
        )
    return store


_BLOBS: dict[int, tuple[weakref.ref[DenseResourceAttr], str]] = {}
"""The blob each parsed `dense_resource` attribute refers to, by the identity
of the attribute object: a parse makes new attribute objects, a clone of a
module shares them, so every copy of a module reads its own input's blobs."""


def attach_blobs(module: Operation, ctx: Context) -> None:
    """Give the `dense_resource` attributes of `module` the blobs `ctx` read
    with them: call it with the module `Parser(ctx, ...).parse_module()`
    returned (`memplan.context.parse_module` does).  Clones of the module and
    ops moved out of it keep them."""
    blobs = blob_store(ctx).snapshot()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, DenseResourceAttr):
                _remember(attr, blobs.get(attr.resource_handle.data, ""))


def _remember(attr: DenseResourceAttr, text: str) -> None:
    key = id(attr)

    def forget(_: weakref.ref[DenseResourceAttr]) -> None:
        _BLOBS.pop(key, None)

    _BLOBS[key] = (weakref.ref(attr, forget), text)


def dense_resource_data(attr: DenseResourceAttr) -> bytes:
    """The data `attr` refers to: its hex blob without MLIR's 4-byte alignment
    header.  `BlobError` if the attribute's module was not attached (see
    `attach_blobs`) or its blob is missing or malformed."""
    key = attr.resource_handle.data
    entry = _BLOBS.get(id(attr))
    if entry is None or entry[0]() is not attr:
        raise BlobError(
            f"the blob of dense_resource<{key}> is unknown: parse the module with "
            "memplan.context.parse_module (or call memplan.dialects.memref."
            "attach_blobs after parsing)"
        )
    text = entry[1]
    if not text:
        raise BlobError(
            f"dense_resource<{key}> has no data: the input's `{{-# dialect_resources "
            f"#-}}` section holds no blob named {key}"
        )
    try:
        raw = bytes.fromhex(text.removeprefix("0x"))
    except ValueError:
        raise BlobError(f"blob {key} is not a hex string") from None
    if len(raw) < 4:
        raise BlobError(f"blob {key} is shorter than its 4-byte alignment header")
    return raw[4:]


def element_bytes(element_type: Attribute) -> int:
    """Bytes per element in a blob (i1 takes a byte, index 8 bytes)."""
    if isinstance(element_type, IntegerType):
        return (element_type.bitwidth + 7) // 8
    if isinstance(element_type, IndexType):
        return 8
    if isinstance(element_type, AnyFloat):
        return (element_type.bitwidth + 7) // 8
    if isinstance(element_type, ComplexType):
        return 2 * element_bytes(element_type.element_type)
    raise BlobError(f"no blob layout for element type {element_type}")


def global_blob(op: GlobalOp) -> bytes:
    """The little-endian data of `op`'s `dense_resource` initial value, checked
    to hold exactly one value per element of its memref type."""
    initial = op.initial_value
    if not isinstance(initial, DenseResourceAttr):
        raise BlobError(f"@{op.sym_name.data} is not initialized by a dense_resource")
    key = initial.resource_handle.data
    try:
        data = dense_resource_data(initial)
    except BlobError as error:
        raise BlobError(f"memref.global @{op.sym_name.data}: {error}") from None
    expected = math.prod(op.type.get_shape()) * element_bytes(
        op.type.get_element_type()
    )
    if len(data) != expected:
        raise BlobError(
            f"memref.global @{op.sym_name.data}: blob {key} holds {len(data)} bytes, "
            f"expected {expected} for {op.type}"
        )
    return data


MEMREF = Dialect(
    "memref",
    [
        LoadOp,
        StoreOp,
        AllocOp,
        AllocaOp,
        AssumeAlignmentOp,
        AllocaScopeOp,
        AllocaScopeReturnOp,
        AtomicRMWOp,
        CopyOp,
        CollapseShapeOp,
        ExpandShapeOp,
        DeallocOp,
        GetGlobalOp,
        GlobalOp,
        DimOp,
        ExtractStridedMetaDataOp,
        ExtractAlignedPointerAsIndexOp,
        SubviewOp,
        ViewOp,
        CastOp,
        MemorySpaceCastOp,
        ReinterpretCastOp,
        DmaStartOp,
        DmaWaitOp,
        RankOp,
    ],
    [],
)
"""memref for memplan: xDSL's ops with global, load, store and copy replaced."""

"""The memref dialect memplan parses with: xDSL 0.74's, with the ops that
current MLIR writes differently, or that xDSL lacks, defined here.

- `memref.global` takes every initial value MLIR's verifier accepts
  (`uninitialized`, `dense<...>`, `dense_resource<...>` as torch-mlir emits
  weights) and has MLIR's custom syntax, the form mlir-opt prints by default.
- `memref.load` / `memref.store` take MLIR's `nontemporal`, `invariant` (load
  only) and `alignment` properties.
- `memref.alloc` / `memref.alloca` check that an `alignment` is an `i64`, as
  MLIR does (`CheckedAllocOp`, `CheckedAllocaOp`: subclasses of xDSL's).
- `memref.copy`, `cast`, `memory_space_cast`, `extract_aligned_pointer_as_index`,
  `atomic_rmw` and `alloca_scope` have MLIR's custom syntax and verifiers.
- `memref.subview` is verified as MLIR does (xDSL checks none of its result
  type); its canonicalization patterns are in `memref_canonicalization`.
- `memref.get_global` is verified against its global as MLIR does (xDSL
  checks neither that the global exists nor its type), and
  `memref.reinterpret_cast` and `memref.extract_strided_metadata` against
  their result types.
- `memref.collapse_shape` and `memref.expand_shape` are verified as MLIR
  does (xDSL verifies neither): reassociation groups, sizes, `output_shape`
  and the exact result type with its strided layout.
- `memref.transpose`, `realloc`, `prefetch` and `reshape`, which xDSL lacks,
  are added.

`dense_resource` blobs live in the parsing context (as in MLIR), not in the
IR: `builtin_dialect()` gives each context its own store, `attach_blobs`
keeps a parsed module's blobs with it (`memplan.context.parse_module` does
both), and `global_blob` reads a global's data.  Every other op is xDSL's class, re-exported:
import memref ops from this module, never from `xdsl.dialects.memref`, because
the interpreter dispatches on the exact class.
"""

from __future__ import annotations

import math
import re
import weakref
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from typing import ClassVar, Self

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    I64,
    AffineMapAttr,
    AnyDenseElement,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    BoolAttr,
    Builtin,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefLayoutAttr,
    MemRefType,
    NoneAttr,
    Signedness,
    SignlessIntegerConstraint,
    StridedLayoutAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i32,
    i64,
)
from xdsl.dialects.memref import (
    AllocaOp,
    AllocOp,
    AssumeAlignmentOp,
    DeallocOp,
    DimOp,
    DmaStartOp,
    DmaWaitOp,
    RankOp,
    ViewOp,
)
from xdsl.dialects.utils import (
    DynamicIndexList,
    get_dynamic_index_list,
    split_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicResultSize,
    VarConstraint,
    base,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsTerminator,
    MemoryAllocEffect,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolUserOpInterface,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from memplan.dialects.arith import ATOMIC_RMW_KINDS
from memplan.dialects.syntax import parse_optional_arrow_types
from memplan.ir_walk import walk
from memplan.symbols import lookup_symbol

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
    "CheckedAllocOp",
    "CheckedAllocaOp",
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
    "MalformedBlob",
    "MemorySpaceCastOp",
    "PrefetchOp",
    "RankOp",
    "ReallocOp",
    "ReinterpretCastOp",
    "ReshapeOp",
    "StoreOp",
    "SubviewOp",
    "TransposeOp",
    "ViewOp",
    "attach_blobs",
    "blob_store",
    "builtin_dialect",
    "dense_resource_data",
    "element_bytes",
    "global_blob",
    "shapes_compatible",
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


_ALLOC_ALIGNMENT = (
    "64-bit signless integer attribute whose value is positive and whose value "
    "is a power of two > 0"
)
"""MLIR's constraint on the `alignment` of `memref.alloc` and `alloca`."""


def _verify_alloc_alignment(alignment: IntegerAttr | None) -> None:
    """MLIR requires an `i64` alignment; xDSL takes an integer of any type
    (`64 : i32`, `64 : index`), which the passes then plan with."""
    if alignment is not None and alignment.type != i64:
        raise VerifyException(
            f"attribute 'alignment' failed to satisfy constraint: {_ALLOC_ALIGNMENT}"
            f", got {alignment}"
        )


def _verify_alloc_symbols(op: AllocOp | AllocaOp) -> None:
    """MLIR's check that an alloc takes one symbol operand per symbol of its
    layout's map (each `?` of a strided layout); xDSL checks the dynamic
    sizes only, so an alloc of `strided<[?, 1]>` without its stride
    verified."""
    layout = op.memref.type.layout
    if isinstance(layout, NoneAttr):
        expected = 0
    elif isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides() or ()
        expected = [layout.get_offset(), *strides].count(None)
    else:
        expected = layout.get_affine_map().num_symbols
    if len(op.symbol_operands) != expected:
        raise VerifyException(
            "symbol operand count does not equal memref symbol count: expected "
            f"{expected}, got {len(op.symbol_operands)} (layout {layout})"
        )


class CheckedAllocOp(AllocOp):
    """xDSL's `memref.alloc` with MLIR's checks of the alignment's type and
    of the symbol operands: what memplan parses.  A subclass, so
    `isinstance(op, AllocOp)` holds for both; the interpreter registers both
    classes."""

    def verify_(self) -> None:
        super().verify_()
        _verify_alloc_alignment(self.alignment)
        _verify_alloc_symbols(self)


class CheckedAllocaOp(AllocaOp):
    """xDSL's `memref.alloca` with MLIR's checks of the alignment's type and
    of the symbol operands, as `CheckedAllocOp`."""

    def verify_(self) -> None:
        super().verify_()
        _verify_alloc_alignment(self.alignment)
        _verify_alloc_symbols(self)


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
    """Copies `source` into `destination`: same element type, and shapes that
    agree where both sizes are static (as MLIR's `SameOperandsShape`: a
    static size asserts the run-time one)."""

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
        if not shapes_compatible(source, destination):
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


class GlobalUse(SymbolUserOpInterface):
    """MLIR's check of a `memref.get_global`: its name is a `memref.global`
    of its result type (xDSL checks neither, so a misspelled or mistyped
    global failed only when run, or read the global's data at the wrong
    shape).  Looked up through `memplan.symbols`, in constant time."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GetGlobalOp)
        found = lookup_symbol(op, op.name_)
        name = op.name_.string_value()
        if not isinstance(found, GlobalOp):
            raise VerifyException(f"'{name}' does not reference a valid global memref")
        if found.type != op.memref.type:
            raise VerifyException(
                f"result type {op.memref.type} does not match type {found.type} "
                f"of the global memref @{name}"
            )


@irdl_op_definition
class GetGlobalOp(IRDLOperation):
    """xDSL's `memref.get_global`, verified against its global as MLIR does."""

    name = "memref.get_global"

    memref = result_def(MemRefType)
    name_ = prop_def(SymbolRefAttr, prop_name="name")

    traits = traits_def(NoMemoryEffect(), GlobalUse())

    assembly_format = "$name `:` type($memref) attr-dict"

    def __init__(self, name: str | SymbolRefAttr, return_type: MemRefType):
        if isinstance(name, str):
            name = SymbolRefAttr(name)
        super().__init__(result_types=[return_type], properties={"name": name})


# --- casts, views and accesses with MLIR's syntax ----------------------------------

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)


def _contiguous_strides(shape: Sequence[int]) -> tuple[int | None, ...]:
    """Strides of the identity layout; None (dynamic) outside a dynamic size."""
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.append(running)
        running = None if running is None or size == DYNAMIC_INDEX else running * size
    return tuple(reversed(strides))


def _strides_and_offset(
    type_: MemRefType,
) -> tuple[tuple[int | None, ...], int | None] | None:
    """Strides and offset of an identity or `strided<...>` layout (None: dynamic);
    None for another layout (an affine map)."""
    layout = type_.layout
    if isinstance(layout, NoneAttr):
        return _contiguous_strides(type_.get_shape()), 0
    if isinstance(layout, StridedLayoutAttr):
        return tuple(layout.get_strides()), layout.get_offset()
    return None


def _compatible(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


class _CastOperation(IRDLOperation, ABC):
    """A memref seen as another type of the same memory.  Identical types
    always cast (MLIR's cast verifier); others when `compatible` says so."""

    source = operand_def(_ANY_MEMREF)
    dest = result_def(_ANY_MEMREF)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue | Operation, dest: Attribute):
        super().__init__(operands=[source], result_types=[dest])

    @staticmethod
    @abstractmethod
    def compatible(source: Attribute, dest: Attribute) -> bool: ...

    def verify_(self) -> None:
        source, dest = self.source.type, self.dest.type
        if source != dest and not self.compatible(source, dest):
            raise VerifyException(
                f"operand type {source} and result type {dest} are cast incompatible"
            )


@irdl_op_definition
class CastOp(_CastOperation):
    """A memref as an equivalent type: sizes, strides and offset may turn
    static or dynamic (a static one asserts the run-time value), or the rank
    unknown; the memory is the same."""

    name = "memref.cast"

    @staticmethod
    def compatible(source: Attribute, dest: Attribute) -> bool:
        """MLIR's `CastOp::areCastCompatible`: same element type and memory
        space; ranked types of one rank whose sizes, strides and offset agree
        where both are static, except the stride of a dimension of size 1 in
        either type, which is never compared (no address depends on it); or a
        ranked and an unranked type."""
        if isinstance(source, MemRefType) and isinstance(dest, MemRefType):
            if (
                source.element_type != dest.element_type
                or source.memory_space != dest.memory_space
                or source.get_num_dims() != dest.get_num_dims()
            ):
                return False
            if source.layout != dest.layout:
                a, b = _strides_and_offset(source), _strides_and_offset(dest)
                if a is None or b is None or not _compatible(a[1], b[1]):
                    return False
                unit = [
                    1 in sizes
                    for sizes in zip(_sizes(source), _sizes(dest), strict=True)
                ]
                if not all(
                    skip or _compatible(x, y)
                    for skip, x, y in zip(unit, a[0], b[0], strict=True)
                ):
                    return False
            return shapes_compatible(source, dest)
        if isinstance(source, UnrankedMemRefType) and isinstance(
            dest, UnrankedMemRefType
        ):
            return False
        assert isinstance(source, MemRefType | UnrankedMemRefType)
        assert isinstance(dest, MemRefType | UnrankedMemRefType)
        return (
            source.element_type == dest.element_type
            and source.memory_space == dest.memory_space
        )


def _sizes(type_: MemRefType) -> tuple[int | None, ...]:
    return tuple(None if d == DYNAMIC_INDEX else d for d in type_.get_shape())


def shapes_compatible(a: MemRefType, b: MemRefType) -> bool:
    """MLIR's `verifyCompatibleShape`: one rank, and each size the same
    where both are static."""
    return a.get_num_dims() == b.get_num_dims() and all(
        map(_compatible, _sizes(a), _sizes(b))
    )


@irdl_op_definition
class MemorySpaceCastOp(_CastOperation):
    """The same memory seen in another memory space: only the space changes."""

    name = "memref.memory_space_cast"

    @staticmethod
    def compatible(source: Attribute, dest: Attribute) -> bool:
        """MLIR's `MemorySpaceCastOp::areCastCompatible`: both ranked with the
        same element type, layout and shape, or both unranked with the same
        element type."""
        if isinstance(source, MemRefType) and isinstance(dest, MemRefType):
            return (
                source.element_type == dest.element_type
                and source.layout == dest.layout
                and source.get_shape() == dest.get_shape()
            )
        if isinstance(source, UnrankedMemRefType) and isinstance(
            dest, UnrankedMemRefType
        ):
            return source.element_type == dest.element_type
        return False


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(IRDLOperation):
    """The address of a memref's data as an index: from here on the memory is
    reached through an integer that memplan does not follow."""

    name = "memref.extract_aligned_pointer_as_index"

    source = operand_def(_ANY_MEMREF)
    aligned_pointer = result_def(IndexType())

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"

    def __init__(self, source: SSAValue | Operation):
        super().__init__(operands=[source], result_types=[IndexType()])


def _canonical_strided(type_: MemRefType) -> MemRefType:
    """`type_` as MLIR's `canonicalizeStridedLayout` compares it: a strided
    layout that is the identity layout of the shape becomes it, except the
    rank-1 `strided<[1]>`, whose map is already an identity map."""
    layout = type_.layout
    if (
        isinstance(layout, StridedLayoutAttr)
        and type_.get_num_dims() != 1
        and layout.get_offset() == 0
        and tuple(layout.get_strides()) == _contiguous_strides(type_.get_shape())
    ):
        return MemRefType(
            type_.element_type, type_.shape, NoneAttr(), type_.memory_space
        )
    return type_


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """A view with the dimensions of `in` permuted: only sizes and strides move.

    `%t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to
    memref<8x4xf32, strided<[1, 8]>>`; result dimension i is dimension
    `permutation(i)` of the input."""

    name = "memref.transpose"

    in_ = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(NoMemoryEffect())

    def __init__(
        self, source: SSAValue | Operation, permutation: AffineMap, result: MemRefType
    ):
        super().__init__(
            operands=[source],
            result_types=[result],
            properties={"permutation": AffineMapAttr(permutation)},
        )

    def transposed_type(self) -> MemRefType:
        """The input type with sizes and strides permuted (a strided layout)."""
        source = self.in_.type
        assert isinstance(source, MemRefType)
        strided = _strides_and_offset(source)
        if strided is None:
            raise VerifyException(
                f"expected the input to have an identity or strided layout, got {source}"
            )
        strides, offset = strided
        permutation = self.permutation.data
        return MemRefType(
            source.element_type,
            permutation.apply_permutation(source.get_shape()),
            StridedLayoutAttr(permutation.apply_permutation(strides), offset),
            source.memory_space,
        )

    def verify_(self) -> None:
        permutation = self.permutation.data
        if not (
            permutation.is_projected_permutation()
            and len(permutation.results) == permutation.num_dims
        ):
            raise VerifyException(f"expected a permutation map, got {permutation}")
        source, result = self.in_.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        if permutation.num_dims != source.get_num_dims():
            raise VerifyException(
                "expected a permutation map of same rank as the input "
                f"({source.get_num_dims()}), got {permutation}"
            )
        expected = _canonical_strided(self.transposed_type())
        if _canonical_strided(result) != expected:
            raise VerifyException(
                f"result type {result} is not equivalent to the canonical "
                f"transposed input type {expected}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.in_)
        printer.print_string(f" {self.permutation.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.in_.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        permutation = parser.parse_affine_map()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = _parse_memref_type(parser)
        parser.parse_keyword("to")
        result_type = _parse_memref_type(parser)
        op = cls(parser.resolve_operand(source, source_type), permutation, result_type)
        op.attributes.update(attributes)
        return op


def _times(a: int | None, b: int | None) -> int | None:
    """MLIR's saturated product of strides and offsets: 0 times anything is 0,
    otherwise dynamic (None) if either factor is."""
    if a == 0 or b == 0:
        return 0
    return None if a is None or b is None else a * b


def _dynamic_as_none(values: Sequence[int]) -> list[int | None]:
    return [None if value == DYNAMIC_INDEX else value for value in values]


def _reduces_to(shape: Sequence[int], reduced: Sequence[int]) -> bool:
    """Whether dropping unit dimensions of `shape` gives `reduced` (MLIR's
    `computeRankReductionMask`: match greedily, skip only sizes of 1)."""
    kept = 0
    for size in shape:
        if kept < len(reduced) and size == reduced[kept]:
            kept += 1
        elif size != 1:
            return False
    return kept == len(reduced)


def _dropped_dims(
    sizes: Sequence[int], strides: Sequence[int | None], reduced: Sequence[int | None]
) -> set[int] | None:
    """The unit dimensions a rank-reducing subview drops, told apart by their
    strides as MLIR's `computeMemRefRankReductionMask` does: a unit dimension
    is kept when the reduced strides still hold its stride as often as the
    unreduced ones.  None if no such set fits the ranks."""
    if len(sizes) == len(reduced):
        return set()
    dropped = {dim for dim, size in enumerate(sizes) if size == 1}
    if len(dropped) + len(reduced) == len(sizes):
        return dropped
    unaccounted, wanted = Counter(strides), Counter(reduced)
    for dim in sorted(dropped):
        stride = strides[dim]
        if unaccounted[stride] > wanted[stride]:
            unaccounted[stride] -= 1
        elif unaccounted[stride] == wanted[stride]:
            dropped.discard(dim)
        else:
            return None
    return dropped if len(dropped) + len(reduced) == len(sizes) else None


def _keeps_layout(
    sizes: Sequence[int],
    inferred: tuple[Sequence[int | None], int | None],
    reduced: tuple[Sequence[int | None], int | None],
) -> bool:
    """Whether the `reduced` strides and offset are the `inferred` ones with
    the dropped unit dimensions' strides left out (a dynamic value matches
    only a dynamic one)."""
    (strides, offset), (reduced_strides, reduced_offset) = inferred, reduced
    if offset != reduced_offset:
        return False
    dropped = _dropped_dims(sizes, strides, reduced_strides)
    return dropped is not None and [
        stride for dim, stride in enumerate(strides) if dim not in dropped
    ] == list(reduced_strides)


class SubviewCanonicalization(HasCanonicalizationPatternsTrait):
    """memplan's subview patterns: xDSL's match and build xDSL's class."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from memplan.dialects.memref_canonicalization import (
            ComposeSubviews,
            FoldSubviewConstants,
        )

        return (FoldSubviewConstants(), ComposeSubviews())


class _OffsetsSizesStridesOperation(IRDLOperation, ABC):
    """A view of a memref at offsets, sizes and strides, each static (in its
    `static_*` property) or an operand (`?` there): MLIR's
    `OffsetSizeAndStrideOpInterface`."""

    source = operand_def(MemRefType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class SubviewOp(_OffsetsSizesStridesOperation):
    """A strided slice of a memref, as MLIR verifies it (xDSL 0.74 checks only
    that the dynamic offsets, sizes and strides are all given): one offset,
    size and stride per source dimension, offsets and sizes not negative, the
    source's memory space, a result type that is the inferred one (see
    `inferred_type`) or it with unit dimensions dropped, and static slices
    inside the source.  Affine-map layouts, which memplan reads no strides
    from, are not compared.

    `%v = memref.subview %m[0, %i] [2, 2] [2, 1] : memref<4x4xf32> to
    memref<2x2xf32, strided<[8, 1], offset: ?>>`"""

    name = "memref.subview"

    traits = traits_def(SubviewCanonicalization(), NoMemoryEffect())

    assembly_format = (
        "$source ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `to` type($result)"
    )

    custom_directives = (DynamicIndexList,)

    @classmethod
    def get(
        cls,
        source: SSAValue,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
        result_type: MemRefType,
    ) -> Self:
        """A subview of `source`; each offset, size and stride static or an operand."""
        static_offsets, dynamic_offsets = split_dynamic_index_list(
            offsets, DYNAMIC_INDEX
        )
        static_sizes, dynamic_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        static_strides, dynamic_strides = split_dynamic_index_list(
            strides, DYNAMIC_INDEX
        )
        return cls(
            operands=[source, dynamic_offsets, dynamic_sizes, dynamic_strides],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
            },
            result_types=[result_type],
        )

    def mixed_values(
        self,
    ) -> tuple[list[SSAValue | int], list[SSAValue | int], list[SSAValue | int]]:
        """The offsets, sizes and strides, each a static value or its operand."""
        offsets, sizes, strides = (
            get_dynamic_index_list(static.get_values(), dynamic, DYNAMIC_INDEX)
            for static, dynamic in (
                (self.static_offsets, self.offsets),
                (self.static_sizes, self.sizes),
                (self.static_strides, self.strides),
            )
        )
        return offsets, sizes, strides

    @staticmethod
    def infer_type(
        source: MemRefType,
        offsets: Sequence[int],
        sizes: Sequence[int],
        strides: Sequence[int],
    ) -> MemRefType | None:
        """MLIR's `SubViewOp::inferResultType`: the sizes as shape, strides the
        source's times the subview's, offset the source's plus each offset
        times its stride (dynamic where a factor is, unless the other is 0).
        None for a source with an affine-map layout."""
        layout = _strides_and_offset(source)
        if layout is None:
            return None
        source_strides, offset = layout
        for start, stride in zip(
            _dynamic_as_none(offsets), source_strides, strict=True
        ):
            product = _times(start, stride)
            offset = None if offset is None or product is None else offset + product
        return MemRefType(
            source.element_type,
            sizes,
            StridedLayoutAttr(
                list(map(_times, source_strides, _dynamic_as_none(strides))), offset
            ),
            source.memory_space,
        )

    @staticmethod
    def bounds_error(
        source: MemRefType,
        offsets: Sequence[int],
        sizes: Sequence[int],
        strides: Sequence[int],
    ) -> str | None:
        """MLIR's `verifyInBoundsSlice`: what takes a static slice out of its
        static source dimension, or None when every one starts and ends inside."""
        for dim, (extent, start, size, stride) in enumerate(
            zip(source.get_shape(), offsets, sizes, strides, strict=True)
        ):
            if DYNAMIC_INDEX in (extent, start):
                continue
            if start >= extent:
                return (
                    f"offset {start} of dimension {dim} is out of bounds: expected "
                    f"less than the source size {extent}"
                )
            if DYNAMIC_INDEX in (size, stride):
                continue
            last = start + (size - 1) * stride
            if last >= extent:
                return (
                    f"slice along dimension {dim} runs out of bounds: its last "
                    f"index {last} is not less than the source size {extent}"
                )
        return None

    def inferred_type(self) -> MemRefType | None:
        """The result type `infer_type` gives this op, before any rank reduction."""
        source = self.source.type
        assert isinstance(source, MemRefType)
        return self.infer_type(
            source,
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
        )

    def dropped_dims(self) -> set[int] | None:
        """The unit dimensions of the inferred type that the result type drops
        (MLIR's `getDroppedDims`); None with an affine-map layout."""
        inferred, result = self.inferred_type(), self.result.type
        assert isinstance(result, MemRefType)
        reduced = _strides_and_offset(result)
        if inferred is None or reduced is None:
            return None
        assert isinstance(inferred.layout, StridedLayoutAttr)
        return _dropped_dims(
            self.static_sizes.get_values(), inferred.layout.get_strides(), reduced[0]
        )

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        rank = source.get_num_dims()
        for what, values, dynamic in (
            ("offset", self.static_offsets.get_values(), self.offsets),
            ("size", self.static_sizes.get_values(), self.sizes),
            ("stride", self.static_strides.get_values(), self.strides),
        ):
            verify_dynamic_index_list(
                values, dynamic, DYNAMIC_INDEX, f" in the {what} arguments"
            )
            if len(values) != rank:
                raise VerifyException(
                    f"expected {rank} {what} values, one per dimension of {source}, "
                    f"got {len(values)}"
                )
        for what, values in (
            ("offsets", self.static_offsets.get_values()),
            ("sizes", self.static_sizes.get_values()),
        ):
            for value in values:
                if value < 0 and value != DYNAMIC_INDEX:
                    raise VerifyException(
                        f"expected {what} to be non-negative, but got {value}"
                    )
        if source.memory_space != result.memory_space:
            raise VerifyException(
                f"different memory spaces specified for base memref type {source} "
                f"and subview memref type {result}"
            )
        expected = self.inferred_type()
        if expected is not None and expected != result:
            self._verify_reduced_type(expected, result)
        out_of_bounds = self.bounds_error(
            source,
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
        )
        if out_of_bounds is not None:
            raise VerifyException(out_of_bounds)

    def _verify_reduced_type(self, expected: MemRefType, result: MemRefType) -> None:
        """MLIR's checks of a result type other than the inferred one: a
        rank-reduced version of it, with its offset and the strides of the
        dimensions it keeps (static or dynamic alike)."""
        if result.get_num_dims() > expected.get_num_dims():
            raise VerifyException(
                "expected result rank to be smaller or equal to the source rank, "
                f"but got {result}"
            )
        if not _reduces_to(expected.get_shape(), result.get_shape()):
            raise VerifyException(
                f"expected result type to be {expected} or a rank-reduced version. "
                f"(mismatch of result sizes), but got {result}"
            )
        if result.element_type != expected.element_type:
            raise VerifyException(
                f"expected result element type to be {expected.element_type}, but "
                f"got {result}"
            )
        wanted, got = _strides_and_offset(expected), _strides_and_offset(result)
        assert wanted is not None
        if got is not None and not _keeps_layout(
            self.static_sizes.get_values(), wanted, got
        ):
            raise VerifyException(
                f"expected result type to be {expected} or a rank-reduced version. "
                f"(mismatch of result layout), but got {result}"
            )


def _parse_memref_type(parser: Parser) -> MemRefType:
    at = parser.pos
    type_ = parser.parse_type()
    if not isinstance(type_, MemRefType):
        parser.raise_error(f"expected a ranked memref type, got {type_}", at)
    return type_


def _shown(value: int | None) -> str:
    return "dynamic" if value is None else str(value)


@irdl_op_definition
class ReinterpretCastOp(_OffsetsSizesStridesOperation):
    """A view of a memref's memory at a given offset, sizes and strides, as
    MLIR verifies it; xDSL 0.74 checks only the sizes, and rejects a dynamic
    result size that MLIR allows.  The result type must agree with what the
    op sets: the element type and memory space of the source, one size and
    stride per dimension and one offset, and each static size, stride and
    offset of the type equal to the op's (a dynamic one in the type accepts
    any).  Affine-map layouts, which memplan reads no strides from, are not
    compared.

    `%v = memref.reinterpret_cast %m to offset: [2], sizes: [4], strides: [1]
    : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>`"""

    name = "memref.reinterpret_cast"

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "$source `to` `offset` `` `:`"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "`` `,` `sizes` `` `:`"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "`` `,` `strides` `` `:`"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `to` type($result)"
    )

    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        offsets = self.static_offsets.get_values()
        sizes = self.static_sizes.get_values()
        strides = self.static_strides.get_values()
        for values, dynamic, what in (
            (offsets, self.offsets, "offset"),
            (sizes, self.sizes, "size"),
            (strides, self.strides, "stride"),
        ):
            verify_dynamic_index_list(
                values, dynamic, DYNAMIC_INDEX, f" in the {what} arguments"
            )
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        rank = result.get_num_dims()
        for values, count, what in (
            (offsets, 1, "offset"),
            (sizes, rank, "size"),
            (strides, rank, "stride"),
        ):
            if len(values) != count:
                raise VerifyException(
                    f"expected {count} {what} values, got {len(values)}"
                )
        if source.element_type != result.element_type:
            raise VerifyException(
                f"source element type ({source.element_type}) does not match result "
                f"element type ({result.element_type})"
            )
        if source.memory_space != result.memory_space:
            raise VerifyException(
                f"different memory spaces specified for source type {source} and "
                f"result memref type {result}"
            )
        for dim, (actual, expected) in enumerate(
            zip(result.get_shape(), _dynamic_as_none(sizes), strict=True)
        ):
            if actual != DYNAMIC_INDEX and actual != expected:
                raise VerifyException(
                    f"expected result type with size = {_shown(expected)} instead of "
                    f"{actual} in dim = {dim}"
                )
        layout = _strides_and_offset(result)
        if layout is None:
            return
        result_strides, result_offset = layout
        (offset,) = _dynamic_as_none(offsets)
        if result_offset is not None and result_offset != offset:
            raise VerifyException(
                f"expected result type with offset = {_shown(offset)} instead of "
                f"{result_offset}"
            )
        for dim, (actual, expected) in enumerate(
            zip(result_strides, _dynamic_as_none(strides), strict=True)
        ):
            if actual is not None and actual != expected:
                raise VerifyException(
                    f"expected result type with stride = {_shown(expected)} instead "
                    f"of {actual} in dim = {dim}"
                )


# --- collapse_shape and expand_shape -----------------------------------------------


def _groups(reassociation: ArrayAttr[ArrayAttr[IntegerAttr[I64]]]) -> list[list[int]]:
    return [[dim.value.data for dim in group.data] for group in reassociation.data]


def _quoted(type_: Attribute) -> str:
    return f"'{type_}'"


def _verify_collapsed_shape(
    collapsed: Sequence[int], expanded: Sequence[int], groups: Sequence[Sequence[int]]
) -> None:
    """MLIR's `verifyCollapsedShape`: one group per collapsed dimension, the
    groups covering the expanded dimensions in order, and each collapsed size
    the product of its group's sizes (dynamic if and only if one of them is)."""
    if len(collapsed) != len(groups):
        raise VerifyException(
            f"invalid number of reassociation groups: found {len(groups)}, "
            f"expected {len(collapsed)}"
        )
    next_dim = 0
    for collapsed_dim, group in enumerate(groups):
        for dim in group:
            if dim != next_dim:
                raise VerifyException("reassociation indices must be contiguous")
            next_dim += 1
            if dim >= len(expanded):
                raise VerifyException(f"reassociation index {dim} is out of bounds")
        sizes = [expanded[dim] for dim in group]
        dynamic = DYNAMIC_INDEX in sizes
        if (collapsed[collapsed_dim] == DYNAMIC_INDEX) != dynamic:
            raise VerifyException(
                f"collapsed dim ({collapsed_dim}) must be dynamic if and only if "
                "reassociation group is dynamic"
            )
        if not dynamic and math.prod(sizes) != collapsed[collapsed_dim]:
            raise VerifyException(
                f"collapsed dim size ({collapsed[collapsed_dim]}) must equal "
                f"reassociation group size ({math.prod(sizes)})"
            )
    if not collapsed:
        if any(size != 1 for size in expanded):
            raise VerifyException(
                "rank 0 memrefs can only be extended/collapsed with/from ones"
            )
    elif next_dim != len(expanded):
        raise VerifyException(
            f"expanded rank ({len(expanded)}) inconsistent with number of "
            f"reassociation indices ({next_dim})"
        )


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _affine_strides_and_offset(
    layout: AffineMap,
) -> tuple[tuple[int | None, ...], int | None] | None:
    """MLIR's `getStridesAndOffset` of a non-identity affine-map layout: its one
    result a sum of terms, a dimension times a factor adding the factor to the
    dimension's stride, a constant or a symbol adding to the offset (a symbol
    in a stride or the offset makes it dynamic: None); None for a map with
    several results or a `floordiv`, `ceildiv` or `mod`."""
    if len(layout.results) != 1:
        return None
    strides: list[int | None] = [0] * layout.num_dims
    offset: int | None = 0

    def value(expr: AffineExpr) -> int | None:
        return expr.value if isinstance(expr, AffineConstantExpr) else None

    def extract(expr: AffineExpr, factor: int | None) -> bool:
        nonlocal offset
        if isinstance(expr, AffineDimExpr):
            strides[expr.position] = _add(strides[expr.position], factor)
            return True
        if not isinstance(expr, AffineBinaryOpExpr):
            offset = _add(offset, _times(value(expr), factor))
            return True
        if expr.kind == AffineBinaryOpKind.Add:
            return extract(expr.lhs, factor) and extract(expr.rhs, factor)
        if expr.kind != AffineBinaryOpKind.Mul:
            return False
        if isinstance(expr.lhs, AffineDimExpr):
            position = expr.lhs.position
            strides[position] = _add(strides[position], _times(value(expr.rhs), factor))
            return True
        if not expr.lhs.used_dims():
            return extract(expr.rhs, _times(factor, value(expr.lhs)))
        return extract(expr.lhs, _times(factor, value(expr.rhs)))

    if not extract(layout.results[0], 1):
        return None
    return tuple(strides), offset


def _layout_strides(
    type_: MemRefType,
) -> tuple[tuple[int | None, ...], int | None] | None:
    """Strides and offset of an identity, strided or affine-map layout as
    MLIR reads them; None for an affine map MLIR reads none from."""
    layout = type_.layout
    if isinstance(layout, AffineMapAttr) and not _identity_map_layout(type_):
        return _affine_strides_and_offset(layout.data)
    return _strides_and_offset(type_)


def _collapsed_layout(
    source: MemRefType, groups: Sequence[Sequence[int]]
) -> StridedLayoutAttr:
    """MLIR's `computeCollapsedLayoutMap`: each group's stride is that of its
    last dimension not of size 1 (dynamic if that size is).  Raises when a
    group is statically not contiguous (a dimension's stride is not the next
    one's times its size) or the source layout has no strides."""
    layout = _layout_strides(source)
    if layout is None:
        raise VerifyException(
            "invalid source layout map or collapsing non-contiguous dims"
        )
    strides, offset = layout
    shape = _dynamic_as_none(source.get_shape())
    result_strides: list[int | None] = []
    for group in groups:
        kept = list(group)
        while len(kept) > 1 and shape[kept[-1]] == 1:
            kept.pop()
        last = kept[-1]
        result_strides.append(
            strides[last] if shape[last] is not None or len(kept) == 1 else None
        )
    for group, stride in zip(groups, result_strides, strict=True):
        for dim in reversed(group[1:]):
            stride = _times(stride, shape[dim])
            outer = strides[dim - 1]
            if shape[dim - 1] == 1 or stride is None or outer is None:
                continue
            if stride != outer:
                raise VerifyException(
                    "invalid source layout map or collapsing non-contiguous dims"
                )
    return StridedLayoutAttr(result_strides, offset)


def _expanded_layout(
    source: MemRefType, shape: Sequence[int], groups: Sequence[Sequence[int]]
) -> StridedLayoutAttr:
    """MLIR's `computeExpandedLayoutMap`: within a group, each dimension's
    stride is the next one's times its size, the last one's the source
    dimension's stride.  Raises when the source layout has no strides."""
    layout = _layout_strides(source)
    if layout is None:
        raise VerifyException("invalid source layout map")
    strides, offset = layout
    sizes = _dynamic_as_none(shape)
    result_strides: list[int | None] = [1] * len(shape)
    for group, stride in zip(groups, strides, strict=True):
        for dim in reversed(group):
            result_strides[dim] = stride
            stride = _times(stride, sizes[dim])
    return StridedLayoutAttr(result_strides, offset)


def _compares_layouts(source: MemRefType, result: MemRefType) -> bool:
    """Whether both layouts are MLIR's (none, strided or an affine map), not
    one of memplan's (the discontiguous layout), which MLIR has no rule for."""
    return all(
        isinstance(type_.layout, NoneAttr | StridedLayoutAttr | AffineMapAttr)
        for type_ in (source, result)
    )


def _without_identity_map(type_: MemRefType) -> MemRefType:
    """`type_` as MLIR builds it: an identity affine-map layout is dropped."""
    if isinstance(type_.layout, AffineMapAttr) and _identity_map_layout(type_):
        return MemRefType(
            type_.element_type, type_.shape, NoneAttr(), type_.memory_space
        )
    return type_


def _verify_result_type(kind: str, expected: MemRefType, result: MemRefType) -> None:
    result = _without_identity_map(result)
    if expected != result:
        raise VerifyException(
            f"expected {kind} type to be {_quoted(expected)} but found "
            f"{_quoted(result)}"
        )


def _expected_layout(
    source: MemRefType,
    result: MemRefType,
    strided: Callable[[], StridedLayoutAttr],
) -> MemRefLayoutAttr | NoneAttr:
    """The result layout MLIR computes: none for an identity-layout source,
    else `strided()`; the result's own layout when memplan cannot compare."""
    if not _compares_layouts(source, result):
        return result.layout
    if _identity_map_layout(source):
        return NoneAttr()
    return strided()


class _ReassociativeReshapeOp(IRDLOperation, ABC):
    """A view of the source with groups of consecutive dimensions merged or
    split; `reassociation` lists, per collapsed dimension, the expanded
    dimensions it stands for."""

    result = result_def(MemRefType)
    reassociation = prop_def(ArrayAttr[ArrayAttr[IntegerAttr[I64]]])

    traits = traits_def(NoMemoryEffect())


@irdl_op_definition
class CollapseShapeOp(_ReassociativeReshapeOp):
    """`memref.collapse_shape` with MLIR's verifier (xDSL 0.74 has none): the
    groups cover the source dimensions in order, each result size is its
    group's product, the collapsed dimensions are not statically known to be
    non-contiguous, and the result type is exactly the one MLIR computes: the
    source's element type and memory space, no layout for an identity-layout
    source, else the strided layout of `computeCollapsedLayoutMap`.  memplan's
    discontiguous layout is not compared.

    `%f = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xf32>`"""

    name = "memref.collapse_shape"

    src = operand_def(MemRefType)

    assembly_format = (
        "$src $reassociation attr-dict `:` type($src) `into` type($result)"
    )

    def verify_(self) -> None:
        source, result = self.src.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        rank, result_rank = source.get_num_dims(), result.get_num_dims()
        if rank < result_rank:
            raise VerifyException(
                f"has source rank {rank} and result rank {result_rank}. This is "
                f"not a collapse ({rank} < {result_rank})."
            )
        groups = _groups(self.reassociation)
        _verify_collapsed_shape(result.get_shape(), source.get_shape(), groups)
        layout = _expected_layout(
            source, result, lambda: _collapsed_layout(source, groups)
        )
        _verify_result_type(
            "collapsed",
            MemRefType(source.element_type, result.shape, layout, source.memory_space),
            result,
        )


@irdl_op_definition
class ExpandShapeOp(_ReassociativeReshapeOp):
    """`memref.expand_shape` with MLIR's verifier (xDSL 0.74 has none): the
    groups cover the result dimensions in order, each source size is its
    group's product, the result type is exactly the one MLIR computes (the
    source's element type and memory space, no layout for an identity-layout
    source, else the strided layout of `computeExpandedLayoutMap`), and
    `output_shape` gives one size per result dimension, a value for each
    dynamic one and the type's size for each static one.  memplan's
    discontiguous layout is not compared.

    `%e = memref.expand_shape %f [[0, 1]] output_shape [2, 3] : memref<6xf32>
    into memref<2x3xf32>`"""

    name = "memref.expand_shape"

    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))

    assembly_format = (
        "$src $reassociation `output_shape`"
        "custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict `:`"
        "type($src) `into` type($result)"
    )

    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        source, result = self.src.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        rank, result_rank = source.get_num_dims(), result.get_num_dims()
        if rank > result_rank:
            raise VerifyException(
                f"has source rank {rank} and result rank {result_rank}. This is "
                f"not an expansion ({rank} > {result_rank})."
            )
        groups = _groups(self.reassociation)
        shape = result.get_shape()
        _verify_collapsed_shape(source.get_shape(), shape, groups)
        layout = _expected_layout(
            source, result, lambda: _expanded_layout(source, shape, groups)
        )
        _verify_result_type(
            "expanded",
            MemRefType(source.element_type, result.shape, layout, source.memory_space),
            result,
        )
        static = self.static_output_shape.get_values()
        if len(static) != result_rank:
            raise VerifyException(
                "expected number of static shape bounds to be equal to the output "
                f"rank ({result_rank}) but found {len(static)} inputs instead"
            )
        dynamic = static.count(DYNAMIC_INDEX)
        if len(self.output_shape) != dynamic:
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {dynamic} dynamic dims while output_shape "
                f"has {len(self.output_shape)} values"
            )
        if len(self.output_shape) != shape.count(DYNAMIC_INDEX):
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.output_shape)}, "
                f"expected {shape.count(DYNAMIC_INDEX)}"
            )
        for pos, (size, given) in enumerate(zip(shape, static, strict=True)):
            if size != DYNAMIC_INDEX and size != given:
                raise VerifyException(
                    f"invalid output shape provided at pos {pos}: the result type "
                    f"has size {size}, output_shape gives {_shown(_dynamic_as_none([given])[0])}"
                )


@irdl_op_definition
class ExtractStridedMetaDataOp(IRDLOperation):
    """The base buffer, offset, sizes and strides of a memref, as MLIR
    verifies it (xDSL 0.74 checks none of the result types): the base is a
    rank-0 memref of the source's element type and memory space, and there
    is one size and one stride per source dimension.

    `%base, %offset, %size, %stride = memref.extract_strided_metadata %m :
    memref<4xf32> -> memref<f32>, index, index, index`"""

    name = "memref.extract_strided_metadata"

    source = operand_def(MemRefType)
    base_buffer = result_def(MemRefType)
    offset = result_def(IndexType)
    sizes = var_result_def(IndexType)
    strides = var_result_def(IndexType)

    traits = traits_def(NoMemoryEffect())

    irdl_options = (SameVariadicResultSize(),)

    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"

    def verify_(self) -> None:
        source = self.source.type
        assert isinstance(source, MemRefType)
        expected = MemRefType(source.element_type, [], NoneAttr(), source.memory_space)
        if self.base_buffer.type != expected:
            raise VerifyException(
                f"base buffer type {self.base_buffer.type} is not {expected}: "
                "expected a rank-0 memref of the source's element type and "
                "memory space"
            )
        rank = source.get_num_dims()
        if len(self.sizes) != rank:
            raise VerifyException(
                f"expected {rank} size(s) and stride(s), one per dimension of "
                f"{source}, got {len(self.sizes)}"
            )


@irdl_op_definition
class ReallocOp(IRDLOperation):
    """A 1-D memref moved to a new allocation of another size, as C's
    `realloc`: it frees `source` and returns new memory holding its data (up
    to the smaller size)."""

    name = "memref.realloc"

    source = operand_def(MemRefType)
    dynamic_result_size = opt_operand_def(IndexType())
    alignment = opt_prop_def(IntegerAttr[I64])
    result = result_def(MemRefType)

    traits = traits_def(MemoryAllocEffect(), MemoryFreeEffect())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$source (`(` $dynamic_result_size^ `)`)? attr-dict "
        "`:` type($source) `to` type(results)"
    )

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        for what, type_ in (("source", source), ("result", result)):
            if type_.get_num_dims() != 1:
                raise VerifyException(f"expected a 1-D {what} memref, got {type_}")
            if not _identity_map_layout(type_):
                raise VerifyException(
                    f"unsupported layout for {what} memref type {type_}"
                )
        if source.memory_space != result.memory_space:
            raise VerifyException(
                "different memory spaces specified for source memref type "
                f"{source} and result memref type {result}"
            )
        if source.element_type != result.element_type:
            raise VerifyException(
                "different element types specified for source memref type "
                f"{source} and result memref type {result}"
            )
        dynamic = result.get_shape()[0] == DYNAMIC_INDEX
        if dynamic and self.dynamic_result_size is None:
            raise VerifyException(f"missing dimension operand for result type {result}")
        if not dynamic and self.dynamic_result_size is not None:
            raise VerifyException(
                f"unnecessary dimension operand for result type {result}"
            )
        _verify_alignment(self.alignment)


def _identity_map_layout(type_: MemRefType) -> bool:
    """MLIR's `getLayout().isIdentity()`: the layout's affine map is the
    identity map (no layout, an identity `affine_map`, or the rank-1
    `strided<[1]>`; `strided<[8, 1]>` is `d0 * 8 + d1`, not the identity)."""
    layout = type_.layout
    if isinstance(layout, StridedLayoutAttr):
        return (
            type_.get_num_dims() == 1
            and layout.get_offset() == 0
            and tuple(layout.get_strides()) == (1,)
        )
    if isinstance(layout, AffineMapAttr):
        return layout.data == AffineMap.identity(layout.data.num_dims)
    return isinstance(layout, NoneAttr)


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """The memory of `source` seen with the shape the values of `shape` give
    (`memref.reshape %m(%s) : (memref<?x4xf32>, memref<2xi64>) ->
    memref<?x?xf32>`): a view, as torch-mlir emits for a `view` of a tensor
    with dynamic sizes.  Source and result have the identity layout."""

    name = "memref.reshape"

    source = operand_def(_ANY_MEMREF)
    shape = operand_def(MemRefType)
    result = result_def(_ANY_MEMREF)

    # It reads `shape` (as in MLIR): two reshapes with one shape operand and a
    # store between them are not the same view.
    traits = traits_def(MemoryReadEffect())

    assembly_format = (
        "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        shape: SSAValue | Operation,
        result: MemRefType | UnrankedMemRefType,
    ):
        super().__init__(operands=[source, shape], result_types=[result])

    def verify_(self) -> None:
        source, shape, result = self.source.type, self.shape.type, self.result.type
        assert isinstance(source, MemRefType | UnrankedMemRefType)
        assert isinstance(result, MemRefType | UnrankedMemRefType)
        assert isinstance(shape, MemRefType)
        shape_element = shape.element_type
        if shape.get_num_dims() != 1 or not (
            isinstance(shape_element, IndexType)
            or (
                isinstance(shape_element, IntegerType)
                and shape_element.signedness.data == Signedness.SIGNLESS
            )
        ):
            raise VerifyException(
                "operand #1 must be 1D memref of signless integer or index "
                f"values, but got '{shape}'"
            )
        if source.element_type != result.element_type:
            raise VerifyException(
                "element types of source and destination memref types should be "
                "the same"
            )
        if source.memory_space != result.memory_space:
            raise VerifyException(
                f"expected source {source} and result {result} in one memory "
                "space: a reshape is a view of the same memory"
            )
        if isinstance(source, MemRefType) and not _identity_map_layout(source):
            raise VerifyException("source memref type should have identity affine map")
        if not isinstance(result, MemRefType):
            return
        if not _identity_map_layout(result):
            raise VerifyException("result memref type should have identity affine map")
        (length,) = shape.get_shape()
        if length == DYNAMIC_INDEX:
            raise VerifyException(
                "cannot use shape operand with dynamic length to reshape to "
                "statically-ranked memref type"
            )
        if length != result.get_num_dims():
            raise VerifyException(
                "length of shape operand differs from the result's memref rank"
            )


_FLOAT_ATOMICS = frozenset({"addf", "maximumf", "minimumf", "mulf"})
_INTEGER_ATOMICS = frozenset(
    {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}
)


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """Reads `memref[indices]`, combines it with `value` by `kind` and writes
    the result back, free of data races: a read and a write of the memref.

    `%x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<8xf32>) -> f32`"""

    name = "memref.atomic_rmw"

    T: ClassVar = VarConstraint("T", AnyFloatConstr | SignlessIntegerConstraint)

    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType())
    kind = prop_def(IntegerAttr[I64])
    result = result_def(T)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        kind: str,
        value: SSAValue | Operation,
        memref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
    ):
        super().__init__(
            operands=[value, memref, indices],
            result_types=[SSAValue.get(value).type],
            properties={"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), i64)},
        )

    def kind_name(self) -> str:
        number = self.kind.value.data
        if not 0 <= number < len(ATOMIC_RMW_KINDS):
            raise VerifyException(
                f"kind {number} is not an atomic_rmw kind: expected 0 to "
                f"{len(ATOMIC_RMW_KINDS) - 1} ({', '.join(ATOMIC_RMW_KINDS)})"
            )
        return ATOMIC_RMW_KINDS[number]

    def verify_(self) -> None:
        _verify_indices(self, self.memref, self.indices)
        kind = self.kind_name()
        value = self.value.type
        if kind in _FLOAT_ATOMICS and not isinstance(value, AnyFloat):
            raise VerifyException(
                f"with kind '{kind}' expects a floating-point type, got {value}"
            )
        if kind in _INTEGER_ATOMICS and not isinstance(value, IntegerType):
            raise VerifyException(
                f"with kind '{kind}' expects an integer type, got {value}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind_name()} ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_access(printer, self.memref, self.indices)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        at = parser.pos
        kind = parser.parse_identifier_or_str_literal(" (an atomic_rmw kind)")
        if kind not in ATOMIC_RMW_KINDS:
            parser.raise_error(
                f"unknown atomic_rmw kind {kind!r}: expected one of "
                f"{', '.join(ATOMIC_RMW_KINDS)}",
                at,
                parser.pos,
            )
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref, indices = _parse_access(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.create(
            operands=[
                parser.resolve_operand(value, value_type),
                *_resolve_access(parser, memref, indices, memref_type),
            ],
            result_types=[result_type],
            properties={"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), i64)},
            attributes=attributes,
        )
        return op


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """A hint to bring `memref[indices]` into a cache; it reads nothing the
    program sees, but the memory must be live.

    `memref.prefetch %m[%i], read, locality<3>, data : memref<8xf32>`"""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType())
    is_write = prop_def(BoolAttr, prop_name="isWrite")
    locality_hint = prop_def(IntegerAttr[I32], prop_name="localityHint")
    is_data_cache = prop_def(BoolAttr, prop_name="isDataCache")

    def verify_(self) -> None:
        _verify_indices(self, self.memref, self.indices)
        hint = self.locality_hint.value.data
        if not 0 <= hint <= 3:
            raise VerifyException(f"localityHint must be between 0 and 3, got {hint}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self.memref, self.indices)
        printer.print_string(", write" if self.is_write.value.data else ", read")
        printer.print_string(f", locality<{self.locality_hint.value.data}>")
        printer.print_string(", data" if self.is_data_cache.value.data else ", instr")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        memref, indices = _parse_access(parser)
        parser.parse_punctuation(",")
        access = _parse_choice(parser, ("read", "write"), "rw specifier")
        parser.parse_punctuation(",")
        parser.parse_keyword("locality")
        parser.parse_punctuation("<")
        hint = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(">")
        parser.parse_punctuation(",")
        cache = _parse_choice(parser, ("data", "instr"), "cache type")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = _parse_memref_type(parser)
        return cls.create(
            operands=_resolve_access(parser, memref, indices, type_),
            properties={
                "isWrite": BoolAttr.from_bool(access == "write"),
                "localityHint": IntegerAttr(hint, i32),
                "isDataCache": BoolAttr.from_bool(cache == "data"),
            },
            attributes=attributes,
        )


def _print_access(
    printer: Printer, memref: SSAValue, indices: Sequence[SSAValue]
) -> None:
    """`%m[%i, %j]`, as memref.load writes the element it reads."""
    printer.print_operand(memref)
    with printer.in_square_brackets():
        printer.print_list(indices, printer.print_operand)


def _parse_access(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    memref = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return memref, indices


def _resolve_access(
    parser: Parser,
    memref: UnresolvedOperand,
    indices: Sequence[UnresolvedOperand],
    type_: Attribute,
) -> list[SSAValue]:
    return [
        parser.resolve_operand(memref, type_),
        *(parser.resolve_operand(i, IndexType()) for i in indices),
    ]


def _parse_choice(parser: Parser, choices: tuple[str, str], what: str) -> str:
    at = parser.pos
    word = parser.parse_optional_identifier()
    if word is None or word not in choices:
        parser.raise_error(
            f"{what} has to be '{choices[0]}' or '{choices[1]}'", at, parser.pos
        )
    return word


@irdl_op_definition
class AllocaScopeOp(IRDLOperation):
    """Runs its block once; the `memref.alloca`s made in it are freed when it
    ends.  Its results are what `memref.alloca_scope.return` passes out.

    `%r = memref.alloca_scope -> (f32) { ... memref.alloca_scope.return %v : f32 }`;
    without results the return is implicit and not printed."""

    name = "memref.alloca_scope"

    res = var_result_def()
    scope = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            SingleBlockImplicitTerminator(AllocaScopeReturnOp),
            RecursiveMemoryEffect(),
        )
    )

    def verify_(self) -> None:
        if self.scope.block.args:
            raise VerifyException(
                f"expected a region without arguments, got {len(self.scope.block.args)}"
            )

    def print(self, printer: Printer) -> None:
        if self.res:
            printer.print_string(" -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.scope,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        result_types = parse_optional_arrow_types(parser)
        at = parser.pos
        region = parser.parse_region()
        if len(region.blocks) > 1:
            parser.raise_error(
                f"expected a single block in memref.alloca_scope, got "
                f"{len(region.blocks)}",
                at,
            )
        op = cls.create(
            result_types=result_types,
            regions=[region],
            attributes=parser.parse_optional_attr_dict(),
        )
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
        return op


@irdl_op_definition
class AllocaScopeReturnOp(IRDLOperation):
    """Ends a `memref.alloca_scope`, passing its operands out as the scope's results."""

    name = "memref.alloca_scope.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(AllocaScopeOp), ReturnLike())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def verify_(self) -> None:
        parent = self.parent_op()
        if isinstance(parent, AllocaScopeOp) and self.values.types != parent.res.types:
            raise VerifyException(
                f"expected the types of memref.alloca_scope's results, "
                f"({', '.join(map(str, parent.res.types))}), got "
                f"({', '.join(map(str, self.values.types))})"
            )


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

    def parse_resource(self, key: str, val: str) -> None:
        """Keep `key`'s blob once it reads as MLIR reads one (`MalformedBlob`
        if not)."""
        problem = _blob_problem(val)
        if problem is not None:
            offset, what = problem
            raise MalformedBlob(f"blob {key}: {what}", offset)
        super().parse_resource(key, val)

    def clear(self) -> None:
        """Forget every blob: what a new input file starts from."""
        self._blob_storage.clear()

    def snapshot(self) -> dict[str, str]:
        """Every blob by key, as hex text (`0x`, alignment header, data)."""
        return {key: text for key, text in self._blob_storage.items() if text}


class MalformedBlob(ValueError):
    """A blob MLIR's parser rejects; the message names its key and says what
    is wrong without quoting the blob, which may be megabytes long."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset
        """Where in the blob's text the problem is."""


_NOT_HEX = re.compile(r"[^0-9A-Fa-f]")


def _blob_problem(text: str) -> tuple[int, str] | None:
    """Where and what MLIR's parser rejects in a blob: it is `0x` and an
    even number of hex digits, whose first 4 bytes (little-endian) are the
    data's alignment, a power of two."""
    if not text.startswith("0x"):
        return 0, "expected a hex string starting with 0x"
    digits = text[2:]
    stray = _NOT_HEX.search(digits)
    if stray is not None:
        return 2 + stray.start(), f"expected a hex digit, got {stray.group()!r}"
    if len(digits) % 2:
        return len(text), (
            f"expected whole bytes, got an odd number of hex digits ({len(digits)})"
        )
    if len(digits) < 8:
        return 2, (
            "expected the data's alignment in its first 4 bytes, got "
            f"{len(digits) // 2} bytes"
        )
    alignment = int.from_bytes(bytes.fromhex(digits[:8]), "little")
    if not alignment or alignment & (alignment - 1):
        return 2, (
            "expected the data's alignment in its first 4 bytes, a power of "
            f"two, got {alignment} (0x{digits[:8]})"
        )
    return None


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
    for op in walk(module):
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
    # The parser checked the blob (`BlobStore.parse_resource`).
    return bytes.fromhex(text.removeprefix("0x"))[4:]


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
        CheckedAllocOp,
        CheckedAllocaOp,
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
        TransposeOp,
        ReallocOp,
        PrefetchOp,
        ReshapeOp,
    ],
    [],
)
"""memref for memplan: xDSL's ops with alloc, alloca, global, get_global, load,
store, copy, the casts, reinterpret_cast, extract_strided_metadata,
extract_aligned_pointer_as_index, atomic_rmw, alloca_scope, subview,
collapse_shape and expand_shape replaced, and transpose, realloc, prefetch
and reshape added."""

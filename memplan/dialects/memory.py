"""The `memory` dialect: explicit storages, tensors at byte offsets, kills.

A storage is N raw bytes in a memory scope ("global" = DDR, "global.vtcm" =
Hexagon VTCM, or any other name a target defines).  Tensors are builtin
memrefs placed at byte offsets inside storages, so every memref/linalg op can
use them; the scope is the memref's memory space (no memory space = "global").
A discontiguous tensor is a pointer table plus one fixed-size block per
leading index, as proposed for TVM Relax's `alloc_discontiguous_tensor`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    FixedBitwidthType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefLayoutAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    DynamicIndexList,
    verify_dynamic_index_list,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

GLOBAL_SCOPE = "global"
DEFAULT_ALIGNMENT = 64
"""Alignment of a storage that does not say otherwise (one cache line)."""
DEFAULT_POINTER_WIDTH = 4
"""Bytes of a pointer-table entry: Hexagon pointers are 32-bit."""
INDEX_BYTES = 8
"""Bytes of an `index` element stored in memory."""


@irdl_attr_definition
class StorageType(ParametrizedAttribute, TypeAttribute):
    """Type of a storage: raw bytes in one memory scope."""

    name = "memory.storage"

    scope: StringAttr

    def __init__(self, scope: str | StringAttr = GLOBAL_SCOPE):
        super().__init__(StringAttr(scope) if isinstance(scope, str) else scope)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation(
            "<", ' before the memory scope, as in !memory.storage<"global.vtcm">'
        )
        scope = parser.parse_str_literal(
            ' as the memory scope of !memory.storage, such as "global.vtcm"'
        )
        parser.parse_punctuation(">", " after the memory scope of !memory.storage")
        return [StringAttr(scope)]

    def verify(self) -> None:
        if not self.scope.data:
            raise VerifyException("memory scope must be a non-empty string")


@irdl_attr_definition
class DiscontiguousLayoutAttr(ParametrizedAttribute, MemRefLayoutAttr):
    """Memref layout of a discontiguous tensor: blocks found through a pointer table.

    `#memory.discontiguous` (no parameter): the leading dimension selects a
    block, the remaining dimensions are contiguous, row-major, inside it.
    `#memory.discontiguous<512>`: the elements in row-major order are cut into
    blocks of 512 (the last one partial), so any static shape keeps its type
    and its users while its bytes are scattered.  No single affine map
    describes the addresses, so none is offered.
    """

    name = "memory.discontiguous"

    block_elements: IntAttr | NoneAttr
    """Elements per block, or NoneAttr for one block per leading index."""

    def __init__(self, block_elements: int | None = None):
        super().__init__(
            NoneAttr() if block_elements is None else IntAttr(block_elements)
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return [NoneAttr()]
        elements = parser.parse_integer(
            allow_boolean=False, context_msg=" as the elements per block"
        )
        parser.parse_punctuation(">")
        return [IntAttr(elements)]

    def print_parameters(self, printer: Printer) -> None:
        if isinstance(self.block_elements, IntAttr):
            printer.print_string(f"<{self.block_elements.data}>")

    def verify(self) -> None:
        elements = self.block_elements
        if isinstance(elements, IntAttr) and elements.data <= 0:
            raise VerifyException(
                "#memory.discontiguous needs a positive number of elements per "
                f"block, got {elements.data}"
            )

    def block_shape(self, shape: Sequence[int]) -> tuple[int, int]:
        """(elements per block, number of blocks) of a static `shape`."""
        if isinstance(self.block_elements, NoneAttr):
            return prod(shape[1:]), shape[0]
        elements = self.block_elements.data
        return elements, -(-prod(shape) // elements)

    def get_affine_map(self) -> AffineMap:
        raise VerifyException(
            "a #memory.discontiguous memref has no affine layout: its blocks "
            "are reached through a pointer table"
        )


def scope_of(type_: Attribute) -> str:
    """The memory scope of a memref (ranked or unranked) or storage type
    ("global" when unset)."""
    if isinstance(type_, StorageType):
        return type_.scope.data
    if isinstance(type_, MemRefType | UnrankedMemRefType):
        space = type_.memory_space
        if isinstance(space, NoneAttr):
            return GLOBAL_SCOPE
        if isinstance(space, StringAttr):
            return space.data
        raise VerifyException(
            f"memory space {space} is not a scope: expected a string such as "
            f'"{GLOBAL_SCOPE}" or "global.vtcm"'
        )
    raise VerifyException(f"expected a memref or !memory.storage, got {type_}")


def element_bytes(element_type: Attribute) -> int:
    """Bytes one element of a memref takes in memory: its whole bytes rounded
    up to a power of two.  That is LLVM's allocation size, the step between
    elements once MLIR lowers the memref, for every integer and float up to
    64 bits (an i24 takes 4 bytes, an i40 8), and never below it beyond: a
    plan at 3 bytes an i24 would overlap neighbours after lowering."""
    if isinstance(element_type, IndexType):
        return INDEX_BYTES
    if isinstance(element_type, FixedBitwidthType):
        return 1 << max(0, (element_type.bitwidth + 7) // 8 - 1).bit_length()
    raise VerifyException(
        f"element type {element_type} is not supported: expected an integer, "
        "float or index type"
    )


def is_discontiguous(type_: Attribute) -> bool:
    return isinstance(type_, MemRefType) and isinstance(
        type_.layout, DiscontiguousLayoutAttr
    )


def static_byte_size(type_: MemRefType) -> int | None:
    """Bytes a contiguous memref occupies, or None when a dimension is dynamic."""
    if any(dim == DYNAMIC_INDEX for dim in type_.get_shape()):
        return None
    return static_part_bytes(type_)


def static_part_bytes(type_: MemRefType) -> int:
    """The element size times the static dimensions: the bytes of a
    contiguous memref per unit of the product of its dynamic sizes."""
    count = element_bytes(type_.element_type)
    for dim in type_.get_shape():
        if dim != DYNAMIC_INDEX:
            count *= dim
    return count


INDEX_MAX = 2**63 - 1
"""MLIR's index attributes are 64 bits wide; xDSL does not bound them."""


def _verify_alignment(alignment: int) -> None:
    if alignment <= 0 or alignment & (alignment - 1):
        raise VerifyException(
            f"alignment must be a positive power of two, got {alignment}"
        )
    if alignment > INDEX_MAX:
        raise VerifyException(
            f"alignment {alignment} does not fit in a 64-bit index (the largest "
            f"power of two that does is {(INDEX_MAX + 1) // 2})"
        )


def _single_static(values: DenseArrayBase[IntegerType]) -> int | None:
    (value,) = values.get_values()
    return None if value == DYNAMIC_INDEX else value


def _static_array(values: Sequence[int | SSAValue | Operation]) -> DenseArrayBase:
    return DenseArrayBase.from_list(
        i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    )


def _dynamic_values(
    values: Sequence[int | SSAValue | Operation],
) -> list[SSAValue | Operation]:
    return [v for v in values if not isinstance(v, int)]


def _verify_single_index(
    static: DenseArrayBase[IntegerType], dynamic: Sequence[SSAValue], what: str
):
    values = static.get_values()
    if len(values) != 1:
        raise VerifyException(f"expected exactly one {what}, got {len(values)}")
    verify_dynamic_index_list(values, dynamic, DYNAMIC_INDEX, f" in the {what}")


def _verify_memory_space(type_: MemRefType, what: str) -> str:
    try:
        return scope_of(type_)
    except VerifyException as error:
        raise VerifyException(f"{what}: {error}") from None


@irdl_op_definition
class AllocStorageOp(IRDLOperation):
    """Reserve `size` bytes in a memory scope (TVM `R.vm.alloc_storage`)."""

    name = "memory.alloc_storage"

    dynamic_size = var_operand_def(IndexType)
    static_size = prop_def(DenseArrayBase.constr(i64))
    alignment = prop_def(
        IntegerAttr[IndexType],
        default_value=IntegerAttr(DEFAULT_ALIGNMENT, IndexType()),
    )
    device = prop_def(IntegerAttr[IndexType], default_value=IntegerAttr(0, IndexType()))
    result = result_def(StorageType)

    assembly_format = (
        "custom<DynamicIndexList>($dynamic_size, $static_size) "
        "(`align` $alignment^)? (`device` $device^)? attr-dict `:` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        size: int | SSAValue | Operation,
        scope: str = GLOBAL_SCOPE,
        alignment: int = DEFAULT_ALIGNMENT,
        device: int = 0,
    ):
        super().__init__(
            operands=[_dynamic_values([size])],
            properties={
                "static_size": _static_array([size]),
                "alignment": IntegerAttr(alignment, IndexType()),
                "device": IntegerAttr(device, IndexType()),
            },
            result_types=[StorageType(scope)],
        )

    @property
    def scope(self) -> str:
        return scope_of(self.result.type)

    def static_size_bytes(self) -> int | None:
        """The size in bytes when it is a constant, else None."""
        return _single_static(self.static_size)

    def verify_(self) -> None:
        _verify_single_index(self.static_size, self.dynamic_size, "size")
        size = self.static_size_bytes()
        if size is not None and size < 0:
            raise VerifyException(f"storage size must be non-negative, got {size}")
        _verify_alignment(self.alignment.value.data)
        device = self.device.value.data
        if device < 0:
            raise VerifyException(f"device index must be non-negative, got {device}")
        if device > INDEX_MAX:
            raise VerifyException(
                f"device index {device} does not fit in a 64-bit index "
                f"(at most {INDEX_MAX})"
            )


def _storage_size(storage: SSAValue) -> int | None:
    owner = storage.owner
    if isinstance(owner, AllocStorageOp):
        return owner.static_size_bytes()
    return None


@irdl_op_definition
class AllocTensorOp(IRDLOperation):
    """A contiguous tensor at a byte offset inside a storage (TVM `R.vm.alloc_tensor`).

    Dynamic dimensions of the result take their sizes from `dynamic_sizes`,
    in order, as in `memref.view`.  `alignment`, when given, is an address
    alignment the tensor was asked for (`memref.alloc {alignment}`): passes
    that move the tensor keep its address a multiple of it.
    """

    name = "memory.alloc_tensor"

    storage = operand_def(StorageType)
    dynamic_offset = var_operand_def(IndexType)
    static_offset = prop_def(DenseArrayBase.constr(i64))
    dynamic_sizes = var_operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$storage `` custom<DynamicIndexList>($dynamic_offset, $static_offset) "
        "(`` `[` $dynamic_sizes^ `]`)? (`align` $alignment^)? attr-dict "
        "`:` type($storage) `to` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        storage: SSAValue | Operation,
        offset: int | SSAValue | Operation,
        result_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
        alignment: int | None = None,
    ):
        properties: dict[str, Attribute] = {"static_offset": _static_array([offset])}
        if alignment is not None:
            properties["alignment"] = IntegerAttr(alignment, IndexType())
        super().__init__(
            operands=[storage, _dynamic_values([offset]), dynamic_sizes],
            properties=properties,
            result_types=[result_type],
        )

    def static_offset_bytes(self) -> int | None:
        """The byte offset when it is a constant, else None."""
        return _single_static(self.static_offset)

    def requested_alignment(self) -> int | None:
        """The address alignment the tensor was asked for, if any."""
        return None if self.alignment is None else self.alignment.value.data

    def verify_(self) -> None:
        _verify_single_index(self.static_offset, self.dynamic_offset, "offset")
        result_type = self.result.type
        assert isinstance(result_type, MemRefType)
        storage_scope = scope_of(self.storage.type)
        tensor_scope = _verify_memory_space(result_type, "result type")
        if tensor_scope != storage_scope:
            raise VerifyException(
                f'result memory space "{tensor_scope}" does not match the storage '
                f'scope "{storage_scope}"'
            )
        if not isinstance(result_type.layout, NoneAttr):
            raise VerifyException(
                f"result must have the identity layout, got {result_type.layout}; "
                "use memory.alloc_discontiguous_tensor for discontiguous tensors"
            )
        dynamic_dims = sum(1 for d in result_type.get_shape() if d == DYNAMIC_INDEX)
        if dynamic_dims != len(self.dynamic_sizes):
            raise VerifyException(
                f"expected {dynamic_dims} dynamic size operand(s) for the "
                f"{dynamic_dims} dynamic dimension(s) of the result, got "
                f"{len(self.dynamic_sizes)}"
            )
        elem = element_bytes(result_type.element_type)
        offset = self.static_offset_bytes()
        self._verify_requested_alignment(offset)
        if offset is None:
            return
        if offset < 0:
            raise VerifyException(f"offset must be non-negative, got {offset}")
        if offset % elem:
            raise VerifyException(
                f"offset {offset} is not aligned to the element size: expected a "
                f"multiple of {elem} bytes"
            )
        size = _storage_size(self.storage)
        tensor_bytes = static_byte_size(result_type)
        if (
            size is not None
            and tensor_bytes is not None
            and offset + tensor_bytes > size
        ):
            raise VerifyException(
                f"tensor of {tensor_bytes} bytes at offset {offset} ends at byte "
                f"{offset + tensor_bytes}, past the end of its {size}-byte storage"
            )

    def _verify_requested_alignment(self, offset: int | None) -> None:
        requested = self.requested_alignment()
        if requested is None:
            return
        _verify_alignment(requested)
        if offset is None or offset < 0:
            return
        storage = self.storage.owner
        base = (
            storage.alignment.value.data
            if isinstance(storage, AllocStorageOp)
            else requested
        )
        reached = base if offset == 0 else min(base, offset & -offset)
        if reached < requested:
            raise VerifyException(
                f"offset {offset} in a storage aligned to {base} bytes gives a "
                f"{reached}-byte aligned address: expected a multiple of "
                f"{requested} bytes (the tensor's alignment)"
            )


@irdl_op_definition
class AllocDiscontiguousTensorOp(IRDLOperation):
    """A tensor made of fixed-size blocks reached through a pointer table.

    The layout says how elements fall into blocks (`DiscontiguousLayoutAttr`):
    block i holds the i-th run of elements in row-major order at
    `block_offsets[i]` in the data storage; entry i of the pointer table (at
    `table_offset` in the table storage, `pointer_width` bytes each) holds
    that block's address.
    """

    name = "memory.alloc_discontiguous_tensor"

    table_storage = operand_def(StorageType)
    dynamic_table_offset = var_operand_def(IndexType)
    static_table_offset = prop_def(DenseArrayBase.constr(i64))
    data_storage = operand_def(StorageType)
    dynamic_block_offsets = var_operand_def(IndexType)
    static_block_offsets = prop_def(DenseArrayBase.constr(i64))
    pointer_width = prop_def(
        IntegerAttr[IndexType],
        default_value=IntegerAttr(DEFAULT_POINTER_WIDTH, IndexType()),
    )
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "`table` $table_storage `` "
        "custom<DynamicIndexList>($dynamic_table_offset, $static_table_offset) `,` "
        "`blocks` $data_storage `` "
        "custom<DynamicIndexList>($dynamic_block_offsets, $static_block_offsets) "
        "(`pointer_width` $pointer_width^)? attr-dict "
        "`:` type($table_storage) `,` type($data_storage) `to` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        table_storage: SSAValue | Operation,
        table_offset: int | SSAValue | Operation,
        data_storage: SSAValue | Operation,
        block_offsets: Sequence[int | SSAValue | Operation],
        result_type: MemRefType,
        pointer_width: int = DEFAULT_POINTER_WIDTH,
    ):
        super().__init__(
            operands=[
                table_storage,
                _dynamic_values([table_offset]),
                data_storage,
                _dynamic_values(block_offsets),
            ],
            properties={
                "static_table_offset": _static_array([table_offset]),
                "static_block_offsets": _static_array(block_offsets),
                "pointer_width": IntegerAttr(pointer_width, IndexType()),
            },
            result_types=[result_type],
        )

    def static_table_offset_bytes(self) -> int | None:
        return _single_static(self.static_table_offset)

    def layout(self) -> DiscontiguousLayoutAttr:
        """The result's layout (the verifier checks it is discontiguous)."""
        result_type = self.result.type
        assert isinstance(result_type, MemRefType)
        assert isinstance(result_type.layout, DiscontiguousLayoutAttr)
        return result_type.layout

    def block_sizes(self) -> list[int]:
        """Bytes of each block, in order: all equal but a partial last one."""
        result_type = self.result.type
        assert isinstance(result_type, MemRefType)
        shape = result_type.get_shape()
        elements, count = self.layout().block_shape(shape)
        elem = element_bytes(result_type.element_type)
        sizes = [elements * elem] * count
        if count:
            sizes[-1] = (prod(shape) - (count - 1) * elements) * elem
        return sizes

    def verify_(self) -> None:
        _verify_single_index(
            self.static_table_offset, self.dynamic_table_offset, "table offset"
        )
        blocks = self.static_block_offsets.get_values()
        verify_dynamic_index_list(
            blocks, self.dynamic_block_offsets, DYNAMIC_INDEX, " in the block offsets"
        )
        result_type = self.result.type
        assert isinstance(result_type, MemRefType)
        layout = result_type.layout
        if not isinstance(layout, DiscontiguousLayoutAttr):
            got = "no layout" if isinstance(layout, NoneAttr) else str(layout)
            raise VerifyException(
                f"result must have the #memory.discontiguous layout, got {got}"
            )
        data_scope = scope_of(self.data_storage.type)
        tensor_scope = _verify_memory_space(result_type, "result type")
        if tensor_scope != data_scope:
            raise VerifyException(
                f'result memory space "{tensor_scope}" does not match the data '
                f'storage scope "{data_scope}"'
            )
        shape = result_type.get_shape()
        if any(d == DYNAMIC_INDEX for d in shape):
            raise VerifyException(f"result must have a static shape, got {result_type}")
        per_index = isinstance(layout.block_elements, NoneAttr)
        if per_index and len(shape) < 2:
            raise VerifyException(
                f"result must have a static shape of rank 2 or more (blocks x "
                f"elements per block), got {result_type}; give the block size "
                "(#memory.discontiguous<N>) to cut any shape into blocks"
            )
        _, count = layout.block_shape(shape)
        if len(blocks) != count:
            which = (
                "one per index of dimension 0"
                if per_index
                else f"{prod(shape)} elements in blocks of "
                f"{layout.block_shape(shape)[0]}"
            )
            raise VerifyException(
                f"expected {count} block offsets ({which}), got {len(blocks)}"
            )
        width = self.pointer_width.value.data
        if width not in (4, 8):
            raise VerifyException(f"pointer width must be 4 or 8 bytes, got {width}")
        self._verify_table(count, width)
        self._verify_blocks(blocks)

    def _verify_table(self, num_blocks: int, width: int) -> None:
        offset = self.static_table_offset_bytes()
        if offset is None:
            return
        if offset < 0 or offset % width:
            raise VerifyException(
                f"table offset {offset} must be a non-negative multiple of the "
                f"pointer width {width}"
            )
        size = _storage_size(self.table_storage)
        end = offset + num_blocks * width
        if size is not None and end > size:
            raise VerifyException(
                f"pointer table of {num_blocks} x {width} bytes at offset {offset} "
                f"ends at byte {end}, past the end of its {size}-byte storage"
            )

    def _verify_blocks(self, blocks: Sequence[int]) -> None:
        result_type = self.result.type
        assert isinstance(result_type, MemRefType)
        elem = element_bytes(result_type.element_type)
        size = _storage_size(self.data_storage)
        placed: list[tuple[int, int, int]] = []
        for index, (offset, block_bytes) in enumerate(
            zip(blocks, self.block_sizes(), strict=True)
        ):
            if offset == DYNAMIC_INDEX:
                continue
            if offset < 0 or offset % elem:
                raise VerifyException(
                    f"block {index} offset {offset} must be a non-negative multiple "
                    f"of the element size {elem}"
                )
            if size is not None and offset + block_bytes > size:
                raise VerifyException(
                    f"block {index} of {block_bytes} bytes at offset {offset} ends at "
                    f"byte {offset + block_bytes}, past the end of its {size}-byte "
                    "storage"
                )
            placed.append((offset, offset + block_bytes, index))
        placed.sort()
        for (first, first_end, i), (second, _, j) in pairwise(placed):
            if first_end > second:
                raise VerifyException(
                    f"blocks {i} and {j} overlap: block {i} covers bytes "
                    f"[{first}, {first_end}) and block {j} starts at {second}"
                )


@irdl_op_definition
class KillOp(IRDLOperation):
    """End the life of a tensor or a storage (TVM `R.vm.kill_object`).

    Killing a storage frees its bytes and ends its tensors. No later op may use
    a killed value; that is a data-flow property, so `memory-verify` checks it
    statically (in one walk per block) and `memplan-run` at run time, rather
    than a per-op verifier that would compare op positions pairwise.
    """

    name = "memory.kill"

    value = operand_def(base(MemRefType) | base(StorageType))

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


@irdl_op_definition
class CopyOp(IRDLOperation):
    """Copy a tensor into another of the same shape and element type
    (TVM `R.vm.copy_tensor`); scopes and layouts may differ."""

    name = "memory.copy"

    source = operand_def(MemRefType)
    target = operand_def(MemRefType)

    assembly_format = (
        "$source `,` $target attr-dict `:` type($source) `to` type($target)"
    )

    def __init__(self, source: SSAValue | Operation, target: SSAValue | Operation):
        super().__init__(operands=[source, target])

    def verify_(self) -> None:
        source, target = self.source.type, self.target.type
        assert isinstance(source, MemRefType) and isinstance(target, MemRefType)
        if source.get_shape() != target.get_shape():
            raise VerifyException(
                f"source shape {list(source.get_shape())} does not match target "
                f"shape {list(target.get_shape())}: a copy needs equal shapes"
            )
        if source.element_type != target.element_type:
            raise VerifyException(
                f"source element type {source.element_type} does not match target "
                f"element type {target.element_type}"
            )


Memory = Dialect(
    "memory",
    [AllocStorageOp, AllocTensorOp, AllocDiscontiguousTensorOp, KillOp, CopyOp],
    [StorageType, DiscontiguousLayoutAttr],
)

"""A planned `.mlir` module as a packing trace, so `memplan plot` can draw it.

Each static `memory.alloc_tensor` of one function and scope becomes a buffer:
its live range from the liveness analysis `memory-plan` uses, its offset from
the op; a discontiguous tensor becomes a buffer per block and one for its
pointer table (in the table's scope), so the picture counts every live byte.
What has no static place (a dynamic offset or storage size) is named, not
drawn.  When the function has several storages in the scope, the picture
packs them like buffers: each lives from its allocation to its kill (to the
function's end without one, as in memplan-run), and `greedy` (with the storage's alignment)
gives it a base address, so storages never alive together may share
addresses and the height is a real packing of the scope.  Those bases are
the picture's, not the run's: memplan-run places storages in its own window.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import memplan_context
from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocStorageOp,
    AllocTensorOp,
    scope_of,
    static_byte_size,
)
from memplan.ir_walk import walk
from memplan.parser import (
    MemplanParser,
    at_op_being_parsed,
    out_of_memory,
    parse_error_text,
    too_deep,
)
from memplan.passes.call_aliases import CallAliases
from memplan.passes.diagnostics import printed_names
from memplan.passes.liveness import FunctionLiveness
from memplan.planning import Buffer, BufferId, plan
from memplan.text import NotText, decode_text


class ModuleTraceError(Exception):
    """The module cannot be read or holds nothing to draw."""


@dataclass(frozen=True)
class ModuleTrace:
    buffers: list[Buffer]
    offsets: dict[BufferId, int]
    title: str
    left_out: list[str]
    """Tensors, blocks and pointer tables of the scope not drawn: at a dynamic
    offset or in a storage of dynamic size."""


def read_module(path: Path) -> ModuleOp:
    try:
        text = decode_text(path.read_bytes())
    except OSError as error:
        raise ModuleTraceError(f"cannot read {path}: {error.strerror}") from None
    except NotText as error:
        raise ModuleTraceError(f"cannot read {path}: {error}") from None
    try:
        module = MemplanParser(memplan_context(), text, str(path)).parse_module()
        module.verify()
    except ParseError as error:
        raise ModuleTraceError(parse_error_text(error).strip()) from None
    except VerifyException as error:
        raise ModuleTraceError(f"{path}: {error}") from None
    except RecursionError:
        raise ModuleTraceError(too_deep(str(path))) from None
    except MemoryError:
        raise ModuleTraceError(out_of_memory(str(path))) from None
    except ValueError as error:
        # An op's own parser (`'sideways' is not a valid IteratorType`).
        raise ModuleTraceError(at_op_being_parsed(error, str(error)).strip()) from None
    return module


@dataclass(frozen=True)
class _Box:
    """What one box draws: a tensor, one block of a discontiguous tensor, or
    its pointer table, at a static offset of a static storage."""

    name: str
    allocation: Operation
    """The op whose tensor's live range the box has."""
    storage: AllocStorageOp
    offset: int
    size: int


def _static_storage(value: SSAValue) -> AllocStorageOp | None:
    storage = value.owner
    if isinstance(storage, AllocStorageOp) and storage.static_size_bytes() is not None:
        return storage
    return None


Found = tuple[list[_Box], list[tuple[str, str]]]
"""The boxes of an allocation, and (scope, name) of what of it has no box."""


def _tensor_boxes(tensor: AllocTensorOp, name: str) -> Found:
    storage = _static_storage(tensor.storage)
    offset = tensor.static_offset_bytes()
    result_type = tensor.result.type
    assert isinstance(result_type, MemRefType)
    size = static_byte_size(result_type)
    if storage is None or offset is None or size is None:
        return [], [(scope_of(result_type), name)]
    return [_Box(name, tensor, storage, offset, size)], []


def _discontiguous_boxes(tensor: AllocDiscontiguousTensorOp, name: str) -> Found:
    """A box per block at a static offset, and one for the pointer table."""
    boxes: list[_Box] = []
    missing: list[tuple[str, str]] = []
    storage = _static_storage(tensor.data_storage)
    offsets = tensor.static_block_offsets.get_values()
    for index, (offset, size) in enumerate(
        zip(offsets, tensor.block_sizes(), strict=True)
    ):
        block = f"{name}[{index}]"
        if storage is None or offset == DYNAMIC_INDEX:
            missing.append((scope_of(tensor.data_storage.type), block))
        else:
            boxes.append(_Box(block, tensor, storage, offset, size))
    table = _static_storage(tensor.table_storage)
    offset = tensor.static_table_offset_bytes()
    if table is None or offset is None:
        missing.append((scope_of(tensor.table_storage.type), f"{name} table"))
    else:
        size = len(offsets) * tensor.pointer_width.value.data
        boxes.append(_Box(f"{name} table", tensor, table, offset, size))
    return boxes, missing


@dataclass(frozen=True)
class _Drawable:
    boxes: list[_Box]
    left_out: dict[str, list[str]]
    """Per scope, the tensors, blocks and tables not at a static offset of a
    static storage: the picture cannot place them."""


def _drawable(function: func.FuncOp, names: dict[SSAValue, str]) -> _Drawable:
    boxes: list[_Box] = []
    left_out: dict[str, list[str]] = {}
    for op in walk(function):
        if not isinstance(op, AllocTensorOp | AllocDiscontiguousTensorOp):
            continue
        name = names[op.result]
        if isinstance(op, AllocTensorOp):
            found, missing = _tensor_boxes(op, name)
        else:
            found, missing = _discontiguous_boxes(op, name)
        boxes += found
        for scope, what in missing:
            left_out.setdefault(scope, []).append(what)
    return _Drawable(boxes, left_out)


def _boxes_by_storage(
    drawable: _Drawable, scope: str
) -> dict[AllocStorageOp, list[_Box]]:
    placed: dict[AllocStorageOp, list[_Box]] = {}
    for box in drawable.boxes:
        if box.storage.scope == scope:
            placed.setdefault(box.storage, []).append(box)
    return placed


def module_trace(
    module: ModuleOp, scope: str, function_name: str | None
) -> ModuleTrace:
    """The buffers of `scope` in the named function (default: the first with any)."""
    functions = [op for op in walk(module) if isinstance(op, func.FuncOp)]
    if function_name is not None:
        functions = [f for f in functions if f.sym_name.data == function_name]
        if not functions:
            raise ModuleTraceError(f"argument --function: no function @{function_name}")
    names = printed_names(module)
    drawables = [_drawable(function, names) for function in functions]
    for function, drawable in zip(functions, drawables, strict=True):
        placed = _boxes_by_storage(drawable, scope)
        if placed:
            liveness = FunctionLiveness(function, CallAliases(module).forward)
            return _trace_of(liveness, scope, placed, drawable.left_out.get(scope, []))
    where = f"@{function_name}" if function_name else "any function"
    scopes = sorted({box.storage.scope for d in drawables for box in d.boxes})
    others = (
        "expected one of the scopes that have some: "
        + ", ".join(f'"{other}"' for other in scopes)
        if scopes
        else "no scope has any (run memory-manifest and memory-plan first)"
    )
    raise ModuleTraceError(
        f'no tensor at a static offset of a static storage in scope "{scope}" '
        f"in {where}; {others}"
    )


def _storage_range(
    liveness: FunctionLiveness, storage: AllocStorageOp
) -> tuple[int, int]:
    """[start, upper) of a storage's bytes: from its op to its last use or kill,
    or to the function's end without a kill (memplan-run never frees it)."""
    live = liveness.range_of(storage)
    if not live.ends:
        return live.start, liveness.last_point + 1
    return live.start, max(live.upper, *(liveness.end[op] + 1 for op in live.ends))


def _trace_of(
    liveness: FunctionLiveness,
    scope: str,
    placed: dict[AllocStorageOp, list[_Box]],
    left_out: list[str],
) -> ModuleTrace:
    buffers: list[Buffer] = []
    inside: list[tuple[int, int]] = []  # (storage index, offset in it) per buffer
    storages: list[Buffer] = []
    names: set[BufferId] = set()
    for index, (storage, boxes) in enumerate(placed.items()):
        for box in boxes:
            live = liveness.range_of(box.allocation)
            name = box.name
            if name in names:
                name = f"{name}#{len(buffers)}"
            names.add(name)
            buffers.append(Buffer(name, live.start, live.upper, box.size))
            inside.append((index, box.offset))
        size = storage.static_size_bytes()
        assert size is not None
        start, upper = _storage_range(liveness, storage)
        storages.append(Buffer(index, start, upper, size, storage.alignment.value.data))
    bases = plan(storages, algorithm="greedy").offsets
    offsets: dict[BufferId, int] = {
        b.id: bases[index] + offset
        for b, (index, offset) in zip(buffers, inside, strict=True)
    }
    count = len(storages)
    total = sum(b.size for b in storages)
    title = f'@{liveness.function.sym_name.data}, "{scope}", {count} storage{"s" if count > 1 else ""} of {total} bytes'
    return ModuleTrace(buffers, offsets, title, left_out)

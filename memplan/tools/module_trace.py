"""A planned `.mlir` module as a packing trace, so `memplan plot` can draw it.

Each static `memory.alloc_tensor` of one function and scope becomes a buffer:
its live range from the liveness analysis `memory-plan` uses, its offset from
the op.  When the function has several storages in the scope, the picture
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
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp, static_byte_size
from memplan.parser import MemplanParser
from memplan.passes.liveness import FunctionLiveness
from memplan.planning import Buffer, BufferId, plan


class ModuleTraceError(Exception):
    """The module cannot be read or holds nothing to draw."""


@dataclass(frozen=True)
class ModuleTrace:
    buffers: list[Buffer]
    offsets: dict[BufferId, int]
    title: str


def read_module(path: Path) -> ModuleOp:
    try:
        text = path.read_text()
    except OSError as error:
        raise ModuleTraceError(f"cannot read {path}: {error.strerror}") from None
    try:
        module = MemplanParser(memplan_context(), text, str(path)).parse_module()
        module.verify()
    except ParseError as error:
        raise ModuleTraceError(str(error).strip()) from None
    except VerifyException as error:
        raise ModuleTraceError(f"{path}: {error}") from None
    return module


def _drawable_tensors(
    function: func.FuncOp,
) -> list[tuple[AllocStorageOp, AllocTensorOp]]:
    """Static tensors at static offsets of static storages, with their storage."""
    found: list[tuple[AllocStorageOp, AllocTensorOp]] = []
    for op in function.walk():
        if not isinstance(op, AllocTensorOp) or op.static_offset_bytes() is None:
            continue
        storage = op.storage.owner
        if (
            isinstance(storage, AllocStorageOp)
            and storage.static_size_bytes() is not None
            and isinstance(op.result.type, MemRefType)
            and static_byte_size(op.result.type) is not None
        ):
            found.append((storage, op))
    return found


def _tensors_by_storage(
    function: func.FuncOp, scope: str
) -> dict[AllocStorageOp, list[AllocTensorOp]]:
    placed: dict[AllocStorageOp, list[AllocTensorOp]] = {}
    for storage, tensor in _drawable_tensors(function):
        if storage.scope == scope:
            placed.setdefault(storage, []).append(tensor)
    return placed


def module_trace(
    module: ModuleOp, scope: str, function_name: str | None
) -> ModuleTrace:
    """The buffers of `scope` in the named function (default: the first with any)."""
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    if function_name is not None:
        functions = [f for f in functions if f.sym_name.data == function_name]
        if not functions:
            raise ModuleTraceError(f"argument --function: no function @{function_name}")
    for function in functions:
        placed = _tensors_by_storage(function, scope)
        if placed:
            return _trace_of(function, scope, placed)
    where = f"@{function_name}" if function_name else "any function"
    scopes = sorted(
        {storage.scope for f in functions for storage, _ in _drawable_tensors(f)}
    )
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
    function: func.FuncOp, scope: str, placed: dict[AllocStorageOp, list[AllocTensorOp]]
) -> ModuleTrace:
    liveness = FunctionLiveness(function)
    buffers: list[Buffer] = []
    inside: list[tuple[int, int]] = []  # (storage index, offset in it) per buffer
    storages: list[Buffer] = []
    names: set[BufferId] = set()
    for index, (storage, tensors) in enumerate(placed.items()):
        for tensor in tensors:
            live = liveness.range_of(tensor)
            result_type = tensor.result.type
            assert isinstance(result_type, MemRefType)
            size = static_byte_size(result_type)
            assert size is not None
            name = f"%{tensor.result.name_hint or len(buffers)}"
            if name in names:
                name = f"{name}#{len(buffers)}"
            names.add(name)
            buffers.append(Buffer(name, live.start, live.upper, size))
            offset = tensor.static_offset_bytes()
            assert offset is not None
            inside.append((index, offset))
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
    title = f'@{function.sym_name.data}, "{scope}", {count} storage{"s" if count > 1 else ""} of {total} bytes'
    return ModuleTrace(buffers, offsets, title)
